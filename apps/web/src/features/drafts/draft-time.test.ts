import { timeZoneLabel } from '@merit/domain';
import { describe, expect, it } from 'vitest';
import { atLocalTime, localTime } from './draft-time';

// Dates made in local time, as the browser shows them, whatever the machine's time zone;
// the zone's name is the machine's too.
const now = new Date(2026, 2, 3, 18, 5);
const zone = (at: Date) => timeZoneLabel(at);

describe('localTime', () => {
  it.each([
    ['earlier today: the time alone', new Date(2026, 2, 3, 14, 32), '14:32'],
    ['just after midnight today', new Date(2026, 2, 3, 0, 7), '00:07'],
    ['yesterday: with the date', new Date(2026, 2, 2, 23, 59), '2 Mar 2026, 23:59'],
    ['a year ago: with the date', new Date(2025, 2, 3, 14, 32), '3 Mar 2025, 14:32'],
  ])('%s, with its zone', (_, at, expected) => {
    expect(localTime(at.getTime(), now)).toBe(`${expected} ${zone(at)}`);
  });
});

describe('atLocalTime', () => {
  it('follows a verb: "saved at 14:32 CET" today, "saved on 2 Mar 2026, 23:59 CET" before', () => {
    const today = new Date(2026, 2, 3, 14, 32);
    const yesterday = new Date(2026, 2, 2, 23, 59);
    expect(atLocalTime(today, now)).toBe(`at 14:32 ${zone(today)}`);
    expect(atLocalTime(yesterday.toISOString(), now)).toBe(
      `on 2 Mar 2026, 23:59 ${zone(yesterday)}`,
    );
  });
});
