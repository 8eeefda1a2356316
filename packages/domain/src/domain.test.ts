import { describe, expect, it } from 'vitest';
import {
  TOKEN_ABSOLUTE_TTL_MS,
  TOKEN_IDLE_TTL_MS,
  TOKEN_TOUCH_INTERVAL_MS,
  USER_HASH_ALPHABET,
  accessToArea,
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
  it.each([
    ['just issued', { lastUsedAt: created, revokedAt: null }, created, true],
    ['revoked', { lastUsedAt: created, revokedAt: created }, created, false],
    [
      'idle a moment less than the idle TTL',
      { lastUsedAt: created, revokedAt: null },
      plus(TOKEN_IDLE_TTL_MS - 1),
      true,
    ],
    [
      'idle exactly the idle TTL',
      { lastUsedAt: created, revokedAt: null },
      plus(TOKEN_IDLE_TTL_MS),
      false,
    ],
    [
      'used recently but at the absolute age',
      { lastUsedAt: plus(TOKEN_ABSOLUTE_TTL_MS - 1000), revokedAt: null },
      plus(TOKEN_ABSOLUTE_TTL_MS),
      false,
    ],
    [
      'used recently and a moment short of the absolute age',
      { lastUsedAt: plus(TOKEN_ABSOLUTE_TTL_MS - 1000), revokedAt: null },
      plus(TOKEN_ABSOLUTE_TTL_MS - 1),
      true,
    ],
  ])('%s -> %s', (_name, token, now, expected) => {
    expect(isTokenLive({ createdAt: created, ...token }, now)).toBe(expected);
  });

  it('asks for a lastUsedAt refresh only after the touch interval', () => {
    const token = { createdAt: created, lastUsedAt: created, revokedAt: null };
    expect(tokenNeedsTouch(token, plus(TOKEN_TOUCH_INTERVAL_MS - 1))).toBe(false);
    expect(tokenNeedsTouch(token, plus(TOKEN_TOUCH_INTERVAL_MS))).toBe(true);
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
