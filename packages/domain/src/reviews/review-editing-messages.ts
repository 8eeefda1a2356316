/**
 * What the review editor says about unsaved answers: a review saved elsewhere first (in
 * another tab or window), and answers kept on this computer. Times are the browser's
 * local time, written by the caller.
 */
export const reviewEditingMessages = {
  conflictTitle: 'Your review was saved elsewhere after you opened it',
  conflictHelp:
    'Nothing of yours has been lost. Choose Keep mine to save your answers over the saved ones, Take theirs to replace your answers with the saved ones, or Copy mine to put your answers on the clipboard and then take the saved ones.',
  /**
   * A save refused as stale; `when` is the review's last save in local time, as "at 14:32 CET"
   * or "on 3 Mar 2026, 14:32 CET" (the same in the messages below).
   */
  savedElsewhere: (when: string) =>
    `Your review was saved ${when} in another tab or window, after you opened it here, so these answers were not saved.`,
  /** A restored draft that started from an older version; `when` is the review's last save. */
  restoredStale: (when: string) =>
    `Your review was saved ${when}, after these unsaved answers were typed.`,
  /** A new review's save when the person has saved one of the proposal (another tab). */
  exists: (when: string) =>
    `You have already saved a review of this proposal (last saved ${when}), so these answers were not saved.`,
  /** The new-review page when a review of the proposal is saved already (another tab). */
  keptForSaved:
    'What you typed here is kept on this computer: open your saved review, and it offers your answers back so you can compare them.',
  openSaved: 'Open my saved review',
  copied: 'Your answers are on the clipboard. The saved ones are in the form now.',
  /** The leave-page question, now that unsaved answers stay on this computer. */
  leave: (forms: string) =>
    `Your changes to ${forms} are not saved. If you leave now, they are kept only on this computer, and offered back when you open this review again.`,
} as const;
