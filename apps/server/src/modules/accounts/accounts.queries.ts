import { and, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { emailConfirmations } from '../../db/schema.js';
import type { UserRow } from '../users/users.queries.js';

/*
 * The accounts module's face: an email change waiting for its confirmation.
 */

/** The address waiting for confirmation, if the user asked to change theirs. */
export async function pendingEmail(db: Tx, user: UserRow, now: Date): Promise<string | null> {
  const [row] = await db
    .select({ email: emailConfirmations.email })
    .from(emailConfirmations)
    .where(
      and(
        eq(emailConfirmations.userId, user.id),
        isNull(emailConfirmations.usedAt),
        gt(emailConfirmations.expiresAt, now),
        ne(sql`lower(${emailConfirmations.email})`, user.email.toLowerCase()),
      ),
    )
    .orderBy(sql`${emailConfirmations.createdAt} desc`)
    .limit(1);
  return row?.email ?? null;
}
