/**
 * Whether an administrator may administer now (ASVS V4.3.1): with ADMIN_TWO_FACTOR set to
 * `required`, an admin whose account has a password must have turned on two-step
 * verification first. The server refuses admin routes by this rule and sends it as
 * `abilities.administer`; the web app shows why from the same answer.
 */

/** ADMIN_TWO_FACTOR: `optional` (the default) leaves two-step verification to each admin. */
export const ADMIN_TWO_FACTOR_SETTINGS = ['optional', 'required'] as const;
export type AdminTwoFactorSetting = (typeof ADMIN_TWO_FACTOR_SETTINGS)[number];

/** What the rule reads of an account: plain data, read with the caller's token. */
export interface AdminStanding {
  isAdmin: boolean;
  /** A password opens the account; a federated-only account has none. */
  hasPassword: boolean;
  /** Two-step verification is on (set up and confirmed with a first code). */
  twoFactorEnabled: boolean;
}

/**
 * - `allowed`: an admin who may use the admin screens and an admin's reach everywhere;
 * - `not-admin`: not an admin at all;
 * - `needs-two-factor`: an admin who must turn on two-step verification first, and until
 *   then is treated as the ordinary user they otherwise are.
 */
export type Administration = 'allowed' | 'not-admin' | 'needs-two-factor';

export function administrationOf(
  account: AdminStanding,
  setting: AdminTwoFactorSetting,
): Administration {
  if (!account.isAdmin) return 'not-admin';
  // A federated-only account has no password for a second step to protect: its identity
  // provider authenticates it, with whatever second factor the provider asks for.
  if (setting === 'required' && account.hasPassword && !account.twoFactorEnabled)
    return 'needs-two-factor';
  return 'allowed';
}

export const adminTwoFactorMessages = {
  required:
    'Administration needs two-step verification on your account. Turn it on under My Account, Two-step verification, then try again.',
} as const;
