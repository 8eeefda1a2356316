import type {
  CallProposal,
  CallProposalExportColumns,
  CallProposalExportPart,
  CallProposalPage,
} from '@merit/contract';
import {
  proposalScores,
  RESULT_SCORE,
  resourceValues,
  textAnswers,
  type ResourceEntry,
} from '@merit/domain';
import type { ReadWork } from '../../platform/data/work.js';
import { rawJson } from '../../platform/http/projecting-serializer.js';
import { presentReviewers } from '../reviews/review-access.js';
import type { CallRow } from '../calls/calls.queries.js';
import {
  type ProposalSet,
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
} from './resource-totals.queries.js';
import { type CallProposalRow } from './chair.queries.js';

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

/** What a chair's page adds: the call's resource totals, its facilities and its fields' titles. */
export type ChairTotals = Required<
  Pick<CallProposalPage, 'resourceTotals' | 'facilities' | 'resourceTitles'>
>;

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
  /** The resource forms' data fields' titles by key. */
  titles: Record<string, string>;
}

/** What the chair's columns are made from, read for some proposals or a whole call. */
type ChairData = Awaited<ReturnType<typeof readChairData>>;

/**
 * The reads behind the chair's columns: the reviews, their answers and the reviewers of
 * the proposals in `reviewed`, the resource entries of those in `resources`, the call's
 * review forms, and its resource totals unless the caller has them. A fixed number of
 * queries, each choosing its rows by id or by the call's id, never one per row.
 */
async function readChairData(
  tx: ReadWork['tx'],
  callId: number,
  reviewed: ProposalSet,
  resources: ProposalSet,
  knownTotals?: CallResourceTotals,
  answersRead: 'all' | 'text' | 'none' = 'all',
) {
  // A whole call's reads (the export) may be of one of its types.
  const typeId = 'callId' in resources ? resources.typeId : undefined;
  const [reviewRows, reviewerRows, answers, forms, entries, totals] = await Promise.all([
    'callId' in reviewed
      ? reviewsOfCall(tx, callId, reviewed.typeId)
      : reviewsOfProposals(tx, [...reviewed.ids]),
    'callId' in reviewed
      ? reviewersOfCall(tx, callId, reviewed.typeId)
      : reviewersOfProposals(tx, [...reviewed.ids]),
    // The reviews' answers are most of what a call's reviews hold: read only for comments,
    // and for the export only those holding a text.
    answersRead === 'none'
      ? new Map<number, Map<number, Record<string, unknown>>>()
      : 'callId' in reviewed
        ? reviewAnswersOfCall(tx, callId, reviewed.typeId, { textOnly: answersRead === 'text' })
        : reviewAnswersOfProposals(tx, [...reviewed.ids]),
    reviewFormsOfCall(tx, callId, typeId),
    'callId' in resources
      ? resourceEntriesOfCall(tx, callId, resources.typeId)
      : resourceEntriesOf(tx, [...resources.ids]),
    knownTotals ?? resourceTotalsOf(tx, callId, undefined, typeId),
  ]);
  return { reviewRows, reviewerRows, answers, forms, entries, totals };
}

/**
 * The chair's columns for one page of a call's proposals (issue 14, spec section 2): per
 * proposal its resources, reviewers, scores and each review's scores and comments, and
 * for the page the call's resource totals (`totals` the caller has read already are not
 * read again). A fixed number of queries whatever the page holds (its reviews, their
 * answers, its reviewers, the call's review forms, its resource entries, the call's
 * resource forms and their totals), never one per row. Only for callers the list scope
 * lets see review progress; on their own proposals, and on those they have a conflict of
 * interest with, only the resources (ARCHITECTURE.md "Visibility": nothing of its reviews
 * reaches a proposal's author, a chair or not, nor anyone with a conflict of interest).
 */
