import {
  isCommitteeChair,
  isCommitteeMember,
  type CommitteeActor,
} from '../permissions/committee.js';
import { allOf, conflict, forbidden, hidden, type Decision } from '../permissions/policy.js';
import { isConflicted, isProposalTeam, type ReviewedProposal } from '../reviews/reviewing.js';
import { conflictMessages, type ConflictFacts, type ConflictState } from './conflicts.js';

/*
 * Who may see and do what with conflicts of interest. Each rule reads plain data: the
 * proposal as the actor sees it (`ReviewedProposal`: the call's settings, its team, the
 * actor's own conflict) and, for a change to one conflict, that conflict.
 *
 * | persona                      | own declarations | every conflict | change one   | answer gate |
 * | ---------------------------- | ---------------- | -------------- | ------------ | ----------- |
 * | author, collaborator         | declare, remove* | -              | -            | -           |
 * | member (not team)            | -                | -              | -            | once        |
 * | chair (not team, not confl.) | -                | see            | all but own  | once        |
 * | chair with a conflict        | -                | -              | -            | once        |
 * | admin                        | -                | see            | all but own  | once        |
 *
 * (*) not one a chair pinned. An admin with a conflict is as a chair with one; on their
 * own proposal, anyone is its author or collaborator first. On a call with conflicts
 * turned off, only the views remain (the team's and the chairs'), so turning them on
 * again finds what was recorded.
 */

const conflictsOn = (proposal: ReviewedProposal): Decision =>
  proposal.call.conflictsEnabled ? true : conflict(conflictMessages.conflictsOff);

const chairNotConflicted = (actor: CommitteeActor, proposal: ReviewedProposal, now: Date) =>
  allOf(
    () =>
      isCommitteeChair(actor, proposal.call.committeeId, now) && !isProposalTeam(actor, proposal)
        ? true
        : forbidden(conflictMessages.chairsOnly),
    // A chair with a conflict must not learn who else is kept away from the proposal, nor undo it.
    () => (isConflicted(actor, proposal) ? hidden(conflictMessages.chairsOnly) : true),
  );

/** The proposal's author and collaborators declare its conflicts while the call is open. */
export const mayDeclareAsApplicant = (
  actor: CommitteeActor,
  proposal: ReviewedProposal,
): Decision =>
  allOf(
    () => (isProposalTeam(actor, proposal) ? true : forbidden(conflictMessages.applicantsOnly)),
    () => conflictsOn(proposal),
    () => (proposal.call.closed ? conflict(conflictMessages.callClosed) : true),
  );

/** Its team sees the declarations; chairs without a conflict see every conflict of it. */
export const mayViewConflicts = (
  actor: CommitteeActor,
  proposal: ReviewedProposal,
  now: Date,
): Decision => (isProposalTeam(actor, proposal) ? true : chairNotConflicted(actor, proposal, now));

/** Chairs of the committee without a conflict of their own add, confirm, dismiss and pin. */
export const mayManageConflicts = (
  actor: CommitteeActor,
  proposal: ReviewedProposal,
  now: Date,
): Decision =>
  allOf(
    () => chairNotConflicted(actor, proposal, now),
    () => conflictsOn(proposal),
  );

/**
 * A member answers "No conflict" or "I have a conflict" once per proposal: anyone on the
 * committee (chairs too, to step aside) but its team, once it is submitted.
 */
export const mayAnswerDeclaration = (
  actor: CommitteeActor,
  proposal: ReviewedProposal,
  now: Date,
): Decision =>
  allOf(
    () =>
      isCommitteeMember(actor, proposal.call.committeeId, now) && !isProposalTeam(actor, proposal)
        ? true
        : forbidden(conflictMessages.declarationNotNeeded),
    () => conflictsOn(proposal),
    () => (proposal.stateVal >= 1 ? true : forbidden(conflictMessages.declarationNotNeeded)),
    () => (proposal.actorDeclared ? conflict(conflictMessages.alreadyDeclared) : true),
  );

/** One conflict as a change to it reads: whose it is, and what it is. */
export interface ConflictOfPerson extends ConflictFacts {
  userId: number;
}

/**
 * Why a chair (who may manage the proposal's conflicts) may not make this change to this
 * conflict, or null: no one judges their own; authorship is a fact, not a judgement; a
 * member's own declaration cannot be dismissed for them.
 */
export function conflictChangeProblem(
  actor: CommitteeActor,
  target: ConflictOfPerson,
  change: { state?: ConflictState; remove?: boolean },
): string | null {
  if (target.userId === actor.id) return conflictMessages.ownConflict;
  if (target.type === 'author' && (change.remove || change.state !== undefined))
    return change.state === 'confirmed' ? null : conflictMessages.authorConflict;
  if (target.source === 'reviewer' && (change.remove || change.state === 'dismissed'))
    return conflictMessages.reviewerDeclared;
  return null;
}

/** Why the applicant may not remove their declaration, or null: a chair pinned it, or it is not theirs. */
export function applicantRemovalProblem(target: ConflictFacts): string | null {
  if (target.pinned) return conflictMessages.pinned;
  if (target.source !== 'applicant') return conflictMessages.notApplicantDeclared;
  return null;
}
