/*
 * What the web app's conflict screens say to people: the applicant's Conflicts panel, the
 * member's declaration gate, the chairs' Conflicts page, Manage Reviewers and My Account.
 * The server's refusals are `conflictMessages` (conflicts.ts).
 */
export const conflictScreenMessages = {
  /** The applicant's Conflicts panel, first line. */
  panelHelp:
    'Tick the committee members who should not review this proposal, for example someone at your institution, a recent co-author, or a close friend or relative. Only this proposal’s applicants and the call’s chairs see what you declare.',
  panelNoMembers:
    'The call’s committee has no members yet, so there is no one to declare a conflict with.',
  panelReadOnly: 'The call has closed, so these conflicts can no longer be changed.',
  panelSaved: 'Your conflicts of interest have been saved.',
  /** The choice after a save refused as stale. */
  staleTitle: 'Someone else changed these conflicts after you opened them',
  staleHelp:
    'Nothing of yours has been lost. Choose Keep mine to save your choice over theirs, Take theirs to show the saved conflicts instead, or Copy mine to put your choice on the clipboard and then take theirs.',
  staleCopyFailed:
    'Your choice could not be put on the clipboard, so the panel keeps it. Copy it by hand, or choose Keep mine.',

  /** The member's declaration gate. */
  gateQuestion: 'Do you have a conflict of interest with this proposal?',
  gateHelp:
    'This call asks committee members to say so before a proposal opens for them. You have a conflict if, for example, you work at the same institution as an applicant, have worked with one recently, or are close to one personally or financially.',
  gateCannotAnswer:
    'This proposal opens once you have said whether you have a conflict of interest with it, which you cannot do now. Ask a chair of the committee.',
  gateConfirm: (name: string) =>
    `You will not review “${name}”, and you will not see its reviews, scores or decision; if you are one of its reviewers, you no longer are. The chairs of the committee are told. This cannot be undone.`,
  gateDeclared: (name: string) =>
    `You have declared a conflict of interest with “${name}”. You are kept away from its reviews, scores and decision, and the chairs of the committee have been told.`,

  /** The chairs' Conflicts page. */
  undeclared: (count: number) =>
    count === 1
      ? '1 submitted proposal declared no conflicts.'
      : `${count} submitted proposals declared no conflicts.`,
  listEmpty:
    'No conflicts of interest have been recorded for this call yet. Merit suggests them as proposals are submitted and members join the committee; choose Add Conflict to record one yourself.',
  listNoMatch: 'No conflict matches these filters. Choose All to see every conflict of the call.',
  bulkRefused: 'These were left as they were:',
  dismissConfirm: (count: number) =>
    count === 1
      ? 'The conflict is no longer enforced, and stays dismissed when Merit looks for conflicts again. A chair can confirm it later.'
      : `The ${count} conflicts are no longer enforced, and stay dismissed when Merit looks for conflicts again. A chair can confirm them later.`,
  removeConfirm: (member: string, proposal: string) =>
    `The conflict of ${member} with “${proposal}” will be deleted. Merit may suggest it again when it next looks for conflicts.`,
  pinnedHelp: 'Only a chair can remove a pinned conflict.',

  /** Manage Reviewers: a chair assigns a conflicted member all the same. */
  overrideHelp:
    'The reason is recorded, with your name, and shown beside the assignment to the committee’s chairs.',
  overrideShown: (reason: string) => `Assigned despite a conflict of interest: ${reason}`,

  /** My Account. */
  collaboratorsHelp:
    'List the people you have worked with recently, such as co-authors and co-investigators. Merit uses this list to suggest conflicts of interest: when one of you applies to a call whose committee the other sits on, the chairs are shown the match to judge. Nobody sees the rest of the list.',
  collaboratorsEmpty:
    'You have not listed any recent collaborators. Choose Add Collaborator to start.',
  collaboratorsSaved: 'Your recent collaborators have been saved.',

  /** The call wizard's page 0. */
  settingEnabledHelp:
    'Merit suggests conflicts from institutions, email domains and collaborators, and keeps a conflicted member away from a proposal’s reviews, scores and decision.',
  settingDeclarationHelp:
    'Each committee member says whether they have a conflict with a proposal before its full text and files open for them.',
} as const;
