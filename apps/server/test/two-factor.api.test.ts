import {
  base32Decode,
  RECOVERY_CODE_COUNT,
  totpStep,
  TWO_FACTOR_TICKET_MAX_FAILURES,
  TWO_FACTOR_TICKET_TTL_MS,
  twoFactorMessages,
} from '@merit/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginThrottle, users, userTwoFactor } from '../src/db/schema.js';
import { hotp, isReplayedTotp, matchTotp, type HotpAlgorithm } from '../src/modules/auth/totp.js';
import { captureSecurityEvents } from './log-capture.js';
import { lastMailTo } from './mail.js';
import {
  auth,
  createTestApp,
  login,
  makeUser,
  TEST_PASSWORD,
  type TestContext,
} from './helpers.js';

/**
 * Two-step verification (TOTP, RFC 6238), beyond the spec: turning it on and off, the
 * second step of a password login, replays, wrong codes, tickets and recovery codes. The
 * codes are computed here from the key the server hands out, as an authenticator app would.
 */
let ctx: TestContext;
const { stream, entries: events } = captureSecurityEvents();
beforeAll(async () => {
  ctx = await createTestApp({ logger: { level: 'info', stream } });
});
afterAll(() => ctx.close());

describe('the code function', () => {
  const ascii = (text: string) => new TextEncoder().encode(text);
  // RFC 6238 Appendix B: 8 digits, the seed of each algorithm's test.
  const seeds: Record<HotpAlgorithm, Uint8Array> = {
    sha1: ascii('12345678901234567890'),
    sha256: ascii('12345678901234567890123456789012'),
    sha512: ascii('1234567890123456789012345678901234567890123456789012345678901234'),
  };
  it.each([
    [59, 'sha1', '94287082'],
    [59, 'sha256', '46119246'],
    [59, 'sha512', '90693936'],
    [1111111109, 'sha1', '07081804'],
    [1111111109, 'sha256', '68084774'],
    [1111111109, 'sha512', '25091201'],
    [1111111111, 'sha1', '14050471'],
    [1111111111, 'sha256', '67062674'],
    [1111111111, 'sha512', '99943326'],
    [1234567890, 'sha1', '89005924'],
    [1234567890, 'sha256', '91819424'],
    [1234567890, 'sha512', '93441116'],
    [2000000000, 'sha1', '69279037'],
    [2000000000, 'sha256', '90698825'],
    [2000000000, 'sha512', '38618901'],
    [20000000000, 'sha1', '65353130'],
    [20000000000, 'sha256', '77737706'],
    [20000000000, 'sha512', '47863826'],
  ] as const)('RFC 6238 at %i s with %s gives %s', (seconds, algorithm, code) => {
    const step = totpStep(new Date(seconds * 1000));
    expect(hotp(seeds[algorithm], step, 8, algorithm)).toBe(code);
  });

  it('gives RFC 4226 HOTP values at 6 digits', () => {
    const codes = Array.from({ length: 10 }, (_, counter) => hotp(seeds.sha1, counter));
    expect(codes).toEqual([
      '755224',
      '287082',
      '359152',
      '969429',
      '338314',
      '254676',
      '287922',
      '162583',
      '399871',
      '520489',
    ]);
  });

  it('accepts one step either side of now, and no code at or before the last one used', () => {
    const now = new Date(1111111111 * 1000);
    const step = totpStep(now);
    const code = (s: number) => hotp(seeds.sha1, s);
    expect(matchTotp(seeds.sha1, code(step), now, null)).toBe(step);
    expect(matchTotp(seeds.sha1, code(step - 1), now, null)).toBe(step - 1);
    expect(matchTotp(seeds.sha1, code(step + 1), now, null)).toBe(step + 1);
    expect(matchTotp(seeds.sha1, code(step - 2), now, null)).toBeNull();
    expect(matchTotp(seeds.sha1, code(step + 2), now, null)).toBeNull();
    expect(matchTotp(seeds.sha1, code(step), now, step)).toBeNull();
    expect(matchTotp(seeds.sha1, code(step), now, step - 1)).toBe(step);
    expect(matchTotp(seeds.sha1, code(step - 1), now, step)).toBeNull();
  });

  it('tells a code used before from a wrong one', () => {
    const now = new Date(1111111111 * 1000);
    const step = totpStep(now);
    const code = (s: number) => hotp(seeds.sha1, s);
    expect(isReplayedTotp(seeds.sha1, code(step), now, step)).toBe(true);
    expect(isReplayedTotp(seeds.sha1, code(step - 1), now, step)).toBe(true);
    expect(isReplayedTotp(seeds.sha1, code(step), now, null)).toBe(false);
    expect(isReplayedTotp(seeds.sha1, code(step + 1), now, step)).toBe(false);
    expect(isReplayedTotp(seeds.sha1, code(step - 2), now, step)).toBe(false);
    expect(isReplayedTotp(seeds.sha1, '000000', now, step)).toBe(code(step) === '000000');
  });
});

