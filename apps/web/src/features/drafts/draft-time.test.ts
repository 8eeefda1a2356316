import { describe, expect, it } from 'vitest';
import { atLocalTime, localTime } from './draft-time';

// Dates made in local time, as the browser shows them, whatever the machine's time zone.
const now = new Date(2026, 2, 3, 18, 5);

describe('localTime', () => {
  it.each([
    ['earlier today: the time alone', new Date(2026, 2, 3, 14, 32), '14:32'],
    ['just after midnight today', new Date(2026, 2, 3, 0, 7), '00:07'],
    ['yesterday: with the date', new Date(2026, 2, 2, 23, 59), '2 March 2026 at 23:59'],
    ['a year ago: with the date', new Date(2025, 2, 3, 14, 32), '3 March 2025 at 14:32'],
  ])('%s', (_, at, expected) => {
    expect(localTime(at.getTime(), now)).toBe(expected);
  });
});

describe('atLocalTime', () => {
  it('follows a verb: "saved at 14:32" today, "saved on 2 March 2026 at 23:59" before', () => {
    expect(atLocalTime(new Date(2026, 2, 3, 14, 32), now)).toBe('at 14:32');
    expect(atLocalTime(new Date(2026, 2, 2, 23, 59).toISOString(), now)).toBe(
      'on 2 March 2026 at 23:59',
    );
  });
});
