import {
  errorCodes,
  type MyReview,
  type PendingReview,
  type PendingReviewCount,
  type PendingReviewsQuery,
  type ProposalReviewList,
  type Reviewer,
  type ReviewerChange,
  type ReviewDetail,
  type ReviewResponseSave,
  type ReviewResponseSaved,
  type ReviewSummary,
  type StaleReview,
} from '@merit/contract';
import {
  addErrors,
  assignmentMessages,
  conflictMessages,
  decide,
  hasErrors,
  isCommitteeChair,
  isEnforced,
  isRoleCurrent,
  proposalScores,
  reviewAccess,
  reviewerCandidateProblem,
  reviewMessages,
  reviewScore,
  textAnswers,
  type CommitteeActor,
  type FieldErrors,
  type ProposalResource,
  type ScoredForm,
} from '@merit/domain';
import { addToAuditBatch } from '../../platform/data/audit.js';
import {
  conflict,
  forbidden,
  HttpError,
  invalid,
  notFound,
  stale,
} from '../../platform/http/http-errors.js';
import { enqueueMail } from '../../platform/io/mail-job.js';
import { loadActor, type ReadWork, type Work } from '../../platform/data/work.js';
import { capAndLoadOf } from '../assignment/assignment.queries.js';
import { conflictOfPerson } from '../conflicts/conflicts.queries.js';
import { answerErrors } from '../forms/form-access.js';
import type { LoadedProposal } from '../proposals/proposals.queries.js';
import { loadFor } from '../proposals/proposal-access.js';
import { pendingReviewPage, pendingReviewTotal } from './pending.queries.js';
import { presentReviewers } from './review-access.js';
import { reviewerAddedMail, reviewerRemovedMail } from './reviews.mails.js';
import {
  candidateUser,
  deleteReviewer,
  insertReview,
  insertReviewer,
  myReviews,
  raiseReviewVersion,
  responsesOfReviews,
  reviewById,
  reviewersOf,
  reviewFormsOf,
  reviewOf,
  reviewsOfProposal,
  scoreOptionsOf,
  setReviewScore,
  writeReviewResponse,
  type ReviewForm,
  type ReviewRow,
} from './reviews.queries.js';

/** Where a review's mails point: its editor in the web app. */
const reviewLink = (publicUrl: string, proposal: { id: number; callId: number }) =>
  `${publicUrl}/calls/${proposal.callId}/proposals/${proposal.id}/review/`;

// --- Reviewers -----------------------------------------------------------------------------

/**
 * POST /reviewers/: a chair (without a conflict of interest with the proposal) assigns a
 * current member of the committee, neither the proposal's author nor a collaborator, once
 * it has left the submission stage. A member with an enforced conflict of interest with it
 * is 409 `conflict` naming the conflict, unless the chair gives `overrideReason`: then the
 * reason is stored with the assignment, in its audit row, and shown to chairs beside the
 * reviewer. A member who has as many reviews in the call as their cap (issue 27) is 409
 * `over_cap`, unless the chair sends `overCap`. The new reviewer gets a mail; the author
 * learns nothing.
 */