const post = (url: string, payload: object, key?: string) =>
  ctx.app.inject({
    method: 'POST',
    url: `/api/v1${url}`,
    payload,
    headers: key ? auth(key) : {},
  });
const me = (key: string) =>
  ctx.app.inject({ method: 'GET', url: '/api/v1/user_details/', headers: auth(key) });

/** The code an authenticator app with `secret` shows now (or `steps` later). */
const codeOf = (secret: string, steps = 0) =>
  hotp(base32Decode(secret)!, totpStep(ctx.clock.now()) + steps);

/** A fresh user who turned two-step verification on; with their key, secret and codes. */
async function enrolled() {
  const user = await makeUser(ctx.app);
  const key = await login(ctx.app, user.username);
  const setup = await post('/auth/two-factor/setup/', { password: TEST_PASSWORD }, key);
  expect(setup.statusCode).toBe(200);
  const { secret } = setup.json<{ secret: string }>();
  const confirm = await post('/auth/two-factor/confirm/', { code: codeOf(secret) }, key);
  expect(confirm.statusCode).toBe(200);
  const { recoveryCodes } = confirm.json<{ recoveryCodes: string[] }>();
  // The enrolment used this step's code: the logins below start at the next step.
  ctx.clock.advance(30_000);
  return { user, key, secret, recoveryCodes };
}

async function passwordStep(username: string) {
  const res = await post('/auth/login/', { username, password: TEST_PASSWORD });
  expect(res.statusCode).toBe(200);
  return res.json<{
    twoFactorRequired?: true;
    ticket?: string;
    securityKeys?: boolean;
    key?: string;
  }>();
}
const secondStep = (ticket: string, code: string) =>
  post('/auth/login/two-factor/', { ticket, code });

