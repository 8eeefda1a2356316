import {
  and,
  asc,
  count,
  eq,
  gt,
  gte,
  inArray,
  lte,
  ne,
  not,
  or,
  sql,
  type SQL,
} from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { calls, committees, proposals } from '../../db/schema.js';
import { enforcedConflictProposalIdsSql } from '../conflicts/conflicts.queries.js';

/*
 * Pending reviews (GET /pending_reviews/): the proposals a person may review now and has
 * not reviewed. One rule written twice: the domain's `mayReview` for one proposal
 * (re-exported here so the two sit side by side) and `pendingReviewSql` for a page of the
 * list and its count, which an admin runs over every open call. pending.api.test.ts,
 * beside this file, holds the two to the same answers.
 */
export { mayReview } from '@merit/domain';

/** The reviewer as the list reads them. */
export interface PendingReviewer {
  id: number;
  /** The committees they are a current member of; null for admins, who are on all of them. */
  committeeIds: number[] | null;
}

/** `mayReview` and "has not reviewed it yet" as SQL over `proposals` and `calls` in the FROM. */
export function pendingReviewSql(reviewer: PendingReviewer, now: Date): SQL | undefined {
  const { id } = reviewer;
  return and(
    // Not reviewed by them yet.
    sql`not exists (select 1 from "reviews" r
      where r."proposal_id" = "proposals"."id" and r."reviewer_id" = ${id})`,
    // Not their own: neither its author nor a collaborator.
    ne(proposals.authorId, id),
    sql`not exists (select 1 from "proposal_collaborators" pc
      where pc."proposal_id" = "proposals"."id" and pc."user_id" = ${id})`,
    // No conflict of interest of theirs with it that is enforced: confirmed, on a call
    // with conflicts turned on (`isConflicted`).
    sql`not (${calls.conflictsEnabled}
      and "proposals"."id" in ${enforcedConflictProposalIdsSql(id)})`,
    // A current member of the call's committee.
    reviewer.committeeIds === null
      ? undefined
      : reviewer.committeeIds.length === 0
        ? sql`false`
        : inArray(calls.committeeId, reviewer.committeeIds),
    // Any member may review it, or the chair assigned them.
    or(
      eq(calls.isReviewOpen, true),
      sql`exists (select 1 from "proposal_reviewers" pr
        where pr."proposal_id" = "proposals"."id" and pr."user_id" = ${id})`,
    ),
    gte(proposals.stateVal, 1),
    // Submission has closed for its author: the call's window and the author's extensions.
    not(and(lte(calls.commencement, now), gt(calls.termination, now))!),
    sql`not exists (select 1 from "extensions" e
      where e."call_id" = "calls"."id" and e."user_id" = "proposals"."author_id"
        and e."commencement" <= ${now} and e."termination" > ${now})`,
    // The review window is open, and the call is not closed.
    eq(calls.closed, false),
    lte(calls.reviewCommencement, now),
    gt(calls.reviewTermination, now),
  );
}

/**
 * One page of a reviewer's pending reviews, nearest review deadline first (then by call,
 * and by name within a call): one query, whatever the page's size.
 */
export function pendingReviewPage(
  tx: Tx,
  reviewer: PendingReviewer,
  now: Date,
  page: { limit: number; offset: number },
) {
  return tx
    .select({
      committeeName: committees.name,
      callId: calls.id,
      callName: calls.name,
      proposalId: proposals.id,
      proposalName: proposals.name,
      reviewDeadline: calls.reviewTermination,
    })
    .from(proposals)
    .innerJoin(calls, eq(calls.id, proposals.callId))
    .innerJoin(committees, eq(committees.id, calls.committeeId))
    .where(pendingReviewSql(reviewer, now))
    .orderBy(asc(calls.reviewTermination), asc(calls.id), asc(proposals.name), asc(proposals.id))
    .limit(page.limit)
    .offset(page.offset);
}

/** How many pending reviews the reviewer has in all: one count, no rows read out. */
export async function pendingReviewTotal(
  tx: Tx,
  reviewer: PendingReviewer,
  now: Date,
): Promise<number> {
  const [row] = await tx
    .select({ total: count() })
    .from(proposals)
    .innerJoin(calls, eq(calls.id, proposals.callId))
    .where(pendingReviewSql(reviewer, now));
  return row?.total ?? 0;
}
