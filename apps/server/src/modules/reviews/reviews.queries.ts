import {
  isScoreForm,
  storedOptions,
  type FormType,
  type Score,
  type ScoreFormOptions,
} from '@merit/domain';
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Tx } from '../../db/client.js';
import {
  calls,
  forms,
  proposalReviewers,
  proposalTypeForms,
  proposalTypes,
  proposals,
  reviewResponses,
  reviews,
  users,
} from '../../db/schema.js';
import { personNameSql } from '../../platform/data/sql.js';
import { enforcedConflictProposalIdsSql } from '../conflicts/conflicts.queries.js';
import { typeFormsOf, type TypeFormDefinition } from '../forms/type-forms.queries.js';

export type ReviewRow = typeof reviews.$inferSelect;

/** A review form of a proposal type, with what checks and scores need. */
export type ReviewForm = TypeFormDefinition;

export const reviewFormsOf = (tx: Tx, proposalTypeId: number) =>
  typeFormsOf(tx, proposalTypeId, 'review');

/** The score options of a Review Score Form (type 3); null for the other forms. */
export const scoreOptionsOf = (form: ReviewForm) =>
  isScoreForm(form.type as FormType) ? storedOptions<ScoreFormOptions>(form.options) : null;

export async function reviewOf(tx: Tx, proposalId: number, reviewerId: number) {
  const [row] = await tx
    .select()
    .from(reviews)
    .where(and(eq(reviews.proposalId, proposalId), eq(reviews.reviewerId, reviewerId)));
  return row;
}

export async function reviewById(tx: Tx, id: number) {
  const [row] = await tx
    .select({ review: reviews, author: personNameSql(users) })
    .from(reviews)
    .innerJoin(users, eq(users.id, reviews.reviewerId))
    .where(eq(reviews.id, id));
  return row;
}

/**
 * Makes the caller's review of a proposal, at version 1; undefined when they have one
 * already (another save made it first), which this never writes over.
 */
export async function insertReview(tx: Tx, proposalId: number, reviewerId: number, now: Date) {
  const [row] = await tx
    .insert(reviews)
    .values({ proposalId, reviewerId, createdAt: now, updatedAt: now })
    .onConflictDoNothing()
    .returning();
  return row;
}

/**
 * Claims the next version of a review for one save: raises it by one only while it is
 * still `version`, in one statement, so of two saves that started from one version exactly
 * one wins. The new version; undefined when it is no longer `version` (nothing changed).
 */
export async function raiseReviewVersion(tx: Tx, reviewId: number, version: number) {
  const [row] = await tx
    .update(reviews)
    .set({ version: sql`${reviews.version} + 1` })
    .where(and(eq(reviews.id, reviewId), eq(reviews.version, version)))
    .returning({ version: reviews.version });
  return row?.version;
}

export async function writeReviewResponse(
  tx: Tx,
  reviewId: number,
  formId: number,
  data: Record<string, unknown>,
  now: Date,
) {
  await tx
    .insert(reviewResponses)
    .values({ reviewId, formId, data, updatedAt: now })
    .onConflictDoUpdate({
      target: [reviewResponses.reviewId, reviewResponses.formId],
      set: { data, updatedAt: now },
    });
}

/** The answers of some reviews, by review id then form id. */
export async function responsesOfReviews(tx: Tx, reviewIds: number[]) {
  const answers = new Map<number, Map<number, Record<string, unknown>>>();
  if (reviewIds.length === 0) return answers;
  const rows = await tx
    .select()
    .from(reviewResponses)
    .where(inArray(reviewResponses.reviewId, reviewIds));
  for (const row of rows) {
    const byForm = answers.get(row.reviewId) ?? new Map<number, Record<string, unknown>>();
    byForm.set(row.formId, row.data);
    answers.set(row.reviewId, byForm);
  }
  return answers;
}

export async function setReviewScore(
  tx: Tx,
  reviewId: number,
  scored: { score: number | null; scores: Score[] },
  now: Date,
) {
  await tx
    .update(reviews)
    .set({ score: scored.score, scores: scored.scores, updatedAt: now })
    .where(eq(reviews.id, reviewId));
}

/** A proposal's reviews, with their authors' names, oldest first. */
export async function reviewsOfProposal(tx: Tx, proposalId: number) {
  return tx
    .select({ review: reviews, author: personNameSql(users) })
    .from(reviews)
    .innerJoin(users, eq(users.id, reviews.reviewerId))
    .where(eq(reviews.proposalId, proposalId))
    .orderBy(asc(reviews.createdAt), asc(reviews.id));
}

/** The reviewers a chair assigned to a proposal, by name, with any override's reason. */
export async function reviewersOf(tx: Tx, proposalId: number): Promise<ReviewerName[]> {
  return tx
    .select({
      id: users.id,
      name: personNameSql(users),
      overrideReason: proposalReviewers.overrideReason,
    })
    .from(proposalReviewers)
    .innerJoin(users, eq(users.id, proposalReviewers.userId))
    .where(eq(proposalReviewers.proposalId, proposalId))
    .orderBy(asc(users.lastName), asc(users.firstName), asc(users.id));
}

