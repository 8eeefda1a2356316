import { utcTime } from '../dates.js';
import type { CallState, TimeWindow } from '../calls/windows.js';

/*
 * Reminders (issue 28): per call, rules that say whom to remind of what, and when. Who is
 * reminded is worked out when a reminder is due, from the call as it is then; each person
 * gets one mail per rule and due time, listing everything they have due.
 */

/** Who a rule reminds: the applicants (and collaborators) of drafts, or assigned reviewers who have not saved. */
export const REMINDER_AUDIENCES = ['authors_with_draft', 'reviewers_pending'] as const;
export type ReminderAudience = (typeof REMINDER_AUDIENCES)[number];

/** The deadline a rule counts from. */
export const REMINDER_ANCHORS = ['submission_close', 'review_close'] as const;
export type ReminderAnchor = (typeof REMINDER_ANCHORS)[number];

export const REMINDER_AUDIENCE_LABELS: Record<ReminderAudience, string> = {
  authors_with_draft: 'Applicants with a draft',
  reviewers_pending: 'Reviewers with a review to write',
};

export const REMINDER_ANCHOR_LABELS: Record<ReminderAnchor, string> = {
  submission_close: 'submission closes',
  review_close: 'review closes',
};

/** The named fields a reminder's subject and body may use, written `{{ name }}`. */
export const REMINDER_FIELDS = ['name', 'call', 'deadline', 'items', 'link'] as const;
export type ReminderField = (typeof REMINDER_FIELDS)[number];

export const REMINDER_FIELD_HELP: Record<ReminderField, string> = {
  name: 'the name of the person reminded',
  call: 'the call’s name',
  deadline: 'the deadline, written out in full in UTC',
  items: 'the list of what is due, each with its link',
  link: 'the page where it is all listed',
};

/** At most this many rules per call. */
export const MAX_REMINDER_RULES = 20;
/** A rule fires at most this long before or after its anchor (90 days). */
export const MAX_REMINDER_OFFSET_HOURS = 90 * 24;
export const MAX_REMINDER_SUBJECT = 200;
export const MAX_REMINDER_BODY = 5000;
/** The sweep that finds due reminders runs this often. */
export const REMINDER_SWEEP_MS = 5 * 60 * 1000;

export interface ReminderRuleInput {
  audience: ReminderAudience;
  anchor: ReminderAnchor;
  /** Hours from the anchor: negative before it, positive after. */
  offsetHours: number;
  enabled: boolean;
  subject: string;
  body: string;
}

export interface ReminderRule extends ReminderRuleInput {
  id: number;
}

export const reminderMessages = {
  unknownField: (field: string) =>
    `“{{ ${field} }}” is not a field Merit knows. Use one of: ${REMINDER_FIELDS.map((f) => `{{ ${f} }}`).join(', ')}.`,
  unclosedField: 'A field starts with “{{” but has no “}}”.',
  authorsBeforeClose:
    'Applicants can only be reminded before submission closes: choose “submission closes” and a time before it.',
  tooManyRules: `A call has at most ${MAX_REMINDER_RULES} reminders.`,
  chairsOnly: 'Only the chairs of the call’s committee can manage its reminders.',
  callClosed: 'This call is closed: there is nothing left to remind anyone of.',
  nobodySelected: 'Choose at least one member to remind.',
  notMembers: 'Reminders go only to the call’s reviewers: some of the people chosen are not.',
  stale:
    'These reminders were changed by someone else since you opened them. Reload to see their changes.',
} as const;

const DAY = 24;

