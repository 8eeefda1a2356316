import type { Committee, CommitteeMember } from '@merit/contract';
import {
  committeeMessages,
  committeeNameKey,
  isRoleCurrent,
  validateCommittee,
  type CommitteeRoleName,
  personName,
} from '@merit/domain';
import { asc, eq, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Tx } from '../../db/client.js';
import { calls, committeeRoles, committees, users } from '../../db/schema.js';
import { anyOf, isForeignKeyViolation, isUniqueViolation } from '../../platform/data/db-errors.js';
import { authorize } from '../../platform/http/authorize.js';
import { conflict, invalid, notFound } from '../../platform/http/http-errors.js';
import type { ReadWork, Work } from '../../platform/data/work.js';

export const committeeNotFound = 'There is no committee with this id.';

/**
 * What refers to a committee, one `exists` per table. A committee with any of them
 * cannot be deleted.
 */
function committeeReferences(id: AnyPgColumn): SQL[] {
  return [
    sql`exists (select 1 from ${committeeRoles} where ${committeeRoles.committeeId} = ${id})`,
    sql`exists (select 1 from ${calls} where ${calls.committeeId} = ${id})`,
  ];
}

const committeeColumns = {
  id: committees.id,
  name: committees.name,
  canDelete: sql<boolean>`not ${anyOf(committeeReferences(committees.id))}`,
};

export async function listCommittees(db: Tx): Promise<Committee[]> {
  return db
    .select(committeeColumns)
    .from(committees)
    .orderBy(asc(sql`lower(${committees.name})`), asc(committees.id));
}

export async function findCommittee(db: Tx, id: number): Promise<Committee | undefined> {
  const [row] = await db.select(committeeColumns).from(committees).where(eq(committees.id, id));
  return row;
}

/** GET /committee_members/: for its chairs and admins, who choose reviewers among them. */
export async function committeeMembers(
  work: ReadWork,
  committeeId: number,
): Promise<CommitteeMember[]> {
  authorize(work.actor, 'committee.readMembers', { committeeId }, work.now);
  const found = await getCommittee(work, committeeId);
  return currentMembers(work.tx, found.id, work.now);
}

/** The committee's current members (a role is current while now is in its period), by name. */
export async function currentMembers(
  db: Tx,
  committeeId: number,
  now: Date,
): Promise<CommitteeMember[]> {
  const rows = await db
    .select({
      roleId: committeeRoles.id,
      userId: users.id,
      username: users.username,
      firstName: users.firstName,
      lastName: users.lastName,
      email: users.email,
      isActive: users.isActive,
      role: committeeRoles.role,
      commencement: committeeRoles.commencement,
      termination: committeeRoles.termination,
    })
    .from(committeeRoles)
    .innerJoin(users, eq(users.id, committeeRoles.userId))
    .where(eq(committeeRoles.committeeId, committeeId));
  // The domain's rule decides "current", so the list and every permission check agree.
  return rows
    .filter((r) => isRoleCurrent(r, now))
    .map((r) => ({
      roleId: r.roleId,
      userId: r.userId,
      name: personName(r.firstName, r.lastName, r.username),
      email: r.email,
      is_active: r.isActive,
      role: r.role as CommitteeRoleName,
      commencement: r.commencement.toISOString(),
      termination: r.termination.toISOString(),
    }))
    .sort((a, b) => a.name.localeCompare(b.name) || a.roleId - b.roleId);
}

/** The committee, or a 404. */
export async function getCommittee(work: ReadWork, id: number): Promise<Committee> {
  const found = await findCommittee(work.tx, id);
  if (!found) throw notFound(committeeNotFound);
  return found;
}

export async function createCommittee(
  work: Work,
  input: { name?: string | null },
): Promise<Committee> {
  const { tx } = work;
  const errors = validateCommittee(input);
  if (Object.keys(errors).length > 0) throw invalid(errors);
  const name = input.name!.trim();
  const [taken] = await tx
    .select({ id: committees.id })
    .from(committees)
    .where(eq(sql`lower(${committees.name})`, committeeNameKey(name)))
    .limit(1);
  if (taken) throw invalid({ name: [committeeMessages.nameTaken] });
  let id: number;
  try {
    const [row] = await tx
      .insert(committees)
      .values({ name, createdAt: work.now, updatedAt: work.now })
      .returning({ id: committees.id });
    id = row!.id;
  } catch (error) {
    // Someone created the same name between the check and the insert.
    if (isUniqueViolation(error)) throw invalid({ name: [committeeMessages.nameTaken] });
    throw error;
  }
  const committee = (await findCommittee(tx, id))!;
  await work.audit({ action: 'committee.create', entityId: id, after: { name } });
  return committee;
}

/** Deletes a committee nothing refers to; one in use is a conflict. */
export async function deleteCommittee(work: Work, id: number): Promise<void> {
  const existing = await getCommittee(work, id);
  if (!existing.canDelete) throw conflict(committeeMessages.inUse);
  try {
    await work.tx.delete(committees).where(eq(committees.id, existing.id));
  } catch (error) {
    // A role given between the check and the delete: the foreign key keeps it.
    if (isForeignKeyViolation(error)) throw conflict(committeeMessages.inUse);
    throw error;
  }
  await work.audit({
    action: 'committee.delete',
    entityId: existing.id,
    before: { name: existing.name },
  });
}
