import type { UserDetails } from '@merit/contract';
import { administrationOf, type AdminTwoFactorSetting } from '@merit/domain';
import type { Tx } from '../../db/client.js';
import { pendingEmail } from '../accounts/accounts.queries.js';
import { twoFactorEnabled } from '../auth/auth-access.js';
import { hasIdentity } from '../oidc/oidc.queries.js';
import { rolesOfUser } from '../roles/roles.queries.js';
import { presentUserDetails } from '../users/users.presenter.js';
import type { UserRow } from '../users/users.queries.js';

/*
 * The me module's face: a person's details as they see them (and as an administrator sees
 * them), composed of what the users, accounts, auth, oidc and roles modules hold.
 */

/**
 * The User of spec section 3 for `user`: details, roles, and what they may do, with the
 * server's ADMIN_TWO_FACTOR setting (`app.config.adminTwoFactor`).
 */
export async function userDetailsOf(
  tx: Tx,
  user: UserRow,
  now: Date,
  adminTwoFactor: AdminTwoFactorSetting,
): Promise<UserDetails> {
  const [roles, pending, federated, twoFactor] = await Promise.all([
    rolesOfUser(tx, user.id),
    pendingEmail(tx, user, now),
    hasIdentity(tx, user.id),
    twoFactorEnabled(tx, user.id),
  ]);
  const administration = administrationOf(
    { isAdmin: user.isAdmin, hasPassword: user.passwordHash !== null, twoFactorEnabled: twoFactor },
    adminTwoFactor,
  );
  return presentUserDetails(user, roles, pending, federated, twoFactor, administration, now);
}
