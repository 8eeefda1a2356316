import { describe, expect, it } from 'vitest';
import {
  submissionStanding,
  submissionStandingMessage,
  submissionStandingMessages as messages,
  type SubmissionStanding,
} from './submission-standing.js';

const t = (iso: string) => new Date(`2026-${iso}Z`);

const call = {
  closed: false,
  commencement: t('03-01T00:00:00'),
  termination: t('04-01T00:00:00'),
  reviewCommencement: t('04-15T00:00:00'),
  reviewTermination: t('05-15T00:00:00'),
};
const during = t('03-10T00:00:00');
const deadline = call.termination;
const afterDeadline = t('04-03T00:00:00');
/** An extension from the deadline for a week. */
const running = { commencement: deadline, termination: t('04-08T00:00:00') };
/** An extension granted for later: from 5 April for two days. */
const later = { commencement: t('04-05T00:00:00'), termination: t('04-07T00:00:00') };

describe('submissionStanding', () => {
  it.each<[string, typeof call, (typeof running)[], Date, SubmissionStanding]>([
    ['during the call’s window -> open', call, [], during, { status: 'open', reopensAt: null }],
    [
      'at the deadline, without an extension -> closed',
      call,
      [],
      deadline,
      { status: 'closed', reopensAt: null },
    ],
    [
      'after the deadline -> closed',
      call,
      [],
      afterDeadline,
      { status: 'closed', reopensAt: null },
    ],
    [
      'after the deadline, in an extension -> open',
      call,
      [running],
      afterDeadline,
      { status: 'open', reopensAt: null },
    ],
    [
      'after an extension ended -> closed',
      call,
      [running],
      t('04-09T00:00:00'),
      { status: 'closed', reopensAt: null },
    ],
    [
      'after the deadline, an extension to come -> reopens at its start',
      call,
      [later],
      afterDeadline,
      { status: 'reopens', reopensAt: later.commencement },
    ],
    [
      'before the call opens -> reopens at its opening',
      call,
      [],
      t('02-01T00:00:00'),
      { status: 'reopens', reopensAt: call.commencement },
    ],
    [
      'an empty extension to come -> closed',
      call,
      [{ commencement: later.commencement, termination: later.commencement }],
      afterDeadline,
      { status: 'closed', reopensAt: null },
    ],
    [
      'a closed call, even in an extension -> callClosed',
      { ...call, closed: true },
      [running],
      afterDeadline,
      { status: 'callClosed', reopensAt: null },
    ],
  ])('%s', (_name, theCall, extensions, now, expected) => {
    expect(submissionStanding(theCall, extensions, now)).toEqual(expected);
  });
});

describe('submissionStandingMessage', () => {
  const format = (at: Date) => at.toISOString();
  const reopens = { status: 'reopens' as const, reopensAt: '2026-04-05T00:00:00.000Z' };
  it.each([
    ['a draft, open -> nothing to say', 0, { status: 'open' as const, reopensAt: null }, null],
    [
      'a draft past its deadline',
      0,
      { status: 'closed' as const, reopensAt: null },
      messages.draftClosed,
    ],
    [
      'a draft with an extension to come',
      0,
      reopens,
      messages.draftReopens('2026-04-05T00:00:00.000Z'),
    ],
    [
      'submitted, open -> its author can retract it',
      1,
      { status: 'open' as const, reopensAt: null },
      messages.submittedOpen,
    ],
    [
      'submitted past its deadline -> no retract',
      1,
      { status: 'closed' as const, reopensAt: null },
      messages.submittedClosed,
    ],
    [
      'reviewed past its deadline -> no retract',
      2,
      { status: 'closed' as const, reopensAt: null },
      messages.submittedClosed,
    ],
    [
      'submitted, an extension to come',
      1,
      reopens,
      messages.submittedReopens('2026-04-05T00:00:00.000Z'),
    ],
    [
      'a draft of a closed call',
      0,
      { status: 'callClosed' as const, reopensAt: null },
      messages.callClosed,
    ],
    [
      'submitted to a closed call',
      1,
      { status: 'callClosed' as const, reopensAt: null },
      messages.callClosed,
    ],
  ])('%s', (_name, stateVal, standing, expected) => {
    expect(submissionStandingMessage(stateVal, standing, format)).toBe(expected);
  });

  it('never offers retracting once the deadline has passed', () => {
    expect(messages.submittedClosed).not.toMatch(/retract/);
    expect(messages.draftClosed).not.toMatch(/retract/);
  });
});