const reviewerName = sql.raw(
  `coalesce(nullif(trim(u."first_name" || ' ' || u."last_name"), ''), u."username")`,
);

/** A reviewer of a proposal, as its page lists them. */
export interface ReviewerName {
  id: number;
  name: string;
  /**
   * Why a chair assigned them despite a conflict of interest with the proposal; null
   * without one. Only chairs are shown it (`presentReviewers`).
   */
  overrideReason: string | null;
}

/**
 * A proposal's reviewers by name as one JSON array, ordered as `reviewersOf` orders
 * them, for a query that reads the rest of the proposal's page with it. Spelled out in
 * SQL: drizzle leaves columns unqualified in a query of one table, and inside this
 * subquery an unqualified `id` would name the wrong table's.
 */
export const reviewersJsonSql = (proposalId: AnyPgColumn) => sql<ReviewerName[]>`(
  select coalesce(json_agg(json_build_object('id', u."id", 'name', ${reviewerName},
      'overrideReason', a."override_reason")
    order by u."last_name", u."first_name", u."id"), '[]'::json)
  from "proposal_reviewers" a inner join "users" u on u."id" = a."user_id"
  where a."proposal_id" = ${proposalId})`;

/** A proposal's reviews' scores as one JSON array, oldest first (as `reviewsOfProposal`). */
export const reviewScoresJsonSql = (proposalId: AnyPgColumn) => sql<
  { score: number | null; scores: Score[] }[]
>`(
  select coalesce(json_agg(json_build_object('score', r."score", 'scores', r."scores")
    order by r."created_at", r."id"), '[]'::json)
  from "reviews" r
  where r."proposal_id" = ${proposalId})`;

// --- A page of proposals at once (the chair's list), or a whole call (its export) -------

/**
 * The proposals a chair's-list query covers: some proposals by id (a page's), or every
 * proposal of a call, chosen in SQL by the call's id, so the export of a 10,000-proposal
 * call sends no list of 10,000 parameters.
 */
/**
 * Some proposals: by their ids, or every proposal of a call, or of one of its types
 * (`typeId`: the chair's export of one type).
 */
export type ProposalSet = { ids: readonly number[] } | { callId: number; typeId?: number };

/** `column` (a proposal id) is in the set; undefined when the set is an empty list of ids. */
function inSet(tx: Tx, column: AnyPgColumn, set: ProposalSet) {
  if ('callId' in set)
    return inArray(
      column,
      tx
        .select({ id: proposals.id })
        .from(proposals)
        .where(
          and(
            eq(proposals.callId, set.callId),
            set.typeId === undefined ? undefined : eq(proposals.proposalTypeId, set.typeId),
          ),
        ),
    );
  return set.ids.length === 0 ? undefined : inArray(column, [...set.ids]);
}

/** The reviews of some proposals, with their authors' names, oldest first: one query. */
export async function reviewsOfProposals(tx: Tx, proposalIds: number[]) {
  return reviewsOfSet(tx, { ids: proposalIds });
}

/**
 * The reviews of every proposal of a call (of one of its types with `typeId`), with
 * their authors' names, oldest first.
 */
export async function reviewsOfCall(tx: Tx, callId: number, typeId?: number) {
  return reviewsOfSet(tx, { callId, typeId });
}

async function reviewsOfSet(tx: Tx, set: ProposalSet) {
  const where = inSet(tx, reviews.proposalId, set);
  if (!where) return [];
  return tx
    .select({
      id: reviews.id,
      proposalId: reviews.proposalId,
      reviewerId: reviews.reviewerId,
      reviewer: personNameSql(users),
      score: reviews.score,
      scores: reviews.scores,
    })
    .from(reviews)
    .innerJoin(users, eq(users.id, reviews.reviewerId))
    .where(where)
    .orderBy(asc(reviews.createdAt), asc(reviews.id));
}

/** The assigned reviewers of some proposals, by name, in one query. */
export async function reviewersOfProposals(tx: Tx, proposalIds: number[]) {
  return reviewersOfSet(tx, { ids: proposalIds });
}

/**
 * The assigned reviewers of every proposal of a call (of one of its types with
 * `typeId`), by name, in one query.
 */
export async function reviewersOfCall(tx: Tx, callId: number, typeId?: number) {
  return reviewersOfSet(tx, { callId, typeId });
}

async function reviewersOfSet(tx: Tx, set: ProposalSet) {
  const where = inSet(tx, proposalReviewers.proposalId, set);
  if (!where) return [];
  return tx
    .select({
      proposalId: proposalReviewers.proposalId,
      id: users.id,
      name: personNameSql(users),
      overrideReason: proposalReviewers.overrideReason,
    })
    .from(proposalReviewers)
    .innerJoin(users, eq(users.id, proposalReviewers.userId))
    .where(where)
    .orderBy(asc(users.lastName), asc(users.firstName), asc(users.id));
}

