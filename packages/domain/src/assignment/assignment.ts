import { isCommitteeChair, type CommitteeActor } from '../permissions/committee.js';
import { allOf, conflict, forbidden, type Decision } from '../permissions/policy.js';
import type { CallState } from '../calls/windows.js';
import type { RoleDates } from '../roles.js';

/*
 * Reviewer assignment for a whole call (issue 27): how many reviews each proposal wants,
 * how many each member takes at most, what members would like to review, and who may
 * never review what. The solver (`propose.ts`, `flow.ts`) turns these into assignments.
 */

/** A member's wish about reviewing one proposal. `not_me` is never overridden. */
export const PREFERENCES = ['eager', 'willing', 'neutral', 'reluctant', 'not_me'] as const;
export type Preference = (typeof PREFERENCES)[number];

export const PREFERENCE_LABELS: Record<Preference, string> = {
  eager: 'Eager',
  willing: 'Willing',
  neutral: 'Neutral',
  reluctant: 'Reluctant',
  not_me: 'Not me',
};

/** Reviews wanted per proposal when the chair has set nothing. */
export const DEFAULT_REVIEWS_PER_PROPOSAL = 3;
/** At most this many reviews per proposal, and this many per member. */
export const MAX_REVIEWS_PER_PROPOSAL = 20;
export const MAX_CAP = 10_000;
/** Facilities and keywords of a committee role (expertise): at most this many of each. */
export const MAX_EXPERTISE_ITEMS = 50;
export const MAX_EXPERTISE_ITEM_LENGTH = 100;

/**
 * A member's cap when the chair has set none: the even share plus 10 %,
 * `ceil(1.1 x slots / members)`, where `slots` is the reviews wanted over all proposals
 * (proposals x k when every proposal wants k). Never below 1 while there is work.
 */
export function defaultCap(slots: number, members: number): number {
  if (members <= 0 || slots <= 0) return 0;
  // 1.1 x slots in whole tenths, so 10 x 3 x 1.1 is 33 and not 33.000000000000004.
  return Math.max(1, Math.ceil((11 * slots) / (10 * members)));
}

/** A member's cap: the chair's, or the default; a member may only lower it for themselves. */
export function effectiveCap(
  chairCap: number | null | undefined,
  memberCap: number | null | undefined,
  fallback: number,
): number {
  const cap = chairCap ?? fallback;
  return memberCap == null ? cap : Math.min(cap, memberCap);
}

/**
 * A member's role covers the review still to come: it has begun by the later of now and
 * the review window's start, and lasts to the window's end. A member whose term ends
 * halfway through review is not given work they could not finish.
 */
export function coversReview(
  role: RoleDates,
  call: { reviewCommencement: Date; reviewTermination: Date },
  now: Date,
): boolean {
  const from = Math.max(now.getTime(), call.reviewCommencement.getTime());
  return (
    role.commencement.getTime() <= from &&
    role.termination.getTime() >= call.reviewTermination.getTime()
  );
}

/** Why a proposal could not get the reviews it wants. */
export const UNFILLED_REASONS = ['not_enough_eligible', 'all_at_cap'] as const;
export type UnfilledReason = (typeof UNFILLED_REASONS)[number];

