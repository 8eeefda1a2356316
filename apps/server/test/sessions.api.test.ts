import {
  messages,
  TOKEN_ABSOLUTE_TTL_MS,
  TOKEN_IDLE_TTL_MS,
  TOKEN_TOUCH_INTERVAL_MS,
} from '@merit/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authTokens, users } from '../src/db/schema.js';
import { captureSecurityEvents } from './log-capture.js';
import {
  auth,
  createTestApp,
  login,
  makeUser,
  TEST_PASSWORD,
  type TestContext,
} from './helpers.js';

/**
 * Sessions (issue 16, item 6): a token expires when left idle and at its absolute age,
 * whatever the caller does, on the clock every rule reads (pinned here). An ended
 * session answers like no session at all, on every kind of route.
 */
let ctx: TestContext;
/** The security events the app logged, in order. */
const { stream, entries: events } = captureSecurityEvents();
beforeAll(async () => {
  ctx = await createTestApp({ sessions: 'server', logger: { level: 'info', stream } });
});
afterAll(() => ctx.close());

const notAuthenticated = { detail: messages.notAuthenticated, code: 'not_authenticated' };

const me = (key: string) =>
  ctx.app.inject({ method: 'GET', url: '/api/v1/user_details/', headers: auth(key) });

async function session() {
  const user = await makeUser(ctx.app);
  return { user, key: await login(ctx.app, user.username) };
}

/** The stored row of a key's token, found through its user (keys are stored only hashed). */
const tokensOf = (userId: number) =>
  ctx.app.db.select().from(authTokens).where(eq(authTokens.userId, userId));

describe('idle expiry', () => {
  it('ends a session left unused for the idle time, to the millisecond', async () => {
    const { key } = await session();
    ctx.clock.advance(TOKEN_IDLE_TTL_MS - 1);
    expect((await me(key)).statusCode).toBe(200);
    // That use started the idle time again.
    ctx.clock.advance(TOKEN_IDLE_TTL_MS - 1);
    expect((await me(key)).statusCode).toBe(200);
    ctx.clock.advance(TOKEN_IDLE_TTL_MS);
    const ended = await me(key);
    expect(ended.statusCode).toBe(401);
    expect(ended.json()).toEqual(notAuthenticated);
  });

  it('counts idle time from the last recorded use, which is at most a minute old', async () => {
    const { user, key } = await session();
    const [before] = await tokensOf(user.id);
    // Uses within a minute of the last recorded one are not written down (a read stays a read)...
    ctx.clock.advance(TOKEN_TOUCH_INTERVAL_MS - 1);
    expect((await me(key)).statusCode).toBe(200);
    expect((await tokensOf(user.id))[0]!.lastUsedAt).toEqual(before!.lastUsedAt);
    // ...so the idle time runs from the login, and ends a minute early at the most.
    ctx.clock.advance(TOKEN_IDLE_TTL_MS - TOKEN_TOUCH_INTERVAL_MS + 1);
    expect((await me(key)).statusCode).toBe(401);
  });

  it('does not bring an ended session back: the next login is a new token', async () => {
    const { user, key } = await session();
    ctx.clock.advance(TOKEN_IDLE_TTL_MS);
    expect((await me(key)).statusCode).toBe(401);
    const fresh = await login(ctx.app, user.username);
    expect(fresh).not.toBe(key);
    expect((await me(fresh)).statusCode).toBe(200);
    expect((await me(key)).statusCode).toBe(401);
  });
});

describe('absolute expiry', () => {
  it('ends a session at its absolute age however busy it is, to the millisecond', async () => {
    const { key } = await session();
    // Used every half idle time for the whole of its life: never idle.
    const step = TOKEN_IDLE_TTL_MS / 2;
    let age = 0;
    while (age + step < TOKEN_ABSOLUTE_TTL_MS) {
      ctx.clock.advance(step);
      age += step;
      expect((await me(key)).statusCode, `at ${age / 60_000} minutes`).toBe(200);
    }
    ctx.clock.advance(TOKEN_ABSOLUTE_TTL_MS - age - 1);
    expect((await me(key)).statusCode).toBe(200);
    ctx.clock.advance(1);
    const ended = await me(key);
    expect(ended.statusCode).toBe(401);
    expect(ended.json()).toEqual(notAuthenticated);
  });
});

