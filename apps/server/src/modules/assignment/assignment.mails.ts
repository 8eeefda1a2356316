import { assignmentMessages } from '@merit/domain';
import { linkMail, type Mail } from '../../platform/io/mailer.js';
import { mailTime, type Recipient } from '../proposals/proposals.mails.js';

/** What a digest names: the call, and each new proposal with its review page. */
export interface DigestFacts {
  callName: string;
  reviewDeadline: Date;
  proposals: readonly { name: string; link: string }[];
  /** The member's pending reviews in the web app. */
  pendingLink: string;
}

const greeting = (to: Recipient) => `Hello ${to.firstName || to.username},`;

/**
 * To a member given new proposals by one batch (Apply of a proposed assignment, a CSV
 * upload): one mail listing them all, instead of one per assignment. Never names the
 * other reviewers.
 */
export function assignmentDigestMail(to: Recipient, facts: DigestFacts): Mail {
  const count = facts.proposals.length;
  return linkMail({
    to: to.email,
    subject: assignmentMessages.digestSubject(count, facts.callName),
    greeting: greeting(to),
    lines: [
      assignmentMessages.digestIntro(count, facts.callName),
      ...facts.proposals.map((proposal) => `- "${proposal.name}": ${proposal.link}`),
      `Reviews can be saved until ${mailTime(facts.reviewDeadline)}.`,
    ],
    action: 'See your pending reviews',
    link: facts.pendingLink,
    footer: 'You receive this because a chair of the committee assigned you as a reviewer.',
  });
}
