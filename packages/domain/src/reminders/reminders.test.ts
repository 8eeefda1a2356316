import { describe, expect, it } from 'vitest';
import {
  latestDueOnly,
  anchorTime,
  chairsInCopy,
  defaultReminderRules,
  MAX_REMINDER_BODY,
  MAX_REMINDER_OFFSET_HOURS,
  MAX_REMINDER_SUBJECT,
  REMINDER_FIELDS,
  reminderDeadline,
  reminderDueAt,
  reminderGoesOut,
  reminderItems,
  reminderMessages,
  reminderRecipients,
  reminderRuleErrors,
  reminderTextErrors,
  renderReminderText,
  submissionCloseFor,
  type ReminderRuleInput,
} from './reminders.js';

const t = (s: string) => new Date(`2027-${s}Z`);
const HOUR = 60 * 60 * 1000;
const ms = (at: Date, delta: number) => new Date(at.getTime() + delta);

/** Submission closes 1 May, review closes 15 May. */
const call = {
  commencement: t('04-01T00:00:00'),
  termination: t('05-01T12:00:00'),
  reviewCommencement: t('05-01T12:00:00'),
  reviewTermination: t('05-15T17:00:00'),
  closed: false,
};
const window = (from: string, to: string) => ({ commencement: t(from), termination: t(to) });

describe('submissionCloseFor', () => {
  it.each([
    ['no extension', [], '05-01T12:00:00'],
    ['an extension ending later', [window('04-28T00:00:00', '05-04T09:00:00')], '05-04T09:00:00'],
    [
      'an extension ending earlier (it changes nothing)',
      [window('03-01T00:00:00', '03-05T00:00:00')],
      '05-01T12:00:00',
    ],
    [
      'two extensions: the latest end',
      [window('04-28T00:00:00', '05-03T00:00:00'), window('05-02T00:00:00', '05-06T00:00:00')],
      '05-06T00:00:00',
    ],
  ])('%s -> %s', (_name, extensions, end) => {
    expect(submissionCloseFor(call, extensions)).toEqual(t(end));
  });
});

describe('anchorTime and reminderDueAt', () => {
  it('counts authors from their own submission close, reviewers from the call’s review close', () => {
    const own = t('05-04T09:00:00');
    expect(anchorTime('submission_close', call, own)).toEqual(own);
    expect(anchorTime('review_close', call, own)).toEqual(call.reviewTermination);
  });

  it('moves the anchor by the offset in hours, either way', () => {
    expect(reminderDueAt(-168, call.termination)).toEqual(t('04-24T12:00:00'));
    expect(reminderDueAt(24, call.reviewTermination)).toEqual(t('05-16T17:00:00'));
  });
});

describe('reminderGoesOut', () => {
  const sevenDaysBefore = {
    offsetHours: -168,
    enabled: true,
    since: t('01-01T00:00:00'),
    callClosed: false,
  };
  const anchorAt = call.termination;
  const dueAt = t('04-24T12:00:00');
  const dayAfter = { ...sevenDaysBefore, offsetHours: 24, anchorAt: call.reviewTermination };
  const overdueAt = t('05-16T17:00:00');

  it.each([
    ['due exactly now', { ...sevenDaysBefore, anchorAt }, dueAt, true],
    ['a millisecond before it is due', { ...sevenDaysBefore, anchorAt }, ms(dueAt, -1), false],
    [
      'due a day ago, its deadline still ahead (an outage)',
      { ...sevenDaysBefore, anchorAt },
      ms(dueAt, 24 * HOUR),
      true,
    ],
    ['a millisecond before its deadline', { ...sevenDaysBefore, anchorAt }, ms(anchorAt, -1), true],
    ['at its deadline: of no use any more', { ...sevenDaysBefore, anchorAt }, anchorAt, false],
    ['after its deadline', { ...sevenDaysBefore, anchorAt }, ms(anchorAt, 3 * HOUR), false],
    [
      'the rule made exactly when it is due',
      { ...sevenDaysBefore, anchorAt, since: dueAt },
      dueAt,
      true,
    ],
    [
      'the rule made a millisecond after it was due',
      { ...sevenDaysBefore, anchorAt, since: ms(dueAt, 1) },
      ms(dueAt, HOUR),
      false,
    ],
    ['the rule turned off', { ...sevenDaysBefore, anchorAt, enabled: false }, dueAt, false],
    ['the call closed', { ...sevenDaysBefore, anchorAt, callClosed: true }, dueAt, false],
    ['after the anchor (overdue reviews), due now', dayAfter, overdueAt, true],
    ['after the anchor, a millisecond early', dayAfter, ms(overdueAt, -1), false],
    [
      'after the anchor, days later while the call is open',
      dayAfter,
      ms(overdueAt, 10 * 24 * HOUR),
      true,
    ],
    ['after the anchor, the call closed', { ...dayAfter, callClosed: true }, overdueAt, false],
    [
      'offset 0, at the anchor itself',
      { ...dayAfter, offsetHours: 0 },
      call.reviewTermination,
      true,
    ],
  ] as const)('%s -> %s', (_name, input, now, expected) => {
    expect(reminderGoesOut(input, now)).toBe(expected);
  });

  it('follows an extension: due 7 days before the author’s own close, and still out after the call’s', () => {
    const own = submissionCloseFor(call, [window('04-28T00:00:00', '05-04T12:00:00')]);
    const input = { ...sevenDaysBefore, anchorAt: own };
    // The call's own due time (24 April) is not yet due for this author.
    expect(reminderGoesOut(input, t('04-24T12:00:00'))).toBe(false);
    expect(reminderGoesOut(input, t('04-27T12:00:00'))).toBe(true);
    // The call has closed for others; the author's own deadline is still ahead.
    expect(reminderGoesOut({ ...input, offsetHours: -24 }, t('05-03T12:00:00'))).toBe(true);
    expect(reminderGoesOut({ ...input, offsetHours: -24 }, t('05-04T12:00:00'))).toBe(false);
  });
});