describe('turning it on', () => {
  it('gives a key and its otpauth URI once the password is right, and turns on with a code', async () => {
    const user = await makeUser(ctx.app);
    const key = await login(ctx.app, user.username);
    const wrong = await post('/auth/two-factor/setup/', { password: 'not it' }, key);
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().fields).toEqual({ password: [twoFactorMessages.wrongPassword] });

    const setup = await post('/auth/two-factor/setup/', { password: TEST_PASSWORD }, key);
    expect(setup.statusCode).toBe(200);
    const { secret, otpauthUri } = setup.json<{ secret: string; otpauthUri: string }>();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(otpauthUri).toBe(
      `otpauth://totp/Merit:${user.username}?secret=${secret}&issuer=Merit&algorithm=SHA1&digits=6&period=30`,
    );
    // Stored encrypted under the server secret's key (v2, server-key.api.test.ts): the
    // key's bytes are not in the row.
    const [row] = await ctx.app.db
      .select()
      .from(userTwoFactor)
      .where(eq(userTwoFactor.userId, user.id));
    expect(row!.secretEncrypted).not.toContain(secret);
    expect(row!.secretEncrypted.startsWith('v2.')).toBe(true);
    expect(row!.enabledAt).toBeNull();
    // Not on yet: the password alone still logs in.
    expect(Object.keys(await passwordStep(user.username))).toEqual(['key']);

    const bad = await post('/auth/two-factor/confirm/', { code: codeOf(secret, 3) }, key);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields).toEqual({ code: [twoFactorMessages.wrongEnrolmentCode] });

    const confirm = await post('/auth/two-factor/confirm/', { code: codeOf(secret) }, key);
    expect(confirm.statusCode).toBe(200);
    const { recoveryCodes } = confirm.json<{ recoveryCodes: string[] }>();
    expect(recoveryCodes).toHaveLength(RECOVERY_CODE_COUNT);
    expect(new Set(recoveryCodes).size).toBe(RECOVERY_CODE_COUNT);
    for (const code of recoveryCodes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    expect(events).toContainEqual(
      expect.objectContaining({ securityEvent: 'two_factor.enabled', userId: user.id }),
    );
    // ASVS V2.5.5: the account's address hears of the change.
    const notice = await lastMailTo(ctx, user.email);
    expect(notice.subject).toBe('Two-step verification is now on for your Merit account');
    expect(notice.links).toEqual([expect.stringMatching(/\/auth\/password-reset\/$/)]);

    expect((await me(key)).json().has_two_factor).toBe(true);
    const status = await ctx.app.inject({
      method: 'GET',
      url: '/api/v1/auth/two-factor/',
      headers: auth(key),
    });
    expect(status.json()).toEqual({
      enabled: true,
      enabledAt: ctx.clock.now().toISOString(),
      recoveryCodesLeft: RECOVERY_CODE_COUNT,
      securityKeys: 0,
    });
    // On already: neither a new key nor new recovery codes.
    expect(
      (await post('/auth/two-factor/setup/', { password: TEST_PASSWORD }, key)).statusCode,
    ).toBe(409);
    expect(
      (await post('/auth/two-factor/confirm/', { code: codeOf(secret, 1) }, key)).statusCode,
    ).toBe(409);
  });

  it('refuses a confirmation without a setup, or after the setup expired', async () => {
    const user = await makeUser(ctx.app);
    const key = await login(ctx.app, user.username);
    expect((await post('/auth/two-factor/confirm/', { code: '123456' }, key)).statusCode).toBe(409);
    const setup = await post('/auth/two-factor/setup/', { password: TEST_PASSWORD }, key);
    const { secret } = setup.json<{ secret: string }>();
    ctx.clock.advance(30 * 60 * 1000);
    const late = await post('/auth/two-factor/confirm/', { code: codeOf(secret) }, key);
    expect(late.statusCode).toBe(409);
    expect(late.json().detail).toBe(twoFactorMessages.notStarted);
  });

  it('is not for accounts without a Merit password', async () => {
    const user = await makeUser(ctx.app);
    const key = await login(ctx.app, user.username);
    await ctx.app.db.update(users).set({ isAaf: true }).where(eq(users.id, user.id));
    const res = await post('/auth/two-factor/setup/', { password: TEST_PASSWORD }, key);
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toBe(twoFactorMessages.federated);
  });
});

