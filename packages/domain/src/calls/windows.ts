/**
 * The windows of a call (ARCHITECTURE.md "Windows"): each is inclusive of its start and
 * exclusive of its end, and every function takes `now` so rules test without a clock.
 */
export interface CallDates {
  commencement: Date;
  termination: Date;
  reviewCommencement: Date;
  reviewTermination: Date;
}

export interface CallState extends CallDates {
  closed: boolean;
}

export interface TimeWindow {
  commencement: Date;
  termination: Date;
}

export function inWindow(window: TimeWindow, now: Date): boolean {
  const t = now.getTime();
  return window.commencement.getTime() <= t && t < window.termination.getTime();
}

/**
 * Submission is open for a user inside the call's window, or inside that user's own
 * extension, which overrides the call's window for them alone. A closed call takes none.
 */
export function submissionOpenFor(
  call: CallState,
  extensions: readonly TimeWindow[],
  now: Date,
): boolean {
  if (call.closed) return false;
  return inWindow(call, now) || extensions.some((e) => inWindow(e, now));
}

export function reviewWindowOpen(call: CallState, now: Date): boolean {
  if (call.closed) return false;
  return inWindow(
    { commencement: call.reviewCommencement, termination: call.reviewTermination },
    now,
  );
}

/** A chair may close a call once its review window has ended, and only once. */
export function canBeClosed(call: CallState, now: Date): boolean {
  return !call.closed && now.getTime() >= call.reviewTermination.getTime();
}

export const callDateMessages = {
  closeBeforeOpen: 'Proposal close time must be after proposal open time.',
  reviewOpenBeforeClose: 'Review open time must be after proposal close time.',
  reviewCloseBeforeOpen: 'Review close time must be after review open time.',
} as const;

/**
 * The three ordering rules of spec section 5 (Call), keyed by the payload field each
 * message belongs to. Each date may equal the one before it ("on or after").
 */
export function callDateErrors(dates: CallDates): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  if (dates.termination < dates.commencement)
    errors.closeDateTime = [callDateMessages.closeBeforeOpen];
  if (dates.reviewCommencement < dates.termination) {
    errors.reviewOpenDateTime = [callDateMessages.reviewOpenBeforeClose];
  }
  if (dates.reviewTermination < dates.reviewCommencement) {
    errors.reviewCloseDateTime = [callDateMessages.reviewCloseBeforeOpen];
  }
  return errors;
}
