import { asc, inArray, sql } from 'drizzle-orm';
import { proposalReviewers, proposals, users } from '../../db/schema.js';
import { enqueueMailList } from '../../platform/io/mail-job.js';
import type { Work } from '../../platform/data/work.js';
import type { CallRow } from '../calls/calls.queries.js';
import { assignmentDigestMail } from './assignment.mails.js';
import { inTurn } from './in-turn.js';

/** One assignment: a member reviews a proposal. */
export interface AssignmentChange {
  proposalId: number;
  userId: number;
}

/** Where a batch came from, for its audit row. */
export type BatchSource = { kind: 'proposal'; runId: number; redo: boolean } | { kind: 'csv' };

/** The pairs as one JSON parameter: a batch of 40,000 would pass PostgreSQL's 65,535 parameters. */
const asRecordset = (pairs: readonly AssignmentChange[]) =>
  sql`jsonb_to_recordset(${JSON.stringify(
    pairs.map((pair) => ({ proposal_id: pair.proposalId, user_id: pair.userId })),
  )}::jsonb) as r("proposal_id" int, "user_id" int)`;

type PairRow = { proposal_id: number; user_id: number };
const rowsOf = (result: unknown) =>
  (result as { rows: PairRow[] }).rows.map((row) => ({
    proposalId: Number(row.proposal_id),
    userId: Number(row.user_id),
  }));

/**
 * Saves a batch of assignments in the caller's transaction (Apply, a CSV upload): adds
 * and removes them in two statements, writes one audit row for the whole batch, and
 * queues one digest mail per member given new proposals, listing them all. Removals are
 * not mailed: the member has nothing to do. What was really added and removed (a pair
 * added since by someone else is not added twice).
 */
export async function saveBatch(
  work: Work,
  call: CallRow,
  changes: { added: readonly AssignmentChange[]; removed: readonly AssignmentChange[] },
  source: BatchSource,
  publicUrl: string,
): Promise<{ added: number; removed: number; mailed: number }> {
  const { tx } = work;
  const removed =
    changes.removed.length === 0
      ? []
      : rowsOf(
          await tx.execute(sql`delete from ${proposalReviewers} pr using ${asRecordset(changes.removed)}
            where pr."proposal_id" = r."proposal_id" and pr."user_id" = r."user_id"
            returning pr."proposal_id", pr."user_id"`),
        );
  const added =
    changes.added.length === 0
      ? []
      : rowsOf(
          await tx.execute(sql`insert into ${proposalReviewers} ("proposal_id", "user_id")
            select r."proposal_id", r."user_id" from ${asRecordset(changes.added)}
            on conflict do nothing
            returning "proposal_id", "user_id"`),
        );
  const pairs = (list: AssignmentChange[]) =>
    list
      .map((pair) => [pair.proposalId, pair.userId])
      .sort((a, b) => a[0]! - b[0]! || a[1]! - b[1]!);
  await work.audit({
    action: 'call.assign_reviewers',
    entityId: call.id,
    after: {
      ...source,
      added: added.length,
      removed: removed.length,
      addedPairs: pairs(added),
      removedPairs: pairs(removed),
    },
  });
  const mailed = await mailDigests(work, call, added, publicUrl);
  return { added: added.length, removed: removed.length, mailed };
}

/** One digest per member with new proposals, queued in one statement; how many. */
async function mailDigests(
  work: Work,
  call: CallRow,
  added: readonly AssignmentChange[],
  publicUrl: string,
): Promise<number> {
  if (added.length === 0) return 0;
  const byUser = new Map<number, number[]>();
  for (const { proposalId, userId } of added) {
    const ids = byUser.get(userId);
    if (ids) ids.push(proposalId);
    else byUser.set(userId, [proposalId]);
  }
  const [people, named] = await inTurn(
    () =>
      work.tx
        .select({
          id: users.id,
          email: users.email,
          firstName: users.firstName,
          username: users.username,
          isActive: users.isActive,
        })
        .from(users)
        .where(inArray(users.id, [...byUser.keys()]))
        .orderBy(asc(users.id)),
    () =>
      work.tx
        .select({ id: proposals.id, name: proposals.name })
        .from(proposals)
        .where(inArray(proposals.id, [...new Set(added.map((pair) => pair.proposalId))])),
  );
  const nameOf = new Map(named.map((proposal) => [proposal.id, proposal.name]));
  const mails = people
    .filter((person) => person.isActive)
    .map((person) =>
      assignmentDigestMail(person, {
        callName: call.name,
        reviewDeadline: call.reviewTermination,
        proposals: byUser
          .get(person.id)!
          .map((id) => ({
            name: nameOf.get(id) ?? '',
            link: `${publicUrl}/calls/${call.id}/proposals/${id}/review/`,
          }))
          .sort((a, b) => a.name.localeCompare(b.name)),
        pendingLink: `${publicUrl}/pending_reviews/`,
      }),
    );
  return enqueueMailList(work, mails);
}
