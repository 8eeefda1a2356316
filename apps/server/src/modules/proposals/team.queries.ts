import { LOCK_LEASE_MS } from '@merit/domain';
import { and, eq, isNull, lte, or, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { proposalCollaborators, proposals, users } from '../../db/schema.js';
import { personNameSql, runNamed } from '../../platform/data/sql.js';

/*
 * A proposal's collaborators, and its lock.
 */

/** The active user with this collaborator hash. */
export async function userByHash(tx: Tx, hash: string) {
  const [row] = await tx
    .select({
      id: users.id,
      name: personNameSql(users),
      email: users.email,
      firstName: users.firstName,
      username: users.username,
    })
    .from(users)
    .where(and(eq(users.hash, hash), eq(users.isActive, true)));
  return row;
}

export async function insertCollaborator(tx: Tx, proposalId: number, userId: number) {
  await tx.insert(proposalCollaborators).values({ proposalId, userId });
}

/** Removes a collaborator, and the editing lock with them if they hold it; false when they were none. */
export async function deleteCollaborator(tx: Tx, proposalId: number, userId: number) {
  const removed = await tx
    .delete(proposalCollaborators)
    .where(
      and(
        eq(proposalCollaborators.proposalId, proposalId),
        eq(proposalCollaborators.userId, userId),
      ),
    )
    .returning({ userId: proposalCollaborators.userId });
  if (removed.length === 0) return false;
  await releaseLock(tx, proposalId, userId);
  return true;
}

/** The people a proposal's mail goes to: its author and collaborators. */
export async function teamOf(tx: Tx, proposalId: number) {
  const author = tx
    .select({ email: users.email, firstName: users.firstName, username: users.username })
    .from(proposals)
    .innerJoin(users, eq(users.id, proposals.authorId))
    .where(eq(proposals.id, proposalId));
  const collaborators = tx
    .select({ email: users.email, firstName: users.firstName, username: users.username })
    .from(proposalCollaborators)
    .innerJoin(users, eq(users.id, proposalCollaborators.userId))
    .where(and(eq(proposalCollaborators.proposalId, proposalId), eq(users.isActive, true)));
  const [a, c] = await Promise.all([author, collaborators]);
  return [...a, ...c];
}

// --- The lock ---------------------------------------------------------------------------

/**
 * Takes or renews the lease for `actorId` in one conditional UPDATE: only when nobody
 * holds it, the holder's lease has run out, or the actor holds it already. Of two callers
 * at the same moment, the row lock makes one wait and then see the other's lease, so
 * exactly one holds it, in any number of app processes.
 */
export async function takeLock(tx: Tx, id: number, actorId: number, now: Date): Promise<boolean> {
  const rows = await runNamed(
    'take_lock',
    tx
      .update(proposals)
      .set({ lockHolderId: actorId, lockExpiresAt: new Date(now.getTime() + LOCK_LEASE_MS) })
      .where(
        and(
          eq(proposals.id, id),
          or(
            isNull(proposals.lockHolderId),
            lte(proposals.lockExpiresAt, now),
            eq(proposals.lockHolderId, actorId),
          ),
        ),
      )
      .returning({ id: proposals.id }),
  );
  return rows.length > 0;
}

/** Lets go of the lease, if `userId` holds it. */
export async function releaseLock(tx: Tx, id: number, userId: number) {
  await runNamed(
    'release_lock',
    tx
      .update(proposals)
      .set({ lockHolderId: null, lockExpiresAt: null })
      .where(and(eq(proposals.id, id), eq(proposals.lockHolderId, userId))),
  );
}

/** Who holds a live lease on the proposal now, with their name; undefined for nobody. */
export async function currentLock(tx: Tx, id: number, now: Date) {
  const [row] = await runNamed(
    'current_lock',
    tx
      .select({ holderId: users.id, holder: personNameSql(users) })
      .from(proposals)
      .innerJoin(users, eq(users.id, proposals.lockHolderId))
      .where(and(eq(proposals.id, id), sql`${proposals.lockExpiresAt} > ${now}`)),
  );
  return row;
}
