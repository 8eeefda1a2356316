import type { MyReminders, ReminderRuleBody, ReminderRules } from '@merit/contract';
import { defaultReminderRules } from '@merit/domain';

/*
 * Test data only: GET /calls/12/reminders/ of call 12 ("Beamtime 2026", calls.fixtures:
 * submission closes 1 April 2026, review on 1 May), and GET /my_reminders/.
 */

const [authors7, , reviewers7] = defaultReminderRules();

export function makeRule(overrides: Partial<ReminderRuleBody> = {}): ReminderRuleBody {
  return { id: 501, ...authors7!, nextDueAt: '2026-03-25T00:00:00.000Z', ...overrides };
}

/**
 * Version 3: applicants 7 days before submission closes, reviewers 7 days before review
 * closes, and reviewers 36 hours after it (off).
 */
export function makeRules(overrides: Partial<ReminderRules> = {}): ReminderRules {
  return {
    version: 3,
    rules: [
      makeRule(),
      makeRule({ id: 502, ...reviewers7!, nextDueAt: '2026-04-24T00:00:00.000Z' }),
      makeRule({
        id: 503,
        ...reviewers7!,
        offsetHours: 36,
        enabled: false,
        subject: 'Overdue: your reviews for {{ call }}',
        nextDueAt: null,
      }),
    ],
    ...overrides,
  };
}

/** Grace's reminders: two reviews due before review closes, one reminder sent. */
export function makeMyReminders(overrides: Partial<MyReminders> = {}): MyReminders {
  return {
    upcoming: [
      {
        callId: 12,
        callName: 'Beamtime 2026',
        audience: 'reviewers_pending',
        dueAt: '2026-04-24T00:00:00.000Z',
        subject: 'Reviews for {{ call }} are due on {{ deadline }}',
        items: 2,
      },
      {
        callId: 14,
        callName: 'Rapid access 2026',
        audience: 'authors_with_draft',
        dueAt: '2026-04-28T00:00:00.000Z',
        subject: 'Submission to {{ call }} closes on {{ deadline }}',
        items: 1,
      },
    ],
    sent: [
      {
        callId: 12,
        callName: 'Beamtime 2026',
        sentAt: '2026-04-20T08:00:00.000Z',
        kind: 'manual',
        items: 3,
      },
    ],
    ...overrides,
  };
}