export async function assignReviewer(
  work: Work,
  input: ReviewerChange,
  publicUrl: string,
): Promise<Reviewer> {
  const loaded = await loadFor(work, 'proposal.manageReviewers', input.proposalId, true);
  const person = await candidateUser(work.tx, input.userId);
  if (!person?.isActive) throw invalid({ userId: [reviewMessages.reviewerNotMember] });
  const candidate = await loadActor(work.tx, person.id, false);
  const problem = reviewerCandidateProblem(candidate, loaded.resource, work.now);
  if (problem) throw invalid({ userId: [problem] });
  const candidateConflict = await conflictOfPerson(work.tx, loaded.proposal.id, person.id);
  // A reason given for a member without an enforced conflict overrides nothing: not kept.
  const overrideReason = isEnforced(loaded.call, candidateConflict)
    ? (input.overrideReason ?? null)
    : null;
  if (candidateConflict && isEnforced(loaded.call, candidateConflict) && overrideReason === null)
    throw conflict(conflictMessages.assignConflicted(person.name, candidateConflict.type));
  // Caps hold for one assignment as for Propose (issue 27); the chair may insist.
  const { cap, load } = await capAndLoadOf(work.tx, loaded.call, person.id, work.now);
  if (load >= cap && input.overCap !== true)
    throw new HttpError(409, errorCodes.overCap, assignmentMessages.overCap(person.name, cap));
  if (!(await insertReviewer(work.tx, loaded.proposal.id, person.id, overrideReason)))
    throw invalid({ userId: [reviewMessages.alreadyReviewer] });
  await work.audit({
    action: 'proposal.add_reviewer',
    entityId: loaded.proposal.id,
    subjectUserId: person.id,
    before: { reviewerIds: loaded.resource.reviewerIds },
    after: {
      reviewerIds: [...loaded.resource.reviewerIds, person.id],
      ...(overrideReason === null ? {} : { overrideReason }),
    },
  });
  await enqueueMail(
    work,
    reviewerAddedMail(person, {
      callName: loaded.call.name,
      proposalName: loaded.proposal.name,
      reviewDeadline: loaded.call.reviewTermination,
      link: reviewLink(publicUrl, loaded.proposal),
    }),
  );
  return presentReviewers([{ id: person.id, name: person.name, overrideReason }], true)[0]!;
}

/** DELETE /reviewers/: a chair takes an assignment back; the person gets a short note. */
export async function removeReviewer(
  work: Work,
  input: ReviewerChange,
  publicUrl: string,
): Promise<void> {
  const loaded = await loadFor(work, 'proposal.manageReviewers', input.proposalId, true);
  if (!(await deleteReviewer(work.tx, loaded.proposal.id, input.userId)))
    throw invalid({ userId: [reviewMessages.notReviewer] });
  await work.audit({
    action: 'proposal.remove_reviewer',
    entityId: loaded.proposal.id,
    subjectUserId: input.userId,
    before: { reviewerIds: loaded.resource.reviewerIds },
    after: { reviewerIds: loaded.resource.reviewerIds.filter((id) => id !== input.userId) },
  });
  const person = await candidateUser(work.tx, input.userId);
  if (person?.isActive)
    await enqueueMail(
      work,
      reviewerRemovedMail(person, {
        callName: loaded.call.name,
        proposalName: loaded.proposal.name,
        reviewDeadline: loaded.call.reviewTermination,
        link: `${publicUrl}/`,
      }),
    );
}

// --- Saving ----------------------------------------------------------------------------------

/** A review's score from all its answers, by the score forms' options. */
function scoreOf(forms: readonly ReviewForm[], answers: Map<number, Record<string, unknown>>) {
  const scored: ScoredForm[] = [];
  for (const form of forms) {
    const options = scoreOptionsOf(form);
    if (options) scored.push({ options, data: answers.get(form.id) ?? {} });
  }
  return reviewScore(scored);
}

/** A review's answers keyed by form id (as a string), as the API sends them. */
const byFormId = (answers: Map<number, Record<string, unknown>> | undefined) =>
  Object.fromEntries([...(answers ?? [])].map(([formId, data]) => [String(formId), data]));

/** A review as saved now: the `current` of a 409 `stale` from a save of it. */
async function staleReviewOf(work: ReadWork, review: ReviewRow): Promise<StaleReview> {
  return {
    reviewId: review.id,
    version: review.version,
    responses: byFormId((await responsesOfReviews(work.tx, [review.id])).get(review.id)),
    savedAt: review.updatedAt.toISOString(),
  };
}

/** The 409 `stale` with the caller's review as saved now; `message` says why. */
async function staleReview(work: Work, proposalId: number, message: (savedAt: Date) => string) {
  const saved = (await reviewOf(work.tx, proposalId, work.actor.id))!;
  return stale(message(saved.updatedAt), await staleReviewOf(work, saved));
}

/**
 * POST /review_responses/: saves one review form into the caller's review of the
 * proposal, making the review on its first save (one per reviewer and proposal), and
 * works the review's score out again. Allowed while the caller may review it (spec
 * section 6); an existing review only by its own author (spec section 5), and only from
 * the version the save names (each save raises it): anything else is 409 `stale` with the
 * review as saved, and writes nothing. A save without `reviewId` never writes into a
 * review the caller has already (the new-review page open twice).
 */
