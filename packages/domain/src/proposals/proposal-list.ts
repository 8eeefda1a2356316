import type { CallForPolicy } from '../calls/call.policy.js';
import {
  isCommitteeChair,
  isCommitteeMember,
  type CommitteeActor,
} from '../permissions/committee.js';
import { isConflicted, isProposalTeam } from '../reviews/reviewing.js';

/**
 * Which of a call's proposals one actor sees in its list, the `view` rule of
 * `proposalPolicy` stated for the whole call at once, so the server can choose the rows
 * in SQL (a test holds the two to the same answers on every persona and state):
 * - `all`: chairs of the call's committee, and admins;
 * - `submittedAndOwn`: its members, who review submitted proposals, plus their own;
 * - `own`: everyone else, their own proposals (as author or collaborator) only.
 */
export type ProposalRowScope = 'all' | 'submittedAndOwn' | 'own';

export interface ProposalListScope {
  rows: ProposalRowScope;
  /**
   * Whether the actor is told which proposals are Reviewed (the rest read Submitted):
   * chairs and admins, on proposals that are not their own.
   */
  reviewed: boolean;
}

export function proposalListScope(
  actor: CommitteeActor,
  call: Pick<CallForPolicy, 'committeeId'>,
  now: Date,
): ProposalListScope {
  if (isCommitteeChair(actor, call.committeeId, now)) return { rows: 'all', reviewed: true };
  if (isCommitteeMember(actor, call.committeeId, now))
    return { rows: 'submittedAndOwn', reviewed: false };
  return { rows: 'own', reviewed: false };
}

/**
 * Whether the actor learns that this proposal is Reviewed: the chairs of its call's
 * committee (and admins) do; its own authors and collaborators never learn anything of
 * its reviews (ARCHITECTURE.md "Visibility"), chairs among them included; nor does anyone
 * with a conflict of interest with it (`isConflicted`).
 */
export function seesReviewProgress(
  actor: CommitteeActor,
  proposal: Parameters<typeof isConflicted>[1] & { call: Pick<CallForPolicy, 'committeeId'> },
  now: Date,
): boolean {
  return (
    isCommitteeChair(actor, proposal.call.committeeId, now) &&
    !isProposalTeam(actor, proposal) &&
    !isConflicted(actor, proposal)
  );
}
