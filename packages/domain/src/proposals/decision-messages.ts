/**
 * What the decision summary editor says about unsaved text: a summary another chair saved
 * first, and text kept on this computer. Times are the browser's local time.
 */
export const decisionEditingMessages = {
  /** `when` is the local time it was typed: `14:32`, or with the date before today. */
  offer: (when: string) => `You have an unsaved decision summary from ${when} on this computer.`,
  conflictTitle: 'Someone else saved this decision summary after you opened it',
  conflictHelp:
    'Nothing of yours has been lost. Choose Keep mine to save your text over theirs, Take theirs to replace your text with the saved one, or Copy mine to put your text on the clipboard and then take theirs.',
  /** A save refused as stale; `when` is local, as "at 14:32 CET" or "on 3 Mar 2026, 14:32 CET". */
  savedBy: (savedBy: string | null, when: string | null) =>
    `${savedBy ?? 'Someone'} saved this decision summary${when ? ` ${when}` : ''}, after you opened it, so your text was not saved.`,
  /** A restored draft that started from an older version of the summary. */
  restoredStale:
    'Someone saved this decision summary after your unsaved text was typed, so it may no longer fit it.',
  /** The comparison's one row. */
  label: 'Decision summary',
  copied: 'Your text is on the clipboard. The saved decision summary is in the editor now.',
  copyFailed:
    'Your text could not be put on the clipboard, so the editor keeps it. Copy it by hand, or choose Keep mine.',
} as const;