describe('lifetimes', () => {
  const HOUR = 3_600_000;
  const MINUTE = 60_000;

  it('meet ASVS level 2 by default: 12 hours after login, 2 hours unused', () => {
    expect(ctx.app.config.session).toEqual({ absoluteMs: 12 * HOUR, idleMs: 2 * HOUR });
    expect([TOKEN_ABSOLUTE_TTL_MS, TOKEN_IDLE_TTL_MS]).toEqual([12 * HOUR, 2 * HOUR]);
  });

  describe('as configured (SESSION_MAX_AGE_HOURS=1, SESSION_IDLE_MINUTES=10)', () => {
    let short: TestContext;
    beforeAll(async () => {
      short = await createTestApp({
        env: { SESSION_MAX_AGE_HOURS: '1', SESSION_IDLE_MINUTES: '10' },
      });
    });
    afterAll(() => short.close());

    const shortMe = (key: string) =>
      short.app.inject({ method: 'GET', url: '/api/v1/user_details/', headers: auth(key) });
    const shortSession = async () => login(short.app, (await makeUser(short.app)).username);

    it('ends a session left unused for 10 minutes, to the millisecond', async () => {
      const key = await shortSession();
      short.clock.advance(10 * MINUTE - 1);
      expect((await shortMe(key)).statusCode).toBe(200);
      short.clock.advance(10 * MINUTE - 1);
      expect((await shortMe(key)).statusCode).toBe(200);
      short.clock.advance(10 * MINUTE);
      expect((await shortMe(key)).statusCode).toBe(401);
    });

    it('ends a busy session an hour after login, to the millisecond', async () => {
      const key = await shortSession();
      let age = 0;
      while (age + 5 * MINUTE < HOUR) {
        short.clock.advance(5 * MINUTE);
        age += 5 * MINUTE;
        expect((await shortMe(key)).statusCode, `at ${age / MINUTE} minutes`).toBe(200);
      }
      short.clock.advance(HOUR - age - 1);
      expect((await shortMe(key)).statusCode).toBe(200);
      short.clock.advance(1);
      expect((await shortMe(key)).statusCode).toBe(401);
    });

    it('lists only the sessions the configured limits leave live', async () => {
      const user = await makeUser(short.app);
      const idle = await login(short.app, user.username);
      short.clock.advance(9 * MINUTE);
      const busy = await login(short.app, user.username);
      short.clock.advance(MINUTE);
      const list = await short.app.inject({
        method: 'GET',
        url: '/api/v1/auth/sessions/',
        headers: auth(busy),
      });
      expect(list.json()).toHaveLength(1);
      expect((await shortMe(idle)).statusCode).toBe(401);
    });
  });
});

describe('an ended session', () => {
  it('answers exactly like no token and like a forged one, on reads, writes and query tokens', async () => {
    const { key } = await session();
    ctx.clock.advance(TOKEN_IDLE_TTL_MS);
    const forged = 'A'.repeat(43);
    const requests = [
      { method: 'GET', url: '/api/v1/user_details/' },
      { method: 'PATCH', url: '/api/v1/user_details/', payload: { institution: 'Elsewhere' } },
      { method: 'POST', url: '/api/v1/download_tickets/', payload: { fileId: 1 } },
      { method: 'POST', url: '/api/v1/auth/logout/' },
    ] as const;
    for (const request of requests) {
      for (const headers of [auth(key), auth(forged), {}]) {
        const res = await ctx.app.inject({ ...request, headers });
        expect(res.statusCode, `${request.method} ${request.url}`).toBe(401);
        expect(res.json()).toEqual(notAuthenticated);
      }
    }
    // The spec's download link carries the token in its query.
    for (const token of [key, forged]) {
      const res = await ctx.app.inject({
        method: 'GET',
        url: `/api/v1/proposal_file/?token=${token}&proposal=1&file=1`,
      });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual(notAuthenticated);
    }
  });

  it('ends at logout for that token only', async () => {
    const { user, key } = await session();
    const other = await login(ctx.app, user.username);
    const out = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/auth/logout/',
      headers: auth(key),
    });
    expect(out.statusCode).toBe(200);
    expect((await me(key)).statusCode).toBe(401);
    expect((await me(other)).statusCode).toBe(200);
  });

  it('ends every other session of the user at a password change, and keeps the one that changed it', async () => {
    const { user, key } = await session();
    const laptop = await login(ctx.app, user.username);
    const phone = await login(ctx.app, user.username);
    const changed = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/auth/password/change/',
      headers: auth(key),
      payload: {
        oldPassword: TEST_PASSWORD,
        newPassword1: 'a brand new long passphrase',
        newPassword2: 'a brand new long passphrase',
      },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect((await me(key)).statusCode).toBe(200);
    expect((await me(laptop)).statusCode).toBe(401);
    expect((await me(phone)).statusCode).toBe(401);
  });

  it('ends when the account is deactivated', async () => {
    const { user, key } = await session();
    await ctx.app.db.update(users).set({ isActive: false }).where(eq(users.id, user.id));
    expect((await me(key)).statusCode).toBe(401);
  });
});

