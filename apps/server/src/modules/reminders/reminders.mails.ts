import {
  reminderDeadline,
  reminderItems,
  renderReminderText,
  type ReminderAudience,
  type ReminderValues,
} from '@merit/domain';
import type { Mail } from '../../platform/io/mailer.js';

/** What a reminder names: the call, the deadline it counts from, each item with its link. */
export interface ReminderFacts {
  callName: string;
  /** The rule's anchor for this person: `{{ deadline }}`. */
  deadline: Date;
  items: readonly { name: string; link: string }[];
  /** The page where it is all listed: `{{ link }}`. */
  link: string;
}

/** The values of a reminder's fields for one person. */
export const reminderValues = (name: string, facts: ReminderFacts): ReminderValues => ({
  name,
  call: facts.callName,
  deadline: reminderDeadline(facts.deadline),
  items: reminderItems(facts.items),
  link: facts.link,
});

/**
 * Where a reminder's links go: each item to the page where it is done (a draft's editor,
 * a review's form), `{{ link }}` to the list of them all (the dashboard's My Proposals,
 * the pending reviews).
 */
export const reminderLinks = (publicUrl: string, callId: number, audience: ReminderAudience) =>
  audience === 'authors_with_draft'
    ? {
        item: (proposalId: number) => `${publicUrl}/calls/${callId}/proposals/${proposalId}/`,
        page: `${publicUrl}/`,
      }
    : {
        item: (proposalId: number) =>
          `${publicUrl}/calls/${callId}/proposals/${proposalId}/review/`,
        page: `${publicUrl}/pending_reviews/`,
      };

/** A subject is one line, whatever a field put in it (`{{ items }}` has one per item). */
export const oneLine = (text: string) => text.replace(/\s*\n\s*/g, ' ').trim();

const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

/**
 * Plain text as simple HTML: every character escaped (a chair's text is never markup),
 * a paragraph per blank-line-separated block, and each address made a link.
 */
function textAsHtml(text: string): string {
  return text
    .split(/\n{2,}/)
    .map(
      (block) =>
        `<p>${escapeHtml(block)
          .replace(/https?:\/\/[^\s<]+/g, (url) => `<a href="${url}">${url}</a>`)
          .replace(/\n/g, '<br>\n')}</p>`,
    )
    .join('\n');
}

function textMail(to: string, subject: string, body: string, footer: string): Mail {
  const text = [body, '', footer, '', 'Merit'].join('\n');
  return { to, subject: oneLine(subject), text, html: textAsHtml(text) };
}

const footers: Record<ReminderAudience, string> = {
  authors_with_draft:
    'You receive this because you are an author or collaborator of these proposals, and the chairs of the call remind applicants of drafts before submission closes.',
  reviewers_pending:
    'You receive this because a chair of the committee assigned you these reviews, and the chairs of the call remind reviewers of reviews not yet saved.',
};

/**
 * One reminder to one person: the rule's subject and body with their fields filled in,
 * listing everything due for them at this due time. Never names another reviewer.
 */
export function reminderMail(
  to: { email: string; name: string },
  audience: ReminderAudience,
  text: { subject: string; body: string },
  facts: ReminderFacts,
): Mail {
  const values = reminderValues(to.name, facts);
  return textMail(
    to.email,
    renderReminderText(text.subject, values),
    renderReminderText(text.body, values),
    footers[audience],
  );
}

/**
 * The chairs' copy of a reminder to reviewers after review closed: each late reviewer by
 * name with the proposal they have not reviewed. The caller leaves out the proposals this
 * chair has a conflict with or is on the team of.
 */
export function chairCopyMail(
  to: { email: string; name: string },
  facts: {
    callName: string;
    deadline: Date;
    late: readonly { reviewer: string; proposal: string; link: string }[];
  },
): Mail {
  const count = facts.late.length;
  return textMail(
    to.email,
    `Copy: ${count} ${count === 1 ? 'review' : 'reviews'} of ${facts.callName} not saved`,
    [
      `Dear ${to.name},`,
      '',
      `Review of ${facts.callName} closed on ${reminderDeadline(facts.deadline)}. These reviewers were reminded of the reviews they have not saved:`,
      '',
      ...facts.late.map((row) => `- ${row.reviewer}: ${row.proposal}: ${row.link}`),
    ].join('\n'),
    'You receive this copy because you are a chair of the committee running this call. Proposals you have a conflict of interest with or are an author of are left out.',
  );
}