describe('reminderRecipients', () => {
  const team = { authorId: 1, collaboratorIds: [2, 3] };
  const reviewers = [
    { userId: 10, saved: false, conflicted: false },
    { userId: 11, saved: true, conflicted: false },
    { userId: 12, saved: false, conflicted: true },
    // A reviewer who became a collaborator (the server takes the assignment back; the rule holds all the same).
    { userId: 3, saved: false, conflicted: false },
    { userId: 13, saved: false, conflicted: false },
  ];

  it.each([
    ['authors, a draft: its author and collaborators', 'authors_with_draft', false, [1, 2, 3]],
    ['authors, submitted: nobody', 'authors_with_draft', true, []],
    ['reviewers, a draft: nobody (a draft is not reviewed)', 'reviewers_pending', false, []],
    [
      'reviewers, submitted: those not saved, not conflicted, not on its team',
      'reviewers_pending',
      true,
      [10, 13],
    ],
  ] as const)('%s', (_name, audience, submitted, expected) => {
    expect(reminderRecipients(audience, { ...team, submitted, reviewers })).toEqual(expected);
  });

  it('reminds nobody once every reviewer has saved', () => {
    expect(
      reminderRecipients('reviewers_pending', {
        ...team,
        submitted: true,
        reviewers: reviewers.map((r) => ({ ...r, saved: true })),
      }),
    ).toEqual([]);
  });
});

describe('reminder texts', () => {
  it('accepts every field Merit knows, with or without spaces inside the braces', () => {
    expect(reminderTextErrors(REMINDER_FIELDS.map((f) => `{{ ${f} }} {{${f}}}`).join(' '))).toEqual(
      [],
    );
  });

  it('names an unknown field, once however often it is used', () => {
    expect(reminderTextErrors('Dear {{ nmae }}, see {{ nmae }} and {{ items }}')).toEqual([
      reminderMessages.unknownField('nmae'),
    ]);
    expect(reminderMessages.unknownField('nmae')).toContain('{{ nmae }}');
  });

  it('refuses a field left open', () => {
    expect(reminderTextErrors('Dear {{ name')).toEqual([reminderMessages.unclosedField]);
    expect(reminderTextErrors('Dear {{ name }}, {{')).toEqual([reminderMessages.unclosedField]);
  });

  const rule: ReminderRuleInput = {
    audience: 'reviewers_pending',
    anchor: 'review_close',
    offsetHours: -48,
    enabled: true,
    subject: 'Reviews for {{ call }}',
    body: 'Dear {{ name }},\n{{ items }}\n{{ link }}',
  };

  it.each([
    ['a good rule', rule, {}],
    [
      'an unknown field in the subject',
      { ...rule, subject: '{{ cal }}' },
      { subject: [reminderMessages.unknownField('cal')] },
    ],
    [
      'an unknown field in the body',
      { ...rule, body: 'Hi {{ who }}' },
      { body: [reminderMessages.unknownField('who')] },
    ],
    [
      'applicants counted from review close',
      { ...rule, audience: 'authors_with_draft' as const },
      { offsetHours: [reminderMessages.authorsBeforeClose] },
    ],
    [
      'applicants reminded after submission closed',
      {
        ...rule,
        audience: 'authors_with_draft' as const,
        anchor: 'submission_close' as const,
        offsetHours: 24,
      },
      { offsetHours: [reminderMessages.authorsBeforeClose] },
    ],
    [
      'applicants reminded at the close itself',
      {
        ...rule,
        audience: 'authors_with_draft' as const,
        anchor: 'submission_close' as const,
        offsetHours: 0,
      },
      { offsetHours: [reminderMessages.authorsBeforeClose] },
    ],
    [
      'applicants an hour before submission closes',
      {
        ...rule,
        audience: 'authors_with_draft' as const,
        anchor: 'submission_close' as const,
        offsetHours: -1,
      },
      {},
    ],
  ])('reminderRuleErrors: %s', (_name, input, errors) => {
    expect(reminderRuleErrors(input)).toEqual(errors);
  });

  it('fills in each field, with spaces or without, and leaves anything else as written', () => {
    const values = {
      name: 'Rita Reviewer',
      call: 'Telescope time',
      deadline: reminderDeadline(t('05-15T17:00:00')),
      items: reminderItems([
        { name: 'Pulsar timing', link: 'https://merit.test/a/' },
        { name: 'Dark matter', link: 'https://merit.test/b/' },
      ]),
      link: 'https://merit.test/pending_reviews/',
    };
    expect(
      renderReminderText(
        'Dear {{name}}, {{ call }} closes on {{ deadline }}:\n{{ items }}\nAll: {{ link }} {{ unknown }}',
        values,
      ),
    ).toBe(
      [
        'Dear Rita Reviewer, Telescope time closes on 15 May 2027, 17:00 UTC:',
        '- Pulsar timing: https://merit.test/a/',
        '- Dark matter: https://merit.test/b/',
        'All: https://merit.test/pending_reviews/ {{ unknown }}',
      ].join('\n'),
    );
  });

  it('writes a deadline in UTC, saying so', () => {
    expect(reminderDeadline(new Date('2026-12-04T17:00:00Z'))).toBe('4 Dec 2026, 17:00 UTC');
  });
});

