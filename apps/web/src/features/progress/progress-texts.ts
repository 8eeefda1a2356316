/*
 * The Progress page's own words (issue 28). Refusals come from the server, in the
 * domain's `reminderMessages`; these are what only the page says.
 */

const counting = new Intl.NumberFormat('en');
/** "1 member", "2,000 members". */
export const count = (n: number, one: string, many: string) =>
  `${counting.format(n)} ${n === 1 ? one : many}`;

/** A list of names as a sentence says it: "A", "A and B", "A, B and C". */
const names = (list: readonly string[]) =>
  list.length <= 1 ? (list[0] ?? '') : `${list.slice(0, -1).join(', ')} and ${list.at(-1)}`;

export const progressTexts = {
  title: 'Review Progress',
  saved: (saved: number, wanted: number) =>
    `Reviews saved: ${counting.format(saved)} of ${counting.format(wanted)}`,
  withoutReview: (n: number) =>
    n === 0
      ? 'Every proposal has at least one review.'
      : `${count(n, 'proposal has', 'proposals have')} no review yet.`,
  live: 'Updated every 30 seconds while review is open.',
  noProposals:
    'No proposal has been submitted to this call yet. Progress shows here once proposals are submitted and reviewers assigned to them.',
  nobodyAssigned: 'Nobody has been assigned a review yet. Assign reviewers first:',
  noMemberMatches: (search: string) => `No member matches “${search.trim()}”.`,
  never: 'Never',
  discuss: 'Discuss',
  discussTooltip: 'The scores spread widely: the committee should discuss this proposal.',
  lateConflict: 'Late conflict',
  lateConflictTooltip: 'A reviewer declared a conflict with it after they were assigned.',
  reviews: (saved: number, wanted: number) => `${saved} of ${wanted}`,
  selected: (n: number) => `${counting.format(n)} selected`,
  remindTitle: (n: number) => `Remind ${count(n, 'member', 'members')}?`,
  remindText: (n: number) =>
    `Merit mails ${n === 1 ? 'this member' : `these ${counting.format(n)} members`} now with the reviewers’ reminder: the text of the reminder to reviewers with a review to write, listing each one’s reviews not saved yet. A member with nothing left to review is not mailed.`,
  reminded: (sent: number) =>
    sent === 0 ? 'Nobody was reminded.' : `Reminded ${count(sent, 'member', 'members')}.`,
  skipped: (skipped: readonly string[]) =>
    `Not reminded, having nothing to review: ${names(skipped)}.`,
} as const;
