import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addExtension, saveCall } from '../src/modules/calls/calls.service.js';
import { makeForm, makeFormName, simpleSchema } from './admin-fixtures.js';
import { callPayload, makeCallForms } from './call-fixtures.js';
import {
  ACTOR_KINDS,
  createTestApp,
  giveRole,
  makeActors,
  makeCommittee,
  makeUser,
  type ActorKind,
  type TestContext,
} from './helpers.js';

/**
 * Every API route and the status each kind of caller gets from it, with a request that
 * is otherwise valid. A route the server registers but this table does not list fails
 * the last test, so a new route cannot ship without deciding who may call it.
 */
type Expected = Record<ActorKind, number>;
/** Rows that need ids read them from the fixtures made once before the table runs. */
type FromFixtures<T> = T | ((f: Fixtures) => T);
interface Row {
  route: string;
  /** Values for the route's `:params`. */
  params?: FromFixtures<Record<string, number>>;
  query?: FromFixtures<Record<string, string | number>>;
  payload?: FromFixtures<Record<string, unknown>>;
  expect: Expected;
}

const resolve = <T>(value: FromFixtures<T>, f: Fixtures): T =>
  typeof value === 'function' ? (value as (f: Fixtures) => T)(f) : value;

const everyone = (status: number): Expected => ({
  anonymous: status,
  user: status,
  member: status,
  chair: status,
  admin: status,
});
const loggedIn = (status: number): Expected => ({ ...everyone(status), anonymous: 401 });
/** Chair actions on the committee's calls: admins count as chairs everywhere. */
const chairsOnly = (status: number): Expected => ({
  anonymous: 401,
  user: 403,
  member: 403,
  chair: status,
  admin: status,
});
/** Admin routes: everyone else is refused before the request is looked at. */
const adminOnly = (status: number): Expected => ({
  anonymous: 401,
  user: 403,
  member: 403,
  chair: 403,
  admin: status,
});

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
  // Administration. Admin is the last caller of each row, so a row that deletes or
  // creates something does it once, after the others were refused.
  { route: 'GET /api/v1/users/', expect: adminOnly(200) },
  { route: 'GET /api/v1/users/:id/', params: (f) => ({ id: f.target.id }), expect: adminOnly(200) },
  {
    route: 'PATCH /api/v1/users/:id/',
    params: (f) => ({ id: f.target.id }),
    payload: { is_admin: false, is_active: true },
    expect: adminOnly(200),
  },
  {
    route: 'GET /api/v1/roles/:userId/',
    params: (f) => ({ userId: f.target.id }),
    expect: adminOnly(200),
  },
  {
    route: 'POST /api/v1/roles/:userId/',
    params: (f) => ({ userId: f.target.id }),
    payload: (f) => ({
      committeeId: f.committeeId,
      role: 'MEMBER',
      commencement: '2026-01-01',
      termination: '2026-12-31',
    }),
    expect: adminOnly(201),
  },
  {
    route: 'PATCH /api/v1/roles/:userId/',
    params: (f) => ({ userId: f.target.id }),
    payload: (f) => ({
      id: f.roleToEdit,
      committeeId: f.committeeId,
      role: 'CHAIR',
      commencement: '2026-01-01',
      termination: '2027-12-31',
    }),
    expect: adminOnly(200),
  },
  {
    route: 'DELETE /api/v1/roles/:id/',
    params: (f) => ({ id: f.roleToDelete }),
    expect: adminOnly(204),
  },
  {
    route: 'GET /api/v1/committee_members/',
    query: (f) => ({ committee: f.committeeId }),
    expect: adminOnly(200),
  },
  { route: 'GET /api/v1/committees/', expect: adminOnly(200) },
  {
    route: 'GET /api/v1/committees/:id/',
    params: (f) => ({ id: f.committeeId }),
    expect: adminOnly(200),
  },
  {
    route: 'POST /api/v1/committees/',
    payload: { name: 'Authorization table committee' },
    expect: adminOnly(201),
  },
  {
    route: 'DELETE /api/v1/committees/',
    payload: (f) => ({ id: f.emptyCommittee }),
    expect: adminOnly(204),
  },
  { route: 'GET /api/v1/form_names/', expect: adminOnly(200) },
  {
    route: 'POST /api/v1/form_names/',
    payload: { name: 'authorization_table', display_name: 'Authorization table', type: 0 },
    expect: adminOnly(201),
  },
  {
    route: 'DELETE /api/v1/form_names/',
    payload: (f) => ({ id: f.unusedFormName }),
    expect: adminOnly(204),
  },
  // Chairs read forms too, to choose them for their calls.
  { route: 'GET /api/v1/forms/', expect: chairsOnly(200) },
  { route: 'GET /api/v1/forms/', query: (f) => ({ id: f.form }), expect: chairsOnly(200) },
  { route: 'GET /api/v1/users/lookup/', query: { q: 'user' }, expect: chairsOnly(200) },
  {
    route: 'POST /api/v1/forms/',
    payload: (f) => ({
      isNew: true,
      name: f.formName,
      version: 'authorization',
      jsonSchema: simpleSchema,
      uiSchema: {},
      options: null,
    }),
    expect: adminOnly(201),
  },
  {
    route: 'DELETE /api/v1/forms/',
    payload: (f) => ({ id: f.formToDelete }),
    expect: adminOnly(204),
  },
  { route: 'GET /api/v1/form_examples/', expect: adminOnly(200) },
  { route: 'GET /api/v1/calls/', expect: loggedIn(200) },
  { route: 'GET /api/v1/calls/open/', expect: loggedIn(200) },
  { route: 'GET /api/v1/calls/closed/', expect: loggedIn(200) },
  { route: 'GET /api/v1/calls/:id/', params: (f) => ({ id: f.call }), expect: loggedIn(200) },
  {
    route: 'GET /api/v1/calls/:id/manage/',
    params: (f) => ({ id: f.call }),
    expect: chairsOnly(200),
  },
  {
    route: 'GET /api/v1/proposal_form_order/:callId/',
    params: (f) => ({ callId: f.call }),
    expect: loggedIn(200),
  },
  {
    route: 'GET /api/v1/review_form_order/:callId/',
    params: (f) => ({ callId: f.call }),
    expect: loggedIn(200),
  },
  { route: 'POST /api/v1/new_call/', payload: (f) => f.newCall, expect: chairsOnly(201) },
  {
    route: 'POST /api/v1/new_extension/',
    payload: (f) => ({
      callId: f.call,
      user: f.target.id,
      commencement: '2026-06-10T00:00:00Z',
      termination: '2026-06-12T00:00:00Z',
      reason: 'Illness',
    }),
    expect: chairsOnly(201),
  },
  {
    // The chair deletes it; the admin then finds nothing to delete.
    route: 'DELETE /api/v1/delete_extension/',
    payload: (f) => ({ callId: f.call, extensionId: f.extension }),
    expect: { ...chairsOnly(204), admin: 404 },
  },
  {
    // The chair closes it; the admin then finds it closed already.
    route: 'POST /api/v1/close_call/',
    payload: (f) => ({ callId: f.closableCall }),
    expect: { ...chairsOnly(200), admin: 409 },
  },
  // Last, because it revokes each caller's token.
  { route: 'POST /api/v1/auth/logout/', expect: loggedIn(200) },
];

