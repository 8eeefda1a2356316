import { messages } from '@merit/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../src/app.js';
import { openDatabase } from '../src/db/client.js';
import { loginThrottle } from '../src/db/schema.js';
import { LOGIN_LIMITS, loginThrottleMessages } from '../src/platform/security/login-throttle.js';
import {
  TEST_PASSWORD,
  createTestApp,
  freshDatabase,
  makeUser,
  solveCaptcha,
  type TestContext,
} from './helpers.js';

let ctx: TestContext;
beforeAll(async () => {
  // These tests send hundreds of requests from one address; the per-address limit of
  // the auth endpoints has its own test (rate-limit.api.test.ts).
  ctx = await createTestApp({ env: { AUTH_RATE_LIMIT_PER_IP: '100000' } });
});
afterAll(() => ctx.close());

const MINUTE = 60 * 1000;
const WINDOW_SECONDS = LOGIN_LIMITS.windowMs / 1000;

let addressCount = 0;
/** A client address no other test has used (TEST-NET-3, RFC 5737). */
function newAddress(): string {
  addressCount += 1;
  return `203.0.113.${addressCount}`;
}

interface Guess {
  username: string;
  password?: string;
  address: string;
  captcha?: string;
}

function attempt({ username, password = 'a wrong guess', address, captcha }: Guess, app = ctx.app) {
  return app.inject({
    method: 'POST',
    url: '/api/v1/auth/login/',
    payload: captcha === undefined ? { username, password } : { username, password, captcha },
    remoteAddress: address,
  });
}

type Reply = Awaited<ReturnType<typeof attempt>>;

/** What became of each attempt: the password was checked, or it was refused before. */
function outcome(res: Reply): string {
  if (res.statusCode === 200) return 'logged in';
  if (res.statusCode === 429) return 'must wait';
  const { code } = res.json() as { code: string };
  if (res.statusCode === 400 && code === 'invalid_credentials') return 'password checked';
  if (res.statusCode === 400 && code === 'captcha_required') return 'captcha required';
  return `${res.statusCode} ${code}`;
}

