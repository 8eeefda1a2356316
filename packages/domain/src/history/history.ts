import { isCommitteeChair, type CommitteeActor } from '../permissions/committee.js';
import { forbidden, type Decision } from '../permissions/policy.js';
import { isConflicted, isProposalTeam, type ReviewedProposal } from '../reviews/reviewing.js';

/*
 * History (issue 28): the audit log, readable. Every action the log records, with the
 * words the History and Activity pages use for it, and what each reader may see of a row.
 */

/** Every change the audit log records, as `<entity type>.<verb>`, with how a page says it. */
export const AUDIT_ACTION_LABELS = {
  'user.grant_admin': 'Made an administrator',
  'user.revoke_admin': 'No longer an administrator',
  'user.deactivate': 'Deactivated an account',
  'user.reactivate': 'Reactivated an account',
  'user.complete_registration': 'Completed registration',
  /** The user deleted their own account (account-deletion.ts): anonymised, no personal data here. */
  'user.delete': 'Deleted their account',
  'role.create': 'Gave a committee role',
  'role.update': 'Changed a committee role',
  'role.delete': 'Took back a committee role',
  'committee.create': 'Created a committee',
  'committee.delete': 'Deleted a committee',
  'form_name.create': 'Created a form',
  'form_name.update': 'Renamed a form',
  'form_name.delete': 'Deleted a form',
  'form.create': 'Added a form version',
  'form.update': 'Changed a form version',
  'form.delete': 'Deleted a form version',
  'call.create': 'Created the call',
  'call.update': 'Changed the call',
  'call.close': 'Closed the call',
  'extension.create': 'Gave an extension',
  'extension.delete': 'Took back an extension',
  'proposal.create': 'Created the proposal',
  'proposal.rename': 'Renamed the proposal',
  /** One Save All batch (one save hash): the forms it saved, however many requests it took. */
  'proposal.save': 'Saved the proposal',
  'proposal.delete_entry': 'Deleted an entry',
  'proposal.add_collaborator': 'Added a collaborator',
  'proposal.remove_collaborator': 'Removed a collaborator',
  'proposal.submit': 'Submitted the proposal',
  'proposal.retract': 'Retracted the proposal',
  'proposal.delete': 'Deleted the proposal',
  'proposal.add_file': 'Uploaded a file',
  'proposal.remove_file': 'Removed a file',
  'proposal.add_reviewer': 'Assigned a reviewer',
  'proposal.remove_reviewer': 'Removed a reviewer',
  /** A chair wrote or changed the decision summary (the text, capped as every value). */
  'proposal.update_decision': 'Wrote the decision summary',
  /** One Save All batch of a review (one save hash): the review forms it saved. */
  'review.save': 'Saved a review',
  /** A conflict of interest declared, added or found by Merit (actor null: the detector). */
  'conflict.create': 'Recorded a conflict of interest',
  /** Confirmed, dismissed, pinned, or its type or evidence changed by a new detection. */
  'conflict.update': 'Changed a conflict of interest',
  'conflict.delete': 'Deleted a conflict of interest',
  /** A member answered a proposal's conflict declaration ("No conflict" or a conflict). */
  'proposal.declare_conflict': 'Answered the conflict declaration',
  /** One run of the detector over a call that changed something: how many rows of each kind. */
  'call.detect_conflicts': 'Looked for conflicts of interest',
  /** The person changed their list of recent collaborators (My Account). */
  'user.update_recent_collaborators': 'Changed their recent collaborators',
  /** Reviewer assignment (issue 27): the chairs' k, caps or bidding, or a member's own cap. */
  'call.update_assignment': 'Changed the assignment settings',
  /** One batch of assignments (Apply of a proposal, a CSV upload): what it added and removed. */
  'call.assign_reviewers': 'Assigned reviewers',
  /** An assignment locked against Propose, or unlocked. */
  'proposal.lock_reviewer': 'Locked or unlocked a reviewer',
  /** The chairs changed the call's reminder rules (issue 28). */
  'call.update_reminders': 'Changed the reminders',
  /** A chair sent a reminder now to chosen members (Progress, "Remind selected"). */
  'call.send_reminders': 'Sent reminders',
  /** Decisions (issue 29): a chair set a proposal's outcome, awards or notes. */
  'proposal.decide': 'Set the outcome or awards',
  /** A chair moved the proposal up or down the ranking, with a reason. */
  'proposal.move_in_ranking': 'Moved the proposal in the ranking',
  'call.update_capacity': 'Changed the capacities',
  /** "Set outcomes from the line", applied: how many outcomes of each kind it set. */
  'call.outcomes_from_line': 'Set outcomes from the line',
  /** The letter templates, the signature or the outcomes' names for the letters. */
  'call.update_letters': 'Changed the letter templates',
  'call.release_decisions': 'Released the decisions',
  /** Letters written and sent again: failed ones, or corrected after an outcome changed. */
  'call.send_letters': 'Sent letters again',
} as const;

