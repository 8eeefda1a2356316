import { LOCK_LEASE_MS, type Editor, type ProposalLock } from '@merit/domain';
import { and, eq, gt, gte, lte, or, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import {
  committeeRoles,
  proposalCollaborators,
  proposalLocks,
  proposals,
  users,
} from '../../db/schema.js';
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
  await releaseLocksOf(tx, proposalId, userId);
  return true;
}

/**
 * The chairs of a committee now (their role current at `now`), active, each once: whom a
 * change to a proposal's reviewers that no chair made is told to. With `proposalId`, not
 * those with an enforced conflict of interest with it (confirmed, on a call with conflicts
 * turned on): a mail about its reviewers is nothing of theirs to read.
 */
export async function chairsOf(tx: Tx, committeeId: number, now: Date, proposalId?: number) {
  return tx
    .selectDistinct({ email: users.email, firstName: users.firstName, username: users.username })
    .from(committeeRoles)
    .innerJoin(users, eq(users.id, committeeRoles.userId))
    .where(
      and(
        eq(committeeRoles.committeeId, committeeId),
        eq(committeeRoles.role, 'CHAIR'),
        lte(committeeRoles.commencement, now),
        gte(committeeRoles.termination, now),
        eq(users.isActive, true),
        proposalId === undefined
          ? undefined
          : sql`not exists (
              select 1 from "conflicts" c
              inner join "proposals" p on p."id" = c."proposal_id"
              inner join "calls" k on k."id" = p."call_id"
              where c."proposal_id" = ${proposalId} and c."user_id" = ${users.id}
                and c."state" = 'confirmed' and k."conflicts_enabled"
            )`,
      ),
    );
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

/** A lease's editor and expiry, as the rules read them (`ProposalLock`). */
const lockColumns = {
  userId: proposalLocks.holderId,
  tokenId: proposalLocks.tokenId,
  tabId: proposalLocks.tabId,
  expiresAt: proposalLocks.expiresAt,
};

/** A lease row with its holder's name, as the rules read it. */
const holderRow = (row: {
  userId: number;
  tokenId: number;
  tabId: string;
  expiresAt: Date;
  holderName: string;
}): ProposalLock => ({
  editor: { userId: row.userId, tokenId: row.tokenId, tabId: row.tabId },
  holderName: row.holderName,
  expiresAt: row.expiresAt,
});

const isEditor = (editor: Editor) =>
  and(
    eq(proposalLocks.holderId, editor.userId),
    eq(proposalLocks.tokenId, editor.tokenId),
    eq(proposalLocks.tabId, editor.tabId),
  );

/**
 * The upsert that takes or renews the lease for `editor`: it writes only when nobody holds
 * it, the holder's lease has run out, or the editor holds it already. Of two editors at
 * the same moment, the row lock makes one wait and then see the other's lease, so exactly
 * one holds it, in any number of app processes.
 */
const upsertLease = (tx: Tx, proposalId: number, editor: Editor, now: Date) => {
  const lease = {
    holderId: editor.userId,
    tokenId: editor.tokenId,
    tabId: editor.tabId,
    expiresAt: new Date(now.getTime() + LOCK_LEASE_MS),
  };
  return tx
    .insert(proposalLocks)
    .values({ proposalId, ...lease })
    .onConflictDoUpdate({
      target: proposalLocks.proposalId,
      set: lease,
      setWhere: or(lte(proposalLocks.expiresAt, now), isEditor(editor)),
    });
};

/** Takes or renews the lease for `editor` (see `upsertLease`); false when another holds it. */
export async function takeLock(
  tx: Tx,
  proposalId: number,
  editor: Editor,
  now: Date,
): Promise<boolean> {
  const rows = await runNamed(
    'take_lock',
    upsertLease(tx, proposalId, editor, now).returning({ id: proposalLocks.proposalId }),
  );
  return rows.length > 0;
}

/**
 * The editor's poll, in one statement on the lock table: takes or renews the lease (as
 * `takeLock`) and answers who holds it now, the editor or whoever kept it. (The second
 * part reads the table as the statement began: a lease that another poll committed
 * meanwhile is missing from it, and `currentLock` reads it then.)
 */
export async function pollLock(
  tx: Tx,
  proposalId: number,
  editor: Editor,
  now: Date,
): Promise<ProposalLock | undefined> {
  const taken = tx
    .$with('taken')
    .as(upsertLease(tx, proposalId, editor, now).returning(lockColumns));
  // The lease taken, or else the one kept (which the statement's insert did not change).
  const lease = tx.$with('lease').as((qb) =>
    qb
      .select({
        userId: taken.userId,
        tokenId: taken.tokenId,
        tabId: taken.tabId,
        expiresAt: taken.expiresAt,
      })
      .from(taken)
      .unionAll(
        qb
          .select(lockColumns)
          .from(proposalLocks)
          .where(
            and(
              eq(proposalLocks.proposalId, proposalId),
              gt(proposalLocks.expiresAt, now),
              sql`not exists (select 1 from ${taken})`,
            ),
          ),
      ),
  );
  const [row] = await runNamed(
    'poll_lock',
    tx
      .with(taken, lease)
      .select({
        userId: lease.userId,
        tokenId: lease.tokenId,
        tabId: lease.tabId,
        expiresAt: lease.expiresAt,
        holderName: personNameSql(users),
      })
      .from(lease)
      .innerJoin(users, eq(users.id, lease.userId)),
  );
  return row ? holderRow(row) : currentLock(tx, proposalId, now);
}

/** Lets go of the lease, if `editor` holds it. */
export async function releaseLock(tx: Tx, proposalId: number, editor: Editor) {
  await runNamed(
    'release_lock',
    tx.delete(proposalLocks).where(and(eq(proposalLocks.proposalId, proposalId), isEditor(editor))),
  );
}

/** Takes the lease from whichever tab of `userId` holds it: they are no longer an editor. */
async function releaseLocksOf(tx: Tx, proposalId: number, userId: number) {
  await tx
    .delete(proposalLocks)
    .where(and(eq(proposalLocks.proposalId, proposalId), eq(proposalLocks.holderId, userId)));
}

/** Who holds a live lease on the proposal now, with their name; undefined for nobody. */
export async function currentLock(
  tx: Tx,
  proposalId: number,
  now: Date,
): Promise<ProposalLock | undefined> {
  const [row] = await runNamed(
    'current_lock',
    tx
      .select({ ...lockColumns, holderName: personNameSql(users) })
      .from(proposalLocks)
      .innerJoin(users, eq(users.id, proposalLocks.holderId))
      .where(and(eq(proposalLocks.proposalId, proposalId), gt(proposalLocks.expiresAt, now))),
  );
  return row ? holderRow(row) : undefined;
}
