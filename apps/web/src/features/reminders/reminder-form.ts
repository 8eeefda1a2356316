import type { ReminderRuleBody, ReminderRuleInputBody } from '@merit/contract';
import {
  MAX_REMINDER_BODY,
  MAX_REMINDER_OFFSET_HOURS,
  MAX_REMINDER_SUBJECT,
  REMINDER_ANCHOR_LABELS,
  reminderRuleErrors,
  validationMessages,
  type ReminderAnchor,
  type ReminderAudience,
  type ReminderRuleInput,
} from '@merit/domain';

/*
 * The reminders editor's form (issue 28): a rule as the chair types it (a number of days
 * or hours, before or after a deadline) and back to what the API takes (`offsetHours`),
 * and the checks the server makes, with its messages, before anything is sent.
 */

export type OffsetUnit = 'days' | 'hours';
export type OffsetDirection = 'before' | 'after';

export interface RuleDraft {
  /** Names the rule in the list while it is edited: its id's, or a new one's own. */
  key: string;
  id?: number;
  audience: ReminderAudience;
  anchor: ReminderAnchor;
  /** The number typed, in `unit`. */
  amount: string;
  unit: OffsetUnit;
  direction: OffsetDirection;
  enabled: boolean;
  subject: string;
  body: string;
  /** When the saved rule is next due; null for a new one, or one that will not go out again. */
  nextDueAt: string | null;
}

/** The fields of a rule that can be wrong, as the server's `fields` name them. */
export type RuleField = 'offsetHours' | 'subject' | 'body';
export type RuleErrors = Partial<Record<RuleField, string[]>>;

const HOURS = { days: 24, hours: 1 } as const;
const MAX_AMOUNT: Record<OffsetUnit, number> = {
  days: MAX_REMINDER_OFFSET_HOURS / 24,
  hours: MAX_REMINDER_OFFSET_HOURS,
};

let lastKey = 0;
const newKey = () => `new-${++lastKey}`;

/** A rule as the form shows it: in days when it is a whole number of them, else in hours. */
export function draftOf(rule: ReminderRuleBody | ReminderRuleInput): RuleDraft {
  const id = 'id' in rule ? rule.id : undefined;
  const hours = Math.abs(rule.offsetHours);
  const unit: OffsetUnit = hours % 24 === 0 ? 'days' : 'hours';
  return {
    key: id === undefined ? newKey() : `rule-${id}`,
    ...(id === undefined ? {} : { id }),
    audience: rule.audience,
    anchor: rule.anchor,
    amount: String(hours / HOURS[unit]),
    unit,
    direction: rule.offsetHours < 0 ? 'before' : 'after',
    enabled: rule.enabled,
    subject: rule.subject,
    body: rule.body,
    nextDueAt: 'nextDueAt' in rule ? rule.nextDueAt : null,
  };
}

/** A new rule, as "Add reminder" starts it: reviewers, 3 days before review closes. */
export function newDraft(): RuleDraft {
  return {
    key: newKey(),
    audience: 'reviewers_pending',
    anchor: 'review_close',
    amount: '3',
    unit: 'days',
    direction: 'before',
    enabled: true,
    subject: '',
    body: '',
    nextDueAt: null,
  };
}

/** The hours from the deadline the form says (negative before it), or null if it is no whole number in range. */
export function offsetHoursOf(
  draft: Pick<RuleDraft, 'amount' | 'unit' | 'direction'>,
): number | null {
  const text = draft.amount.trim();
  if (!/^\d+$/.test(text)) return null;
  const amount = Number(text);
  if (amount > MAX_AMOUNT[draft.unit]) return null;
  const hours = amount * HOURS[draft.unit];
  return draft.direction === 'before' ? -hours : hours;
}

/** The same amount in the other unit, where it is a whole number; otherwise as typed. */
export function withUnit(draft: RuleDraft, unit: OffsetUnit): RuleDraft {
  const hours = offsetHoursOf(draft);
  if (hours === null || Math.abs(hours) % HOURS[unit] !== 0) return { ...draft, unit };
  return { ...draft, unit, amount: String(Math.abs(hours) / HOURS[unit]) };
}

/** The rule as PUT .../reminders/ takes it; `offsetHours` 0 when the amount is not valid (checked first). */
export function inputOf(draft: RuleDraft): ReminderRuleInputBody {
  return {
    ...(draft.id === undefined ? {} : { id: draft.id }),
    audience: draft.audience,
    anchor: draft.anchor,
    offsetHours: offsetHoursOf(draft) ?? 0,
    enabled: draft.enabled,
    subject: draft.subject,
    body: draft.body,
  };
}

/** What a list of drafts would save, to tell whether anything changed. */
export const savedForm = (drafts: readonly RuleDraft[]) =>
  JSON.stringify(
    drafts.map((draft) => ({
      ...inputOf(draft),
      offsetHours: offsetHoursOf(draft) ?? draft.amount,
    })),
  );

const textErrors = (text: string, max: number): string[] => {
  if (!text.trim()) return [validationMessages.required];
  if (text.trim().length > max) return [validationMessages.maxLength(max)];
  return [];
};

/** The errors of one rule, by field: the server's checks and messages, the domain's rules. */
export function draftErrors(draft: RuleDraft): RuleErrors {
  const offsetHours = offsetHoursOf(draft);
  const errors: RuleErrors = {};
  const add = (field: RuleField, messages: readonly string[]) => {
    if (messages.length) errors[field] = [...(errors[field] ?? []), ...messages];
  };
  add('subject', textErrors(draft.subject, MAX_REMINDER_SUBJECT));
  add('body', textErrors(draft.body, MAX_REMINDER_BODY));
  if (offsetHours === null)
    add('offsetHours', [
      `Enter a whole number of ${draft.unit} from 0 to ${MAX_AMOUNT[draft.unit]}.`,
    ]);
  const rule = reminderRuleErrors({ ...inputOf(draft), offsetHours: offsetHours ?? -1 });
  for (const field of ['offsetHours', 'subject', 'body'] as const)
    if (!(field === 'offsetHours' && offsetHours === null)) add(field, rule[field] ?? []);
  return errors;
}

/**
 * A 400's `fields` (`rules.<n>.subject`) by rule: the list is saved in the order it was
 * sent, so `<n>` is the rule's place in the form. What names no rule's field is `rest`.
 */
export function serverErrors(fields: Record<string, string[]> | undefined): {
  byRule: Map<number, RuleErrors>;
  rest: string[];
} {
  const byRule = new Map<number, RuleErrors>();
  const rest: string[] = [];
  for (const [key, messages] of Object.entries(fields ?? {})) {
    const match = /^rules\.(\d+)\.(offsetHours|subject|body)$/.exec(key);
    if (!match) {
      rest.push(...messages);
      continue;
    }
    const index = Number(match[1]);
    const field = match[2] as RuleField;
    const errors = byRule.get(index) ?? {};
    errors[field] = [...(errors[field] ?? []), ...messages];
    byRule.set(index, errors);
  }
  return { byRule, rest };
}

/** "7 days before review closes", "2 hours after submission closes". */
export function whenText(draft: RuleDraft): string {
  const hours = offsetHoursOf(draft);
  if (hours === null) return '';
  const amount = Math.abs(hours) / HOURS[draft.unit];
  const unit = amount === 1 ? draft.unit.slice(0, -1) : draft.unit;
  const anchor = REMINDER_ANCHOR_LABELS[draft.anchor];
  return hours === 0 ? `When ${anchor}` : `${amount} ${unit} ${draft.direction} ${anchor}`;
}
