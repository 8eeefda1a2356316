import { errorCodes } from '@merit/contract';
import {
  administrationOf,
  adminTwoFactorMessages,
  type Administration,
  type AdminTwoFactorSetting,
} from '@merit/domain';
import { eq, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { users, userTwoFactor } from '../../db/schema.js';
import { HttpError } from '../../lib/http-errors.js';

/**
 * Whether an admin may administer now (ADMIN_TWO_FACTOR, ASVS V4.3.1), by the domain's
 * rule on their account as it is now: turning two-step verification on counts from the
 * next request, with no new login.
 */
export async function administrationOfUser(
  db: Tx,
  setting: AdminTwoFactorSetting,
  user: { id: number; isAdmin: boolean },
): Promise<Administration> {
  // With the setting optional, or for anyone not an admin, the account's two-step state
  // cannot change the answer: no query on the way of ordinary requests.
  if (!user.isAdmin || setting === 'optional')
    return administrationOf(
      { isAdmin: user.isAdmin, hasPassword: false, twoFactorEnabled: false },
      setting,
    );
  const [row] = await db
    .select({
      hasPassword: sql<boolean>`${users.passwordHash} is not null`,
      enabledAt: userTwoFactor.enabledAt,
    })
    .from(users)
    .leftJoin(userTwoFactor, eq(userTwoFactor.userId, users.id))
    .where(eq(users.id, user.id));
  return administrationOf(
    {
      isAdmin: true,
      // A row gone since the token was read: no password to protect, and nothing to allow.
      hasPassword: row?.hasPassword ?? true,
      twoFactorEnabled: Boolean(row?.enabledAt),
    },
    setting,
  );
}

/** The 403 an admin route answers an admin who must turn on two-step verification first. */
export const adminTwoFactorRequired = () =>
  new HttpError(403, errorCodes.adminTwoFactorRequired, adminTwoFactorMessages.required);