export const assignmentMessages = {
  chairsOnly: 'Only the chairs of the call’s committee can assign its reviewers.',
  biddingClosed: 'Bidding on this call’s proposals is closed.',
  biddingMembersOnly: 'Only current members of the call’s committee can bid on its proposals.',
  cannotBid:
    'You cannot bid on this proposal: it is yours, you have a conflict with it, or it is not submitted.',
  callClosed: 'This call is closed, so its reviewers can no longer be assigned.',
  capAboveChair: (cap: number) =>
    `You can lower your cap, not raise it: the chairs set it to ${cap} reviews.`,
  notAMember: 'Only current members of the call’s committee have a cap.',
  running: 'Merit is already working out a proposal for this call. Wait for it, or discard it.',
  notReady: 'This proposal is still being worked out.',
  failed: 'Merit could not work out this proposal. Propose again.',
  stale:
    'Something changed since this proposal was worked out (an assignment, a conflict, a bid, a cap or a member), so nothing was saved. Propose again.',
  notFound: 'There is no such proposal for this call.',
  unfilled: {
    not_enough_eligible: 'Not enough eligible members',
    all_at_cap: 'All eligible members are at their cap',
  } satisfies Record<UnfilledReason, string>,
  capacityShort: (short: number) =>
    `The members’ caps add up to ${short} ${short === 1 ? 'review' : 'reviews'} fewer than the proposals want. Raise some caps or lower k.`,
  digestSubject: (count: number, call: string) =>
    `You have ${count} new ${count === 1 ? 'proposal' : 'proposals'} to review in ${call}`,
  csvHeader: 'The first line must be proposal_id,username,action.',
  csvColumns: 'Each line needs three values: proposal_id,username,action.',
  csvAction: 'The action must be assign or remove.',
  csvProposal: (id: string) => `There is no submitted proposal ${id} in this call.`,
  csvUser: (username: string) =>
    `There is no member of the committee with the username ${username}.`,
  csvEmpty: 'The file has no lines after its header.',
  csvFailed: (lines: number) =>
    `${lines} ${lines === 1 ? 'line of the file has' : 'lines of the file have'} errors, so nothing was saved. Correct them and upload the file again.`,
  overCap: (name: string, cap: number) =>
    `${name} would have more than their cap of ${cap} reviews.`,
  /** A chair's own proposal, or one they have a conflict with: its reviewers are not theirs to see. */
  notYours:
    'You have a conflict of interest with this proposal, or it is yours: another chair assigns its reviewers.',
  csvNotYours: (id: string) =>
    `You have a conflict of interest with proposal ${id}, or it is yours: another chair assigns its reviewers.`,
  /** Why a member may not be given a proposal (CSV upload). */
  excluded: {
    team: (username: string) => `${username} is the author or a collaborator of this proposal.`,
    conflict: (username: string) => `${username} has a conflict of interest with this proposal.`,
    notMe: (username: string) => `${username} marked this proposal Not me.`,
    ineligible: (username: string) =>
      `${username}’s role on the committee ends before the review window does.`,
  },
  capNotMember: (id: string) =>
    `There is no current member of the committee with the user id ${id}.`,
  csvNotReviewer: (username: string, id: string) =>
    `${username} is not a reviewer of proposal ${id}, so there is nothing to remove.`,
  /** The digest mail (Apply, CSV upload): one per member with new proposals. */
  digestIntro: (count: number, call: string) =>
    `The chairs have assigned you ${count} new ${count === 1 ? 'proposal' : 'proposals'} to review in the call "${call}":`,
} as const;

/** What the assignment rules read of a call (`CallForPolicy` with bidding, spelt out: call.policy.ts imports this file). */
export interface AssignmentCall extends CallState {
  committeeId: number;
  biddingOpen: boolean;
}

/**
 * The Assignment page, its settings, Propose, Apply, the matrix and the CSV: the chairs of
 * the call's committee and admins, while the call is not closed (reading stays open).
 */
export function mayManageAssignment(
  actor: CommitteeActor,
  call: AssignmentCall,
  now: Date,
  change: boolean,
): Decision {
  return allOf(
    () =>
      isCommitteeChair(actor, call.committeeId, now)
        ? true
        : forbidden(assignmentMessages.chairsOnly),
    () => (change && call.closed ? conflict(assignmentMessages.callClosed) : true),
  );
}

/** Bidding: a current member of the committee (chairs too), while the chair keeps it open. */
export function mayBid(call: AssignmentCall, isMemberNow: boolean): Decision {
  return allOf(
    () => (isMemberNow ? true : forbidden(assignmentMessages.biddingMembersOnly)),
    () => (call.biddingOpen && !call.closed ? true : conflict(assignmentMessages.biddingClosed)),
  );
}
