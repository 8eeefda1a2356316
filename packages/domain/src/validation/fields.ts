/** Field-keyed error messages, the shape of `fields` in the error envelope. */
export type FieldErrors = Record<string, string[]>;

/**
 * The shortest password a user may set (OWASP ASVS V2.1.1). The spec sets only a maximum
 * (1000); 12 is the product's choice. Login checks no length, so accounts whose password
 * predates the rule still log in.
 */
export const MIN_PASSWORD_LENGTH = 12;

/** Maximum lengths of spec section 5. */
export const MAX_LENGTHS = {
  username: 150,
  password: 1000,
  firstName: 30,
  lastName: 30,
  email: 254,
  institution: 100,
  phone: 30,
  callName: 255,
  dateText: 200,
  proposalTypeName: 50,
  extensionReason: 200,
  collaboratorHash: 10,
  proposalName: 100,
  committeeName: 100,
  formName: 200,
  formVersion: 20,
  roleDates: 200,
} as const;

/**
 * Characters that names, usernames, emails, institutions and phone numbers may not
 * contain (spec section 5, Text fields).
 */
export const RESTRICTED_CHARACTERS = [
  '\\',
  ',',
  ':',
  '?',
  '|',
  '*',
  '&',
  ';',
  '#',
  '<',
  '>',
  '"',
  '=',
  '[',
  ']',
  '{',
  '}',
  '(',
  ')',
] as const;

export const validationMessages = {
  required: 'This field is required.',
  email: 'Please enter a valid email address.',
  phone: 'Please enter a valid phone number.',
  restricted: `These are restricted characters for this field: ${RESTRICTED_CHARACTERS.join(' ')}`,
  maxLength: (max: number) => `Ensure this field has no more than ${max} characters.`,
  gender: 'Please choose Male, Female or Other/Prefer not to say.',
  passwordTooShort: `This password is too short. It must contain at least ${MIN_PASSWORD_LENGTH} characters.`,
  passwordCommon: 'This password is too common.',
  passwordNumeric: 'This password is entirely numeric.',
  passwordSimilar: 'The password is too similar to the username.',
  passwordMismatch: "The two password fields didn't match.",
  usernameTaken: 'A user with that username already exists.',
  emailTaken: 'A user is already registered with this email address.',
  captcha: 'Please complete the human check again.',
} as const;

const RESTRICTED = new Set<string>(RESTRICTED_CHARACTERS);

export function hasRestrictedCharacters(value: string): boolean {
  for (const ch of value) if (RESTRICTED.has(ch)) return true;
  return false;
}

// One @, something on each side, a dot in the domain, and no spaces: strict enough to
// catch typos, loose enough not to refuse real addresses. Delivery proves the rest.
const EMAIL = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;
export const isValidEmail = (value: string) => EMAIL.test(value);

/** An optional plus sign, then digits separated by single spaces or hyphens. */
const PHONE = /^\+?\d+([ -]\d+)*$/;
export const isValidPhone = (value: string) => PHONE.test(value);

export interface TextRule {
  required?: boolean;
  max: number;
  /** Refuse the restricted characters of spec section 5. */
  restricted?: boolean;
  email?: boolean;
  phone?: boolean;
}

/** The problems with one text value, in the order a person should fix them. */
export function checkText(value: string | null | undefined, rule: TextRule): string[] {
  const text = value ?? '';
  if (text.trim() === '') return rule.required ? [validationMessages.required] : [];
  const problems: string[] = [];
  if (text.length > rule.max) problems.push(validationMessages.maxLength(rule.max));
  if (rule.restricted && hasRestrictedCharacters(text))
    problems.push(validationMessages.restricted);
  if (rule.email && !isValidEmail(text)) problems.push(validationMessages.email);
  if (rule.phone && !isValidPhone(text)) problems.push(validationMessages.phone);
  return problems;
}

/** Adds `problems` under `field` when there are any. */
export function addErrors(errors: FieldErrors, field: string, problems: string[]): void {
  if (problems.length > 0) (errors[field] ??= []).push(...problems);
}

export const hasErrors = (errors: FieldErrors) => Object.keys(errors).length > 0;