export async function saveReviewResponse(
  work: Work,
  input: ReviewResponseSave,
): Promise<ReviewResponseSaved> {
  const { tx, now } = work;
  // The proposal's row stays locked: two first saves of one review take turns.
  const loaded = await loadFor(work, 'proposal.review', input.proposal, true);
  const { proposal } = loaded;
  const own = await reviewOf(tx, proposal.id, work.actor.id);
  if (input.reviewId != null && input.reviewId !== own?.id) {
    const other = await reviewById(tx, input.reviewId);
    if (!other || other.review.proposalId !== proposal.id) throw notFound(reviewMessages.notFound);
    throw forbidden(reviewMessages.notOwnReview);
  }
  // Before the answers are checked: they may be moot once the person sees the saved review.
  if (own && input.reviewId == null)
    throw await staleReview(work, proposal.id, reviewMessages.reviewExists);
  if (own && own.version !== input.version)
    throw await staleReview(work, proposal.id, reviewMessages.stale);

  const errors: FieldErrors = {};
  if (proposal.callId !== input.call) addErrors(errors, 'call', [reviewMessages.otherProposal]);
  const forms = await reviewFormsOf(tx, proposal.proposalTypeId);
  const form = forms.find((f) => f.id === input.formId);
  if (!form) addErrors(errors, 'formId', [reviewMessages.formNotInType]);
  if (hasErrors(errors)) throw invalid(errors);
  if (input.validate !== false) {
    const problems = answerErrors(form!, input.data);
    if (hasErrors(problems)) throw invalid(problems, reviewMessages.saveFailed);
  }

  let review: ReviewRow;
  if (own) {
    // The check above read it; this claims the version in one statement, so of two saves
    // from one version exactly one is written, whatever else serialises them.
    const version = await raiseReviewVersion(tx, own.id, own.version);
    if (version === undefined) throw await staleReview(work, proposal.id, reviewMessages.stale);
    review = { ...own, version };
  } else {
    const made = await insertReview(tx, proposal.id, work.actor.id, now);
    if (!made) throw await staleReview(work, proposal.id, reviewMessages.reviewExists);
    review = made;
  }
  await writeReviewResponse(tx, review.id, input.formId, input.data, now);
  const answers = (await responsesOfReviews(tx, [review.id])).get(review.id)!;
  const scored = scoreOf(forms, answers);
  await setReviewScore(tx, review.id, scored, now);
  const batch = {
    action: 'review.save' as const,
    entityId: review.id,
  };
  if (!(await addToAuditBatch(tx, { ...batch, hash: input.hash }, 'forms', input.formId)))
    await work.audit({
      ...batch,
      after: { hash: input.hash, proposalId: proposal.id, forms: [input.formId] },
    });
  return {
    reviewId: review.id,
    proposalId: proposal.id,
    formId: input.formId,
    score: scored.score,
    lastModified: now.toISOString(),
    version: review.version,
  };
}

// --- Reading -------------------------------------------------------------------------------

/** Whether the actor may see this review: all of the proposal's, or this one as its own. */
function seesReview(
  actor: CommitteeActor,
  resource: ProposalResource,
  review: ReviewRow,
  now: Date,
): boolean {
  const access = reviewAccess(actor, resource, now);
  return access === 'all' || (access === 'own' && review.reviewerId === actor.id);
}

/** Its own author may change a review while they may review the proposal. */
const mayEditReview = (work: ReadWork, loaded: LoadedProposal, review: ReviewRow) =>
  review.reviewerId === work.actor.id &&
  decide('proposal.review', work.actor, loaded.resource, work.now) === true;