function tally(replies: Reply[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const reply of replies) {
    const key = outcome(reply);
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

function inParallel(n: number, guess: (i: number) => Promise<Guess>, app = ctx.app) {
  return Promise.all(Array.from({ length: n }, async (_, i) => attempt(await guess(i), app)));
}

describe('the limit per username: a captcha after a few attempts', () => {
  it('checks at most 3 of 50 parallel guesses without a captcha, then wants one even for the right password', async () => {
    const user = await makeUser(ctx.app);
    const address = newAddress();

    const replies = await inParallel(50, async (i) => ({
      username: user.username,
      password: `guess ${i}`,
      address,
    }));

    expect(tally(replies)).toEqual({ 'password checked': 3, 'captcha required': 47 });
    const refused = replies.find((r) => outcome(r) === 'captcha required')!;
    expect(refused.json()).toEqual({
      detail: loginThrottleMessages.captchaRequired,
      code: 'captcha_required',
    });
    const right = await attempt({ username: user.username, password: TEST_PASSWORD, address });
    expect(outcome(right)).toBe('captcha required');
  });

  it('lets the real user in from anywhere with a solved captcha, once only', async () => {
    const user = await makeUser(ctx.app);
    const attacker = newAddress();
    for (let i = 0; i < 20; i += 1) await attempt({ username: user.username, address: attacker });

    const captcha = await solveCaptcha(ctx.app);
    const home = newAddress();
    const right = { username: user.username, password: TEST_PASSWORD, address: home };
    expect(outcome(await attempt({ ...right, captcha }))).toBe('logged in');

    // The success cleared the username's count: a captcha is needed again three attempts
    // later (from addresses that have not had their share yet).
    for (let i = 0; i < LOGIN_LIMITS.attemptsWithoutCaptcha; i += 1)
      await attempt({ username: user.username, address: newAddress() });
    const replayed = await attempt({ ...right, captcha });
    expect(replayed.statusCode).toBe(400);
    expect(replayed.json()).toEqual({
      detail: loginThrottleMessages.captchaInvalid,
      code: 'captcha_required',
    });
    expect(outcome(await attempt({ ...right, captcha: 'not a solution' }))).toBe(
      'captcha required',
    );
  });

  it('does not count attempts refused for want of a captcha against their address', async () => {
    const user = await makeUser(ctx.app);
    const address = newAddress();
    // Free attempts, then 20 without a captcha that check no password.
    for (let i = 0; i < LOGIN_LIMITS.attemptsWithoutCaptcha + 20; i += 1)
      await attempt({ username: user.username, address });

    // So the address still has the rest of its attempts, each with a captcha.
    const withCaptcha = async () => ({
      username: user.username,
      address,
      captcha: await solveCaptcha(ctx.app),
    });
    const left = LOGIN_LIMITS.attemptsPerAddress - LOGIN_LIMITS.attemptsWithoutCaptcha;
    for (let i = 0; i < left; i += 1)
      expect(outcome(await attempt(await withCaptcha()))).toBe('password checked');
    expect(outcome(await attempt(await withCaptcha()))).toBe('must wait');
  });
});

describe('the limit per username and address: that address waits', () => {
  it('checks at most 5 of 10 parallel guesses with captchas; that address waits even with the right password, others do not', async () => {
    const user = await makeUser(ctx.app);
    const address = newAddress();

    const replies = await inParallel(10, async (i) => ({
      username: user.username,
      password: `guess ${i}`,
      address,
      captcha: await solveCaptcha(ctx.app),
    }));

    expect(tally(replies)).toEqual({ 'password checked': 5, 'must wait': 5 });
    const waiting = replies.find((r) => r.statusCode === 429)!;
    expect(waiting.json()).toEqual({
      detail:
        'Too many attempts to log in to this account from your network. Please wait 15 minutes and try again, or reset your password if you have forgotten it.',
      code: 'rate_limited',
    });
    expect(waiting.headers['retry-after']).toBe(String(WINDOW_SECONDS));

    ctx.clock.advance(5 * MINUTE);
    const right = { username: user.username, password: TEST_PASSWORD };
    // Told at once, before solving a captcha it would waste, and with one all the same.
    for (const captcha of [undefined, await solveCaptcha(ctx.app)]) {
      const refused = await attempt({ ...right, address, captcha });
      expect(outcome(refused)).toBe('must wait');
      expect(refused.headers['retry-after']).toBe(String(WINDOW_SECONDS - 5 * 60));
    }

    const elsewhere = { ...right, address: newAddress(), captcha: await solveCaptcha(ctx.app) };
    expect(outcome(await attempt(elsewhere))).toBe('logged in');
  });
});

describe('an unknown username', () => {
  it('is held to the same limits as a known one', async () => {
    const username = 'nobody-by-this-name';
    const address = newAddress();

    const without = await inParallel(100, async () => ({ username, address }));
    expect(tally(without)).toEqual({ 'password checked': 3, 'captcha required': 97 });
    expect(without.find((r) => outcome(r) === 'password checked')!.json()).toEqual({
      detail: messages.invalidCredentials,
      code: 'invalid_credentials',
    });

    const withCaptchas = await inParallel(10, async () => ({
      username,
      address,
      captcha: await solveCaptcha(ctx.app),
    }));
    expect(tally(withCaptchas)).toEqual({
      'password checked': LOGIN_LIMITS.attemptsPerAddress - LOGIN_LIMITS.attemptsWithoutCaptcha,
      'must wait': 10 - (LOGIN_LIMITS.attemptsPerAddress - LOGIN_LIMITS.attemptsWithoutCaptcha),
    });
  });
});

describe('the window', () => {
  it('starts again once 15 minutes have passed since its first attempt', async () => {
    const user = await makeUser(ctx.app);
    const address = newAddress();
    for (let i = 0; i < LOGIN_LIMITS.attemptsPerAddress; i += 1) {
      const captcha = await solveCaptcha(ctx.app);
      expect(outcome(await attempt({ username: user.username, address, captcha }))).toBe(
        'password checked',
      );
      ctx.clock.advance(MINUTE);
    }
    expect(outcome(await attempt({ username: user.username, address }))).toBe('must wait');

    // The window runs from the first attempt, however many came after it.
    ctx.clock.advance(LOGIN_LIMITS.windowMs - LOGIN_LIMITS.attemptsPerAddress * MINUTE - 1);
    expect(outcome(await attempt({ username: user.username, address }))).toBe('must wait');
    ctx.clock.advance(1);
    for (let i = 0; i < LOGIN_LIMITS.attemptsWithoutCaptcha; i += 1)
      expect(outcome(await attempt({ username: user.username, address }))).toBe('password checked');
    expect(outcome(await attempt({ username: user.username, address }))).toBe('captcha required');
  });

  it('starts again for the username and the address after a successful login', async () => {
    const user = await makeUser(ctx.app);
    const address = newAddress();
    for (let i = 0; i < LOGIN_LIMITS.attemptsWithoutCaptcha; i += 1)
      await attempt({ username: user.username, address });
    const captcha = await solveCaptcha(ctx.app);
    expect(outcome(await attempt({ username: user.username, address, captcha }))).toBe(
      'password checked',
    );
    const right = { username: user.username, password: TEST_PASSWORD, address };
    expect(outcome(await attempt({ ...right, captcha: await solveCaptcha(ctx.app) }))).toBe(
      'logged in',
    );

    // Five attempts from the address were counted before the success; now none are.
    for (let i = 0; i < LOGIN_LIMITS.attemptsWithoutCaptcha; i += 1)
      expect(outcome(await attempt({ username: user.username, address }))).toBe('password checked');
  });

  it('drops the rows of windows that have ended when a new window starts', async () => {
    const buckets = async () =>
      (await ctx.app.db.select({ bucket: loginThrottle.bucket }).from(loginThrottle)).map(
        (row) => row.bucket,
      );
    await attempt({ username: 'Short-Lived', address: newAddress() });
    expect(await buckets()).toContain('user:short-lived');

    ctx.clock.advance(LOGIN_LIMITS.windowMs);
    await attempt({ username: 'someone-else', address: newAddress() });
    const left = await buckets();
    expect(left).toContain('user:someone-else');
    expect(left.filter((bucket) => bucket.includes('short-lived'))).toEqual([]);
  });
});

describe('two app processes on one database', () => {
  let apps: App[] = [];
  let closeAll: () => Promise<void>;
  beforeAll(async () => {
    const fresh = await freshDatabase();
    // On PostgreSQL each app has its own connection pool, as separate processes would.
    // PGlite lives in one process, so there the apps share its one connection.
    const second = fresh.url
      ? await openDatabase({ kind: 'postgres', url: fresh.url })
      : fresh.database;
    const build = (database: typeof second) =>
      buildApp(ctx.app.config, { database, now: ctx.clock.now, logger: false });
    apps = [await build(fresh.database), await build(second)];
    closeAll = async () => {
      await Promise.all(apps.map((app) => app.close()));
      if (second !== fresh.database) await second.close();
      await fresh.drop();
    };
  });
  afterAll(() => closeAll());

  it('share the counters', async () => {
    const user = await makeUser(apps[0]!);
    const address = newAddress();
    const appFor = (i: number) => apps[i % 2]!;

    const guesses = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        attempt({ username: user.username, password: `guess ${i}`, address }, appFor(i)),
      ),
    );
    expect(tally(guesses)).toEqual({ 'password checked': 3, 'captcha required': 47 });

    const withCaptchas = await Promise.all(
      Array.from({ length: 10 }, async (_, i) =>
        attempt(
          { username: user.username, address, captcha: await solveCaptcha(appFor(i + 1)) },
          appFor(i),
        ),
      ),
    );
    expect(tally(withCaptchas)).toEqual({ 'password checked': 2, 'must wait': 8 });
  });
});
