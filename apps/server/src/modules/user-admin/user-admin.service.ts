import type { AdminUserDetails, UserAdminUpdate, UserSummary } from '@merit/contract';
import { leavesNoActiveAdmin, userAdminMessages } from '@merit/domain';
import { and, asc, eq, ilike, or, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { users } from '../../db/schema.js';
import { writeAudit, type AuditAction } from '../../lib/audit.js';
import { conflict } from '../../lib/http-errors.js';
import { pendingEmail } from '../accounts/accounts.service.js';
import { revokeUserTokens } from '../auth/tokens.js';
import { presentUserDetails } from '../users/users.presenter.js';
import type { UserRow } from '../users/users.service.js';
import { rolesOfUser } from '../roles/roles.service.js';
import { hasIdentity } from '../oidc/oidc.service.js';

export const userNotFound = 'There is no user with this id.';

/** `%` and `_` typed into the search box mean themselves, not LIKE wildcards. */
const escapeLike = (text: string) => text.replace(/[\\%_]/g, (ch) => `\\${ch}`);

const summaryColumns = {
  id: users.id,
  username: users.username,
  first_name: users.firstName,
  last_name: users.lastName,
  email: users.email,
  institution: users.institution,
  is_aaf: users.isAaf,
  is_admin: users.isAdmin,
  is_active: users.isActive,
};

/**
 * The Manage Users table: every user, or those whose username, first, last or full
 * name, email or institution contains `search` (any case), by username.
 */
export async function listUsers(db: Tx, search: string | undefined): Promise<UserSummary[]> {
  const term = search?.trim();
  const pattern = term ? `%${escapeLike(term)}%` : null;
  return db
    .select(summaryColumns)
    .from(users)
    .where(
      pattern
        ? or(
            ilike(users.username, pattern),
            ilike(users.firstName, pattern),
            ilike(users.lastName, pattern),
            ilike(sql`${users.firstName} || ' ' || ${users.lastName}`, pattern),
            ilike(users.email, pattern),
            ilike(users.institution, pattern),
          )
        : undefined,
    )
    .orderBy(asc(sql`lower(${users.username})`), asc(users.id));
}

export async function presentAdminUser(
  db: Tx,
  user: UserRow,
  now: Date,
): Promise<AdminUserDetails> {
  const roles = await rolesOfUser(db, user.id);
  return {
    ...presentUserDetails(
      user,
      roles,
      await pendingEmail(db, user, now),
      await hasIdentity(db, user.id),
      now,
    ),
    is_active: user.isActive,
  };
}

const flagsOf = (user: Pick<UserRow, 'isAdmin' | 'isActive'>) => ({
  is_admin: user.isAdmin,
  is_active: user.isActive,
});

/**
 * Makes a user admin or not and deactivates or reactivates the account, refusing a
 * change that would leave no active admin. Deactivating logs the user out everywhere.
 * One audit row per flag that changes.
 */
export async function updateAccountFlags(
  tx: Tx,
  userId: number,
  update: UserAdminUpdate,
  change: { actorId: number; now: Date },
): Promise<UserRow | undefined> {
  // Locking every active admin's row makes two admins removing each other at the same
  // moment take turns, so the second sees the first's change and the count stays right.
  const activeAdmins = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.isAdmin, true), eq(users.isActive, true)))
    .for('update');
  const [target] = await tx.select().from(users).where(eq(users.id, userId)).for('update');
  if (!target) return undefined;
  const requested = { isAdmin: update.is_admin, isActive: update.is_active };
  if (leavesNoActiveAdmin(target, requested, activeAdmins.length))
    throw conflict(userAdminMessages.lastActiveAdmin);

  const next = {
    isAdmin: requested.isAdmin ?? target.isAdmin,
    isActive: requested.isActive ?? target.isActive,
  };
  const actions: AuditAction[] = [];
  if (next.isAdmin !== target.isAdmin)
    actions.push(next.isAdmin ? 'user.grant_admin' : 'user.revoke_admin');
  if (next.isActive !== target.isActive)
    actions.push(next.isActive ? 'user.reactivate' : 'user.deactivate');
  if (actions.length === 0) return target;

  const [updated] = await tx
    .update(users)
    .set({ ...next, updatedAt: change.now })
    .where(eq(users.id, target.id))
    .returning();
  if (!next.isActive) await revokeUserTokens(tx, target.id, change.now);
  for (const action of actions) {
    await writeAudit(tx, {
      actorId: change.actorId,
      at: change.now,
      action,
      entityId: target.id,
      before: flagsOf(target),
      after: flagsOf(updated!),
    });
  }
  return updated;
}
