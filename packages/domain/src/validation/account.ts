import { GENDERS } from '../users.js';
import {
  MAX_LENGTHS,
  addErrors,
  checkText,
  validationMessages,
  type FieldErrors,
} from './fields.js';
import { checkNewPassword, type PasswordContext } from './passwords.js';

export interface ProfileInput {
  first_name?: string;
  last_name?: string;
  institution?: string;
  gender?: string | null;
  phone_number?: string;
}

/** Name, institution, gender and phone: required on registration and on the account (spec section 5). */
export function validateProfile(
  input: ProfileInput,
  errors: FieldErrors = {},
  genderField = 'gender',
): FieldErrors {
  addErrors(
    errors,
    'first_name',
    checkText(input.first_name, { required: true, max: MAX_LENGTHS.firstName, restricted: true }),
  );
  addErrors(
    errors,
    'last_name',
    checkText(input.last_name, { required: true, max: MAX_LENGTHS.lastName, restricted: true }),
  );
  addErrors(
    errors,
    'institution',
    checkText(input.institution, {
      required: true,
      max: MAX_LENGTHS.institution,
      restricted: true,
    }),
  );
  addErrors(
    errors,
    'phone_number',
    checkText(input.phone_number, {
      required: true,
      max: MAX_LENGTHS.phone,
      restricted: true,
      phone: true,
    }),
  );
  if (!input.gender) addErrors(errors, genderField, [validationMessages.required]);
  else if (!(GENDERS as readonly string[]).includes(input.gender))
    addErrors(errors, genderField, [validationMessages.gender]);
  return errors;
}

export const checkEmail = (email: string | undefined) =>
  checkText(email, { required: true, max: MAX_LENGTHS.email, restricted: true, email: true });

export const checkUsername = (username: string | undefined) =>
  checkText(username, { required: true, max: MAX_LENGTHS.username, restricted: true });

export interface RegistrationInput extends ProfileInput {
  username?: string;
  email?: string;
  password1?: string;
  password2?: string;
  is_student?: boolean;
  captcha?: string;
}

/** Every rule of the registration form (spec section 5, Registration), on both sides. */
export function validateRegistration(
  input: RegistrationInput,
  passwordContext: Omit<PasswordContext, 'username'> = {},
): FieldErrors {
  const errors: FieldErrors = {};
  addErrors(errors, 'username', checkUsername(input.username));
  addErrors(errors, 'email', checkEmail(input.email));
  validateProfile(input, errors);
  addErrors(
    errors,
    'password1',
    checkNewPassword(input.password1 ?? '', { ...passwordContext, username: input.username }),
  );
  addErrors(errors, 'password2', checkPasswordConfirmation(input.password1, input.password2));
  if (!input.captcha) addErrors(errors, 'captcha', [validationMessages.required]);
  return errors;
}

/** The second password field: required, and equal to the first. */
export function checkPasswordConfirmation(
  password1: string | undefined,
  password2: string | undefined,
): string[] {
  if (!password2) return [validationMessages.required];
  if (password2.length > MAX_LENGTHS.password)
    return [validationMessages.maxLength(MAX_LENGTHS.password)];
  if (password1 !== password2) return [validationMessages.passwordMismatch];
  return [];
}

export interface PasswordChangeInput {
  oldPassword?: string;
  newPassword1?: string;
  newPassword2?: string;
}

/** The change-password form (spec section 5): all three required, at most 1000 each. */
export function validatePasswordChange(
  input: PasswordChangeInput,
  passwordContext: PasswordContext = {},
): FieldErrors {
  const errors: FieldErrors = {};
  addErrors(
    errors,
    'oldPassword',
    checkText(input.oldPassword, { required: true, max: MAX_LENGTHS.password }),
  );
  addErrors(errors, 'newPassword1', checkNewPassword(input.newPassword1 ?? '', passwordContext));
  addErrors(
    errors,
    'newPassword2',
    checkPasswordConfirmation(input.newPassword1, input.newPassword2),
  );
  return errors;
}

/** The set-a-new-password form after a reset link. */
export function validatePasswordReset(
  input: { newPassword1?: string; newPassword2?: string },
  passwordContext: PasswordContext = {},
): FieldErrors {
  const errors: FieldErrors = {};
  addErrors(errors, 'newPassword1', checkNewPassword(input.newPassword1 ?? '', passwordContext));
  addErrors(
    errors,
    'newPassword2',
    checkPasswordConfirmation(input.newPassword1, input.newPassword2),
  );
  return errors;
}

export interface CompletionInput {
  institution?: string;
  gender_choice?: string | null;
  phone_number?: string;
}

/** The complete-registration form of federated users: institution, gender and phone (spec section 2). */
export function validateRegistrationCompletion(input: CompletionInput): FieldErrors {
  const errors: FieldErrors = {};
  addErrors(
    errors,
    'institution',
    checkText(input.institution, {
      required: true,
      max: MAX_LENGTHS.institution,
      restricted: true,
    }),
  );
  addErrors(
    errors,
    'phone_number',
    checkText(input.phone_number, {
      required: true,
      max: MAX_LENGTHS.phone,
      restricted: true,
      phone: true,
    }),
  );
  if (!input.gender_choice) addErrors(errors, 'gender_choice', [validationMessages.required]);
  else if (!(GENDERS as readonly string[]).includes(input.gender_choice))
    addErrors(errors, 'gender_choice', [validationMessages.gender]);
  return errors;
}
