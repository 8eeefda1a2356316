import { CONFLICT_TYPE_LABELS, type ConflictType } from '@merit/domain';
import { linkMail, type Mail } from '../../platform/io/mailer.js';
import type { Recipient } from '../proposals/proposals.mails.js';

/** What a mail about a member's declared conflict names. */
export interface DeclaredConflictFacts {
  memberName: string;
  callName: string;
  proposalName: string;
  type: ConflictType;
  /** The call's Conflicts page: `${publicUrl}/calls/{callId}/conflicts`. */
  link: string;
}

const greeting = (to: Recipient) => `Hello ${to.firstName || to.username},`;

/**
 * To each chair of the committee without a conflict of their own with the proposal: a
 * member declared a conflict with it, so they no longer review it. The reason stays on
 * the Conflicts page, for those who may see it.
 */
export function conflictDeclaredMail(to: Recipient, facts: DeclaredConflictFacts): Mail {
  return linkMail({
    to: to.email,
    subject: `Conflict of interest declared: ${facts.proposalName}`,
    greeting: greeting(to),
    lines: [
      `${facts.memberName} declared a conflict of interest (${CONFLICT_TYPE_LABELS[facts.type].toLowerCase()}) with the proposal "${facts.proposalName}" in the call "${facts.callName}".`,
      'They can no longer read its reviews or review it, and an assignment as its reviewer, if they had one, has been removed.',
    ],
    action: 'Open the Conflicts page',
    link: facts.link,
    footer: 'You receive this because you chair the committee of this call.',
  });
}