describe('logging in with it on', () => {
  it('answers the password with a ticket, and the ticket with a code with a working key', async () => {
    const { user, secret } = await enrolled();
    const first = await passwordStep(user.username);
    expect(first).toEqual({
      twoFactorRequired: true,
      ticket: expect.any(String),
      securityKeys: false,
    });
    const res = await secondStep(first.ticket!, codeOf(secret));
    expect(res.statusCode).toBe(200);
    const { key } = res.json<{ key: string }>();
    expect((await me(key)).json().username).toBe(user.username);
    const sessions = await ctx.app.inject({
      method: 'GET',
      url: '/api/v1/auth/sessions/',
      headers: auth(key),
    });
    expect(sessions.json()).toContainEqual(
      expect.objectContaining({ current: true, method: 'password_totp' }),
    );
    expect(events).toContainEqual(
      expect.objectContaining({
        securityEvent: 'login.succeeded',
        userId: user.id,
        method: 'password_totp',
      }),
    );
  });

  it('accepts a code one step old or ahead, for a phone whose clock is a little off', async () => {
    const { user, secret } = await enrolled();
    ctx.clock.advance(30_000);
    const { ticket } = await passwordStep(user.username);
    expect((await secondStep(ticket!, codeOf(secret, -1))).statusCode).toBe(200);
    const again = await passwordStep(user.username);
    expect((await secondStep(again.ticket!, codeOf(secret, 1))).statusCode).toBe(200);
  });

  it('refuses a code used before, and the one before it', async () => {
    const { user, secret } = await enrolled();
    const code = codeOf(secret);
    const first = await passwordStep(user.username);
    expect((await secondStep(first.ticket!, code)).statusCode).toBe(200);
    const second = await passwordStep(user.username);
    const replay = await secondStep(second.ticket!, code);
    expect(replay.statusCode).toBe(400);
    expect(replay.json()).toEqual({ detail: twoFactorMessages.wrongCode, code: 'two_factor' });
    // ASVS V2.8.5: the replay is logged as one, and the holder is told.
    expect(events).toContainEqual(
      expect.objectContaining({ securityEvent: 'two_factor.replayed', userId: user.id }),
    );
    const notice = await lastMailTo(ctx, user.email);
    expect(notice.subject).toBe('A used two-step code was tried on your Merit account');
    expect(notice.links).toEqual([expect.stringMatching(/\/auth\/password-reset\/$/)]);
    expect((await secondStep(second.ticket!, codeOf(secret, -1))).statusCode).toBe(400);
    // The next step's code is new.
    ctx.clock.advance(30_000);
    expect((await secondStep(second.ticket!, codeOf(secret))).statusCode).toBe(200);
  });

  it('counts wrong codes in the login throttle, and ends the ticket at the fifth', async () => {
    const { user, secret } = await enrolled();
    const { ticket } = await passwordStep(user.username);
    const pairCount = async () => {
      const [row] = await ctx.app.db
        .select()
        .from(loginThrottle)
        .where(eq(loginThrottle.bucket, `pair:${user.username.toLowerCase()} 127.0.0.1`));
      return row?.count ?? 0;
    };
    expect(await pairCount()).toBe(1);
    const wrong = codeOf(secret, 5);
    for (let i = 1; i < TWO_FACTOR_TICKET_MAX_FAILURES; i += 1) {
      const res = await secondStep(ticket!, wrong);
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('two_factor');
    }
    expect(await pairCount()).toBe(TWO_FACTOR_TICKET_MAX_FAILURES);
    expect(events).toContainEqual(
      expect.objectContaining({
        securityEvent: 'login.failed',
        userId: user.id,
        reason: 'two_factor',
      }),
    );
    // The fifth wrong code: over the address's attempts for this username, it must wait.
    const fifth = await secondStep(ticket!, wrong);
    expect(fifth.statusCode).toBe(429);
    // Once the wait is over the ticket has gone with the time; a new login works.
    ctx.clock.advance(15 * 60 * 1000);
    const expired = await secondStep(ticket!, codeOf(secret));
    expect(expired.statusCode).toBe(400);
    expect(expired.json().code).toBe('two_factor_expired');
  });

  it('ends a ticket after five wrong codes, even with the right one next, from many addresses', async () => {
    const { user, secret } = await enrolled();
    const wrong = codeOf(secret, 5);
    const { ticket } = await passwordStep(user.username);
    for (let i = 0; i < TWO_FACTOR_TICKET_MAX_FAILURES; i += 1) {
      // Each from another address, so the throttle (per address) does not stop it first.
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/v1/auth/login/two-factor/',
        payload: { ticket, code: wrong },
        remoteAddress: `198.51.100.${i + 1}`,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('two_factor');
    }
    const after = await secondStep(ticket!, codeOf(secret));
    expect(after.statusCode).toBe(400);
    expect(after.json()).toEqual({
      detail: twoFactorMessages.ticketExpired,
      code: 'two_factor_expired',
    });
  });

  it('takes a ticket once, and not after five minutes', async () => {
    const { user, secret } = await enrolled();
    const { ticket } = await passwordStep(user.username);
    expect((await secondStep(ticket!, codeOf(secret))).statusCode).toBe(200);
    ctx.clock.advance(30_000);
    const reused = await secondStep(ticket!, codeOf(secret));
    expect(reused.statusCode).toBe(400);
    expect(reused.json().code).toBe('two_factor_expired');

    const late = await passwordStep(user.username);
    ctx.clock.advance(TWO_FACTOR_TICKET_TTL_MS);
    const expired = await secondStep(late.ticket!, codeOf(secret));
    expect(expired.statusCode).toBe(400);
    expect(expired.json().code).toBe('two_factor_expired');
    const forged = await secondStep('not-a-ticket', codeOf(secret));
    expect(forged.json().code).toBe('two_factor_expired');
  });

  it('takes each recovery code once, in place of a code', async () => {
    const { user, recoveryCodes, key } = await enrolled();
    const code = recoveryCodes[3]!;
    const { ticket } = await passwordStep(user.username);
    // Typed in capitals and without the dash, as people do.
    const res = await secondStep(ticket!, code.replace('-', '').toUpperCase());
    expect(res.statusCode).toBe(200);
    expect(events).toContainEqual(
      expect.objectContaining({ securityEvent: 'two_factor.recovery_code_used', userId: user.id }),
    );
    const again = await passwordStep(user.username);
    expect((await secondStep(again.ticket!, code)).statusCode).toBe(400);
    const status = await ctx.app.inject({
      method: 'GET',
      url: '/api/v1/auth/two-factor/',
      headers: auth(key),
    });
    expect(status.json().recoveryCodesLeft).toBe(RECOVERY_CODE_COUNT - 1);
    expect((await secondStep(again.ticket!, recoveryCodes[4]!)).statusCode).toBe(200);
  });

  it('refuses the ticket of a deactivated account', async () => {
    const { user, secret } = await enrolled();
    const { ticket } = await passwordStep(user.username);
    await ctx.app.db.update(users).set({ isActive: false }).where(eq(users.id, user.id));
    expect((await secondStep(ticket!, codeOf(secret))).json().code).toBe('two_factor_expired');
  });
});

