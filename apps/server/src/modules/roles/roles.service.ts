import type { CommitteeRole } from '@merit/contract';
import { roleMessages, validateRole, type RoleInput, type RoleValues } from '@merit/domain';
import { asc, eq } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { committeeRoles, committees } from '../../db/schema.js';
import { writeAudit } from '../../lib/audit.js';
import { isForeignKeyViolation } from '../../lib/db-errors.js';
import { invalid } from '../../lib/http-errors.js';
import { presentRole, type RoleRow } from '../users/users.presenter.js';

export const roleNotFound = 'There is no such role for this user.';

const roleColumns = {
  id: committeeRoles.id,
  userId: committeeRoles.userId,
  committeeId: committeeRoles.committeeId,
  committeeName: committees.name,
  role: committeeRoles.role,
  commencement: committeeRoles.commencement,
  termination: committeeRoles.termination,
};

export type UserRoleRow = RoleRow & { userId: number };

export function presentCommitteeRole(row: UserRoleRow, now: Date): CommitteeRole {
  return { ...presentRole(row, now), userId: row.userId };
}

/** A user's roles, by committee name and then start date. */
export async function rolesOfUser(db: Tx, userId: number): Promise<UserRoleRow[]> {
  return db
    .select(roleColumns)
    .from(committeeRoles)
    .innerJoin(committees, eq(committees.id, committeeRoles.committeeId))
    .where(eq(committeeRoles.userId, userId))
    .orderBy(asc(committees.name), asc(committeeRoles.commencement), asc(committeeRoles.id));
}

export async function findRole(db: Tx, id: number): Promise<UserRoleRow | undefined> {
  const [row] = await db
    .select(roleColumns)
    .from(committeeRoles)
    .innerJoin(committees, eq(committees.id, committeeRoles.committeeId))
    .where(eq(committeeRoles.id, id))
    .limit(1);
  return row;
}

/** The role form's values, checked by the domain's rules and against the committees that exist. */
export async function checkRoleInput(db: Tx, input: RoleInput): Promise<RoleValues> {
  const result = validateRole(input);
  if (!result.ok) throw invalid(result.errors);
  const [committee] = await db
    .select({ id: committees.id })
    .from(committees)
    .where(eq(committees.id, result.value.committeeId))
    .limit(1);
  if (!committee) throw invalid({ committeeId: [roleMessages.committeeMissing] });
  return result.value;
}

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

export interface Change {
  actorId: number;
  now: Date;
}

export async function createRole(
  tx: Tx,
  userId: number,
  values: RoleValues,
  change: Change,
): Promise<CommitteeRole> {
  const [created] = await guardCommittee(() =>
    tx
      .insert(committeeRoles)
      .values({ userId, ...values, createdAt: change.now, updatedAt: change.now })
      .returning({ id: committeeRoles.id }),
  );
  const role = presentCommitteeRole((await findRole(tx, created!.id))!, change.now);
  await writeAudit(tx, {
    actorId: change.actorId,
    at: change.now,
    action: 'role.create',
    entityId: role.id,
    after: role,
  });
  return role;
}

export async function updateRole(
  tx: Tx,
  existing: UserRoleRow,
  values: RoleValues,
  change: Change,
): Promise<CommitteeRole> {
  await guardCommittee(() =>
    tx
      .update(committeeRoles)
      .set({ ...values, updatedAt: change.now })
      .where(eq(committeeRoles.id, existing.id)),
  );
  const role = presentCommitteeRole((await findRole(tx, existing.id))!, change.now);
  await writeAudit(tx, {
    actorId: change.actorId,
    at: change.now,
    action: 'role.update',
    entityId: role.id,
    before: presentCommitteeRole(existing, change.now),
    after: role,
  });
  return role;
}

export async function deleteRole(tx: Tx, existing: UserRoleRow, change: Change): Promise<void> {
  await tx.delete(committeeRoles).where(eq(committeeRoles.id, existing.id));
  await writeAudit(tx, {
    actorId: change.actorId,
    at: change.now,
    action: 'role.delete',
    entityId: existing.id,
    before: presentCommitteeRole(existing, change.now),
  });
}