export type AuditAction = keyof typeof AUDIT_ACTION_LABELS;
export const AUDIT_ACTIONS = Object.keys(AUDIT_ACTION_LABELS) as AuditAction[];

/** The entity an action is about: the part before the dot. */
export const auditEntityType = (action: string) => action.slice(0, action.indexOf('.'));

/**
 * The actions an applicant sees on their own proposal's timeline, when one of its team
 * took them: their own work and its state changes, never a reviewer's or a chair's.
 */
export const TEAM_TIMELINE_ACTIONS: readonly AuditAction[] = [
  'proposal.create',
  'proposal.rename',
  'proposal.save',
  'proposal.delete_entry',
  'proposal.add_collaborator',
  'proposal.remove_collaborator',
  'proposal.submit',
  'proposal.retract',
  'proposal.add_file',
  'proposal.remove_file',
];

/** Who reads a history: an administrator, a chair of the call's committee, or the proposal's team. */
export type HistoryReader = 'admin' | 'chair' | 'team';

export type AuditChangeSet = Record<string, { before?: unknown; after?: unknown }>;

export interface HistoryRow {
  action: string;
  actorId: number | null;
  changes: AuditChangeSet;
}

/**
 * What a reader may see of one row of a proposal's history, or null for nothing:
 * - an administrator sees every row whole;
 * - a chair sees every row, but of a saved review only which fields changed, not the text;
 * - the team sees what its own members did to the proposal (TEAM_TIMELINE_ACTIONS).
 * A chair with a conflict never reads the history at all (the proposal policy says so).
 */
export function historyRowFor<R extends HistoryRow>(
  reader: HistoryReader,
  row: R,
  teamIds: readonly number[],
): R | null {
  if (reader === 'admin') return row;
  if (reader === 'team') {
    const byTeam = row.actorId !== null && teamIds.includes(row.actorId);
    return byTeam && (TEAM_TIMELINE_ACTIONS as readonly string[]).includes(row.action) ? row : null;
  }
  return row.action === 'review.save' ? { ...row, changes: withoutValues(row.changes) } : row;
}

/** The fields a change touched, without their values (a review's text, for chairs). */
export function withoutValues(changes: AuditChangeSet): AuditChangeSet {
  return Object.fromEntries(Object.keys(changes).map((field) => [field, {}]));
}

/** The page size of the History and Activity lists, and the most a page may ask for. */
export const HISTORY_PAGE_SIZE = 50;

export const historyMessages = {
  notYours:
    'Only the proposal’s applicants, the chairs of its committee and administrators can read its history.',
  chairsOnly: 'Only the chairs of the call’s committee can read its activity.',
  adminsOnly: 'Only administrators can read the activity of the whole system.',
} as const;

/**
 * How the actor reads a proposal's history, or null when they may not: its team first (the
 * plain timeline, whoever else they are); nobody with a conflict with it; then an
 * administrator, then a chair of its committee.
 */
export function historyReader(
  actor: CommitteeActor,
  proposal: ReviewedProposal,
  now: Date,
): HistoryReader | null {
  if (isProposalTeam(actor, proposal)) return 'team';
  if (isConflicted(actor, proposal)) return null;
  if (actor.isAdmin) return 'admin';
  return isCommitteeChair(actor, proposal.call.committeeId, now) ? 'chair' : null;
}

export const mayReadHistory = (
  actor: CommitteeActor,
  proposal: ReviewedProposal,
  now: Date,
): Decision => (historyReader(actor, proposal, now) ? true : forbidden(historyMessages.notYours));
