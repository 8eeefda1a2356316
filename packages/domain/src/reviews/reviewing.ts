import type { CallForPolicy } from '../calls/call.policy.js';
import { reviewWindowOpen, submissionOpenFor, type TimeWindow } from '../calls/windows.js';
import {
  isCommitteeChair,
  isCommitteeMember,
  type CommitteeActor,
} from '../permissions/committee.js';
import { allOf, conflict, forbidden, type Decision } from '../permissions/policy.js';
import { utcTime } from '../dates.js';
import {
  conflictMessages,
  isEnforced,
  type CallConflictSettings,
  type ConflictFacts,
} from '../conflicts/conflicts.js';

/** A call as the reviewing rules read it: its windows, committee, and who may review. */
export interface ReviewCall extends CallForPolicy, CallConflictSettings {
  /** Set when the call is made: any member may review, not only assigned reviewers. */
  isReviewOpen: boolean;
}

/** A proposal as the reviewing rules read it. */
export interface ReviewedProposal {
  call: ReviewCall;
  authorId: number;
  collaboratorIds: readonly number[];
  /** Stored state: 0 Draft, 1 Submitted. */
  stateVal: number;
  /** The author's extensions: submission stays open for the proposal in them. */
  authorExtensions: readonly TimeWindow[];
  /** The reviewers the chair assigned. */
  reviewerIds: readonly number[];
  /** Whether the actor has saved a review of it. */
  actorHasReview: boolean;
  /** The actor's conflict of interest with it, of any state; null when there is none. */
  actorConflict: ConflictFacts | null;
  /** Whether the actor has answered its conflict declaration ("No conflict" or one). */
  actorDeclared: boolean;
}

export const reviewMessages = {
  /** Spec section 8, word for word. */
  saveFailed: 'There was an error saving the review',
  notFound: 'There is no review with this id.',
  windowClosed: 'Reviews of this call can be saved only while its review period is open.',
  submissionOpen:
    'Its author can still change this proposal: it can be reviewed once submission has closed for it.',
  notSubmitted: 'This proposal has not been submitted, so it cannot be reviewed.',
  ownProposal: 'You cannot review a proposal you wrote or collaborate on.',
  notMember: 'Only current members of the call’s committee can review its proposals.',
  notAssigned: 'Only the reviewers the chair assigned can review this proposal.',
  notOwnReview: 'Only the person who wrote this review can change it.',
  chairsOnly: 'Only the chairs of the call’s committee can assign reviewers.',
  submissionStage:
    'Reviewers can be assigned once the proposal is submitted or submission has closed for it.',
  reviewerNotMember: 'This person is not a current member of the call’s committee.',
  reviewerIsTeam: 'The author and the collaborators of a proposal cannot review it.',
  alreadyReviewer: 'This person is a reviewer of this proposal already.',
  notReviewer: 'This person is not a reviewer of this proposal.',
  formNotInType: 'This form is not one of the review forms of this proposal’s type.',
  otherProposal: 'This review belongs to another proposal.',
  /** 409 `stale`: the review was saved (in another tab or window) after this one opened it. */
  stale: (savedAt: Date) =>
    `This review was changed on ${utcTime(savedAt)}, after you opened it, so your answers were not saved. Compare them with the saved review, then save again.`,
  /** 409 `stale`: a save as a new review when the caller has saved one of this proposal. */
  reviewExists: (savedAt: Date) =>
    `You have already saved a review of this proposal (last changed on ${utcTime(savedAt)}), so these answers were not saved. Open your saved review to change it.`,
} as const;

type People = Pick<ReviewedProposal, 'authorId' | 'collaboratorIds'>;

/** The author or a collaborator: the people a proposal belongs to. */
export const isProposalTeam = (actor: CommitteeActor, proposal: People) =>
  actor.id === proposal.authorId || proposal.collaboratorIds.includes(actor.id);

/**
 * The actor has a conflict of interest with the proposal that is enforced: confirmed (as
 * every declared one is), on a call with conflicts turned on. Its author and collaborators
 * are kept away by being its team, whatever the call's settings.
 */
export const isConflicted = (
  actor: CommitteeActor,
  proposal: Pick<ReviewedProposal, 'authorId' | 'collaboratorIds' | 'actorConflict'> & {
    call: Pick<ReviewCall, 'conflictsEnabled'>;
  },
) => !isProposalTeam(actor, proposal) && isEnforced(proposal.call, proposal.actorConflict);

/**
 * The actor must answer whether they have a conflict before the proposal's text, answers
 * and files open for them: a member of the committee (not a chair: chairs run the call and
 * their conflicts come from the applicants, the detector and the other chairs), not of its
 * team, on a submitted proposal of a call that asks for declarations, who has not answered
 * and has no confirmed conflict with it already.
 */
