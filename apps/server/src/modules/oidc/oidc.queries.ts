import { eq } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { userIdentities } from '../../db/schema.js';

/*
 * The oidc module's face: whether an account has an institutional login linked.
 */

export async function hasIdentity(db: Tx, userId: number): Promise<boolean> {
  const rows = await db
    .select({ id: userIdentities.id })
    .from(userIdentities)
    .where(eq(userIdentities.userId, userId))
    .limit(1);
  return rows.length > 0;
}