describe('tokens at rest', () => {
  it('stores only a digest of each key, with its login time and last recorded use', async () => {
    const { user, key } = await session();
    const [row] = await tokensOf(user.id);
    expect(row!.keyHash).not.toContain(key);
    expect(JSON.stringify(row)).not.toContain(key);
    expect(row!.createdAt).toEqual(ctx.clock.now());
    expect(row!.lastUsedAt).toEqual(ctx.clock.now());
    expect(row!.revokedAt).toBeNull();
  });
});

const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
const PHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

/** A password login from a browser that says `userAgent`. */
async function loginFrom(username: string, userAgent: string): Promise<string> {
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/v1/auth/login/',
    headers: { 'user-agent': userAgent },
    payload: { username, password: TEST_PASSWORD },
  });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { key: string }).key;
}

const sessionsOf = (key: string) =>
  ctx.app.inject({ method: 'GET', url: '/api/v1/auth/sessions/', headers: auth(key) });
const endSessionRequest = (key: string, id: number | string) =>
  ctx.app.inject({ method: 'DELETE', url: `/api/v1/auth/sessions/${id}/`, headers: auth(key) });
const endOthers = (key: string) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/v1/auth/sessions/end-others/',
    headers: auth(key),
  });
const idsOf = async (key: string) =>
  ((await sessionsOf(key)).json() as { id: number }[]).map((s) => s.id);
/** The session endings logged since `count` events. */
const eventsSince = (count: number) =>
  events.slice(count).filter((e) => e.securityEvent === 'session.ended');

describe('the session list (ASVS V3.3.4)', () => {
  it("lists the user's live sessions, newest use first, with their client, method and which is this one", async () => {
    const user = await makeUser(ctx.app);
    const laptop = await loginFrom(user.username, FIREFOX);
    ctx.clock.advance(60_000);
    const phone = await loginFrom(user.username, PHONE);
    const laptopLogin = new Date(ctx.clock.now().getTime() - 60_000).toISOString();
    const res = await sessionsOf(phone);
    expect(res.statusCode).toBe(200);
    const [first, second] = await tokensOf(user.id).then((rows) =>
      rows.sort((a, b) => a.id - b.id),
    );
    expect(res.json()).toEqual([
      {
        id: second!.id,
        createdAt: ctx.clock.now().toISOString(),
        lastUsedAt: ctx.clock.now().toISOString(),
        client: 'Safari on iOS',
        method: 'password',
        current: true,
      },
      {
        id: first!.id,
        createdAt: laptopLogin,
        lastUsedAt: laptopLogin,
        client: 'Firefox on Linux',
        method: 'password',
        current: false,
      },
    ]);
    // Never a key or its digest.
    for (const secret of [laptop, phone, first!.keyHash, second!.keyHash]) {
      expect(res.body).not.toContain(secret);
    }
    // The other device sees the same two, itself as the current one (both used just now:
    // the newer login first).
    const fromLaptop = (await sessionsOf(laptop)).json() as { id: number; current: boolean }[];
    expect(fromLaptop.map((s) => [s.id, s.current])).toEqual([
      [second!.id, false],
      [first!.id, true],
    ]);
  });

  it("leaves out sessions that ended (logout, idle) and other users' sessions", async () => {
    const user = await makeUser(ctx.app);
    const idle = await loginFrom(user.username, FIREFOX);
    ctx.clock.advance(TOKEN_IDLE_TTL_MS - 60_000);
    const loggedOut = await loginFrom(user.username, FIREFOX);
    await ctx.app.inject({ method: 'POST', url: '/api/v1/auth/logout/', headers: auth(loggedOut) });
    const current = await loginFrom(user.username, PHONE);
    await login(ctx.app, (await makeUser(ctx.app)).username);
    ctx.clock.advance(60_000);
    const list = (await sessionsOf(current)).json() as { current: boolean; client: string }[];
    expect(list).toEqual([expect.objectContaining({ current: true, client: 'Safari on iOS' })]);
    expect((await me(idle)).statusCode).toBe(401);
  });

  it('names a session without a User-Agent an unknown client, and keeps at most 512 characters of one', async () => {
    const user = await makeUser(ctx.app);
    const long = `${FIREFOX} ${'x'.repeat(2000)}`;
    const key = await loginFrom(user.username, long);
    const [row] = await tokensOf(user.id);
    expect(row!.userAgent).toBe(long.slice(0, 512));
    expect(row!.loginMethod).toBe('password');
    expect(((await sessionsOf(key)).json() as { client: string }[])[0]!.client).toBe(
      'Firefox on Linux',
    );
    const bare = await login(ctx.app, user.username);
    const rows = (await sessionsOf(bare)).json() as { client: string; current: boolean }[];
    expect(rows.find((s) => s.current)!.client).toBe('Unknown client');
  });

  it('refuses the list, and ending sessions, without a live token', async () => {
    for (const res of [
      await sessionsOf('A'.repeat(43)),
      await endSessionRequest('A'.repeat(43), 1),
      await endOthers('A'.repeat(43)),
      await ctx.app.inject({ method: 'GET', url: '/api/v1/auth/sessions/' }),
    ]) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual(notAuthenticated);
    }
  });
});

