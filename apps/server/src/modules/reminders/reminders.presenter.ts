import type { ReminderRuleBody, ReminderRules } from '@merit/contract';
import { anchorTime, reminderDueAt } from '@merit/domain';
import type { CallRow } from '../calls/calls.queries.js';
import type { ReminderRuleRow } from './reminders.queries.js';

/**
 * When a rule is next due for the call as a whole: the call's deadline (its submission
 * close, without anyone's extension, or its review close) moved by the offset, while the
 * rule is on, the call open and that time still ahead; otherwise null.
 */
export function nextDueAt(
  rule: Pick<ReminderRuleRow, 'anchor' | 'offsetHours' | 'enabled'>,
  call: Pick<CallRow, 'termination' | 'reviewTermination' | 'closed'>,
  now: Date,
): Date | null {
  if (!rule.enabled || call.closed) return null;
  const due = reminderDueAt(rule.offsetHours, anchorTime(rule.anchor, call, call.termination));
  return due > now ? due : null;
}

export const presentRule = (
  rule: ReminderRuleRow,
  call: Pick<CallRow, 'termination' | 'reviewTermination' | 'closed'>,
  now: Date,
): ReminderRuleBody => ({
  id: rule.id,
  audience: rule.audience,
  anchor: rule.anchor,
  offsetHours: rule.offsetHours,
  enabled: rule.enabled,
  subject: rule.subject,
  body: rule.body,
  nextDueAt: nextDueAt(rule, call, now)?.toISOString() ?? null,
});

/** GET /calls/{callId}/reminders/: the rules in order and the version a save starts from. */
export const presentRules = (
  call: Pick<CallRow, 'termination' | 'reviewTermination' | 'closed' | 'remindersVersion'>,
  rules: readonly ReminderRuleRow[],
  now: Date,
): ReminderRules => ({
  version: call.remindersVersion,
  rules: rules.map((rule) => presentRule(rule, call, now)),
});

/** A rule as the audit log keeps it: everything the chair can change. */
export const auditedRule = (rule: ReminderRuleRow) => ({
  position: rule.position,
  audience: rule.audience,
  anchor: rule.anchor,
  offsetHours: rule.offsetHours,
  enabled: rule.enabled,
  subject: rule.subject,
  body: rule.body,
});

/**
 * A call's rules as one audit snapshot, a field per rule (`rule 12`): the log keeps
 * each value whole up to 1,000 characters, which one rule fits and the list does not,
 * and the History shows only the rules that changed.
 */
export const auditedRules = (rules: readonly ReminderRuleRow[]) =>
  Object.fromEntries(rules.map((rule) => [`rule ${rule.id}`, auditedRule(rule)]));
