import {
  chairedCommitteeIds,
  isCommitteeChair,
  type CommitteeActor,
} from '../permissions/committee.js';
import { canBeClosed, submissionOpenFor, type CallState, type TimeWindow } from './windows.js';

export interface CallForPolicy extends CallState {
  committeeId: number;
}

/** The actions on a call, named as the UI and the server both refer to them. */
export type CallAction =
  'call.edit' | 'call.manage' | 'call.close' | 'call.extensions' | 'call.addProposal';

export type CallAbilities = Record<
  'edit' | 'manage' | 'close' | 'manageExtensions' | 'addProposal',
  boolean
>;

/** A chair of the call's committee may edit it while it is not closed. */
export const canEditCall = (actor: CommitteeActor, call: CallForPolicy, now: Date) =>
  !call.closed && isCommitteeChair(actor, call.committeeId, now);

/** Chairs manage the call (counts, closing) and its extensions. */
export const canManageCall = (actor: CommitteeActor, call: CallForPolicy, now: Date) =>
  isCommitteeChair(actor, call.committeeId, now);

export const canCloseCall = (actor: CommitteeActor, call: CallForPolicy, now: Date) =>
  canManageCall(actor, call, now) && canBeClosed(call, now);

/** Any logged-in user may add a proposal while submission is open for them (spec section 6). */
export const canAddProposal = (
  call: CallForPolicy,
  extensionsOfActor: readonly TimeWindow[],
  now: Date,
) => submissionOpenFor(call, extensionsOfActor, now);

/** A chair may create a call for one of their own committees; admins for any. */
export function canCreateCallFor(actor: CommitteeActor, committeeId: number, now: Date): boolean {
  const ids = chairedCommitteeIds(actor, now);
  return ids === null || ids.includes(committeeId);
}

/** What the actor may do with this call, for the web app to show and the server to check. */
export function callAbilities(
  actor: CommitteeActor,
  call: CallForPolicy,
  extensionsOfActor: readonly TimeWindow[],
  now: Date,
): CallAbilities {
  const manage = canManageCall(actor, call, now);
  return {
    edit: canEditCall(actor, call, now),
    manage,
    close: manage && canBeClosed(call, now),
    manageExtensions: manage && !call.closed,
    addProposal: canAddProposal(call, extensionsOfActor, now),
  };
}
