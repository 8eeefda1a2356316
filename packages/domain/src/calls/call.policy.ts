import { mayBid, mayManageAssignment } from '../assignment/assignment.js';
import { decisionMessages } from '../decisions/outcomes.js';
import { messages } from '../messages.js';
import {
  chairedCommitteeIds,
  isAnyChair,
  isCommitteeChair,
  isCommitteeMember,
  type CommitteeActor,
} from '../permissions/committee.js';
import { allOf, conflict, definePolicy, forbidden, type Decision } from '../permissions/policy.js';
import { isRoleCurrent } from '../roles.js';
import { callMessages } from './call-validation.js';
import { canBeClosed, submissionOpenFor, type CallState, type TimeWindow } from './windows.js';

export interface CallForPolicy extends CallState {
  committeeId: number;
  /** When the chairs released its decisions (issue 29); absent or null: not yet. */
  decisionsReleasedAt?: Date | null;
}

/** Whether a call's decisions (outcomes, awards, letters) have been released to the applicants. */
export const decisionsReleased = (call: Pick<CallForPolicy, 'closed' | 'decisionsReleasedAt'>) =>
  call.closed && call.decisionsReleasedAt != null;

/** A call as one actor's rules see it: with that actor's own extension windows. */
export interface CallResource extends CallForPolicy {
  actorExtensions: readonly TimeWindow[];
  /** The chairs opened bidding on its proposals (reviewer assignment, issue 27). */
  biddingOpen: boolean;
}

const chair = (actor: CommitteeActor, call: CallForPolicy, now: Date): Decision =>
  isCommitteeChair(actor, call.committeeId, now) ? true : forbidden(messages.noPermission);

const notClosed = (call: CallForPolicy): Decision =>
  call.closed ? conflict(callMessages.closedNoEdit) : true;

/**
 * The actions on a call (spec section 6) and who may take them. The server enforces each
 * through `authorize`, and every call it sends carries the same rules as `abilities`.
 */
export const callPolicy = definePolicy<CallResource>()({
  /** Every signed-in user may browse every call (spec section 2, Call lists). */
  view: () => true,
  /** A chair of the call's committee, while the call is not closed. */
  edit: (actor, call, now) =>
    allOf(
      () => chair(actor, call, now),
      () => notClosed(call),
    ),
  /** Chairs see the Manage Call page and its counts, closed or not. */
  manage: chair,
  /** Chairs close a call once its review period has ended, and only once. */
  close: (actor, call, now) =>
    allOf(
      () => chair(actor, call, now),
      () => (call.closed ? conflict(callMessages.alreadyClosed) : true),
      () =>
        canBeClosed(call, now)
          ? true
          : conflict(callMessages.notYetClosable(call.reviewTermination.toISOString())),
    ),
  /** Chairs give and take back extensions while the call is not closed. */
  manageExtensions: (actor, call, now) =>
    allOf(
      () => chair(actor, call, now),
      () => notClosed(call),
    ),
  /** Anyone signed in, while submission is open for them (the call's window or their extension). */
  addProposal: (_actor, call, now) =>
    submissionOpenFor(call, call.actorExtensions, now)
      ? true
      : conflict(callMessages.submissionClosed),
  /**
   * The Assignment page (issue 27): its chairs and admins, closed or not (a closed call's
   * page reads; its changes are refused by `mayManageAssignment` with `change`).
   */
  assign: (actor, call, now) => mayManageAssignment(actor, call, now, false),
  /**
   * Bidding on its proposals: a current member of its committee by role (chairs are
   * members; an admin with no role on it is not), while bidding is open and the call is not
   * closed.
   */
  bid: (actor, call, now) =>
    mayBid(call, isCommitteeMember({ ...actor, isAdmin: false }, call.committeeId, now)),
  /**
   * The Progress page, the reminders and the call's Activity (issue 28): its chairs and
   * admins, closed or not. What a conflicted chair reads of them leaves out the proposals
   * they are conflicted on (the server's queries).
   */
  followReview: chair,
  /**
   * The decision meeting (issue 29): capacities, the ranking, outcomes from the line and the
   * letter templates. Chairs, before or after the call is closed (each outcome is the
   * proposal's `decide`, which also leaves out the proposals a chair is conflicted on).
   */
  decide: chair,
  /** Releasing the decisions to the applicants: chairs, once the call is closed, once. */
  releaseDecisions: (actor, call, now) =>
    allOf(
      () => chair(actor, call, now),
      () => (call.closed ? true : conflict(decisionMessages.releaseBeforeClose)),
      () => (call.decisionsReleasedAt != null ? conflict(decisionMessages.alreadyReleased) : true),
    ),
  /** Changing the reminders and sending one now: chairs, while the call is not closed. */
  remind: (actor, call, now) =>
    allOf(
      () => chair(actor, call, now),
      () => notClosed(call),
    ),
});

export type CallAbilities = { [A in keyof typeof callPolicy]: boolean };

/** A committee, as the rule for creating a call in it sees it. */
export interface CommitteeResource {
  committeeId: number;
}

export const committeePolicy = definePolicy<CommitteeResource>()({
  /** Its chairs (and admins) read its current members: the reviewer picker lists them. */
  readMembers: (actor, committee, now) =>
    isCommitteeChair(actor, committee.committeeId, now) ? true : forbidden(messages.noPermission),
  /** Chairs create calls for the committees they chair now; admins for any. */
  createCall: (actor, committee, now) => {
    const ids = chairedCommitteeIds(actor, now);
    return ids === null || ids.includes(committee.committeeId)
      ? true
      : forbidden(callMessages.notYourCommittee);
  },
});

/**
 * What the actor may do that belongs to no one resource; sent with the user's details so
 * the web app shows menus and buttons without recomputing roles on the browser's clock.
 */
export const globalPolicy = definePolicy<null>()({
  /** Chairs of any committee, and admins, start calls (the Add Call button). */
  createCall: (actor, _none, now) =>
    isAnyChair(actor, now) ? true : forbidden(messages.noPermission),
  /** Chairs read the form library to choose their calls' forms. */
  readForms: (actor, _none, now) =>
    isAnyChair(actor, now) ? true : forbidden(messages.noPermission),
  /** Chairs find users by name to give them extensions. */
  lookUpUsers: (actor, _none, now) =>
    isAnyChair(actor, now) ? true : forbidden(messages.noPermission),
  /** Current members of any committee (chairs and admins too) see the review panels. */
  review: (actor, _none, now) =>
    actor.isAdmin || actor.roles.some((role) => isRoleCurrent(role, now))
      ? true
      : forbidden(messages.noPermission),
});

/** The actor's parts in a call, for the lists' "My Roles" column (spec section 2). */
export function myCallRoles(
  actor: CommitteeActor,
  call: CallForPolicy,
  proposals: { authored: boolean; collaborating: boolean },
  now: Date,
): ('Author' | 'Collaborator' | 'Committee')[] {
  const roles: ('Author' | 'Collaborator' | 'Committee')[] = [];
  if (proposals.authored) roles.push('Author');
  if (proposals.collaborating) roles.push('Collaborator');
  // An admin's standing as member of every committee is not a role in this call.
  if (isCommitteeMember({ ...actor, isAdmin: false }, call.committeeId, now))
    roles.push('Committee');
  return roles;
}
