import { errorCodes } from '@merit/contract';
import { adminTwoFactorMessages, base32Decode, messages, totpStep } from '@merit/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users, userTwoFactor } from '../src/db/schema.js';
import { issueToken } from '../src/modules/auth/tokens.queries.js';
import { hotp } from '../src/modules/auth/totp.js';
import { PERSONAS } from './authorization/personas.js';
import { table, type Row } from './authorization/rows.js';
import {
  createWorld,
  makeCaller,
  newFile,
  type Caller,
  type World,
} from './authorization/world.js';
import {
  auth,
  createTestApp,
  login,
  makeUser,
  TEST_PASSWORD,
  type TestContext,
} from './helpers.js';

/**
 * ADMIN_TWO_FACTOR (ASVS V4.3.1). With `required`, an admin whose account has a password
 * and no two-step verification is refused every admin route (403 admin_two_factor_required)
 * and has no admin's reach elsewhere, until they turn it on; a federated-only admin is not
 * held back (their provider authenticates them). With `optional`, nothing changes.
 */

const get = (ctx: TestContext, url: string, key: string) =>
  ctx.app.inject({ method: 'GET', url: `/api/v1${url}`, headers: auth(key) });
const post = (ctx: TestContext, url: string, payload: object, key: string) =>
  ctx.app.inject({ method: 'POST', url: `/api/v1${url}`, payload, headers: auth(key) });

interface Details {
  is_admin: boolean;
  has_two_factor: boolean;
  abilities: Record<string, boolean>;
}
const detailsOf = async (ctx: TestContext, key: string) => {
  const res = await get(ctx, '/user_details/', key);
  expect(res.statusCode).toBe(200);
  return res.json<Details>();
};

/** Turns on two-step verification as the account page does: password, key, first code. */
async function turnOnTwoFactor(ctx: TestContext, key: string) {
  const setup = await post(ctx, '/auth/two-factor/setup/', { password: TEST_PASSWORD }, key);
  expect(setup.statusCode, setup.body).toBe(200);
  const { secret } = setup.json<{ secret: string }>();
  const code = hotp(base32Decode(secret)!, totpStep(ctx.clock.now()));
  const confirm = await post(ctx, '/auth/two-factor/confirm/', { code }, key);
  expect(confirm.statusCode, confirm.body).toBe(200);
}

describe('ADMIN_TWO_FACTOR=required', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp({ env: { ADMIN_TWO_FACTOR: 'required' } });
  });
  afterAll(() => ctx.close());

  it('lets the admin log in, refuses administration with why, and allows it once two-step is on, with the same login', async () => {
    const admin = await makeUser(ctx.app, { isAdmin: true });
    // Logging in is not blocked: the admin must be able to turn two-step verification on.
    const key = await login(ctx.app, admin.username);

    const before = await detailsOf(ctx, key);
    expect(before.is_admin).toBe(true);
    expect(before.abilities).toMatchObject({
      administer: false,
      // No admin's standing as chair and member everywhere either.
      createCall: false,
      review: false,
    });
    const refused = await get(ctx, '/users/', key);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({
      code: errorCodes.adminTwoFactorRequired,
      detail: adminTwoFactorMessages.required,
    });
    // An admin's reach beyond the admin routes goes too: finding users is for chairs.
    expect((await get(ctx, '/users/lookup/?q=Test', key)).statusCode).toBe(403);

    await turnOnTwoFactor(ctx, key);

    const after = await detailsOf(ctx, key);
    expect(after.has_two_factor).toBe(true);
    expect(after.abilities).toMatchObject({ administer: true, createCall: true, review: true });
    expect((await get(ctx, '/users/', key)).statusCode).toBe(200);
    expect((await get(ctx, '/users/lookup/?q=Test', key)).statusCode).toBe(200);
  });

  it('does not hold back a federated-only admin (no password): their provider authenticates them', async () => {
    const admin = await makeUser(ctx.app, { isAdmin: true, password: null, isAaf: true });
    const key = await issueToken(ctx.app.db, admin.id, ctx.clock.now());
    expect((await detailsOf(ctx, key)).abilities.administer).toBe(true);
    expect((await get(ctx, '/users/', key)).statusCode).toBe(200);
  });

  it('leaves a user who is not an admin with the plain refusal', async () => {
    const user = await makeUser(ctx.app);
    const key = await login(ctx.app, user.username);
    const res = await get(ctx, '/users/', key);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: errorCodes.forbidden, detail: messages.noPermission });
    expect((await detailsOf(ctx, key)).abilities.administer).toBe(false);
  });

  it('shows another admin, in Manage Users, as not able to administer yet', async () => {
    const viewer = await makeUser(ctx.app, { isAdmin: true, password: null });
    const key = await issueToken(ctx.app.db, viewer.id, ctx.clock.now());
    const other = await makeUser(ctx.app, { isAdmin: true });
    const res = await get(ctx, `/users/${other.id}/`, key);
    expect(res.statusCode).toBe(200);
    expect(res.json<Details>()).toMatchObject({ is_admin: true, abilities: { administer: false } });
  });
});

