import { TOKEN_ABSOLUTE_TTL_MS, TOKEN_IDLE_TTL_MS, messages } from '@merit/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  TEST_PASSWORD,
  auth,
  createTestApp,
  login,
  makeCommittee,
  giveRole,
  makeUser,
  type TestContext,
} from './helpers.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp({ sessions: 'server' });
});
afterAll(() => ctx.close());

const userDetails = (key: string) =>
  ctx.app.inject({ method: 'GET', url: '/api/v1/user_details/', headers: auth(key) });

describe('POST /auth/login/', () => {
  it('returns a token key that authenticates /user_details/', async () => {
    const user = await makeUser(ctx.app, { firstName: 'Ada', lastName: 'Lovelace' });
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login/',
      payload: { username: user.username, password: TEST_PASSWORD },
    });
    expect(res.statusCode).toBe(200);
    const { key } = res.json();
    expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const me = await userDetails(key);
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({
      id: user.id,
      username: user.username,
      first_name: 'Ada',
      last_name: 'Lovelace',
      is_admin: false,
      registration_complete: true,
      is_aaf: false,
      roles: [],
    });
    expect(me.json().hash).toHaveLength(10);
  });

  it('matches the username whatever its case', async () => {
    const user = await makeUser(ctx.app, { username: 'MixedCase' });
    const key = await login(ctx.app, 'mixedcase');
    expect((await userDetails(key)).json().id).toBe(user.id);
  });

  it('gives the same answer for a wrong password, an unknown user and a deactivated account', async () => {
    const user = await makeUser(ctx.app);
    const inactive = await makeUser(ctx.app, { isActive: false });
    const attempts = [
      { username: user.username, password: 'wrong password' },
      { username: 'nobody-by-this-name', password: TEST_PASSWORD },
      { username: inactive.username, password: TEST_PASSWORD },
    ];
    for (const payload of attempts) {
      const res = await ctx.app.inject({ method: 'POST', url: '/api/v1/auth/login/', payload });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        detail: messages.invalidCredentials,
        code: 'invalid_credentials',
      });
    }
  });

  it('tells an unverified user to verify the email first', async () => {
    const user = await makeUser(ctx.app, { emailVerified: false });
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login/',
      payload: { username: user.username, password: TEST_PASSWORD },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ detail: messages.emailNotVerified, code: 'email_not_verified' });
  });

  it('refuses a user without a password (federated accounts)', async () => {
    const user = await makeUser(ctx.app, { password: null, isAaf: true });
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login/',
      payload: { username: user.username, password: 'anything at all' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('invalid_credentials');
  });

  it('reports missing fields by name', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login/',
      payload: { username: '' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'validation_error',
      fields: { username: ['This field may not be blank.'], password: ['This field is required.'] },
    });
  });

  it('issues a separate token for each login', async () => {
    const user = await makeUser(ctx.app);
    const first = await login(ctx.app, user.username);
    const second = await login(ctx.app, user.username);
    expect(first).not.toBe(second);
  });
});

describe('POST /auth/logout/', () => {
  it('revokes the token it was sent with and no other', async () => {
    const user = await makeUser(ctx.app);
    const a = await login(ctx.app, user.username);
    const b = await login(ctx.app, user.username);
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/auth/logout/',
      headers: auth(a),
    });
    expect(res.statusCode).toBe(200);
    expect((await userDetails(a)).statusCode).toBe(401);
    expect((await userDetails(b)).statusCode).toBe(200);
    const again = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/auth/logout/',
      headers: auth(a),
    });
    expect(again.statusCode).toBe(401);
  });
});

describe('GET /user_details/', () => {
  it.each([
    ['no header', {}],
    ['an unknown key', { authorization: 'Token not-a-real-key' }],
    ['another scheme', { authorization: 'Bearer abc' }],
  ])('answers 401 with the error envelope for %s', async (_name, headers) => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/v1/user_details/', headers });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ detail: messages.notAuthenticated, code: 'not_authenticated' });
  });

  it('lists committee roles with their current flag', async () => {
    const user = await makeUser(ctx.app);
    const committee = await makeCommittee(ctx.app, 'Telescope Time');
    await giveRole(ctx.app, user.id, committee.id, 'CHAIR', ctx.clock.now());
    const res = await userDetails(await login(ctx.app, user.username));
    expect(res.json().roles).toEqual([
      expect.objectContaining({
        committeeId: committee.id,
        committeeName: 'Telescope Time',
        role: 'CHAIR',
        current: true,
      }),
    ]);
  });

  it('expires a token left idle too long', async () => {
    const user = await makeUser(ctx.app);
    const key = await login(ctx.app, user.username);
    ctx.clock.advance(TOKEN_IDLE_TTL_MS - 60_000);
    expect((await userDetails(key)).statusCode).toBe(200);
    // The request above renewed it: another almost-idle period is still fine.
    ctx.clock.advance(TOKEN_IDLE_TTL_MS - 60_000);
    expect((await userDetails(key)).statusCode).toBe(200);
    ctx.clock.advance(TOKEN_IDLE_TTL_MS);
    expect((await userDetails(key)).statusCode).toBe(401);
  });

  it('expires a token at its absolute age however often it is used', async () => {
    const user = await makeUser(ctx.app);
    const key = await login(ctx.app, user.username);
    const step = TOKEN_IDLE_TTL_MS / 2;
    let elapsed = 0;
    while (elapsed + step < TOKEN_ABSOLUTE_TTL_MS) {
      ctx.clock.advance(step);
      elapsed += step;
      expect((await userDetails(key)).statusCode).toBe(200);
    }
    ctx.clock.advance(TOKEN_ABSOLUTE_TTL_MS - elapsed);
    expect((await userDetails(key)).statusCode).toBe(401);
  });
});