/** The rules every new call starts with (the chair can change or turn off each). */
export function defaultReminderRules(): ReminderRuleInput[] {
  const authors = (days: number): ReminderRuleInput => ({
    audience: 'authors_with_draft',
    anchor: 'submission_close',
    offsetHours: -days * DAY,
    enabled: true,
    subject:
      days === 1
        ? 'Tomorrow: submission to {{ call }} closes'
        : 'Submission to {{ call }} closes on {{ deadline }}',
    body: [
      'Dear {{ name }},',
      '',
      'Submission to {{ call }} closes on {{ deadline }}. These proposals of yours are still drafts, and a draft is not reviewed:',
      '',
      '{{ items }}',
      '',
      'Open each one and choose Submit when it is ready. Your proposals: {{ link }}',
    ].join('\n'),
  });
  const reviewers = (offsetDays: number): ReminderRuleInput => ({
    audience: 'reviewers_pending',
    anchor: 'review_close',
    offsetHours: offsetDays * DAY,
    enabled: true,
    subject:
      offsetDays > 0
        ? 'Overdue: your reviews for {{ call }}'
        : 'Reviews for {{ call }} are due on {{ deadline }}',
    body:
      offsetDays > 0
        ? [
            'Dear {{ name }},',
            '',
            'Review of {{ call }} closed on {{ deadline }}, and these reviews assigned to you are not saved yet:',
            '',
            '{{ items }}',
            '',
            'The chairs have a copy of this reminder. If you cannot write them, please tell the chairs. Your pending reviews: {{ link }}',
          ].join('\n')
        : [
            'Dear {{ name }},',
            '',
            'Review of {{ call }} closes on {{ deadline }}. These reviews assigned to you are not saved yet:',
            '',
            '{{ items }}',
            '',
            'Your pending reviews: {{ link }}',
          ].join('\n'),
  });
  return [authors(7), authors(1), reviewers(-7), reviewers(-2), reviewers(1)];
}

const FIELD = /\{\{\s*([^{}]*?)\s*\}\}/g;

/** The errors of one text: fields Merit does not know, and a `{{` left open. */
export function reminderTextErrors(text: string): string[] {
  const errors: string[] = [];
  for (const match of text.matchAll(FIELD)) {
    const field = match[1] ?? '';
    if (!(REMINDER_FIELDS as readonly string[]).includes(field)) {
      const message = reminderMessages.unknownField(field);
      if (!errors.includes(message)) errors.push(message);
    }
  }
  if (text.replace(FIELD, '').includes('{{')) errors.push(reminderMessages.unclosedField);
  return errors;
}

/** The errors of one rule, by field (`subject`, `body`, `anchor`). */
export function reminderRuleErrors(rule: ReminderRuleInput): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  const subject = reminderTextErrors(rule.subject);
  const body = reminderTextErrors(rule.body);
  if (subject.length) errors.subject = subject;
  if (body.length) errors.body = body;
  if (
    rule.audience === 'authors_with_draft' &&
    (rule.anchor !== 'submission_close' || rule.offsetHours >= 0)
  )
    errors.offsetHours = [reminderMessages.authorsBeforeClose];
  return errors;
}

/** The values of a reminder's fields for one person and due time. */
export type ReminderValues = Record<ReminderField, string>;

/** A text with its fields filled in (plain text; the mail escapes it for its HTML part). */
export function renderReminderText(text: string, values: ReminderValues): string {
  return text.replace(FIELD, (whole, field: string) =>
    (REMINDER_FIELDS as readonly string[]).includes(field) ? values[field as ReminderField] : whole,
  );
}

/** `{{ deadline }}`: in UTC, saying so ("4 Dec 2026, 17:00 UTC"). */
export const reminderDeadline = (at: Date) => utcTime(at);

/** `{{ items }}`: one line per item, its name and its link. */
export const reminderItems = (items: readonly { name: string; link: string }[]) =>
  items.map((item) => `- ${item.name}: ${item.link}`).join('\n');

const HOUR_MS = 60 * 60 * 1000;

/**
 * The end of submission for a proposal's team: the latest end of the call's window and of
 * its author's extensions (an extension lets its holder submit until it ends).
 */
