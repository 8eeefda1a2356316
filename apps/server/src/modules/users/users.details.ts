import type { UserDetails } from '@merit/contract';
import type { Tx } from '../../db/client.js';
import { pendingEmail } from '../accounts/accounts.service.js';
import { twoFactorEnabled } from '../auth/two-factor.service.js';
import { hasIdentity } from '../oidc/oidc.service.js';
import { rolesOfUser } from '../roles/roles.service.js';
import { presentUserDetails } from './users.presenter.js';
import type { UserRow } from './users.service.js';

/** The User of spec section 3 for `user`: details, roles, and what they may do. */
export async function userDetailsOf(tx: Tx, user: UserRow, now: Date): Promise<UserDetails> {
  const [roles, pending, federated, twoFactor] = await Promise.all([
    rolesOfUser(tx, user.id),
    pendingEmail(tx, user, now),
    hasIdentity(tx, user.id),
    twoFactorEnabled(tx, user.id),
  ]);
  return presentUserDetails(user, roles, pending, federated, twoFactor, now);
}
