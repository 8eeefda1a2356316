import { submissionOpenFor, type CallState, type TimeWindow } from '../calls/windows.js';
import { proposalMessages } from './proposal.policy.js';

/**
 * Where submission stands for a proposal now, by its author's windows: open; closed until
 * a window of theirs opens later (`reopens`); closed for good, every deadline passed
 * (`closed`); or the call closed by its chairs (`callClosed`).
 */
export const SUBMISSION_STANDINGS = ['open', 'reopens', 'closed', 'callClosed'] as const;
export type SubmissionStatus = (typeof SUBMISSION_STANDINGS)[number];

export interface SubmissionStanding {
  status: SubmissionStatus;
  /** With `reopens`: when the next window of the author's opens. Null otherwise. */
  reopensAt: Date | null;
}

/**
 * Where submission stands for a proposal at `now` (ARCHITECTURE.md "Windows"): the call's
 * window or one of its author's extensions, which count for the proposal whoever looks at
 * it. A window still to come (an extension granted for later, or the call's opening moved
 * later) means it reopens then; once every one has passed it is closed for good.
 */
export function submissionStanding(
  call: CallState,
  authorExtensions: readonly TimeWindow[],
  now: Date,
): SubmissionStanding {
  if (call.closed) return { status: 'callClosed', reopensAt: null };
  if (submissionOpenFor(call, authorExtensions, now)) return { status: 'open', reopensAt: null };
  const t = now.getTime();
  const later = [call, ...authorExtensions]
    .filter(
      (w) => w.commencement.getTime() > t && w.termination.getTime() > w.commencement.getTime(),
    )
    .map((w) => w.commencement.getTime());
  if (later.length === 0) return { status: 'closed', reopensAt: null };
  return { status: 'reopens', reopensAt: new Date(Math.min(...later)) };
}

/**
 * What the editor says of a proposal that cannot be changed for its state and its
 * deadline, so that it never promises what the Manage menu no longer offers. `when` is
 * the reopening time as the reader reads it (the caller formats it: the browser's zone).
 */
export const submissionStandingMessages = {
  /** Submitted, and its author may still retract it. */
  submittedOpen: proposalMessages.submitted,
  submittedClosed:
    'This proposal has been submitted, and its deadline has passed, so it can no longer be changed.',
  submittedReopens: (when: string) =>
    `This proposal has been submitted, so it cannot be changed now. Its author can retract it to edit it again from ${when}, when submission opens again for it.`,
  draftClosed:
    'The deadline for this proposal has passed, so it can no longer be changed or submitted.',
  draftReopens: (when: string) =>
    `Submission is closed for this proposal until ${when}. It can be changed and submitted from then.`,
  callClosed: proposalMessages.callClosed,
} as const;

/**
 * The message for a proposal in `stateVal` (0 Draft, 1 or more submitted) whose submission
 * stands so; null for a draft open for submission, which says nothing of its deadline.
 */
export function submissionStandingMessage(
  stateVal: number,
  standing: { status: SubmissionStatus; reopensAt: string | Date | null },
  formatTime: (at: Date) => string,
): string | null {
  const messages = submissionStandingMessages;
  const when = standing.reopensAt === null ? null : formatTime(new Date(standing.reopensAt));
  const submitted = stateVal >= 1;
  switch (standing.status) {
    case 'callClosed':
      return messages.callClosed;
    case 'open':
      return submitted ? messages.submittedOpen : null;
    case 'reopens':
      if (when === null) return submitted ? messages.submittedClosed : messages.draftClosed;
      return submitted ? messages.submittedReopens(when) : messages.draftReopens(when);
    case 'closed':
      return submitted ? messages.submittedClosed : messages.draftClosed;
  }
}
