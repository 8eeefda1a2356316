import { z } from 'zod';
import { dateTime, entityId, idParam, jsonObject, MAX_PAGE_SIZE } from './common.js';

const id = entityId;

/**
 * A named score (ARCHITECTURE.md "Scores"): a score field's number, or a proposal's
 * `result` (the mean of its reviews' scores); null when nobody gave one.
 */
export const score = z
  .object({ name: z.string(), value: z.number().nullable() })
  .meta({ id: 'Score' });
export type ScoreValue = z.infer<typeof score>;

/** A reviewer as chairs and fellow reviewers see them. */
export const reviewer = z.object({
  id,
  name: z.string(),
  /**
   * Chairs only: why a chair assigned this member despite a conflict of interest with the
   * proposal; absent when there was none.
   */
  overrideReason: z.string().optional(),
});
export type Reviewer = z.infer<typeof reviewer>;

/**
 * POST /reviewers/ and DELETE /reviewers/ (spec section 7). Assigning a member with a
 * conflict of interest is 409 `conflict` unless `overrideReason` says why (audited).
 */
export const reviewerChange = z.object({
  proposalId: id,
  userId: id,
  overrideReason: z.string().trim().min(1).max(500).optional(),
  /**
   * Assign a member who has reached their cap of reviews in the call all the same (issue
   * 27); without it such an assignment is 409 `over_cap`.
   */
  overCap: z.boolean().optional(),
});
export type ReviewerChange = z.infer<typeof reviewerChange>;

/** POST /review_responses/: one review form of the caller's review of a proposal. */
export const reviewResponseSave = z
  .object({
    call: id,
    proposal: id,
    /**
     * The review, once its first save has made it; null (or absent) for that first save.
     * Without it, when the caller has a review of the proposal already, the save is 409
     * `stale` with that review (`staleReview`), never written over it.
     */
    reviewId: id.nullable().optional(),
    /**
     * With `reviewId`: the review's version this save started from; another is 409 `stale`.
     * Each save of any of its forms raises it, so a Save All of several forms saves them one
     * after another, each naming the `version` the previous save answered.
     */
    version: z.number().int().min(1).nullish(),
    formId: id,
    /** One Save All batch (0 to 2^31-1): its audit row collects the forms it saved. */
    hash: z.number().int().min(0).max(2_147_483_647),
    data: jsonObject,
    /** Check `data` against the form's JSON Schema (default); false saves a draft. */
    validate: z.boolean().default(true),
  })
  .refine((save) => !save.reviewId || save.version != null, {
    message: 'Say which version of the review this save started from.',
    path: ['version'],
  });

/** The `current` of a 409 `stale` from a review save: the review as saved now. */
export const staleReview = z.object({
  reviewId: id,
  version: z.number().int(),
  responses: z.record(z.string(), jsonObject),
  savedAt: dateTime,
});
export type StaleReview = z.infer<typeof staleReview>;
export type ReviewResponseSave = z.input<typeof reviewResponseSave>;

export const reviewResponseSaved = z.object({
  reviewId: id,
  proposalId: id,
  formId: id,
  /** The review's score after this save; null until a score field has a number. */
  score: z.number().nullable(),
  lastModified: dateTime,
  /** The review's version after this save: the next save of it names this one. */
  version: z.number().int(),
});
export type ReviewResponseSaved = z.infer<typeof reviewResponseSaved>;

export const reviewAbilities = z.object({
  /** May change it now: its own author, while reviewing is allowed (spec section 5). */
  edit: z.boolean(),
});

/** GET /reviews/{proposalId}/{reviewId}/ (spec section 3, Review). */
export const reviewDetail = z
  .object({
    id,
    proposalId: id,
    proposalName: z.string(),
    proposalAuthor: z.string(),
    callId: id,
    /** The reviewer. */
    authorId: id,
    author: z.string(),
    /** Each review form's answers, keyed by form id (as a string). */
    responses: z.record(z.string(), jsonObject),
    scores: z.array(score),
    score: z.number().nullable(),
    lastModified: dateTime,
    /** Raised by each save: a save names the version it started from. */
    version: z.number().int(),
    abilities: reviewAbilities,
  })
  .meta({ id: 'Review' });
export type ReviewDetail = z.infer<typeof reviewDetail>;

/** A review in a proposal's review list, with what the Review Summary CSV needs. */
export const reviewSummary = z.object({
  id,
  authorId: id,
  author: z.string(),
  score: z.number().nullable(),
  scores: z.array(score),
  /** The text answers of its review forms, labelled by the schemas' titles. */
  comments: z.array(z.object({ name: z.string(), value: z.string() })),
  lastModified: dateTime,
  abilities: reviewAbilities,
});
export type ReviewSummary = z.infer<typeof reviewSummary>;

/** GET /calls/{callId}/proposals/{proposalId}/reviews/. */
export const proposalReviewList = z.object({
  proposalId: id,
  proposalName: z.string(),
  callId: id,
  reviews: z.array(reviewSummary),
  reviewers: z.array(reviewer),
  /** Chairs only: each score field's average and the average result. */
  totals: z.array(score).optional(),
});
export type ProposalReviewList = z.infer<typeof proposalReviewList>;

/** GET /pending_reviews/: a proposal the caller may review now and has not. */
export const pendingReview = z.object({
  committeeName: z.string(),
  callId: id,
  callName: z.string(),
  proposalId: id,
  proposalName: z.string(),
  reviewDeadline: dateTime,
});
export type PendingReview = z.infer<typeof pendingReview>;
/** One page of them, nearest review deadline first (the spec's whole list, paged). */
export const pendingReviewList = z.array(pendingReview);

/** The rows of a page of GET /pending_reviews/: by default, and at most. */
export const PENDING_REVIEWS_PAGE = MAX_PAGE_SIZE;

const limitMessage = `Expected a limit from 1 to ${PENDING_REVIEWS_PAGE}.`;
const offsetMessage = 'Expected an offset from 0.';

/**
 * The query of GET /pending_reviews/: skip `offset` rows, then at most `limit`. Both are
 * optional, so the spec's request without them gets the first page in the spec's shape;
 * how many there are in all is GET /pending_reviews/count/.
 */
export const pendingReviewsQuery = z.object({
  limit: z
    .string()
    .regex(/^[1-9][0-9]{0,8}$/, { error: limitMessage })
    .transform(Number)
    .pipe(z.number().max(PENDING_REVIEWS_PAGE, { error: limitMessage }))
    .default(PENDING_REVIEWS_PAGE),
  offset: z
    .string()
    .regex(/^(0|[1-9][0-9]{0,8})$/, { error: offsetMessage })
    .transform(Number)
    .default(0),
});
export type PendingReviewsQuery = z.output<typeof pendingReviewsQuery>;

/** GET /pending_reviews/count/: how many pending reviews in all, for the dashboard's panel. */
export const pendingReviewCount = z.object({ total: z.number().int().min(0) });
export type PendingReviewCount = z.infer<typeof pendingReviewCount>;

/** GET /reviews/: the caller's own reviews, for the dashboard. */
export const myReview = z.object({
  callName: z.string(),
  proposalName: z.string(),
  reviewId: id,
  proposalId: id,
  callId: id,
  score: z.number().nullable(),
  lastModified: dateTime,
});
export type MyReview = z.infer<typeof myReview>;
export const myReviewList = z.array(myReview);

export const reviewParams = z.object({ proposalId: idParam, reviewId: idParam });
export const proposalReviewsParams = z.object({ callId: idParam, proposalId: idParam });