export async function chairColumnsOf(
  work: ReadWork,
  call: CallRow,
  rows: readonly CallProposalRow[],
  options: { totals?: CallResourceTotals } = {},
): Promise<ChairColumnsOfRows> {
  // Reviews only of the rows whose reviews the caller may see.
  const reviewed = rows.filter((row) => !keptFromReviews(row)).map((row) => row.id);
  const data = await readChairData(
    work.tx,
    call.id,
    { ids: reviewed },
    { ids: rows.map((row) => row.id) },
    options.totals,
  );
  return chairColumnsFrom(data, rows, ALL_PARTS, 'objects');
}

/** Each review's scores and each review's comments: what a page of the list carries. */
const ALL_PARTS: readonly CallProposalExportPart[] = ['allReviewScores', 'allReviewComments'];

/**
 * The same for every proposal of a call (the export), read by the call's id while the
 * rows are read beside it: resolves to a function of the call's rows. The reviews of the
 * caller's own rows, and of those they have a conflict of interest with, are read with the
 * rest and left out there. Each review's scores and
 * comments only when `parts` names them; the reviews' answers are read only for comments,
 * and only those that hold a text. Each proposal's comments are written as the JSON the
 * body holds (`RawJson`), not as objects: a large call's comments are most of its body.
 * With `typeId`, of that type's proposals only, and its totals and facilities. With
 * `columns` `lean`, `isReviewed` (which the rows carry) and `parts` only: see
 * `leanColumnsOfCall`.
 */
export async function callChairColumns(
  work: ReadWork,
  call: CallRow,
  parts: readonly CallProposalExportPart[],
  typeId?: number,
  columns: CallProposalExportColumns = 'chair',
): Promise<(rows: readonly CallProposalRow[]) => ChairColumnsOfRows> {
  if (columns === 'lean') return leanColumnsOfCall(work, call, parts, typeId);
  const all = { callId: call.id, typeId };
  const answers = parts.includes('allReviewComments') ? 'text' : 'none';
  const data = await readChairData(work.tx, call.id, all, all, undefined, answers);
  return (rows) => chairColumnsFrom(data, rows, parts, 'json');
}

/** The totals a lean export carries: none (the contract's `columns=lean`). */
const NO_TOTALS: ChairTotals = { resourceTotals: {}, facilities: [], resourceTitles: {} };

/**
 * The lean export's columns (`columns=lean`, the Comments download): `isReviewed`, which
 * the rows carry already, and each review's scores or comments when `parts` names them,
 * made as `callChairColumns` makes them. Nothing else is read: not the reviewers, not the
 * resource entries or totals, and not the reviews at all without `parts`; the reviews'
 * forms only for comments. Nothing of the reviews of the caller's own rows, nor of those
 * they have a conflict of interest with, as there.
 */
async function leanColumnsOfCall(
  work: ReadWork,
  call: CallRow,
  parts: readonly CallProposalExportPart[],
  typeId?: number,
): Promise<(rows: readonly CallProposalRow[]) => ChairColumnsOfRows> {
  const withComments = parts.includes('allReviewComments');
  const [reviewRows, answers, forms] =
    parts.length === 0
      ? [[], new Map(), []]
      : await Promise.all([
          reviewsOfCall(work.tx, call.id, typeId),
          withComments
            ? reviewAnswersOfCall(work.tx, call.id, typeId, { textOnly: true })
            : new Map<number, Map<number, Record<string, unknown>>>(),
          withComments ? reviewFormsOfCall(work.tx, call.id, typeId) : [],
        ]);
  const data: ChairData = {
    reviewRows,
    reviewerRows: [],
    answers,
    forms,
    entries: [],
    totals: { totals: {}, facilities: [], titles: {} },
  };
  return (rows) => chairColumnsFrom(data, rows, parts, 'json', 'lean');
}

/**
 * The caller may see nothing of this row's reviews: it is their own proposal, or they have
 * a conflict of interest with it.
 */
const keptFromReviews = (row: CallProposalRow) => row.own || row.conflicted;

