import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, formatTime, timeZoneLabel, utcTime } from './dates.js';

const at = (iso: string) => new Date(iso);

describe('formatDateTime: one format, with the zone it is read in', () => {
  it.each([
    ['UTC', '2026-11-28T14:00:00Z', 'UTC', '28 Nov 2026, 14:00 UTC'],
    ['Berlin in winter', '2026-11-28T14:00:00Z', 'Europe/Berlin', '28 Nov 2026, 15:00 CET'],
    ['Berlin in summer', '2026-06-28T14:00:00Z', 'Europe/Berlin', '28 Jun 2026, 16:00 CEST'],
    ['London in summer', '2026-06-28T14:00:00Z', 'Europe/London', '28 Jun 2026, 15:00 BST'],
    [
      'Sydney, past midnight',
      '2026-11-28T14:00:00Z',
      'Australia/Sydney',
      '29 Nov 2026, 01:00 GMT+11',
    ],
    [
      'New York, the day before',
      '2026-11-28T03:05:00Z',
      'America/New_York',
      '27 Nov 2026, 22:05 GMT-5',
    ],
    [
      'India, a half-hour offset',
      '2026-11-28T14:00:00Z',
      'Asia/Kolkata',
      '28 Nov 2026, 19:30 GMT+5:30',
    ],
    ['September as Sep, midnight as 00:00', '2026-09-01T00:00:00Z', 'UTC', '1 Sep 2026, 00:00 UTC'],
  ])('%s -> %s', (_name, iso, timeZone, expected) => {
    expect(formatDateTime(at(iso), { timeZone })).toBe(expected);
  });

  it('reads in the runtime’s own zone when given none', () => {
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    const instant = at('2026-11-28T14:00:00Z');
    expect(formatDateTime(instant)).toBe(formatDateTime(instant, { timeZone: zone }));
  });
});

describe('the parts of the same format', () => {
  it('a calendar day has no time and no zone', () => {
    expect(formatDate(at('2026-12-31T23:59:59.999Z'), { timeZone: 'UTC' })).toBe('31 Dec 2026');
  });

  it('a time of day keeps its zone', () => {
    expect(formatTime(at('2026-11-28T14:00:00Z'), { timeZone: 'Europe/Berlin' })).toBe('15:00 CET');
  });

  it('a date input is labelled with its zone’s name at that time of year', () => {
    expect(timeZoneLabel(at('2026-01-15T12:00:00Z'), { timeZone: 'Europe/Berlin' })).toBe('CET');
    expect(timeZoneLabel(at('2026-07-15T12:00:00Z'), { timeZone: 'Europe/Berlin' })).toBe('CEST');
  });

  it('utcTime is the format in UTC, as the server writes it in mail and PDFs', () => {
    expect(utcTime(at('2026-03-03T14:32:00Z'))).toBe('3 Mar 2026, 14:32 UTC');
  });
});
