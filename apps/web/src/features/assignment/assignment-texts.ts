import type { AssignmentOverview, MatrixRow } from '@merit/contract';
import { PREFERENCE_LABELS } from '@merit/domain';

/*
 * The assignment screens' own words (issue 27). What the server also says (refusals,
 * the reasons a proposal is short, the capacity warning) is the domain's
 * `assignmentMessages`; these are what only the screens say.
 */

const counting = new Intl.NumberFormat('en');
/** "1 proposal", "2,000 proposals". */
const count = (n: number, one: string, many: string) =>
  `${counting.format(n)} ${n === 1 ? one : many}`;

type MatrixCell = MatrixRow['cells'][number];

export const assignmentTexts = {
  /** The counts line of the Assignment page. */
  counts: ({ proposals, slots, assigned, members, capacity }: AssignmentOverview['counts']) =>
    [
      count(proposals, 'proposal', 'proposals'),
      `${count(slots, 'review', 'reviews')} wanted`,
      `${counting.format(assigned)} assigned`,
      count(members, 'member', 'members'),
      `capacity ${counting.format(capacity)}`,
    ].join(' · '),
  notAvailable: 'Not available',
  notAvailableTooltip: 'Their role does not last through the review period',
  membersEmpty: 'The committee has no current members yet.',
  settingsSaved: 'The assignment settings have been saved.',
  capSaved: (name: string, cap: number | null) =>
    cap === null ? `${name} has the default cap again.` : `${name}’s cap is now ${cap}.`,
  progress: (fraction: number) =>
    `Working out assignments… ${Math.round(Math.min(1, Math.max(0, fraction)) * 100)} %`,
  previewSummary: (added: number, removed: number, unfilled: number) =>
    `${counting.format(added)} to add · ${counting.format(removed)} to take back · ${count(
      unfilled,
      'proposal',
      'proposals',
    )} short`,
  previewNothing: 'Nothing to add or take back: every proposal has the reviewers it can get.',
  previewNoneShort: 'Every proposal gets the reviews it wants.',
  applied: (added: number, mailed: number) =>
    `Assigned ${counting.format(added)} reviews; ${counting.format(mailed)} members were told by mail.`,
  discardConfirm:
    'The proposed assignments are dropped and nothing of them is saved. You can propose again at any time.',
  discarded: 'The proposed assignments have been discarded.',
  csvErrorsHeading: 'Nothing was saved. Fix these lines and upload again:',
  uploaded: (assigned: number, removed: number) =>
    `The CSV has been uploaded: ${count(assigned, 'review', 'reviews')} assigned, ${counting.format(removed)} removed.`,
  fileName: (callId: number) => `assignments-call-${callId}.csv`,
  /** A cell of the matrix, for screen readers (and the journey). */
  cellLabel: (proposal: string, member: string, cell: MatrixCell | undefined) =>
    [
      `${proposal} — ${member}: ${cell?.assigned ? 'Assigned' : 'Not assigned'}`,
      ...(cell?.assigned && cell.locked ? ['Locked'] : []),
      ...(cell?.preference && cell.preference !== 'neutral'
        ? [PREFERENCE_LABELS[cell.preference]]
        : []),
      ...(cell?.conflict ? ['Conflict'] : []),
    ].join(', '),
  overCapQuestion: (detail: string) => `${detail} Assign anyway?`,
  assignedTitle: (member: string, proposal: string) => `${member} reviews “${proposal}”`,
  lockedHint: 'This assignment is locked: Propose never takes it back.',
  unlockedHint: 'Lock it, and Propose never takes it back, even when it redoes assignments.',
  locked: (member: string, proposal: string) =>
    `${member}’s assignment to “${proposal}” is locked.`,
  unlocked: (member: string, proposal: string) =>
    `${member}’s assignment to “${proposal}” is no longer locked.`,
  removeConfirm: (member: string, proposal: string) =>
    `${member} will no longer be asked to review “${proposal}”, and is told so by email. A review they have saved is kept.`,
  noProposals: 'No submitted proposals yet.',
  noMatch: 'No proposal matches these filters.',
  matrixRows: (shown: number, total: number) =>
    shown < total
      ? `${counting.format(shown)} of ${count(total, 'proposal', 'proposals')} loaded`
      : count(total, 'proposal', 'proposals'),
  biddingClosed: 'Bidding is closed.',
  bidsMade: (n: number) => `${count(n, 'bid', 'bids')} made`,
  bidFailed: (proposal: string, detail: string) =>
    `Your bid on “${proposal}” was not saved: ${detail}`,
  myCapSaved: (cap: number) => `Your cap is now ${cap} reviews.`,
  myCapHint: (chairCap: number | null) =>
    chairCap === null
      ? 'Leave it empty to take the chairs’ cap.'
      : `At most ${chairCap}, the chairs’ cap for you. Leave it empty to take theirs.`,
} as const;
