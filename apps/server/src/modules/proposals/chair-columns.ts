import type { CallProposal, CallProposalPage } from '@merit/contract';
import {
  proposalScores,
  RESULT_SCORE,
  resourceValues,
  textAnswers,
  type ResourceEntry,
} from '@merit/domain';
import type { ReadWork } from '../../lib/work.js';
import type { CallRow } from '../calls/calls.queries.js';
import {
  reviewAnswersOfCall,
  reviewAnswersOfProposals,
  reviewersOfCall,
  reviewersOfProposals,
  reviewFormsOfCall,
  reviewsOfCall,
  reviewsOfProposals,
} from '../reviews/reviews.queries.js';
import {
  resourceEntriesOf,
  resourceEntriesOfCall,
  resourceTotalsOf,
  type CallProposalRow,
} from './proposals.queries.js';

/** What a chair's row adds to a call's proposal list. */
export type ChairColumns = Pick<
  CallProposal,
  | 'resourceValues'
  | 'reviewers'
  | 'isReviewed'
  | 'reviewScores'
  | 'score'
  | 'allReviewScores'
  | 'allReviewComments'
>;

/** What a chair's page adds: the call's resource totals and its facilities. */
export type ChairTotals = Required<Pick<CallProposalPage, 'resourceTotals' | 'facilities'>>;

/** Groups rows by a key, keeping their order. */
function groupBy<T>(rows: readonly T[], key: (row: T) => number): Map<number, T[]> {
  const groups = new Map<number, T[]>();
  for (const row of rows) {
    const k = key(row);
    const group = groups.get(k);
    if (group) group.push(row);
    else groups.set(k, [row]);
  }
  return groups;
}

/** The call's resource totals and facilities, as `resourceTotalsOf` reads them. */
export interface CallResourceTotals {
  totals: ChairTotals['resourceTotals'];
  facilities: string[];
}

/**
 * The chair's columns for one page of a call's proposals (issue 14, spec section 2): per
 * proposal its resources, reviewers, scores and each review's scores and comments, and
 * for the page the call's resource totals. A fixed number of queries whatever the page
 * holds (its reviews, their answers, its reviewers, the call's review forms, its resource
 * entries, the call's resource forms and their totals), never one per row. With
 * `wholeCall`, `rows` are every proposal of the call (the export), and the queries choose
 * them by the call's id instead of listing their ids. `totals` the caller has read already
 * are not read again. Only for callers the list scope lets see review progress; on their
 * own proposals, only the resources (ARCHITECTURE.md "Visibility": nothing of its reviews
 * reaches a proposal's author, a chair or not).
 */
export async function chairColumnsOf(
  work: ReadWork,
  call: CallRow,
  rows: readonly CallProposalRow[],
  options: { wholeCall?: boolean; totals?: CallResourceTotals } = {},
): Promise<{ columns: Map<number, ChairColumns>; totals: ChairTotals }> {
  const { tx } = work;
  const ids = rows.map((row) => row.id);
  // Reviews only of the rows whose reviews the caller may see (for the whole call, the
  // rows' own reviews are read with the rest and left out below).
  const reviewed = rows.filter((row) => !row.own).map((row) => row.id);
  const [reviewRows, reviewerRows, answers, forms, entries, totals] = await Promise.all([
    options.wholeCall ? reviewsOfCall(tx, call.id) : reviewsOfProposals(tx, reviewed),
    options.wholeCall ? reviewersOfCall(tx, call.id) : reviewersOfProposals(tx, reviewed),
    options.wholeCall ? reviewAnswersOfCall(tx, call.id) : reviewAnswersOfProposals(tx, reviewed),
    reviewFormsOfCall(tx, call.id),
    options.wholeCall ? resourceEntriesOfCall(tx, call.id) : resourceEntriesOf(tx, ids),
    options.totals ?? resourceTotalsOf(tx, call.id),
  ]);
  const reviewsOf = groupBy(reviewRows, (r) => r.proposalId);
  const reviewersOf = groupBy(reviewerRows, (r) => r.proposalId);
  const formsOf = groupBy(forms, (f) => f.proposalTypeId);
  const entriesOf = groupBy<ResourceEntry & { proposalId: number }>(entries, (e) => e.proposalId);

  const columns = new Map<number, ChairColumns>();
  for (const row of rows) {
    const resources = { resourceValues: resourceValues(entriesOf.get(row.id) ?? []) };
    if (row.own) {
      columns.set(row.id, resources);
      continue;
    }
    const reviews = reviewsOf.get(row.id) ?? [];
    const typeForms = formsOf.get(row.proposalTypeId) ?? [];
    const reviewScores = proposalScores(reviews);
    columns.set(row.id, {
      ...resources,
      reviewers: (reviewersOf.get(row.id) ?? []).map(({ id, name }) => ({ id, name })),
      isReviewed: row.reviewed,
      reviewScores,
      score: reviewScores.find((s) => s.name === RESULT_SCORE)?.value ?? null,
      allReviewScores: reviews.map((review) => ({
        reviewer: { id: review.reviewerId, name: review.reviewer },
        scores: review.scores,
        score: review.score,
      })),
      allReviewComments: reviews.map((review) => ({
        reviewer: { id: review.reviewerId, name: review.reviewer },
        comments: typeForms.flatMap((form) =>
          textAnswers(form.jsonSchema, form.uiSchema, answers.get(review.id)?.get(form.id) ?? {}),
        ),
      })),
    });
  }
  return {
    columns,
    totals: { resourceTotals: totals.totals, facilities: totals.facilities },
  };
}
