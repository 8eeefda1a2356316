import { utcTime } from '@merit/domain';
import { linkMail, type Mail } from '../../platform/io/mailer.js';
import type { ProposalFacts, Recipient } from '../proposals/proposals.mails.js';

/** How a draft's own submission deadline moved: from `before` to `after`, seen at `now`. */
export interface DeadlineMove {
  before: Date;
  after: Date;
  now: Date;
}

/**
 * To the author and each collaborator of a draft when a chair moves its submission
 * deadline earlier (issue 30): less time than they planned for, so they hear it at once
 * rather than from a reminder that may come too late, or never.
 */
export function deadlineEarlierMail(
  to: Recipient,
  proposal: ProposalFacts,
  move: DeadlineMove,
): Mail {
  const closed = move.after.getTime() <= move.now.getTime();
  return linkMail({
    to: to.email,
    subject: `Submission deadline moved earlier: ${proposal.callName}`,
    greeting: `Hello ${to.firstName || to.username},`,
    lines: [
      `The chairs of the call "${proposal.callName}" moved its submission deadline earlier, to ${utcTime(move.after)} (it was ${utcTime(move.before)}).`,
      closed
        ? `Your proposal "${proposal.proposalName}" (${proposal.typeName}) is still a draft, and submission has now closed for it: a draft is not considered for review.`
        : `Your proposal "${proposal.proposalName}" (${proposal.typeName}) is still a draft. A draft is not considered for review: submit it before ${utcTime(move.after)}.`,
    ],
    action: 'Open the proposal',
    link: proposal.link,
    footer: 'You receive this because you are an author or collaborator of this proposal.',
  });
}