describe('without it', () => {
  it('logs in exactly as the spec says: the key and nothing else', async () => {
    const user = await makeUser(ctx.app);
    const res = await post('/auth/login/', { username: user.username, password: TEST_PASSWORD });
    expect(res.statusCode).toBe(200);
    expect(Object.keys(res.json())).toEqual(['key']);
    expect((await me(res.json().key)).json().has_two_factor).toBe(false);
  });

  it('gives no ticket for a wrong password', async () => {
    const { user } = await enrolled();
    const res = await post('/auth/login/', { username: user.username, password: 'wrong one' });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('invalid_credentials');
  });
});

describe('turning it off', () => {
  it('needs the password and a code, then the password alone logs in', async () => {
    const { user, key, secret } = await enrolled();
    const wrongPassword = await post(
      '/auth/two-factor/disable/',
      { password: 'nope', code: codeOf(secret) },
      key,
    );
    expect(wrongPassword.statusCode).toBe(400);
    expect(wrongPassword.json().fields).toEqual({ password: [twoFactorMessages.wrongPassword] });
    const wrongCode = await post(
      '/auth/two-factor/disable/',
      { password: TEST_PASSWORD, code: codeOf(secret, 4) },
      key,
    );
    expect(wrongCode.statusCode).toBe(400);
    expect(wrongCode.json().fields).toEqual({ code: [twoFactorMessages.wrongCode] });

    const off = await post(
      '/auth/two-factor/disable/',
      { password: TEST_PASSWORD, code: codeOf(secret) },
      key,
    );
    expect(off.statusCode).toBe(204);
    expect(events).toContainEqual(
      expect.objectContaining({ securityEvent: 'two_factor.disabled', userId: user.id }),
    );
    expect((await lastMailTo(ctx, user.email)).subject).toBe(
      'Two-step verification was turned off for your Merit account',
    );
    expect(Object.keys(await passwordStep(user.username))).toEqual(['key']);
    expect((await me(key)).json().has_two_factor).toBe(false);
    const again = await post(
      '/auth/two-factor/disable/',
      { password: TEST_PASSWORD, code: '123456' },
      key,
    );
    expect(again.statusCode).toBe(409);
  });

  it('takes a recovery code in place of a code', async () => {
    const { key, recoveryCodes } = await enrolled();
    const off = await post(
      '/auth/two-factor/disable/',
      { password: TEST_PASSWORD, code: recoveryCodes[0]! },
      key,
    );
    expect(off.statusCode).toBe(204);
  });
});
