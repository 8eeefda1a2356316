import type {
  MyReview,
  PendingReview,
  ProposalReviewList,
  Reviewer,
  ReviewerChange,
  ReviewDetail,
  ReviewResponseSave,
  ReviewResponseSaved,
  ReviewSummary,
} from '@merit/contract';
import {
  addErrors,
  decide,
  hasErrors,
  isCommitteeChair,
  isRoleCurrent,
  mayReview,
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
import { forbidden, invalid, notFound } from '../../platform/http/http-errors.js';
import { enqueueMail } from '../../platform/io/mail-job.js';
import { loadActor, type ReadWork, type Work } from '../../platform/data/work.js';
import { answerErrors } from '../forms/form-access.js';
import type { LoadedProposal } from '../proposals/proposals.queries.js';
import { loadFor } from '../proposals/proposal-access.js';
import { reviewerAddedMail, reviewerRemovedMail } from './reviews.mails.js';
import {
  authorWindows,
  candidateUser,
  deleteReviewer,
  insertReview,
  insertReviewer,
  myReviews,
  pendingCandidates,
  responsesOfReviews,
  reviewById,
  reviewersOf,
  reviewFormsOf,
  reviewOf,
  reviewsOfProposal,
  scoreOptionsOf,
  setReviewScore,
  teamsOf,
  writeReviewResponse,
  type ReviewForm,
  type ReviewRow,
} from './reviews.queries.js';

/** Where a review's mails point: its editor in the web app. */
const reviewLink = (publicUrl: string, proposal: { id: number; callId: number }) =>
  `${publicUrl}/calls/${proposal.callId}/proposals/${proposal.id}/review/`;

// --- Reviewers -----------------------------------------------------------------------------

/**
 * POST /reviewers/: a chair assigns a current member of the committee, neither the
 * proposal's author nor a collaborator, once it has left the submission stage. The new
 * reviewer gets a mail; the author learns nothing.
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
  if (!(await insertReviewer(work.tx, loaded.proposal.id, person.id)))
    throw invalid({ userId: [reviewMessages.alreadyReviewer] });
  await work.audit({
    action: 'proposal.add_reviewer',
    entityId: loaded.proposal.id,
    before: { reviewerIds: loaded.resource.reviewerIds },
    after: { reviewerIds: [...loaded.resource.reviewerIds, person.id] },
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
  return { id: person.id, name: person.name };
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

/**
 * POST /review_responses/: saves one review form into the caller's review of the
 * proposal, making the review on its first save (one per reviewer and proposal), and
 * works the review's score out again. Allowed while the caller may review it (spec
 * section 6); an existing review only by its own author (spec section 5).
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

  const review = own ?? (await insertReview(tx, proposal.id, work.actor.id, now));
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
  const answers = (await responsesOfReviews(work.tx, [review.id])).get(review.id) ?? new Map();
  return {
    id: review.id,
    proposalId,
    proposalName: loaded.proposal.name,
    proposalAuthor: loaded.author.name,
    callId: loaded.call.id,
    authorId: review.reviewerId,
    author: found.author,
    responses: Object.fromEntries([...answers].map(([formId, data]) => [String(formId), data])),
    scores: review.scores,
    score: review.score,
    lastModified: review.updatedAt.toISOString(),
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
    reviewers: access === 'all' ? await reviewersOf(work.tx, proposalId) : [],
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

/** GET /pending_reviews/: every proposal the caller may review now and has not reviewed. */
export async function getPendingReviews(work: ReadWork): Promise<PendingReview[]> {
  const { actor, now } = work;
  const candidates = await pendingCandidates(
    work.tx,
    { id: actor.id, committeeIds: committeesOf(actor, now) },
    now,
  );
  const teams = await teamsOf(
    work.tx,
    candidates.map((c) => c.proposalId),
  );
  const windows = await authorWindows(
    work.tx,
    candidates.map((c) => ({ callId: c.call.id, authorId: c.authorId })),
  );
  return candidates
    .filter(
      (c) =>
        mayReview(
          actor,
          {
            call: c.call,
            authorId: c.authorId,
            collaboratorIds: teams.get(c.proposalId) ?? [],
            stateVal: c.stateVal,
            authorExtensions: windows.get(`${c.call.id}:${c.authorId}`) ?? [],
            reviewerIds: c.assigned ? [actor.id] : [],
            actorHasReview: false,
          },
          now,
        ) === true,
    )
    .map((c) => ({
      committeeName: c.committeeName,
      callId: c.call.id,
      callName: c.call.name,
      proposalId: c.proposalId,
      proposalName: c.proposalName,
      reviewDeadline: c.call.reviewTermination.toISOString(),
    }));
}
