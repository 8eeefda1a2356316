import { describe, expect, it } from 'vitest';
import {
  committeeMessages,
  committeeNameKey,
  leavesNoActiveAdmin,
  parseRoleDate,
  roleMessages as r,
  validateCommittee,
  validateRole,
} from '../index.js';

describe('role dates', () => {
  it.each([
    ['a date starts at midnight UTC', '2026-07-01', 'start', '2026-07-01T00:00:00.000Z'],
    ['a date ends at its last millisecond', '2026-07-01', 'end', '2026-07-01T23:59:59.999Z'],
    ['a UTC date and time', '2026-07-01T09:30:00Z', 'end', '2026-07-01T09:30:00.000Z'],
    ['an offset date and time', '2026-07-01T09:00:00+10:00', 'start', '2026-06-30T23:00:00.000Z'],
    ['minutes only', '2026-07-01T09:00Z', 'start', '2026-07-01T09:00:00.000Z'],
    ['fractions of a second', '2026-07-01T09:00:00.123Z', 'start', '2026-07-01T09:00:00.123Z'],
    ['spaces around', ' 2026-07-01 ', 'start', '2026-07-01T00:00:00.000Z'],
    ['29 February of a leap year', '2028-02-29', 'start', '2028-02-29T00:00:00.000Z'],
  ] as const)('%s', (_name, text, edge, iso) => {
    expect(parseRoleDate(text, edge)?.toISOString()).toBe(iso);
  });

  it.each([
    ['30 February', '2026-02-30'],
    ['29 February of a common year', '2026-02-29'],
    ['31 April with a time', '2026-04-31T00:00:00Z'],
    ['month 13', '2026-13-01'],
    ['a time without a zone', '2026-07-01T09:00:00'],
    ['day first', '01/07/2026'],
    ['words', 'next tuesday'],
    ['year 0', '0000-01-01'],
    ['before 1900', '1899-12-31'],
  ])('refuses %s', (_name, text) => {
    expect(parseRoleDate(text, 'start')).toBeNull();
  });
});

describe('role form (spec section 5, Role)', () => {
  const valid = {
    committeeId: 1,
    role: 'MEMBER',
    commencement: '2026-01-01',
    termination: '2026-12-31',
  };
  it('accepts a complete role', () => {
    expect(validateRole(valid)).toEqual({
      ok: true,
      value: {
        committeeId: 1,
        role: 'MEMBER',
        commencement: new Date('2026-01-01T00:00:00.000Z'),
        termination: new Date('2026-12-31T23:59:59.999Z'),
      },
    });
  });
  it.each([
    [
      'nothing filled in',
      {},
      {
        committeeId: ['This field is required.'],
        role: ['This field is required.'],
        commencement: ['This field is required.'],
        termination: ['This field is required.'],
      },
    ],
    ['a role of OWNER', { ...valid, role: 'OWNER' }, { role: [r.role] }],
    ['a lower-case role', { ...valid, role: 'chair' }, { role: [r.role] }],
    [
      'termination before commencement',
      { ...valid, commencement: '2026-06-02', termination: '2026-06-01' },
      { termination: ['Termination date can not be before the commencement date.'] },
    ],
    [
      'termination a minute before commencement',
      { ...valid, commencement: '2026-06-01T10:00:00Z', termination: '2026-06-01T09:59:00Z' },
      { termination: [r.terminationBeforeCommencement] },
    ],
    ['an unreadable date', { ...valid, commencement: '1 July' }, { commencement: [r.date] }],
    [
      'a date over 200 characters',
      { ...valid, termination: '2'.repeat(201) },
      { termination: ['Ensure this field has no more than 200 characters.'] },
    ],
  ])('refuses %s', (_name, input, errors) => {
    expect(validateRole(input)).toEqual({ ok: false, errors });
  });
  it.each([
    ['on the same day', { commencement: '2026-06-01', termination: '2026-06-01' }],
    [
      'at the same moment',
      { commencement: '2026-06-01T10:00:00Z', termination: '2026-06-01T10:00:00Z' },
    ],
  ])('accepts termination equal to commencement %s', (_name, dates) => {
    expect(validateRole({ ...valid, ...dates }).ok).toBe(true);
  });
});

describe('committee name (spec section 5, Committee)', () => {
  it.each([
    ['Astronomy', {}],
    ['', { name: ['This field is required.'] }],
    ['   ', { name: ['This field is required.'] }],
    ['x'.repeat(100), {}],
    ['x'.repeat(101), { name: ['Ensure this field has no more than 100 characters.'] }],
  ])('%j -> %j', (name, errors) => {
    expect(validateCommittee({ name })).toEqual(errors);
  });
  it('treats case and surrounding spaces as the same name', () => {
    expect(committeeNameKey(' Astronomy ')).toBe(committeeNameKey('ASTRONOMY'));
    expect(committeeMessages.nameTaken).toMatch(/already exists/);
  });
});

describe('the last active admin', () => {
  const admin = { isAdmin: true, isActive: true };
  it.each([
    ['un-admins the only active admin', admin, { isAdmin: false }, 1, true],
    ['deactivates the only active admin', admin, { isActive: false }, 1, true],
    ['does both to the only active admin', admin, { isAdmin: false, isActive: false }, 1, true],
    ['un-admins one of two active admins', admin, { isAdmin: false }, 2, false],
    ['deactivates one of two active admins', admin, { isActive: false }, 2, false],
    ['keeps the only active admin an admin', admin, { isAdmin: true, isActive: true }, 1, false],
    ['sends no change', admin, {}, 1, false],
    [
      'un-admins a deactivated admin',
      { isAdmin: true, isActive: false },
      { isAdmin: false },
      1,
      false,
    ],
    ['deactivates a plain user', { isAdmin: false, isActive: true }, { isActive: false }, 1, false],
  ])('%s -> refused: %s', (_name, target, change, count, expected) => {
    expect(leavesNoActiveAdmin(target, change, count)).toBe(expected);
  });
});
