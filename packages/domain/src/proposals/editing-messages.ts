/**
 * What the editors say about the state of someone's unsaved work: the lock they lost,
 * answers someone else saved meanwhile, and the answers kept on this computer. The
 * times in them are the browser's local time, written by the caller.
 */
export const editingMessages = {
  /** The lock could not be asked for: nothing can be changed until the server answers. */
  unreachable:
    'Merit cannot reach the server, so this proposal cannot be changed for now. Your unsaved answers are kept on this computer; editing comes back by itself once the server answers.',
  /** The lock's answer was a refusal of another kind (`detail`): the same promise. */
  lockFailed: (detail: string) => `${detail} Your unsaved answers are kept on this computer.`,
  /** The lock came back to this tab: the answers saved meanwhile load first. */
  reloading: 'Loading the answers saved while you could not edit…',
  /** The lock's answer when the server gave no message of its own. */
  otherTab:
    'This proposal is open in another tab or window, where you can edit it. Here you can only read it.',
  conflictTitle: 'Someone else saved answers you have changed',
  conflictHelp:
    'Nothing of yours has been lost. For each, choose Keep mine to save your answers over theirs, Take theirs to replace your answers with the saved ones, or Copy mine to put your answers on the clipboard and then take theirs.',
  /**
   * `where` names the form (and entry); `when` is the local time with its preposition, as
   * "at 14:32 CET" or "on 3 Mar 2026, 14:32 CET".
   */
  changedBy: (where: string, savedBy: string | null, when: string | null) =>
    `${where}: ${savedBy ?? 'Someone'} saved other answers${when ? ` ${when}` : ''}, after you started changing them.`,
  deleted: (where: string) => `${where}: someone deleted this entry after you started changing it.`,
  copied: 'Your answers are on the clipboard. The saved ones are in the form now.',
  copyFailed:
    'Your answers could not be put on the clipboard, so the form keeps them. Copy them by hand, or choose Keep mine.',
} as const;

/** Unsaved answers kept in this browser (IndexedDB) and offered back when the page opens. */
export const draftMessages = {
  /** `when` is the local time they were typed: `14:32`, or with the date before today. */
  offer: (when: string) => `You have unsaved answers from ${when} on this computer.`,
  restored: 'Your unsaved answers are back in the forms. Save them to keep them.',
  discarded: 'The unsaved answers on this computer have been discarded.',
} as const;
