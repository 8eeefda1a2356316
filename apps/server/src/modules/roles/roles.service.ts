import type { CommitteeRole } from '@merit/contract';
import {
  type Expertise,
  type ExpertiseInput,
  hasErrors,
  roleMessages,
  roleOverlapErrors,
  validateExpertise,
  validateRole,
  type RoleInput,
  type RoleValues,
  userAdminMessages,
} from '@merit/domain';
import { and, eq, ne } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { committeeRoles, committees, users } from '../../db/schema.js';
import { isForeignKeyViolation } from '../../platform/data/db-errors.js';
import { invalid, notFound } from '../../platform/http/http-errors.js';
import type { Work } from '../../platform/data/work.js';
import { queueDetection } from '../conflicts/conflicts.queries.js';
import { presentRole } from '../users/users.presenter.js';
import { findRole, type UserRoleRow } from './roles.queries.js';

export const roleNotFound = 'There is no such role for this user.';

/** What the role form sends: the role itself and the member's expertise. */
export type CommitteeRoleInput = RoleInput & ExpertiseInput;

export function presentCommitteeRole(row: UserRoleRow, now: Date): CommitteeRole {
  return {
    ...presentRole(row, now),
    userId: row.userId,
    facilities: row.facilities,
    keywords: row.keywords,
  };
}

/**
 * The user whose roles change, locked for the rest of the transaction: two role changes
 * for one user take turns, so both cannot pass the overlap check. A 404 when absent.
 */
async function lockUser(tx: Tx, userId: number): Promise<void> {
  const [user] = await tx
    .select({ id: users.id })
    .from(users)
    .where(eq(users.id, userId))
    .for('update');
  if (!user) throw notFound(userAdminMessages.notFound);
}

/**
 * The role form's values, checked by the domain's rules (every problem of the role and
 * of the expertise at once), against the committees that exist, and against the user's
 * other roles on that committee (`exceptRoleId`: the role being changed).
 */
async function checkRoleInput(
  tx: Tx,
  userId: number,
  input: CommitteeRoleInput,
  exceptRoleId?: number,
): Promise<RoleValues & Expertise> {
  const result = validateRole(input);
  const expertise = validateExpertise(input);
  if (!result.ok || !expertise.ok)
    throw invalid({
      ...(result.ok ? {} : result.errors),
      ...(expertise.ok ? {} : expertise.errors),
    });
  const [committee] = await tx
    .select({ id: committees.id })
    .from(committees)
    .where(eq(committees.id, result.value.committeeId))
    .limit(1);
  if (!committee) throw invalid({ committeeId: [roleMessages.committeeMissing] });
  const conditions = [
    eq(committeeRoles.userId, userId),
    eq(committeeRoles.committeeId, committee.id),
  ];
  if (exceptRoleId !== undefined) conditions.push(ne(committeeRoles.id, exceptRoleId));
  const others = await tx
    .select({ commencement: committeeRoles.commencement, termination: committeeRoles.termination })
    .from(committeeRoles)
    .where(and(...conditions));
  const overlap = roleOverlapErrors(result.value, others);
  if (hasErrors(overlap)) throw invalid(overlap);
  return { ...result.value, ...expertise.value };
}

/** A role as the audit log compares it. */
const roleAuditView = (role: CommitteeRole) => ({
  userId: role.userId,
  committeeId: role.committeeId,
  role: role.role,
  commencement: role.commencement,
  termination: role.termination,
  facilities: role.facilities,
  keywords: role.keywords,
});

/** Writes a role change; a committee deleted since the check is the same bad input. */
async function guardCommittee<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isForeignKeyViolation(error))
      throw invalid({ committeeId: [roleMessages.committeeMissing] });
    throw error;
  }
}

export async function createRole(
  work: Work,
  userId: number,
  input: CommitteeRoleInput,
): Promise<CommitteeRole> {
  await lockUser(work.tx, userId);
  const values = await checkRoleInput(work.tx, userId, input);
  const [created] = await guardCommittee(() =>
    work.tx
      .insert(committeeRoles)
      .values({ userId, ...values, createdAt: work.now, updatedAt: work.now })
      .returning({ id: committeeRoles.id }),
  );
  const role = presentCommitteeRole((await findRole(work.tx, created!.id))!, work.now);
  await work.audit({ action: 'role.create', entityId: role.id, after: roleAuditView(role) });
  // Who sits on the committee decides whose conflicts Merit looks for in its calls.
  await queueDetection(work, { committeeId: role.committeeId });
  return role;
}

/** Changes one of `userId`'s roles; a role of someone else is a 404. */
export async function updateRole(
  work: Work,
  userId: number,
  roleId: number,
  input: CommitteeRoleInput,
): Promise<CommitteeRole> {
  await lockUser(work.tx, userId);
  const existing = await findRole(work.tx, roleId);
  if (!existing || existing.userId !== userId) throw notFound(roleNotFound);
  const values = await checkRoleInput(work.tx, userId, input, existing.id);
  await guardCommittee(() =>
    work.tx
      .update(committeeRoles)
      .set({ ...values, updatedAt: work.now })
      .where(eq(committeeRoles.id, existing.id)),
  );
  const role = presentCommitteeRole((await findRole(work.tx, existing.id))!, work.now);
  await work.audit({
    action: 'role.update',
    entityId: role.id,
    before: roleAuditView(presentCommitteeRole(existing, work.now)),
    after: roleAuditView(role),
  });
  await queueDetection(work, { committeeId: role.committeeId });
  if (existing.committeeId !== role.committeeId)
    await queueDetection(work, { committeeId: existing.committeeId });
  return role;
}

export async function deleteRole(work: Work, roleId: number): Promise<void> {
  const [removed] = await work.tx
    .delete(committeeRoles)
    .where(eq(committeeRoles.id, roleId))
    .returning();
  if (!removed) throw notFound('There is no role with this id.');
  await work.audit({
    action: 'role.delete',
    entityId: removed.id,
    subjectUserId: removed.userId,
    before: {
      userId: removed.userId,
      committeeId: removed.committeeId,
      role: removed.role,
      commencement: removed.commencement,
      termination: removed.termination,
      facilities: removed.facilities,
      keywords: removed.keywords,
    },
  });
  await queueDetection(work, { committeeId: removed.committeeId });
}