describe('ADMIN_TWO_FACTOR=optional (the default)', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp();
  });
  afterAll(() => ctx.close());

  it('changes nothing: an admin with a password and no two-step administers', async () => {
    expect(ctx.app.config.adminTwoFactor).toBe('optional');
    const admin = await makeUser(ctx.app, { isAdmin: true });
    const key = await login(ctx.app, admin.username);
    expect((await detailsOf(ctx, key)).abilities).toMatchObject({
      administer: true,
      createCall: true,
    });
    expect((await get(ctx, '/users/', key)).statusCode).toBe(200);
  });
});

/**
 * Every admin-only row of the authorization table (authorization/rows.ts), with the
 * setting required: refused for an admin with a password and no two-step verification,
 * and answered as the table says once it is on.
 */
describe('ADMIN_TWO_FACTOR=required on every admin-only route of the authorization table', () => {
  let world: World;
  beforeAll(async () => {
    world = await createWorld({ env: { ADMIN_TWO_FACTOR: 'required' } });
  });
  afterAll(() => world.close());

  const ordinary = PERSONAS.filter(
    (p) =>
      ![
        'anonymous',
        'unverified',
        'incomplete',
        'deactivated',
        'admin',
        // An admin still, for every route but the proposal they are conflicted on.
        'conflictedAdmin',
      ].includes(p),
  );
  const adminOnlyRows = table.filter(
    (row) => row.expect.admin < 400 && ordinary.every((p) => row.expect[p] === 403),
  );

  /** An admin caller whose account has a password (the table's callers have none). */
  async function adminWithPassword(): Promise<Caller> {
    const caller = await makeCaller(world, 'admin');
    await world.ctx.app.db
      .update(users)
      .set({ passwordHash: '$argon2id$v=19$m=19456,t=2,p=1$not-used$not-used' })
      .where(eq(users.id, caller.id!));
    return caller;
  }
  const turnOn = (caller: Caller) =>
    world.ctx.app.db.insert(userTwoFactor).values({
      userId: caller.id!,
      secretEncrypted: 'not used: the code step is tested in two-factor.api.test.ts',
      createdAt: world.ctx.clock.now(),
      enabledAt: world.ctx.clock.now(),
    });

  async function send(row: Row, caller: Caller) {
    const request = row.request ? await row.request(world, caller) : {};
    const [method, path] = row.route.split(' ') as ['GET' | 'POST' | 'PATCH' | 'DELETE', string];
    return () =>
      world.ctx.app.inject({
        method,
        url: path.replace(/:(\w+)/g, (_m, key: string) => String(request.params?.[key])),
        headers: { ...request.headers, ...caller.headers },
        ...(request.query ? { query: request.query } : {}),
        ...(request.payload === undefined ? {} : { payload: request.payload }),
      });
  }

  it('finds the admin-only rows', () => {
    // Manage Users, committees, roles, form names and forms: well over a dozen routes.
    expect(adminOnlyRows.length).toBeGreaterThan(12);
    expect(adminOnlyRows.map((r) => r.route)).toContain('GET /api/v1/users/');
  });

  for (const row of adminOnlyRows) {
    it(`${row.route}${row.note ? ` (${row.note})` : ''}: 403 without two-step, ${row.expect.admin} with it`, async () => {
      const caller = await adminWithPassword();
      const request = await send(row, caller);
      const refused = await request();
      expect(refused.statusCode, refused.body).toBe(403);
      expect(refused.json()).toMatchObject({ code: errorCodes.adminTwoFactorRequired });

      await turnOn(caller);
      const allowed = await request();
      expect(allowed.statusCode, allowed.body).toBe(row.expect.admin);
    });
  }

  it('holds a download ticket made before to the admin flag as it counts now', async () => {
    const caller = await adminWithPassword();
    await turnOn(caller);
    const { file } = await newFile(world, caller);
    const ticket = await world.ctx.app.inject({
      method: 'POST',
      url: '/api/v1/download_tickets/',
      headers: caller.headers,
      payload: { fileId: file.id },
    });
    expect(ticket.statusCode, ticket.body).toBe(200);
    // Two-step verification turned off: the draft is no longer theirs to see as an admin.
    await world.ctx.app.db.delete(userTwoFactor).where(eq(userTwoFactor.userId, caller.id!));
    const download = await world.ctx.app.inject({ method: 'GET', url: ticket.json().url });
    expect(download.statusCode).toBe(404);
  });
});
