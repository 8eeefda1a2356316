import { MAX_LENGTHS, MIN_PASSWORD_LENGTH, validationMessages } from './fields.js';

/**
 * How alike two strings are, from 0 to 1: twice the characters they share in matching
 * blocks over their total length (Ratcliff/Obershelp, as Python's SequenceMatcher).
 */
export function similarity(a: string, b: string): number {
  if (a.length + b.length === 0) return 1;
  return (2 * matchingCharacters(a, b)) / (a.length + b.length);
}

function matchingCharacters(a: string, b: string): number {
  if (a.length === 0 || b.length === 0) return 0;
  // Longest common substring, then recurse on both sides of it.
  let best = 0;
  let bestA = 0;
  let bestB = 0;
  let prev = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i += 1) {
    const row = new Array<number>(b.length + 1).fill(0);
    for (let j = 1; j <= b.length; j += 1) {
      if (a[i - 1] === b[j - 1]) {
        row[j] = prev[j - 1]! + 1;
        if (row[j]! > best) {
          best = row[j]!;
          bestA = i - best;
          bestB = j - best;
        }
      }
    }
    prev = row;
  }
  if (best === 0) return 0;
  return (
    best +
    matchingCharacters(a.slice(0, bestA), b.slice(0, bestB)) +
    matchingCharacters(a.slice(bestA + best), b.slice(bestB + best))
  );
}

/** At this similarity or more, a password counts as too close to the username (Django's default). */
export const MAX_SIMILARITY = 0.7;

/**
 * Whether a password is too like one of its owner's attributes (Django's
 * UserAttributeSimilarityValidator): it contains the attribute, or they are at least
 * MAX_SIMILARITY alike. Attributes shorter than 3 characters are not compared.
 */
export function tooSimilar(password: string, attribute: string): boolean {
  const value = attribute.trim().toLowerCase();
  if (value.length < 3) return false;
  const lower = password.toLowerCase();
  return lower.includes(value) || similarity(lower, value) >= MAX_SIMILARITY;
}

export interface PasswordContext {
  username?: string;
  /** Whether the password is on the common-password list; the server supplies the list. */
  isCommon?: (password: string) => boolean;
}

/** The problems with a new password, each with the spec's or Django's wording. */
export function checkNewPassword(password: string, context: PasswordContext = {}): string[] {
  if (password === '') return [validationMessages.required];
  if (password.length > MAX_LENGTHS.password)
    return [validationMessages.maxLength(MAX_LENGTHS.password)];
  const problems: string[] = [];
  if (password.length < MIN_PASSWORD_LENGTH) problems.push(validationMessages.passwordTooShort);
  if (context.username && tooSimilar(password, context.username)) {
    problems.push(validationMessages.passwordSimilar);
  }
  if (context.isCommon?.(password)) problems.push(validationMessages.passwordCommon);
  if (/^\d+$/.test(password)) problems.push(validationMessages.passwordNumeric);
  return problems;
}
