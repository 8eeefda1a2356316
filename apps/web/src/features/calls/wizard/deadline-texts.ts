import type { DeadlineImpact } from '@merit/contract';
import { formatCallDate } from '../call-dates';

const counting = new Intl.NumberFormat('en');
const count = (n: number, one: string, many: string) =>
  `${counting.format(n)} ${n === 1 ? one : many}`;

/** The deadlines a save would change: each from what is saved to what is about to be. */
export interface DeadlineChange {
  submission?: { from: string; to: string };
  review?: { from: string; to: string };
}

const earlier = (move: { from: string; to: string }) => Date.parse(move.to) < Date.parse(move.from);

/**
 * What the chair is told before a save that moves a deadline (issue 30): the move, in the
 * browser's zone, and who it reaches, in the words of the mail and the screens.
 */
export function deadlineChangeLines(change: DeadlineChange, impact: DeadlineImpact): string[] {
  const lines: string[] = [];
  const { submission, review } = change;
  if (submission) {
    lines.push(
      `The submission deadline moves ${earlier(submission) ? 'earlier' : 'later'}, from ${formatCallDate(submission.from)} to ${formatCallDate(submission.to)}.`,
    );
    if (impact.draftsEarlier > 0)
      lines.push(
        `${count(impact.draftsEarlier, 'proposal is', 'proposals are')} still ${impact.draftsEarlier === 1 ? 'a draft' : 'drafts'}: ${count(impact.peopleMailed, 'person', 'people')} (their authors and collaborators) will be mailed that the deadline is now earlier.`,
      );
    else if (earlier(submission))
      lines.push('No draft proposal is cut short, so no one is mailed.');
    if (impact.draftsLater > 0)
      lines.push(
        `${count(impact.draftsLater, 'draft proposal gets', 'draft proposals get')} more time. No one is mailed.`,
      );
    if (impact.extensionsPast > 0)
      lines.push(
        `${count(impact.extensionsPast, 'extension ends', 'extensions end')} after the new deadline: ${impact.extensionsPast === 1 ? 'its applicant keeps it' : 'their applicants keep them'}.`,
      );
    if (impact.extensionsOvertaken > 0)
      lines.push(
        `${count(impact.extensionsOvertaken, 'extension now ends', 'extensions now end')} before the new deadline, so ${impact.extensionsOvertaken === 1 ? 'it no longer gives' : 'they no longer give'} more time.`,
      );
  }
  if (review) {
    lines.push(
      `The review deadline moves ${earlier(review) ? 'earlier' : 'later'}, from ${formatCallDate(review.from)} to ${formatCallDate(review.to)}.`,
    );
    lines.push(
      impact.reviewsNotSaved > 0
        ? `${count(impact.reviewsNotSaved, 'assigned review is', 'assigned reviews are')} not submitted yet. Reviewers are not mailed now; the reminders count from the new deadline.`
        : 'Every assigned review is submitted.',
    );
  }
  return lines;
}