describe('chairsInCopy', () => {
  it.each([
    ['reviewers, a day after review closed', 'reviewers_pending', 'review_close', 24, true],
    ['reviewers, at review close', 'reviewers_pending', 'review_close', 0, false],
    ['reviewers, before review closes', 'reviewers_pending', 'review_close', -48, false],
    ['reviewers, after submission closed', 'reviewers_pending', 'submission_close', 24, false],
    ['applicants', 'authors_with_draft', 'submission_close', -24, false],
  ] as const)('%s -> %s', (_name, audience, anchor, offsetHours, expected) => {
    expect(chairsInCopy({ audience, anchor, offsetHours })).toBe(expected);
  });
});

describe('the default rules', () => {
  const rules = defaultReminderRules();

  it('pass their own checks and fit the limits', () => {
    for (const rule of rules) {
      expect(reminderRuleErrors(rule)).toEqual({});
      expect(rule.subject.length).toBeLessThanOrEqual(MAX_REMINDER_SUBJECT);
      expect(rule.body.length).toBeLessThanOrEqual(MAX_REMINDER_BODY);
      expect(Math.abs(rule.offsetHours)).toBeLessThanOrEqual(MAX_REMINDER_OFFSET_HOURS);
      expect(rule.enabled).toBe(true);
    }
  });

  it('remind applicants 7 and 1 days before, reviewers 7 and 2 days before and 1 day after, the chairs in copy of the last', () => {
    expect(rules.map((r) => [r.audience, r.anchor, r.offsetHours / 24, chairsInCopy(r)])).toEqual([
      ['authors_with_draft', 'submission_close', -7, false],
      ['authors_with_draft', 'submission_close', -1, false],
      ['reviewers_pending', 'review_close', -7, false],
      ['reviewers_pending', 'review_close', -2, false],
      ['reviewers_pending', 'review_close', 1, true],
    ]);
  });

  it('use the fields: each body lists the items and the page', () => {
    for (const rule of rules) {
      expect(rule.body).toContain('{{ name }}');
      expect(rule.body).toContain('{{ items }}');
      expect(rule.body).toContain('{{ link }}');
      expect(`${rule.subject} ${rule.body}`).toContain('{{ deadline }}');
    }
  });

  it('are new objects each time, so a caller may change them', () => {
    const first = defaultReminderRules();
    first[0]!.subject = 'changed';
    expect(defaultReminderRules()[0]!.subject).not.toBe('changed');
  });
});

describe('reminders found together after an outage', () => {
  it('sends only the latest due of each person, call and audience', () => {
    const rows = [
      { user: 1, call: 5, audience: 'reviewers_pending', due: 100, rule: 'seven days' },
      { user: 1, call: 5, audience: 'reviewers_pending', due: 200, rule: 'two days' },
      { user: 2, call: 5, audience: 'reviewers_pending', due: 100, rule: 'seven days' },
      { user: 1, call: 5, audience: 'authors_with_draft', due: 50, rule: 'drafts' },
      { user: 1, call: 6, audience: 'reviewers_pending', due: 100, rule: 'other call' },
    ];
    const kept = latestDueOnly(
      rows,
      (row) => `${row.user}:${row.call}:${row.audience}`,
      (row) => row.due,
    );
    expect(kept.map((row) => `${row.user} ${row.rule}`)).toEqual([
      '1 two days',
      '2 seven days',
      '1 drafts',
      '1 other call',
    ]);
  });
});