let ctx: TestContext;
let actors: Awaited<ReturnType<typeof makeActors>>;
let fixtures: Fixtures;

/** Things the admin rows act on, apart from the callers so none of them changes. */
async function makeFixtures(ctx: TestContext, committeeId: number) {
  const now = ctx.clock.now();
  const target = await makeUser(ctx.app);
  const formName = await makeFormName(ctx.app);
  return {
    target,
    committeeId,
    roleToEdit: (await giveRole(ctx.app, target.id, committeeId, 'MEMBER', now)).id,
    roleToDelete: (await giveRole(ctx.app, target.id, committeeId, 'MEMBER', now)).id,
    emptyCommittee: (await makeCommittee(ctx.app)).id,
    formName: formName.id,
    unusedFormName: (await makeFormName(ctx.app)).id,
    form: (await makeForm(ctx.app, formName.id)).id,
    formToDelete: (await makeForm(ctx.app, formName.id)).id,
    ...(await callFixtures(ctx, committeeId, target.id)),
  };
}
type Fixtures = Awaited<ReturnType<typeof makeFixtures>>;

async function callFixtures(ctx: TestContext, committeeId: number, targetId: number) {
  const now = ctx.clock.now();
  const forms = await makeCallForms(ctx.app);
  const admin = { id: (await makeUser(ctx.app, { isAdmin: true })).id, isAdmin: true, roles: [] };
  const call = await saveCall(ctx.app.db, admin, callPayload(committeeId, forms, now), now);
  const past = new Date(now.getTime() - 60 * 24 * 60 * 60 * 1000);
  const closableCall = await saveCall(
    ctx.app.db,
    admin,
    callPayload(committeeId, forms, past),
    now,
  );
  const extension = await addExtension(
    ctx.app.db,
    admin,
    {
      callId: call,
      user: targetId,
      commencement: now.toISOString(),
      termination: now.toISOString(),
      reason: '',
    },
    now,
  );
  return { call, closableCall, extension, newCall: callPayload(committeeId, forms, now) };
}

beforeAll(async () => {
  ctx = await createTestApp();
  actors = await makeActors(ctx);
  fixtures = await makeFixtures(ctx, actors.committee.id);
});
afterAll(() => ctx.close());

describe('authorization table', () => {
  for (const row of table) {
    for (const kind of ACTOR_KINDS) {
      const name = `${row.route}${row.query ? ' with a query' : ''} as ${kind} -> ${row.expect[kind]}`;
      it(name, async () => {
        const [method, path] = row.route.split(' ') as [
          'GET' | 'POST' | 'PATCH' | 'DELETE',
          string,
        ];
        const params = row.params ? resolve(row.params, fixtures) : {};
        const url = path.replace(/:(\w+)/g, (_m, key: string) => String(params[key]));
        const query = row.query ? resolve(row.query, fixtures) : undefined;
        const payload = row.payload === undefined ? undefined : resolve(row.payload, fixtures);
        const res = await ctx.app.inject({
          method,
          url,
          headers: actors.headers[kind],
          ...(query
            ? { query: Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])) }
            : {}),
          ...(payload === undefined ? {} : { payload }),
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
