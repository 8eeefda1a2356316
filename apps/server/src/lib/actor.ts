import type { CommitteeActor, CommitteeRoleName } from '@merit/domain';
import { eq } from 'drizzle-orm';
import type { Tx } from '../db/client.js';
import { committeeRoles } from '../db/schema.js';
import type { AuthUser } from '../types.js';

/** The caller with their committee roles, as the call policy reads them. */
export async function loadActor(db: Tx, user: AuthUser): Promise<CommitteeActor> {
  const roles = await db
    .select({
      committeeId: committeeRoles.committeeId,
      role: committeeRoles.role,
      commencement: committeeRoles.commencement,
      termination: committeeRoles.termination,
    })
    .from(committeeRoles)
    .where(eq(committeeRoles.userId, user.id));
  return {
    id: user.id,
    isAdmin: user.isAdmin,
    roles: roles.map((r) => ({ ...r, role: r.role as CommitteeRoleName })),
  };
}
