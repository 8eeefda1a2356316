import { GENDER_LABELS, GENDERS, MIN_PASSWORD_LENGTH } from '@merit/domain';

/** The gender choices with the spec's labels (spec section 5, Account). */
export const GENDER_OPTIONS = GENDERS.map((value) => ({ value, label: GENDER_LABELS[value] }));

/** The labels of the profile's fields, shared by registration, completion and the account. */
export const PROFILE_LABELS = {
  username: 'Username',
  email: 'Email',
  first_name: 'First name',
  last_name: 'Last name',
  institution: 'Institution',
  gender: 'Gender',
  gender_choice: 'Gender',
  phone_number: 'Phone number',
  is_student: 'I am a student',
} as const;

export const PHONE_HINT = 'Digits, optionally starting with +, separated by spaces or hyphens.';

export const PASSWORD_HINT = `At least ${MIN_PASSWORD_LENGTH} characters, not all digits, and not too like your username.`;
