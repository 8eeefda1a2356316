import { linkMail, type Mail } from '../../platform/io/mailer.js';
import { mailTime, type Recipient } from '../proposals/proposals.mails.js';

/** What a reviewer's mails name: never the proposal's reviewers to anyone else. */
export interface ReviewFacts {
  callName: string;
  proposalName: string;
  reviewDeadline: Date;
  /** Where to go: the review editor, or the dashboard. */
  link: string;
}

const greeting = (to: Recipient) => `Hello ${to.firstName || to.username},`;

/** To a committee member a chair has just assigned as a reviewer. */
export function reviewerAddedMail(to: Recipient, facts: ReviewFacts): Mail {
  return linkMail({
    to: to.email,
    subject: `Please review: ${facts.proposalName}`,
    greeting: greeting(to),
    lines: [
      `You have been assigned to review the proposal "${facts.proposalName}" in the call "${facts.callName}".`,
      `Reviews can be saved until ${mailTime(facts.reviewDeadline)}.`,
    ],
    action: 'Write the review',
    link: facts.link,
    footer: 'You receive this because a chair of the committee assigned you as a reviewer.',
  });
}

/** To a reviewer whose assignment a chair has taken back. */
export function reviewerRemovedMail(to: Recipient, facts: ReviewFacts): Mail {
  return linkMail({
    to: to.email,
    subject: `No longer a reviewer of ${facts.proposalName}`,
    greeting: greeting(to),
    lines: [
      `A chair has removed you as a reviewer of the proposal "${facts.proposalName}" in the call "${facts.callName}". You do not need to review it.`,
    ],
    action: 'Open Merit',
    link: facts.link,
    footer: 'You receive this because you were assigned as a reviewer of this proposal.',
  });
}
