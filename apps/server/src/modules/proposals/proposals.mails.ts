import { utcTime } from '@merit/domain';
import { linkMail, type Mail } from '../../platform/io/mailer.js';

/** Someone a mail goes to, greeted by first name (or username, without one). */
export interface Recipient {
  email: string;
  firstName: string;
  username: string;
}

/** What a proposal's mails name. */
export interface ProposalFacts {
  callName: string;
  proposalName: string;
  typeName: string;
  /** The editor's address: `${publicUrl}/calls/{callId}/proposals/{id}/`. */
  link: string;
}

const greeting = (to: Recipient) => `Hello ${to.firstName || to.username},`;

/**
 * An instant as people read it in a mail that reaches every time zone: Merit's one date
 * format, in UTC and saying so ("28 Nov 2026, 14:00 UTC").
 */
export const mailTime = utcTime;

/** To the author and each collaborator once a proposal is submitted: their receipt. */
export function submittedMail(to: Recipient, proposal: ProposalFacts, at: Date): Mail {
  return linkMail({
    to: to.email,
    subject: `Submitted: ${proposal.proposalName}`,
    greeting: greeting(to),
    lines: [
      `The proposal "${proposal.proposalName}" (${proposal.typeName}) was submitted to the call "${proposal.callName}" on ${mailTime(at)}.`,
      'Keep this message as your receipt. Until submission closes, the author can retract the proposal to change it, and must then submit it again.',
    ],
    action: 'View the proposal',
    link: proposal.link,
    footer: 'You receive this because you are an author or collaborator of this proposal.',
  });
}

/** To the author and each collaborator once a proposal is retracted: it is a draft again. */
export function retractedMail(to: Recipient, proposal: ProposalFacts, at: Date): Mail {
  return linkMail({
    to: to.email,
    subject: `Retracted, now a draft: ${proposal.proposalName}`,
    greeting: greeting(to),
    lines: [
      `The proposal "${proposal.proposalName}" (${proposal.typeName}) to the call "${proposal.callName}" was retracted on ${mailTime(at)}. It is a draft again.`,
      'A draft is not considered for review: the author must submit it again before submission closes.',
    ],
    action: 'Open the proposal',
    link: proposal.link,
    footer: 'You receive this because you are an author or collaborator of this proposal.',
  });
}

/** To a person just added as a collaborator. */
export function collaboratorAddedMail(
  to: Recipient,
  proposal: ProposalFacts,
  authorName: string,
): Mail {
  return linkMail({
    to: to.email,
    subject: `You are now a collaborator on ${proposal.proposalName}`,
    greeting: greeting(to),
    lines: [
      `${authorName} added you as a collaborator on the proposal "${proposal.proposalName}" (${proposal.typeName}) to the call "${proposal.callName}".`,
      'You can edit it with them while it is a draft and submission is open.',
    ],
    action: 'Open the proposal',
    link: proposal.link,
    footer: 'If you did not expect this, tell the author; they can remove you.',
  });
}

/**
 * To the chairs of the call's committee when the author made one of the proposal's
 * reviewers a collaborator: a collaborator cannot review it, so the assignment went.
 */
export function reviewerBecameCollaboratorMail(
  to: Recipient,
  proposal: ProposalFacts,
  reviewerName: string,
  authorName: string,
): Mail {
  return linkMail({
    to: to.email,
    subject: `Reviewer removed from ${proposal.proposalName}`,
    greeting: greeting(to),
    lines: [
      `${authorName} added ${reviewerName} as a collaborator on the proposal "${proposal.proposalName}" (${proposal.typeName}) to the call "${proposal.callName}".`,
      `${reviewerName} was assigned to review it and had not saved a review. A collaborator cannot review the proposal, so that assignment has been removed. Assign another reviewer if it needs one.`,
    ],
    action: 'Open the proposal',
    link: proposal.link,
    footer: 'You receive this because you are a chair of the committee running this call.',
  });
}

/**
 * To the author and each collaborator of a submitted proposal once its call is closed:
 * the decision can be read. Never the decision itself: that stays behind the login.
 */
export function decisionAvailableMail(to: Recipient, proposal: ProposalFacts): Mail {
  return linkMail({
    to: to.email,
    subject: `Decision available: ${proposal.proposalName}`,
    greeting: greeting(to),
    lines: [
      `The call "${proposal.callName}" has closed, and the committee's decision on the proposal "${proposal.proposalName}" (${proposal.typeName}) is available.`,
      'Log in to read it on the proposal’s page.',
    ],
    action: 'Read the decision',
    link: proposal.link,
    footer: 'You receive this because you are an author or collaborator of this proposal.',
  });
}
