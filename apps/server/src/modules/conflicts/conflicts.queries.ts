import type { ConflictFacts } from '@merit/domain';
import { and, eq } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { conflicts } from '../../db/schema.js';
import type { Work } from '../../platform/data/work.js';

/*
 * The conflicts module's face: one person's conflict with one proposal, and asking for
 * detection to run again after a change that could alter what it finds.
 */

/** The job that runs the detector again (conflicts.service.ts handles it). */
export const DETECT_CONFLICTS_JOB = 'conflicts.detect';

/**
 * What changed, so the job knows which calls to detect again: one call (a proposal of
 * it submitted, its collaborators changed), every call of a committee (its roles
 * changed), or every call a person is on (their institution, email or collaborators).
 */
export type DetectionScope = { callId: number } | { committeeId: number } | { userId: number };

/**
 * Queues detection after the caller's change commits: never in the request, so a save
 * stays fast, and a failed detection retries without undoing the change.
 */
export async function queueDetection(work: Work, scope: DetectionScope): Promise<void> {
  await work.enqueue(DETECT_CONFLICTS_JOB, scope);
}

/** `userId`'s conflict with the proposal, of any state, or undefined when there is none. */
export async function conflictOfPerson(
  tx: Tx,
  proposalId: number,
  userId: number,
): Promise<(ConflictFacts & { id: number }) | undefined> {
  const [row] = await tx
    .select({
      id: conflicts.id,
      type: conflicts.type,
      source: conflicts.source,
      state: conflicts.state,
      pinned: conflicts.pinned,
    })
    .from(conflicts)
    .where(and(eq(conflicts.proposalId, proposalId), eq(conflicts.userId, userId)));
  return row;
}
