import { describe, expect, it } from 'vitest';
import {
  DEFAULT_SESSION_POLICY,
  TOKEN_ABSOLUTE_TTL_MS,
  TOKEN_IDLE_TTL_MS,
  TOKEN_TOUCH_INTERVAL_MS,
  USER_HASH_ALPHABET,
  accessToArea,
  describeUserAgent,
  isRoleCurrent,
  isTokenLive,
  isValidUserHash,
  tokenNeedsTouch,
} from './index.js';

const at = (iso: string) => new Date(iso);
const role = { commencement: at('2026-01-01T00:00:00Z'), termination: at('2026-12-31T00:00:00Z') };

describe('isRoleCurrent: [commencement, termination], both ends inclusive', () => {
  it.each([
    ['a moment before commencement', '2025-12-31T23:59:59.999Z', false],
    ['at commencement', '2026-01-01T00:00:00Z', true],
    ['in the middle', '2026-06-15T12:00:00Z', true],
    ['at termination', '2026-12-31T00:00:00Z', true],
    ['a moment after termination', '2026-12-31T00:00:00.001Z', false],
  ])('%s -> %s', (_name, now, expected) => {
    expect(isRoleCurrent(role, at(now))).toBe(expected);
  });
});

describe('isTokenLive', () => {
  const created = at('2026-03-01T00:00:00Z');
  const plus = (ms: number) => new Date(created.getTime() + ms);
  const policy = DEFAULT_SESSION_POLICY;
  it.each([
    ['just issued', { lastUsedAt: created, revokedAt: null }, created, true],
    ['revoked', { lastUsedAt: created, revokedAt: created }, created, false],
    [
      'idle a moment less than the idle limit',
      { lastUsedAt: created, revokedAt: null },
      plus(policy.idleMs - 1),
      true,
    ],
    [
      'idle exactly the idle limit',
      { lastUsedAt: created, revokedAt: null },
      plus(policy.idleMs),
      false,
    ],
    [
      'used recently but at the absolute age',
      { lastUsedAt: plus(policy.absoluteMs - 1000), revokedAt: null },
      plus(policy.absoluteMs),
      false,
    ],
    [
      'used recently and a moment short of the absolute age',
      { lastUsedAt: plus(policy.absoluteMs - 1000), revokedAt: null },
      plus(policy.absoluteMs - 1),
      true,
    ],
  ])('%s -> %s', (_name, token, now, expected) => {
    expect(isTokenLive({ createdAt: created, ...token }, policy, now)).toBe(expected);
  });

  it('meets ASVS level 2 by default: 12 hours absolute, 2 hours idle', () => {
    expect(DEFAULT_SESSION_POLICY).toEqual({ idleMs: 2 * 3_600_000, absoluteMs: 12 * 3_600_000 });
    expect([TOKEN_IDLE_TTL_MS, TOKEN_ABSOLUTE_TTL_MS]).toEqual([2 * 3_600_000, 12 * 3_600_000]);
  });

  it('reads the limits from the policy it is given, not from the defaults', () => {
    const short = { idleMs: 30 * 60_000, absoluteMs: 60 * 60_000 };
    const token = { createdAt: created, lastUsedAt: created, revokedAt: null };
    expect(isTokenLive(token, short, plus(30 * 60_000 - 1))).toBe(true);
    expect(isTokenLive(token, short, plus(30 * 60_000))).toBe(false);
    const busy = { ...token, lastUsedAt: plus(59 * 60_000) };
    expect(isTokenLive(busy, short, plus(60 * 60_000 - 1))).toBe(true);
    expect(isTokenLive(busy, short, plus(60 * 60_000))).toBe(false);
    // The same token under the defaults is still live at both moments.
    expect(isTokenLive(token, policy, plus(30 * 60_000))).toBe(true);
    expect(isTokenLive(busy, policy, plus(60 * 60_000))).toBe(true);
  });

  it('asks for a lastUsedAt refresh only after the touch interval', () => {
    const token = { createdAt: created, lastUsedAt: created, revokedAt: null };
    expect(tokenNeedsTouch(token, plus(TOKEN_TOUCH_INTERVAL_MS - 1))).toBe(false);
    expect(tokenNeedsTouch(token, plus(TOKEN_TOUCH_INTERVAL_MS))).toBe(true);
  });
});

describe('describeUserAgent: browser and system, never the raw header', () => {
  it.each([
    [
      'Firefox on Linux',
      'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0',
      'Firefox on Linux',
    ],
    [
      'Chrome on Windows',
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
      'Chrome on Windows',
    ],
    [
      'Edge, which also says Chrome',
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
      'Edge on Windows',
    ],
    [
      'Safari on an iPhone, which also says Mac OS X',
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
      'Safari on iOS',
    ],
    [
      'Safari on a Mac',
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
      'Safari on macOS',
    ],
    [
      'Chrome on Android, which also says Linux',
      'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
      'Chrome on Android',
    ],
    [
      'headless Chrome (a browser test)',
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36',
      'Chrome on Linux',
    ],
    ['a command-line client', 'curl/8.5.0', 'curl'],
    ['something unknown', 'lightMyRequest', 'Unknown client'],
    ['no header', null, 'Unknown client'],
    ['an empty header', '', 'Unknown client'],
  ])('%s', (_name, userAgent, expected) => {
    expect(describeUserAgent(userAgent)).toBe(expected);
  });
});

describe('collaborator hashes', () => {
  it('use no look-alike characters', () => {
    for (const ch of ['0', 'O', '1', 'l', 'I']) expect(USER_HASH_ALPHABET).not.toContain(ch);
  });
  it.each([
    ['abcdefghjk', true],
    ['ABCDEFGH23', true],
    ['abcdefghj', false],
    ['abcdefghjkm', false],
    ['abcdefghj0', false],
    ['abcdefghjl', false],
  ])('%s -> %s', (value, expected) => {
    expect(isValidUserHash(value)).toBe(expected);
  });
});

describe('accessToArea', () => {
  const user = { id: 1, isAdmin: false, registrationComplete: true };
  it.each([
    ['user, member area -> allowed', user, 'member', 'allowed'],
    ['user, admin area -> denied', user, 'admin', 'denied'],
    ['admin, admin area -> allowed', { ...user, isAdmin: true }, 'admin', 'allowed'],
    [
      'incomplete registration, member area -> complete it first',
      { ...user, registrationComplete: false },
      'member',
      'complete-registration',
    ],
    [
      'incomplete admin, admin area -> complete it first',
      { ...user, isAdmin: true, registrationComplete: false },
      'admin',
      'complete-registration',
    ],
  ] as const)('%s', (_name, actor, area, expected) => {
    expect(accessToArea(actor, area)).toBe(expected);
  });
});