/** GET /reviews/{proposalId}/{reviewId}/: one review, for whoever may see it. */
export async function getReview(
  work: ReadWork,
  proposalId: number,
  reviewId: number,
): Promise<ReviewDetail> {
  const loaded = await loadFor(work, 'proposal.view', proposalId);
  const found = await reviewById(work.tx, reviewId);
  if (
    !found ||
    found.review.proposalId !== proposalId ||
    !seesReview(work.actor, loaded.resource, found.review, work.now)
  )
    throw notFound(reviewMessages.notFound);
  const { review } = found;
  const answers = (await responsesOfReviews(work.tx, [review.id])).get(review.id);
  return {
    id: review.id,
    proposalId,
    proposalName: loaded.proposal.name,
    proposalAuthor: loaded.author.name,
    callId: loaded.call.id,
    authorId: review.reviewerId,
    author: found.author,
    responses: byFormId(answers),
    scores: review.scores,
    score: review.score,
    lastModified: review.updatedAt.toISOString(),
    version: review.version,
    abilities: { edit: mayEditReview(work, loaded, review) },
  };
}

/**
 * GET /calls/{callId}/proposals/{proposalId}/reviews/: the reviews the caller may see,
 * with their scores and written answers (for the Review Summary CSV), the assigned
 * reviewers, and for chairs the averages of each score field and of the result.
 */
export async function listProposalReviews(
  work: ReadWork,
  callId: number,
  proposalId: number,
): Promise<ProposalReviewList> {
  const loaded = await loadFor(work, 'proposal.viewReviews', proposalId);
  if (loaded.call.id !== callId) throw notFound(reviewMessages.notFound);
  const { actor, now } = work;
  const access = reviewAccess(actor, loaded.resource, now);
  const rows = (await reviewsOfProposal(work.tx, proposalId)).filter(
    (r) => access === 'all' || r.review.reviewerId === actor.id,
  );
  const forms = await reviewFormsOf(work.tx, loaded.proposal.proposalTypeId);
  const answers = await responsesOfReviews(
    work.tx,
    rows.map((r) => r.review.id),
  );
  const reviews: ReviewSummary[] = rows.map(({ review, author }) => ({
    id: review.id,
    authorId: review.reviewerId,
    author,
    score: review.score,
    scores: review.scores,
    comments: forms.flatMap((form) =>
      textAnswers(form.jsonSchema, form.uiSchema, answers.get(review.id)?.get(form.id) ?? {}),
    ),
    lastModified: review.updatedAt.toISOString(),
    abilities: { edit: mayEditReview(work, loaded, review) },
  }));
  const chair = isCommitteeChair(actor, loaded.call.committeeId, now);
  return {
    proposalId,
    proposalName: loaded.proposal.name,
    callId,
    reviews,
    reviewers:
      access === 'all' ? presentReviewers(await reviewersOf(work.tx, proposalId), chair) : [],
    ...(chair ? { totals: proposalScores(rows.map((r) => r.review)) } : {}),
  };
}

/** GET /reviews/: the caller's own reviews. */
export async function getMyReviews(work: ReadWork): Promise<MyReview[]> {
  const rows = await myReviews(work.tx, work.actor.id);
  return rows.map((row) => ({ ...row, lastModified: row.lastModified.toISOString() }));
}

/** The committees the actor is on now; null for admins, who are on all of them. */
function committeesOf(actor: CommitteeActor, now: Date): number[] | null {
  if (actor.isAdmin) return null;
  return [...new Set(actor.roles.filter((r) => isRoleCurrent(r, now)).map((r) => r.committeeId))];
}

/** The caller as the pending list reads them: their id and committees now. */
const pendingReviewer = ({ actor, now }: ReadWork) => ({
  id: actor.id,
  committeeIds: committeesOf(actor, now),
});

/**
 * GET /pending_reviews/: one page of the proposals the caller may review now and has not
 * reviewed, `mayReview` in SQL (pending.queries.ts): an admin is on every committee, so
 * the whole list can be every proposal of every open call.
 */
export async function getPendingReviews(
  work: ReadWork,
  page: PendingReviewsQuery,
): Promise<PendingReview[]> {
  const rows = await pendingReviewPage(work.tx, pendingReviewer(work), work.now, page);
  return rows.map((row) => ({ ...row, reviewDeadline: row.reviewDeadline.toISOString() }));
}

/** GET /pending_reviews/count/: how many pending reviews the caller has, counted in SQL. */
export async function getPendingReviewCount(work: ReadWork): Promise<PendingReviewCount> {
  return { total: await pendingReviewTotal(work.tx, pendingReviewer(work), work.now) };
}
