import { asc, eq } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { committeeRoles, committees } from '../../db/schema.js';
import type { RoleRow } from '../users/users.presenter.js';

/*
 * The roles module's face: an account's committee roles, and one role by its id.
 */

const roleColumns = {
  id: committeeRoles.id,
  userId: committeeRoles.userId,
  committeeId: committeeRoles.committeeId,
  committeeName: committees.name,
  role: committeeRoles.role,
  commencement: committeeRoles.commencement,
  termination: committeeRoles.termination,
  facilities: committeeRoles.facilities,
  keywords: committeeRoles.keywords,
};

/** A role with its user and the member's expertise (facilities and keywords). */
export type UserRoleRow = RoleRow & { userId: number; facilities: string[]; keywords: string[] };

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
