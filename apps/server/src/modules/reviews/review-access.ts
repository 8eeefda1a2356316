import type { Reviewer } from '@merit/contract';
import { isCommitteeChair, proposalScores, reviewAccess, type Score } from '@merit/domain';
import type { ReadWork } from '../../platform/data/work.js';
import type { LoadedProposal } from '../proposals/proposals.queries.js';
import type { ReviewerName } from './reviews.queries.js';
import type { CallProposalExport, CallProposalExportQuery } from '@merit/contract';
import type { FastifyRequest } from 'fastify';
import { logSecurityEvent } from '../../platform/security/security-log.js';
import { RawJson } from '../../platform/http/projecting-serializer.js';

/*
 * The reviews module's face: what a proposal's page may show of its reviews to the caller,
 * and the security log's record of who read reviews (ASVS V8.3.5).
 */
/** Whether the caller sees all of a proposal's reviews, and so its review facts. */
export const seesReviewFacts = (work: ReadWork, loaded: LoadedProposal) =>
  reviewAccess(work.actor, loaded.resource, work.now) === 'all';

/**
 * A proposal's reviewers as the caller is shown them: with the reason a chair gave for
 * assigning one despite a conflict of interest to `chair`s only (the committee's chairs and
 * admins, who judge conflicts), never to a fellow reviewer.
 */
export const presentReviewers = (reviewers: readonly ReviewerName[], chair: boolean): Reviewer[] =>
  reviewers.map(({ id, name, overrideReason }) =>
    chair && overrideReason !== null ? { id, name, overrideReason } : { id, name },
  );

/**
 * What a proposal's page adds for those who see all its reviews (chairs, members who
 * may review it): its reviewers, whether it is Reviewed, and its scores. Nothing at all
 * for anyone else: its author and collaborators above all, and whoever has a conflict of
 * interest with it (`reviewAccess` is 'none' for them).
 */
export function reviewFactsOf(
  work: ReadWork,
  loaded: LoadedProposal,
  read: { reviewers: ReviewerName[]; reviews: { score: number | null; scores: Score[] }[] },
) {
  if (!seesReviewFacts(work, loaded)) return {};
  const chair = isCommitteeChair(work.actor, loaded.call.committeeId, work.now);
  return {
    reviewers: presentReviewers(read.reviewers, chair),
    isReviewed: loaded.reviewed,
    reviewScores: proposalScores(read.reviews),
  };
}

/**
 * Reads of reviews' content are audited (ASVS V8.3.5) as one `review.read` line in the
 * security log each: who, which call and proposal, how many reviews, never what they say.
 * A log line, not an audit row: these reads are the hot paths of the reviewing weeks (a
 * chair paging through reviews, the whole-call export), and a database write on each
 * would cost them a transaction; the log carries the request id, time and address too.
 */
export type ReviewReadKind =
  /** GET /reviews/{proposalId}/{reviewId}/: one review with its answers and scores. */
  | 'review'
  /** GET /calls/{callId}/proposals/{proposalId}/reviews/: a proposal's review list. */
  | 'proposal_reviews'
  /** GET /calls/{callId}/proposals/export/ with each review's scores or comments. */
  | 'call_export';

interface ReviewRead {
  kind: ReviewReadKind;
  callId: number;
  proposalId?: number;
  /** How many proposals' reviews were sent (the export). */
  proposals?: number;
  /** How many reviews were sent; left out when the answer does not say (see below). */
  reviews?: number;
}

/** Writes the `review.read` line for the request's caller, and returns `body` unchanged. */
export function logReviewRead<T>(request: FastifyRequest, read: ReviewRead, body: T): T {
  logSecurityEvent(request, 'review.read', { userId: request.user?.id ?? null, ...read });
  return body;
}

/**
 * How many reviews one proposal's `allReviewScores` or `allReviewComments` holds. The
 * export writes comments as JSON text (`RawJson`), which is not parsed again to count
 * it: each review there is one `{"reviewer":` (its first key, as `reviewComments` makes
 * them; inside a string JSON escapes the quote, so the text cannot pass for one).
 */
function reviewsIn(part: unknown): number | undefined {
  if (Array.isArray(part)) return part.length;
  if (!(part instanceof RawJson)) return undefined;
  let found = 0;
  for (
    let at = part.json.indexOf(REVIEW_START);
    at !== -1;
    at = part.json.indexOf(REVIEW_START, at + 1)
  )
    found += 1;
  return found;
}
const REVIEW_START = '{"reviewer":';

/**
 * The export's line, when it carries reviews (`include` names their scores or comments;
 * without, it holds only each proposal's means). The count walks the rows once, a small
 * cost beside writing them; should a part come in a shape it cannot count, `reviews` is
 * left out rather than logged wrong, and `proposals` still says whose reviews were sent.
 */
export function logExportRead(
  request: FastifyRequest,
  callId: number,
  query: CallProposalExportQuery,
  body: CallProposalExport,
): CallProposalExport {
  if (query.include.length === 0) return body;
  let proposals = 0;
  let reviews: number | undefined = 0;
  for (const item of body.items) {
    const parts = [item.allReviewScores, item.allReviewComments].filter((p) => p !== undefined);
    if (parts.length === 0) continue;
    proposals += 1;
    const counted = reviewsIn(parts[0]);
    reviews = counted !== undefined && reviews !== undefined ? reviews + counted : undefined;
  }
  return logReviewRead(
    request,
    { kind: 'call_export', callId, proposals, ...(reviews === undefined ? {} : { reviews }) },
    body,
  );
}