export function submissionCloseFor(call: TimeWindow, extensions: readonly TimeWindow[]): Date {
  let end = call.termination;
  for (const extension of extensions) if (extension.termination > end) end = extension.termination;
  return end;
}

/** The instant a rule's anchor stands for, for one person (`submissionClose`: theirs). */
export function anchorTime(
  anchor: ReminderAnchor,
  call: Pick<CallState, 'reviewTermination'>,
  submissionClose: Date,
): Date {
  return anchor === 'submission_close' ? submissionClose : call.reviewTermination;
}

/** When a rule is due for an anchor: the anchor moved by the offset. */
export const reminderDueAt = (offsetHours: number, anchorAt: Date) =>
  new Date(anchorAt.getTime() + offsetHours * HOUR_MS);

/**
 * Whether a reminder due at `dueAt` goes out now. It is due (`dueAt <= now`), it falls
 * after the rule was made or last turned on (`since`: a rule never reaches back to times
 * before it existed), the call is not closed, and its deadline has not passed: a reminder
 * before its anchor is of no use once the anchor is reached; one after it (an overdue
 * review) is of use while the call is open. A reminder due while the server was down
 * therefore still goes out when it comes back, as long as it can be acted on.
 */
export function reminderGoesOut(
  input: {
    offsetHours: number;
    enabled: boolean;
    since: Date;
    anchorAt: Date;
    callClosed: boolean;
  },
  now: Date,
): boolean {
  if (!input.enabled || input.callClosed) return false;
  const dueAt = reminderDueAt(input.offsetHours, input.anchorAt);
  if (dueAt > now || dueAt < input.since) return false;
  return input.offsetHours >= 0 || now < input.anchorAt;
}

/**
 * Whom a rule reminds of one proposal, worked out when the reminder is due.
 *
 * - `authors_with_draft`: its applicant and collaborators while it is a draft.
 * - `reviewers_pending`: each reviewer assigned to it who has saved no review of it, is
 *   not on its team, and has no enforced conflict with it; only once it is submitted.
 *
 * The server runs the same rule as SQL over a whole call (reminders.queries.ts); the
 * domain tests and the server's tests hold the two to the same answers.
 */
export function reminderRecipients(
  audience: ReminderAudience,
  proposal: {
    submitted: boolean;
    authorId: number;
    collaboratorIds: readonly number[];
    reviewers: readonly { userId: number; saved: boolean; conflicted: boolean }[];
  },
): number[] {
  const team = [proposal.authorId, ...proposal.collaboratorIds];
  if (audience === 'authors_with_draft') return proposal.submitted ? [] : team;
  if (!proposal.submitted) return [];
  return proposal.reviewers
    .filter((r) => !r.saved && !r.conflicted && !team.includes(r.userId))
    .map((r) => r.userId);
}

/**
 * The chairs get a copy of a reminder to reviewers that comes after review has closed
 * (an overdue review): one mail per chair naming each late reviewer, never a proposal the
 * chair has a conflict with or is on the team of.
 */
export const chairsInCopy = (
  rule: Pick<ReminderRuleInput, 'audience' | 'offsetHours' | 'anchor'>,
) =>
  rule.audience === 'reviewers_pending' && rule.anchor === 'review_close' && rule.offsetHours > 0;

/**
 * Of several reminders due to one person at once for the same call and audience (found
 * together after Merit was down across more than one due time), only the latest goes
 * out: it says all the earlier ones would have, and one mail is enough. `keyOf` names the
 * person, call and audience; the order of the rest is kept.
 */
export function latestDueOnly<T>(
  rows: readonly T[],
  keyOf: (row: T) => string,
  dueOf: (row: T) => number,
): T[] {
  const latest = new Map<string, number>();
  for (const row of rows) {
    const key = keyOf(row);
    latest.set(key, Math.max(latest.get(key) ?? -Infinity, dueOf(row)));
  }
  return rows.filter((row) => dueOf(row) === latest.get(keyOf(row)));
}
