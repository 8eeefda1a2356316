import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ACTOR_KINDS,
  createTestApp,
  makeActors,
  type ActorKind,
  type TestContext,
} from './helpers.js';

/**
 * Every API route and the status each kind of caller gets from it, with a request that
 * is otherwise valid. A route the server registers but this table does not list fails
 * the last test, so a new route cannot ship without deciding who may call it.
 */
type Expected = Record<ActorKind, number>;
interface Row {
  route: string;
  payload?: unknown;
  expect: Expected;
}

const everyone = (status: number): Expected => ({
  anonymous: status,
  user: status,
  member: status,
  chair: status,
  admin: status,
});
const loggedIn = (status: number): Expected => ({ ...everyone(status), anonymous: 401 });

const table: Row[] = [
  { route: 'GET /api/v1/health', expect: everyone(200) },
  // Wrong credentials on purpose: the route is open to all, and a bad login is a 400 for anyone.
  {
    route: 'POST /api/v1/auth/login/',
    payload: { username: 'nobody', password: 'wrong password' },
    expect: everyone(400),
  },
  { route: 'GET /api/v1/auth/captcha/', expect: everyone(200) },
  { route: 'POST /api/v1/auth/registration/', payload: {}, expect: everyone(400) },
  {
    route: 'POST /api/v1/auth/registration/verify-email/',
    payload: { key: 'no-such-key' },
    expect: everyone(404),
  },
  {
    route: 'POST /api/v1/auth/registration/resend-email/',
    payload: { email: 'nobody@example.org' },
    expect: everyone(200),
  },
  {
    route: 'POST /api/v1/auth/password/reset/',
    payload: { email: 'nobody@example.org' },
    expect: everyone(200),
  },
  {
    route: 'POST /api/v1/auth/password/reset/confirm/',
    payload: {
      uid: 'MQ',
      token: 'not-a-token',
      newPassword1: 'a new pass phrase',
      newPassword2: 'a new pass phrase',
    },
    expect: everyone(400),
  },
  {
    // A wrong old password on purpose, so the callers' passwords stay as they are.
    route: 'POST /api/v1/auth/password/change/',
    payload: {
      oldPassword: 'wrong password',
      newPassword1: 'a new pass phrase',
      newPassword2: 'a new pass phrase',
    },
    expect: loggedIn(400),
  },
  { route: 'GET /api/v1/auth/methods/', expect: everyone(200) },
  // Federated login is off in this app (no OIDC_ISSUER), so its routes answer 404;
  // oidc.api.test.ts covers them switched on.
  { route: 'GET /api/v1/auth/oidc/login/', expect: everyone(404) },
  { route: 'GET /api/v1/auth/oidc/callback/', expect: everyone(404) },
  { route: 'POST /api/v1/auth/oidc/exchange/', payload: { code: 'x' }, expect: everyone(404) },
  { route: 'POST /api/v1/auth/oidc/link/', expect: loggedIn(404) },
  { route: 'POST /api/v1/auth/complete_registration/', payload: {}, expect: loggedIn(400) },
  { route: 'GET /api/v1/user_details/', expect: loggedIn(200) },
  { route: 'PATCH /api/v1/user_details/', payload: { is_student: true }, expect: loggedIn(200) },
  { route: 'GET /api/v1/user_hash/', expect: loggedIn(200) },
  { route: 'POST /api/v1/user_hash/', expect: loggedIn(200) },
  // Last, because it revokes each caller's token.
  { route: 'POST /api/v1/auth/logout/', expect: loggedIn(200) },
];

let ctx: TestContext;
let actors: Awaited<ReturnType<typeof makeActors>>;

beforeAll(async () => {
  ctx = await createTestApp();
  actors = await makeActors(ctx);
});
afterAll(() => ctx.close());

describe('authorization table', () => {
  for (const row of table) {
    for (const kind of ACTOR_KINDS) {
      it(`${row.route} as ${kind} -> ${row.expect[kind]}`, async () => {
        const [method, url] = row.route.split(' ') as ['GET' | 'POST' | 'PATCH' | 'DELETE', string];
        const res = await ctx.app.inject({
          method,
          url,
          headers: actors.headers[kind],
          ...(row.payload === undefined ? {} : { payload: row.payload as object }),
        });
        expect(res.statusCode, res.body).toBe(row.expect[kind]);
      });
    }
  }

  it('lists every API route the server registers', () => {
    const registered = ctx.app.routes.filter((r) => r.split(' ')[1]!.startsWith('/api/v1/'));
    const listed = table.map((r) => r.route);
    expect(
      registered.filter((r) => !listed.includes(r)),
      'routes missing from the table',
    ).toEqual([]);
    expect(
      listed.filter((r) => !registered.includes(r)),
      'rows for routes that do not exist',
    ).toEqual([]);
  });
});