/** The chair's columns of some rows, by proposal id, and the call's totals. */
interface ChairColumnsOfRows {
  columns: Map<number, ChairColumns>;
  totals: ChairTotals;
}

/**
 * The chair's columns of `rows` from what was read for them; with `columns` `lean`, of
 * those only `isReviewed` (nothing on the caller's own rows, nor on those they have a
 * conflict of interest with) beside `parts`, and no totals.
 */
function chairColumnsFrom(
  data: ChairData,
  rows: readonly CallProposalRow[],
  parts: readonly CallProposalExportPart[],
  comments: 'objects' | 'json',
  columns: CallProposalExportColumns = 'chair',
): ChairColumnsOfRows {
  const lean = columns === 'lean';
  const withScores = parts.includes('allReviewScores');
  const withComments = parts.includes('allReviewComments');
  const { reviewRows, reviewerRows, answers, forms, entries, totals } = data;
  const reviewsOf = groupBy(reviewRows, (r) => r.proposalId);
  const reviewersOf = groupBy(reviewerRows, (r) => r.proposalId);
  const formsOf = groupBy(forms, (f) => f.proposalTypeId);
  const entriesOf = groupBy<ResourceEntry & { proposalId: number }>(entries, (e) => e.proposalId);

  const columnsOf = new Map<number, ChairColumns>();
  for (const row of rows) {
    const resources = lean ? {} : { resourceValues: resourceValues(entriesOf.get(row.id) ?? []) };
    if (keptFromReviews(row)) {
      columnsOf.set(row.id, resources);
      continue;
    }
    const reviews = reviewsOf.get(row.id) ?? [];
    const typeForms = formsOf.get(row.proposalTypeId) ?? [];
    const reviewScores = lean ? [] : proposalScores(reviews);
    columnsOf.set(row.id, {
      ...resources,
      ...(!lean && {
        reviewers: presentReviewers(reviewersOf.get(row.id) ?? [], true),
      }),
      isReviewed: row.reviewed,
      ...(!lean && {
        reviewScores,
        score: reviewScores.find((s) => s.name === RESULT_SCORE)?.value ?? null,
      }),
      ...(withScores && {
        allReviewScores: reviews.map((review) => ({
          reviewer: { id: review.reviewerId, name: review.reviewer },
          scores: review.scores,
          score: review.score,
        })),
      }),
      ...(withComments && {
        allReviewComments:
          comments === 'json'
            ? rawJson<ReviewComments[]>(reviewCommentsJson(reviews, typeForms, answers))
            : reviews.map((review) => reviewComments(review, typeForms, answers)),
      }),
    });
  }
  return {
    columns: columnsOf,
    totals: lean
      ? NO_TOTALS
      : {
          resourceTotals: totals.totals,
          facilities: totals.facilities,
          resourceTitles: totals.titles,
        },
  };
}

type ReviewComments = NonNullable<CallProposal['allReviewComments']>[number];

/**
 * A proposal's `allReviewComments` as JSON text, written by JSON.stringify as the body's
 * serializer writes it: each review's reviewer, then each text answer of the type's
 * review forms, in the forms' order. Written here, the objects die young (a cheap
 * collection) instead of living through the whole export as most of its 21 MB, to be
 * walked and written at the end (bench/README.md, figure (d)).
 */
function reviewCommentsJson(
  reviews: ChairData['reviewRows'],
  typeForms: ChairData['forms'],
  answers: ChairData['answers'],
): string {
  return JSON.stringify(reviews.map((review) => reviewComments(review, typeForms, answers)));
}

function reviewComments(
  review: ChairData['reviewRows'][number],
  typeForms: ChairData['forms'],
  answers: ChairData['answers'],
): ReviewComments {
  const byForm = answers.get(review.id);
  return {
    reviewer: { id: review.reviewerId, name: review.reviewer },
    comments: typeForms.flatMap((form) =>
      textAnswers(form.jsonSchema, form.uiSchema, byForm?.get(form.id) ?? {}),
    ),
  };
}
