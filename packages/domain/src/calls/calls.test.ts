import { describe, expect, it } from 'vitest';
import type { CommitteeActor } from '../permissions/committee.js';
import { isAnyChair, isCommitteeChair, isCommitteeMember } from '../permissions/committee.js';
import {
  callDateErrors,
  callDateMessages,
  canBeClosed,
  reviewWindowOpen,
  submissionOpenFor,
  type TimeWindow,
} from './windows.js';

const t = (iso: string) => new Date(`2026-${iso}Z`);
const call = {
  committeeId: 7,
  closed: false,
  commencement: t('03-01T00:00:00'),
  termination: t('04-01T00:00:00'),
  reviewCommencement: t('04-15T00:00:00'),
  reviewTermination: t('05-15T00:00:00'),
};
const extension = { commencement: t('04-01T00:00:00'), termination: t('04-08T00:00:00') };
const ms = (d: Date, delta: number) => new Date(d.getTime() + delta);

describe('submissionOpenFor', () => {
  const cases: [string, Date, TimeWindow[], boolean, boolean][] = [
    ['a moment before the call opens', ms(call.commencement, -1), [], false, false],
    ['as the call opens', call.commencement, [], false, true],
    ['a moment before the deadline', ms(call.termination, -1), [], false, true],
    ['at the deadline', call.termination, [], false, false],
    [
      'at the deadline, with an extension starting then',
      call.termination,
      [extension],
      false,
      true,
    ],
    ['a moment before the extension ends', ms(extension.termination, -1), [extension], false, true],
    ['when the extension ends', extension.termination, [extension], false, false],
    ['inside the window of a closed call', t('03-10T00:00:00'), [], true, false],
  ];
  it.each(cases)('%s (closed: %s) -> %s', (_name, now, extensions, closed, expected) => {
    expect(submissionOpenFor({ ...call, closed }, extensions, now)).toBe(expected);
  });
});

describe('reviewWindowOpen and canBeClosed', () => {
  it.each([
    ['before review opens', ms(call.reviewCommencement, -1), false, false],
    ['as review opens', call.reviewCommencement, true, false],
    ['a moment before review closes', ms(call.reviewTermination, -1), true, false],
    ['as review closes', call.reviewTermination, false, true],
    ['long after', t('12-01T00:00:00'), false, true],
  ] as const)('%s -> review open %s, can close %s', (_name, now, reviewOpen, closable) => {
    expect(reviewWindowOpen(call, now)).toBe(reviewOpen);
    expect(canBeClosed(call, now)).toBe(closable);
  });

  it('cannot close a closed call again', () => {
    expect(canBeClosed({ ...call, closed: true }, t('12-01T00:00:00'))).toBe(false);
  });
});

describe('callDateErrors', () => {
  it('accepts equal neighbouring dates', () => {
    const d = t('03-01T00:00:00');
    expect(
      callDateErrors({
        commencement: d,
        termination: d,
        reviewCommencement: d,
        reviewTermination: d,
      }),
    ).toEqual({});
  });
  it.each([
    [
      'close before open',
      { termination: ms(call.commencement, -1) },
      'closeDateTime',
      callDateMessages.closeBeforeOpen,
    ],
    [
      'review open before close',
      { reviewCommencement: ms(call.termination, -1) },
      'reviewOpenDateTime',
      callDateMessages.reviewOpenBeforeClose,
    ],
    [
      'review close before review open',
      { reviewTermination: ms(call.reviewCommencement, -1) },
      'reviewCloseDateTime',
      callDateMessages.reviewCloseBeforeOpen,
    ],
  ])('%s', (_name, change, field, message) => {
    expect(callDateErrors({ ...call, ...change })).toEqual({ [field]: [message] });
  });
  it('uses the spec wording', () => {
    expect(callDateMessages.closeBeforeOpen).toBe(
      'Proposal close time must be after proposal open time.',
    );
    expect(callDateMessages.reviewOpenBeforeClose).toBe(
      'Review open time must be after proposal close time.',
    );
    expect(callDateMessages.reviewCloseBeforeOpen).toBe(
      'Review close time must be after review open time.',
    );
  });
});

const now = t('03-10T00:00:00');
const role = (
  committeeId: number,
  r: 'CHAIR' | 'MEMBER',
  from = '01-01T00:00:00',
  to = '12-31T00:00:00',
) => ({
  committeeId,
  role: r,
  commencement: t(from),
  termination: t(to),
});
const actors: Record<string, CommitteeActor> = {
  admin: { id: 1, isAdmin: true, roles: [] },
  chair: { id: 2, isAdmin: false, roles: [role(7, 'CHAIR')] },
  formerChair: {
    id: 3,
    isAdmin: false,
    roles: [role(7, 'CHAIR', '01-01T00:00:00', '02-01T00:00:00')],
  },
  otherChair: { id: 4, isAdmin: false, roles: [role(8, 'CHAIR')] },
  member: { id: 5, isAdmin: false, roles: [role(7, 'MEMBER')] },
  user: { id: 6, isAdmin: false, roles: [] },
};

describe('committee roles', () => {
  it.each([
    ['admin', true, true, true],
    ['chair', true, true, true],
    ['formerChair', false, false, false],
    ['otherChair', false, false, true],
    ['member', false, true, false],
    ['user', false, false, false],
  ] as const)('%s -> chair %s, member %s, chair of any %s', (who, chair, member, anyChair) => {
    expect(isCommitteeChair(actors[who]!, 7, now)).toBe(chair);
    expect(isCommitteeMember(actors[who]!, 7, now)).toBe(member);
    expect(isAnyChair(actors[who]!, now)).toBe(anyChair);
  });
});