export function declarationPending(
  actor: CommitteeActor,
  proposal: ReviewedProposal,
  now: Date,
): boolean {
  const { call } = proposal;
  return (
    call.conflictsEnabled &&
    call.declarationRequired &&
    proposal.stateVal >= 1 &&
    !proposal.actorDeclared &&
    !isProposalTeam(actor, proposal) &&
    !isCommitteeChair(actor, call.committeeId, now) &&
    isCommitteeMember(actor, call.committeeId, now) &&
    // Only a confirmed conflict answers for them: a suggestion is the question the chairs
    // still ask, which the member's own answer helps settle.
    proposal.actorConflict?.state !== 'confirmed'
  );
}

/**
 * Still in the submission stage: a draft while submission is open for its author. Once
 * it is submitted, or the author's window (their extension counts) has closed, its
 * reviewers may be chosen.
 */
export const inSubmissionStage = (proposal: ReviewedProposal, now: Date) =>
  proposal.stateVal === 0 && submissionOpenFor(proposal.call, proposal.authorExtensions, now);

/**
 * Reviewing requires (spec section 6), each a condition of its own so a refusal says
 * which one failed: the review window is open; submission has closed for the author
 * (their extension counts); the proposal is submitted; the reviewer is neither its author
 * nor a collaborator; they are a current member of the call's committee (chairs and
 * admins are); and the call's review is open to all members, or they are assigned.
 */
export function mayReview(actor: CommitteeActor, proposal: ReviewedProposal, now: Date): Decision {
  return allOf(
    () => (isProposalTeam(actor, proposal) ? forbidden(reviewMessages.ownProposal) : true),
    () => (isConflicted(actor, proposal) ? forbidden(conflictMessages.reviewConflicted) : true),
    () =>
      isCommitteeMember(actor, proposal.call.committeeId, now)
        ? true
        : forbidden(reviewMessages.notMember),
    () =>
      proposal.call.isReviewOpen || proposal.reviewerIds.includes(actor.id)
        ? true
        : forbidden(reviewMessages.notAssigned),
    () => (proposal.stateVal >= 1 ? true : conflict(reviewMessages.notSubmitted)),
    () =>
      submissionOpenFor(proposal.call, proposal.authorExtensions, now)
        ? conflict(reviewMessages.submissionOpen)
        : true,
    () => (reviewWindowOpen(proposal.call, now) ? true : conflict(reviewMessages.windowClosed)),
  );
}

/**
 * Which reviews of a proposal the actor sees (ARCHITECTURE.md "Visibility"): chairs of
 * its committee and admins, all of them; a member who may review it, all of them; anyone
 * else who wrote one, their own; its author and collaborators, and anyone with a conflict
 * of interest with it (chairs and admins too), none, ever.
 */
export function reviewAccess(
  actor: CommitteeActor,
  proposal: ReviewedProposal,
  now: Date,
): 'all' | 'own' | 'none' {
  if (isProposalTeam(actor, proposal) || isConflicted(actor, proposal)) return 'none';
  if (isCommitteeChair(actor, proposal.call.committeeId, now)) return 'all';
  if (mayReview(actor, proposal, now) === true) return 'all';
  return proposal.actorHasReview ? 'own' : 'none';
}

/**
 * Assigning reviewers: the chairs of the call's committee (never on their own proposal,
 * whose reviewers they may not know), once the proposal has left the submission stage.
 */
export function mayManageReviewers(
  actor: CommitteeActor,
  proposal: ReviewedProposal,
  now: Date,
): Decision {
  return allOf(
    () =>
      isCommitteeChair(actor, proposal.call.committeeId, now) && !isProposalTeam(actor, proposal)
        ? true
        : forbidden(reviewMessages.chairsOnly),
    () => (isConflicted(actor, proposal) ? forbidden(conflictMessages.chairConflicted) : true),
    () => (inSubmissionStage(proposal, now) ? conflict(reviewMessages.submissionStage) : true),
  );
}

/**
 * Who may be assigned: a current member of the committee who is not of the proposal's
 * team. Conflicts of interest are not read here (`proposal.actorConflict` is the chair's,
 * not the candidate's): the server reads the candidate's own conflict with the proposal,
 * and an enforced one (`isEnforced`) is not a problem of this kind but a 409 `conflict`
 * (`conflictMessages.assignConflicted`) the chair may override with a reason (POST
 * /reviewers/ `overrideReason`).
 */
export function reviewerCandidateProblem(
  candidate: CommitteeActor,
  proposal: ReviewedProposal,
  now: Date,
): string | null {
  if (isProposalTeam(candidate, proposal)) return reviewMessages.reviewerIsTeam;
  // Admins count as members for what they may do, but a reviewer is someone on the committee.
  if (!isCommitteeMember({ ...candidate, isAdmin: false }, proposal.call.committeeId, now))
    return reviewMessages.reviewerNotMember;
  if (proposal.reviewerIds.includes(candidate.id)) return reviewMessages.alreadyReviewer;
  return null;
}
