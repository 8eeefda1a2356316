export const GENDERS = ['MALE', 'FEMALE', 'OTHER'] as const;
export type Gender = (typeof GENDERS)[number];

/** How each gender choice reads on screen (spec section 5, Account). */
export const GENDER_LABELS: Record<Gender, string> = {
  MALE: 'Male',
  FEMALE: 'Female',
  OTHER: 'Other/Prefer not to say',
};

/**
 * The fewest characters a chair's search for a user may have: enough to find a person by
 * name, too few to walk the whole user list a letter or two at a time.
 */
export const USER_LOOKUP_MIN_LENGTH = 3;
export const userLookupMessages = {
  tooShort: `Type at least ${USER_LOOKUP_MIN_LENGTH} characters of a name or username, or a whole email address.`,
} as const;

/** A person's name as people read it: first and last name, or the username without them. */
export function personName(firstName: string, lastName: string, username: string): string {
  return `${firstName} ${lastName}`.trim() || username;
}

/** Length of the collaborator hash (spec section 9). */
export const USER_HASH_LENGTH = 10;

/**
 * Characters a collaborator hash is drawn from: letters and digits without the
 * look-alikes 0, O, 1, l and I, because people read hashes aloud and retype them.
 */
export const USER_HASH_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';

export function isValidUserHash(value: string): boolean {
  if (value.length !== USER_HASH_LENGTH) return false;
  for (const ch of value) if (!USER_HASH_ALPHABET.includes(ch)) return false;
  return true;
}

/** The minimal view of a user that the access rules need. */
export interface Actor {
  id: number;
  isAdmin: boolean;
  registrationComplete: boolean;
}