describe('ending a session', () => {
  it("ends another of the user's sessions at once, keeps this one, and logs it", async () => {
    const user = await makeUser(ctx.app);
    const laptop = await loginFrom(user.username, FIREFOX);
    const phone = await loginFrom(user.username, PHONE);
    const [laptopId, phoneId] = (await tokensOf(user.id)).map((r) => r.id).sort((a, b) => a - b);
    const before = events.length;
    const res = await endSessionRequest(phone, laptopId!);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect((await me(laptop)).statusCode).toBe(401);
    expect((await me(phone)).statusCode).toBe(200);
    expect(await idsOf(phone)).toEqual([phoneId]);
    expect(eventsSince(before)).toEqual([
      expect.objectContaining({
        securityEvent: 'session.ended',
        userId: user.id,
        sessionId: laptopId,
        reason: 'other_session',
      }),
    ]);
  });

  it('ending this session is a logout: its token stops working', async () => {
    const user = await makeUser(ctx.app);
    const key = await loginFrom(user.username, FIREFOX);
    const other = await loginFrom(user.username, PHONE);
    const [thisId] = (await tokensOf(user.id)).map((r) => r.id).sort((a, b) => a - b);
    const before = events.length;
    expect((await endSessionRequest(key, thisId!)).statusCode).toBe(204);
    expect((await me(key)).statusCode).toBe(401);
    expect((await me(other)).statusCode).toBe(200);
    expect(eventsSince(before)).toEqual([
      expect.objectContaining({
        securityEvent: 'session.ended',
        userId: user.id,
        sessionId: thisId,
        reason: 'this_session',
      }),
    ]);
  });

  it("answers 404 for another user's session, an unknown id and one already ended, and ends nothing", async () => {
    const user = await makeUser(ctx.app);
    const key = await login(ctx.app, user.username);
    const stranger = await makeUser(ctx.app);
    const theirs = await login(ctx.app, stranger.username);
    const [theirId] = (await tokensOf(stranger.id)).map((r) => r.id);
    const ended = await login(ctx.app, user.username);
    await ctx.app.inject({ method: 'POST', url: '/api/v1/auth/logout/', headers: auth(ended) });
    const endedId = Math.max(...(await tokensOf(user.id)).map((r) => r.id));
    const before = events.filter((e) => e.securityEvent === 'session.ended').length;
    for (const id of [theirId!, endedId, 2_000_000_000, '01', 'abc']) {
      const res = await endSessionRequest(key, id);
      expect(res.statusCode, String(id)).toBe(404);
      expect(res.json()).toMatchObject({ code: 'not_found' });
    }
    expect((await me(theirs)).statusCode).toBe(200);
    expect((await me(key)).statusCode).toBe(200);
    expect(events.filter((e) => e.securityEvent === 'session.ended')).toHaveLength(before);
  });

  it('answers 404 for a session that idled out, as the list no longer shows it', async () => {
    const user = await makeUser(ctx.app);
    await login(ctx.app, user.username);
    const [idleId] = (await tokensOf(user.id)).map((r) => r.id);
    ctx.clock.advance(TOKEN_IDLE_TTL_MS);
    const key = await login(ctx.app, user.username);
    expect((await endSessionRequest(key, idleId!)).statusCode).toBe(404);
  });
});

describe('signing out the other sessions', () => {
  it('ends every session of the user but this one, says how many, and logs each', async () => {
    const user = await makeUser(ctx.app);
    const keep = await loginFrom(user.username, FIREFOX);
    const others = [await loginFrom(user.username, PHONE), await login(ctx.app, user.username)];
    const stranger = await makeUser(ctx.app);
    const theirs = await login(ctx.app, stranger.username);
    const ids = (await tokensOf(user.id)).map((r) => r.id).sort((a, b) => a - b);
    const before = events.length;
    const res = await endOthers(keep);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ended: 2 });
    for (const key of others) expect((await me(key)).statusCode).toBe(401);
    expect((await me(keep)).statusCode).toBe(200);
    expect((await me(theirs)).statusCode).toBe(200);
    expect(await idsOf(keep)).toEqual([ids[0]]);
    expect(
      eventsSince(before).map((e) => [e.securityEvent, e.userId, e.sessionId, e.reason]),
    ).toEqual(ids.slice(1).map((id) => ['session.ended', user.id, id, 'other_session']));
    // Nothing left to end: says so, and logs nothing.
    const again = await endOthers(keep);
    expect(again.json()).toEqual({ ended: 0 });
    expect(eventsSince(before)).toHaveLength(2);
  });
});
