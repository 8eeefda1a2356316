import type {
  AdminUserDetails,
  ListQuery,
  Page,
  UserAdminUpdate,
  UserSummary,
} from '@merit/contract';
import {
  isDeletedAccountEmail,
  leavesNoActiveAdmin,
  userAdminMessages,
  type AdminTwoFactorSetting,
} from '@merit/domain';
import { and, count, eq, ilike, or, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { users } from '../../db/schema.js';
import type { AuditAction } from '../../platform/data/audit.js';
import { conflict, notFound } from '../../platform/http/http-errors.js';
import { offsetOf, orderOf, pageOf } from '../../platform/data/pages.js';
import type { Work } from '../../platform/data/work.js';
import { revokeUserTokens } from '../auth/tokens.queries.js';
import { userDetailsOf } from '../me/me-access.js';
import type { UserRow } from '../users/users.queries.js';
import { containing } from '../../platform/data/sql.js';

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
 * One page of the Manage Users table: every user, or those whose username, first, last
 * or full name, email or institution contains `q` (any case), in the order asked for.
 */
export async function listUsers(db: Tx, query: ListQuery): Promise<Page<UserSummary>> {
  const pattern = query.q ? containing(query.q) : null;
  const where = pattern
    ? or(
        ilike(users.username, pattern),
        ilike(users.firstName, pattern),
        ilike(users.lastName, pattern),
        ilike(sql`${users.firstName} || ' ' || ${users.lastName}`, pattern),
        ilike(users.email, pattern),
        ilike(users.institution, pattern),
      )
    : undefined;
  const [counted, items] = await Promise.all([
    db.select({ total: count() }).from(users).where(where),
    db
      .select(summaryColumns)
      .from(users)
      .where(where)
      .orderBy(
        ...orderOf(
          query,
          {
            username: sql`lower(${users.username})`,
            aaf: users.isAaf,
            email: sql`lower(${users.email})`,
            institution: sql`lower(${users.institution})`,
          },
          users.id,
        ),
      )
      .limit(query.pageSize)
      .offset(offsetOf(query)),
  ]);
  return pageOf(query, counted[0]!.total, items);
}

export async function presentAdminUser(
  db: Tx,
  user: UserRow,
  now: Date,
  adminTwoFactor: AdminTwoFactorSetting,
): Promise<AdminUserDetails> {
  return { ...(await userDetailsOf(db, user, now, adminTwoFactor)), is_active: user.isActive };
}

/**
 * Makes a user admin or not and deactivates or reactivates the account, refusing a
 * change that would leave no active admin. Deactivating logs the user out everywhere.
 * One audit row per flag that changes.
 */
export async function updateAccountFlags(
  work: Work,
  userId: number,
  update: UserAdminUpdate,
): Promise<UserRow> {
  const { tx, now } = work;
  // Locking every active admin's row makes two admins removing each other at the same
  // moment take turns, so the second sees the first's change and the count stays right.
  const activeAdmins = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.isAdmin, true), eq(users.isActive, true)))
    .for('update');
  const [target] = await tx.select().from(users).where(eq(users.id, userId)).for('update');
  if (!target) throw notFound(userAdminMessages.notFound);
  const requested = { isAdmin: update.is_admin, isActive: update.is_active };
  if (leavesNoActiveAdmin(target, requested, activeAdmins.length))
    throw conflict(userAdminMessages.lastActiveAdmin);
  // An account its owner deleted is anonymised (account-deletion.ts): it stays only so
  // their submitted work keeps its author, and must not come back to life.
  if (isDeletedAccountEmail(target.email) && (requested.isActive || requested.isAdmin))
    throw conflict(userAdminMessages.deletedAccount);

  const next = {
    isAdmin: requested.isAdmin ?? target.isAdmin,
    isActive: requested.isActive ?? target.isActive,
  };
  // One audit row per state change, holding just the flag it changed.
  const changes: {
    action: AuditAction;
    field: 'is_admin' | 'is_active';
    from: boolean;
    to: boolean;
  }[] = [];
  if (next.isAdmin !== target.isAdmin)
    changes.push({
      action: next.isAdmin ? 'user.grant_admin' : 'user.revoke_admin',
      field: 'is_admin',
      from: target.isAdmin,
      to: next.isAdmin,
    });
  if (next.isActive !== target.isActive)
    changes.push({
      action: next.isActive ? 'user.reactivate' : 'user.deactivate',
      field: 'is_active',
      from: target.isActive,
      to: next.isActive,
    });
  if (changes.length === 0) return target;

  const [updated] = await tx
    .update(users)
    .set({ ...next, updatedAt: now })
    .where(eq(users.id, target.id))
    .returning();
  if (!next.isActive) await revokeUserTokens(tx, target.id, now);
  for (const change of changes) {
    await work.audit({
      action: change.action,
      entityId: target.id,
      before: { [change.field]: change.from },
      after: { [change.field]: change.to },
    });
  }
  return updated!;
}
