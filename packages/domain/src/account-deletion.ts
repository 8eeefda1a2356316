import { validationMessages } from './validation/fields.js';

/**
 * Deleting one's own account (beyond the spec; ASVS V8.3.2, issue 16). The spec has no
 * rule for it; these are the product's:
 *
 * - The last active admin cannot delete their account: nobody would be left to run the
 *   site (the same rule as removing one's own admin rights, user-admin.ts).
 * - What only the user had goes: their drafts that nobody else works on (no
 *   collaborators) and nobody has reviewed, with their answers and files; their logins,
 *   federated identities, two-step keys, recovery codes, pending links, extensions,
 *   committee roles, collaborations and the reviewer assignments they have not reviewed.
 * - What committees depend on stays: submitted proposals, drafts with collaborators or
 *   reviews, and the reviews and scores the user wrote. The account row stays for them
 *   to point to, anonymised: "Deleted user <id>" (the id keeps two deleted reviewers of
 *   one proposal apart in a chair's list), and every personal field cleared or replaced
 *   by a value nobody can register or log in with.
 */

/** How the user confirms: their password, or their username when they have no password. */
export type DeletionConfirmation = 'password' | 'username';

/**
 * Federated-only accounts (and any without a password) have nothing to type but their
 * username: the same test two-step verification uses for "has a Merit password".
 */
export const deletionConfirmationOf = (user: {
  isAaf: boolean;
  hasPassword: boolean;
}): DeletionConfirmation => (user.isAaf || !user.hasPassword ? 'username' : 'password');

/** The domain anonymised accounts' addresses are in: reserved, never delivered (RFC 2606). */
export const DELETED_ACCOUNT_EMAIL_DOMAIN = 'deleted.invalid';

/**
 * What an anonymised account holds instead of its person's details. The username and
 * address contain `#`, which registration and federated logins never give a username or
 * address (RESTRICTED_CHARACTERS, oidc.service.ts), so they never stand in someone's way.
 */
export function anonymisedAccount(id: number) {
  return {
    username: `deleted#${id}`,
    email: `deleted#${id}@${DELETED_ACCOUNT_EMAIL_DOMAIN}`,
    firstName: 'Deleted',
    lastName: `user ${id}`,
    institution: '',
    gender: null,
    phoneNumber: '',
    isStudent: false,
    isAdmin: false,
    isActive: false,
    emailVerified: false,
    isAaf: false,
    passwordHash: null,
    privacyConsentAt: null,
  } as const;
}

/** True for the address of an anonymised account: mail to it is dropped, not sent. */
export const isDeletedAccountEmail = (address: string) =>
  address.toLowerCase().endsWith(`@${DELETED_ACCOUNT_EMAIL_DOMAIN}`);

export const accountDeletionMessages = {
  lastActiveAdmin:
    'You are the only active admin. Make another user an admin first, then you can delete your account.',
  wrongPassword: 'Your password was entered incorrectly. Please enter it again.',
  wrongUsername: 'Type your username exactly as it is shown on your account page.',
  required: validationMessages.required,
  deleted: 'Your account has been deleted.',
} as const;