/** The answers of the reviews of some proposals, by review id then form id: one query. */
export async function reviewAnswersOfProposals(tx: Tx, proposalIds: number[]) {
  return reviewAnswersOfSet(tx, { ids: proposalIds });
}

/**
 * The answers of the reviews of every proposal of a call (of one of its types with
 * `typeId`), by review id then form id.
 */
/**
 * With `textOnly`, for the chair's export of the reviews' comments: only the answers that
 * hold at least one text. Comments are the texts of the answers (`textAnswers`), so an
 * answer of numbers only (a Review Score Form's) need not be read: on a 10,000-proposal
 * call that is half of the 80,000 answers, which `pg` parsed and the server dropped
 * (bench/README.md, figure (d)).
 */
export async function reviewAnswersOfCall(
  tx: Tx,
  callId: number,
  typeId?: number,
  { textOnly = false } = {},
) {
  return reviewAnswersOfSet(tx, { callId, typeId }, textOnly);
}

async function reviewAnswersOfSet(tx: Tx, set: ProposalSet, textOnly = false) {
  const answers = new Map<number, Map<number, Record<string, unknown>>>();
  const inProposals = inSet(tx, reviews.proposalId, set);
  if (!inProposals) return answers;
  const where = textOnly
    ? and(
        inProposals,
        sql`jsonb_path_exists(${reviewResponses.data}, '$.* ? (@.type() == "string")')`,
      )
    : inProposals;
  const rows = await tx
    .select({
      reviewId: reviewResponses.reviewId,
      formId: reviewResponses.formId,
      data: reviewResponses.data,
    })
    .from(reviewResponses)
    .innerJoin(reviews, eq(reviews.id, reviewResponses.reviewId))
    .where(where);
  for (const row of rows) {
    const byForm = answers.get(row.reviewId) ?? new Map<number, Record<string, unknown>>();
    byForm.set(row.formId, row.data);
    answers.set(row.reviewId, byForm);
  }
  return answers;
}

/**
 * The review forms of every proposal type of a call (of one with `typeId`), in each
 * type's order.
 */
export async function reviewFormsOfCall(tx: Tx, callId: number, typeId?: number) {
  return tx
    .select({
      proposalTypeId: proposalTypeForms.proposalTypeId,
      id: forms.id,
      jsonSchema: forms.jsonSchema,
      uiSchema: forms.uiSchema,
    })
    .from(proposalTypeForms)
    .innerJoin(proposalTypes, eq(proposalTypes.id, proposalTypeForms.proposalTypeId))
    .innerJoin(forms, eq(forms.id, proposalTypeForms.formId))
    .where(
      and(
        eq(proposalTypes.callId, callId),
        eq(proposalTypeForms.kind, 'review'),
        typeId === undefined ? undefined : eq(proposalTypes.id, typeId),
      ),
    )
    .orderBy(asc(proposalTypeForms.proposalTypeId), asc(proposalTypeForms.position));
}

/**
 * Assigns a reviewer, with the chair's reason when they have a conflict of interest with
 * the proposal; false when they were one already.
 */
export async function insertReviewer(
  tx: Tx,
  proposalId: number,
  userId: number,
  overrideReason: string | null = null,
) {
  const rows = await tx
    .insert(proposalReviewers)
    .values({ proposalId, userId, overrideReason })
    .onConflictDoNothing()
    .returning({ userId: proposalReviewers.userId });
  return rows.length > 0;
}

export async function deleteReviewer(tx: Tx, proposalId: number, userId: number) {
  const rows = await tx
    .delete(proposalReviewers)
    .where(and(eq(proposalReviewers.proposalId, proposalId), eq(proposalReviewers.userId, userId)))
    .returning({ userId: proposalReviewers.userId });
  return rows.length > 0;
}

/** Someone who may become a reviewer: their name and address, if they are an active user. */
export async function candidateUser(tx: Tx, userId: number) {
  const [row] = await tx
    .select({
      id: users.id,
      name: personNameSql(users),
      email: users.email,
      firstName: users.firstName,
      username: users.username,
      isActive: users.isActive,
    })
    .from(users)
    .where(eq(users.id, userId));
  return row;
}

/**
 * The caller's own reviews, newest change first, for the dashboard: not of a proposal they
 * have an enforced conflict of interest with (declared after they reviewed it), whose
 * reviews, their own among them, are closed to them now.
 */
export async function myReviews(tx: Tx, reviewerId: number) {
  return tx
    .select({
      reviewId: reviews.id,
      proposalId: proposals.id,
      proposalName: proposals.name,
      callId: calls.id,
      callName: calls.name,
      score: reviews.score,
      lastModified: reviews.updatedAt,
    })
    .from(reviews)
    .innerJoin(proposals, eq(proposals.id, reviews.proposalId))
    .innerJoin(calls, eq(calls.id, proposals.callId))
    .where(
      and(
        eq(reviews.reviewerId, reviewerId),
        sql`not (${calls.conflictsEnabled}
          and ${proposals.id} in ${enforcedConflictProposalIdsSql(reviewerId)})`,
      ),
    )
    .orderBy(desc(reviews.updatedAt), desc(reviews.id));
}
