import {
  messages,
  TOKEN_ABSOLUTE_TTL_MS,
  TOKEN_IDLE_TTL_MS,
  TOKEN_TOUCH_INTERVAL_MS,
} from '@merit/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authTokens, users } from '../src/db/schema.js';
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
beforeAll(async () => {
  ctx = await createTestApp();
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
    // Used every six hours for the whole of its life: never idle.
    const step = 6 * 60 * 60 * 1000;
    let age = 0;
    while (age + step < TOKEN_ABSOLUTE_TTL_MS) {
      ctx.clock.advance(step);
      age += step;
      expect((await me(key)).statusCode, `at ${age / step / 4} days`).toBe(200);
    }
    ctx.clock.advance(TOKEN_ABSOLUTE_TTL_MS - age - 1);
    expect((await me(key)).statusCode).toBe(200);
    ctx.clock.advance(1);
    const ended = await me(key);
    expect(ended.statusCode).toBe(401);
    expect(ended.json()).toEqual(notAuthenticated);
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
