import { MAX_REMINDER_OFFSET_HOURS, reminderMessages, validationMessages } from '@merit/domain';
import { describe, expect, it } from 'vitest';
import {
  draftErrors,
  draftOf,
  inputOf,
  newDraft,
  offsetHoursOf,
  serverErrors,
  whenText,
  withUnit,
  type RuleDraft,
} from './reminder-form';
import { makeRule } from './reminders.fixtures';

const draft = (overrides: Partial<RuleDraft>): RuleDraft => ({
  ...newDraft(),
  subject: 'Due',
  body: 'Dear {{ name }}',
  ...overrides,
});

describe('the reminders form', () => {
  it.each([
    ['7 days before', { amount: '7', unit: 'days', direction: 'before' }, -168],
    ['1 day after', { amount: '1', unit: 'days', direction: 'after' }, 24],
    ['36 hours after', { amount: '36', unit: 'hours', direction: 'after' }, 36],
    ['0 days before', { amount: '0', unit: 'days', direction: 'before' }, -0],
    ['90 days after: the most', { amount: '90', unit: 'days', direction: 'after' }, 2160],
    ['91 days: too far', { amount: '91', unit: 'days', direction: 'after' }, null],
    ['half a day: not whole', { amount: '0.5', unit: 'days', direction: 'after' }, null],
    ['nothing typed', { amount: '', unit: 'days', direction: 'after' }, null],
  ] as const)('%s -> %s hours', (_name, form, hours) => {
    expect(offsetHoursOf(form)).toBe(hours);
  });

  it('shows a whole number of days in days, anything else in hours, and back as it was', () => {
    const days = draftOf(makeRule({ offsetHours: -48 }));
    expect(days).toMatchObject({ amount: '2', unit: 'days', direction: 'before', id: 501 });
    expect(inputOf(days).offsetHours).toBe(-48);
    const hours = draftOf(makeRule({ offsetHours: 30 }));
    expect(hours).toMatchObject({ amount: '30', unit: 'hours', direction: 'after' });
    expect(inputOf(hours).offsetHours).toBe(30);
    expect(whenText(hours)).toBe('30 hours after submission closes');
    expect(whenText({ ...days, amount: '1' })).toBe('1 day before submission closes');
  });

  it('converts the amount when the unit changes, where it is a whole number', () => {
    expect(withUnit(draft({ amount: '2', unit: 'days' }), 'hours').amount).toBe('48');
    expect(withUnit(draft({ amount: '48', unit: 'hours' }), 'days').amount).toBe('2');
    expect(withUnit(draft({ amount: '36', unit: 'hours' }), 'days').amount).toBe('36');
  });

  it('checks a rule as the server does, with its messages', () => {
    expect(draftErrors(draft({}))).toEqual({});
    expect(draftErrors(draft({ subject: ' ', body: '{{ link ' }))).toEqual({
      subject: [validationMessages.required],
      body: [reminderMessages.unclosedField],
    });
    expect(
      draftErrors(
        draft({ audience: 'authors_with_draft', anchor: 'submission_close', direction: 'after' }),
      ),
    ).toEqual({ offsetHours: [reminderMessages.authorsBeforeClose] });
    expect(
      draftErrors(draft({ amount: String(MAX_REMINDER_OFFSET_HOURS + 1), unit: 'hours' })),
    ).toEqual({
      offsetHours: ['Enter a whole number of hours from 0 to 2160.'],
    });
  });

  it('files the server’s field errors under the rule they name', () => {
    const { byRule, rest } = serverErrors({
      'rules.1.subject': ['a'],
      'rules.1.body': ['b'],
      'rules.0.offsetHours': ['c'],
      version: ['d'],
    });
    expect(byRule.get(1)).toEqual({ subject: ['a'], body: ['b'] });
    expect(byRule.get(0)).toEqual({ offsetHours: ['c'] });
    expect(rest).toEqual(['d']);
  });
});
