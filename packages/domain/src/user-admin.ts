/** The two flags an admin can change on an account. */
export interface AccountFlags {
  isAdmin: boolean;
  isActive: boolean;
}

export const userAdminMessages = {
  notFound: 'There is no user with this id.',
  lastActiveAdmin:
    'You are the only active admin. Make another user an admin first, then you can remove your own admin rights or deactivate your account.',
  deletedAccount:
    'This account was deleted by its owner. It cannot be made active or an admin again; they can register a new account.',
} as const;

/** An admin who can log in and act: the flag alone is not enough once the account is deactivated. */
export const isActiveAdmin = (user: AccountFlags) => user.isAdmin && user.isActive;

/**
 * True when changing `target` by `change` would leave nobody to administer the site:
 * the target is an active admin, stops being one, and is the only one. Only the last
 * admin acting on their own account can reach this, since the caller is an active admin.
 */
export function leavesNoActiveAdmin(
  target: AccountFlags,
  change: Partial<AccountFlags>,
  activeAdminCount: number,
): boolean {
  if (!isActiveAdmin(target)) return false;
  const after = {
    isAdmin: change.isAdmin ?? target.isAdmin,
    isActive: change.isActive ?? target.isActive,
  };
  return !isActiveAdmin(after) && activeAdminCount <= 1;
}
