import { messages, userAdminMessages } from '@merit/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditOf, caller } from './admin-fixtures.js';
import {
  TEST_PASSWORD,
  auth,
  createTestApp,
  giveRole,
  login,
  makeCommittee,
  makeUser,
  type TestContext,
} from './helpers.js';

let ctx: TestContext;
let admin: Awaited<ReturnType<typeof makeUser>>;
let asAdmin: ReturnType<typeof caller>;

beforeAll(async () => {
  ctx = await createTestApp();
  // The only admin of this database until a test makes another.
  admin = await makeUser(ctx.app, {
    isAdmin: true,
    firstName: 'Ada',
    lastName: 'Admin',
    institution: 'Merit Operations',
  });
  asAdmin = caller(ctx.app, auth(await login(ctx.app, admin.username)));
});
afterAll(() => ctx.close());

describe('GET /users/', () => {
  let grace: Awaited<ReturnType<typeof makeUser>>;
  let alan: Awaited<ReturnType<typeof makeUser>>;
  beforeAll(async () => {
    grace = await makeUser(ctx.app, {
      username: 'ghopper',
      firstName: 'Grace',
      lastName: 'Hopper',
      email: 'grace@navy.example.org',
      institution: 'Yale University',
    });
    alan = await makeUser(ctx.app, {
      username: 'aturing',
      firstName: 'Alan',
      lastName: 'Turing',
      email: 'alan@manchester.example.org',
      institution: 'University of Manchester',
      isAaf: true,
      isActive: false,
    });
  });

  it('lists users by username with the table columns, one page at a time', async () => {
    const res = await asAdmin('GET', '/users/');
    expect(res.statusCode).toBe(200);
    const page = res.json() as {
      items: { username: string }[];
      page: number;
      pageSize: number;
      total: number;
      sort: string;
    };
    expect(page).toMatchObject({ page: 1, pageSize: 25, total: 3, sort: 'username' });
    const list = page.items;
    const names = list.map((u) => u.username);
    expect(names).toEqual(
      [...names].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())),
    );
    expect(list.find((u) => u.username === 'aturing')).toEqual({
      id: alan.id,
      username: 'aturing',
      first_name: 'Alan',
      last_name: 'Turing',
      email: 'alan@manchester.example.org',
      institution: 'University of Manchester',
      is_aaf: true,
      is_admin: false,
      is_active: false,
    });
  });

  it.each([
    ['username', 'GHOPP', ['ghopper']],
    ['first name', 'grace', ['ghopper']],
    ['last name', 'turing', ['aturing']],
    ['full name', 'Grace Hopper', ['ghopper']],
    ['email', 'manchester.example', ['aturing']],
    ['institution', 'yale', ['ghopper']],
    ['two of them', 'University', ['aturing', 'ghopper']],
    ['nothing that matches', 'zebra', []],
    ['a % that is not a wildcard', '%', []],
    ['an _ that is not a wildcard', 'g_opper', []],
  ])('searches the %s', async (_name, search, expected) => {
    const res = await asAdmin('GET', `/users/?q=${encodeURIComponent(search)}`);
    expect(res.statusCode).toBe(200);
    const page = res.json() as { items: { username: string }[]; total: number };
    expect(page.items.map((u) => u.username)).toEqual(expected);
    expect(page.total).toBe(expected.length);
  });

  it('treats a blank search as none', async () => {
    const all = await asAdmin('GET', '/users/');
    const blank = await asAdmin('GET', '/users/?q=%20%20');
    expect(blank.json()).toEqual(all.json());
    expect(grace.id).toBeGreaterThan(0);
  });

  it('sorts by any column either way, and pages with a total', async () => {
    const usernames = async (query: string) =>
      (
        (await asAdmin('GET', `/users/?${query}`)).json() as { items: { username: string }[] }
      ).items.map((u) => u.username);
    const byInstitution = await usernames('sort=institution');
    expect(byInstitution.indexOf('aturing')).toBeLessThan(byInstitution.indexOf('ghopper'));
    expect(await usernames('sort=-institution')).toEqual([...byInstitution].reverse());
    expect((await usernames('sort=-aaf'))[0]).toBe('aturing');
    const first = await asAdmin('GET', '/users/?pageSize=2&page=1');
    const second = await asAdmin('GET', '/users/?pageSize=2&page=2');
    expect(first.json()).toMatchObject({ page: 1, pageSize: 2, total: 3 });
    expect(first.json().items).toHaveLength(2);
    expect(second.json().items).toHaveLength(1);
    const all = [...first.json().items, ...second.json().items].map(
      (u: { username: string }) => u.username,
    );
    expect(all).toEqual(await usernames('pageSize=3'));
  });

  it.each([
    ['a search over 200 characters', `q=${'a'.repeat(201)}`, 'q'],
    ['a column it does not sort by', 'sort=password', 'sort'],
    ['a page of 0', 'page=0', 'page'],
    ['pages of more than 100', 'pageSize=101', 'pageSize'],
    ['a page that is not a number', 'page=1e1', 'page'],
  ])('refuses %s', async (_name, query, field) => {
    const res = await asAdmin('GET', `/users/?${query}`);
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().fields)).toEqual([field]);
  });
});

describe('GET /users/{id}/', () => {
  it("shows a user's details, is_active and roles", async () => {
    const user = await makeUser(ctx.app, { firstName: 'Mary', lastName: 'Somerville' });
    const committee = await makeCommittee(ctx.app, 'Physics');
    await giveRole(ctx.app, user.id, committee.id, 'CHAIR', ctx.clock.now());
    const res = await asAdmin('GET', `/users/${user.id}/`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      id: user.id,
      username: user.username,
      first_name: 'Mary',
      is_admin: false,
      is_active: true,
      roles: [
        { committeeId: committee.id, committeeName: 'Physics', role: 'CHAIR', current: true },
      ],
    });
  });

  it.each([
    ['an id nobody has', '999999', 'There is no user with this id.'],
    // Not ids at all: the address names nothing (ARCHITECTURE.md "Strict ids").
    ['an id too large for the database', '99999999999', 'Not found.'],
    ['a word', 'admin', 'Not found.'],
    ['zero', '0', 'Not found.'],
  ])('answers %s with 404', async (_name, id, detail) => {
    const res = await asAdmin('GET', `/users/${id}/`);
    expect(res.statusCode).toBe(404);
    expect(res.json().detail).toBe(detail);
  });
});

describe('PATCH /users/{id}/', () => {
  it('makes a user admin and back, one audit row each', async () => {
    const user = await makeUser(ctx.app);
    const granted = await asAdmin('PATCH', `/users/${user.id}/`, { is_admin: true });
    expect(granted.statusCode, granted.body).toBe(200);
    expect(granted.json()).toMatchObject({ id: user.id, is_admin: true, is_active: true });
    const revoked = await asAdmin('PATCH', `/users/${user.id}/`, { is_admin: false });
    expect(revoked.json()).toMatchObject({ is_admin: false });

    const rows = await auditOf(ctx.app, 'user', user.id);
    expect(rows.map((r) => [r.action, r.actorId, r.changes])).toEqual([
      ['user.grant_admin', admin.id, { is_admin: { before: false, after: true } }],
      ['user.revoke_admin', admin.id, { is_admin: { before: true, after: false } }],
    ]);
    expect(rows[0]!.at.toISOString()).toBe(ctx.clock.now().toISOString());
  });

  it('deactivating logs the user out and stops logins; reactivating lets them in again', async () => {
    const user = await makeUser(ctx.app);
    const key = await login(ctx.app, user.username);
    const me = () => caller(ctx.app, auth(key))('GET', '/user_details/');
    expect((await me()).statusCode).toBe(200);

    const off = await asAdmin('PATCH', `/users/${user.id}/`, { is_active: false });
    expect(off.statusCode).toBe(200);
    expect(off.json().is_active).toBe(false);
    expect((await me()).statusCode).toBe(401);
    await expect(login(ctx.app, user.username)).rejects.toThrow(/400/);

    const on = await asAdmin('PATCH', `/users/${user.id}/`, { is_active: true });
    expect(on.json().is_active).toBe(true);
    // The old token stays revoked; a new login works.
    expect((await me()).statusCode).toBe(401);
    expect(await login(ctx.app, user.username, TEST_PASSWORD)).toBeTruthy();
    expect((await auditOf(ctx.app, 'user', user.id)).map((r) => r.action)).toEqual([
      'user.deactivate',
      'user.reactivate',
    ]);
  });

  it('writes no audit row when nothing changes', async () => {
    const user = await makeUser(ctx.app);
    const res = await asAdmin('PATCH', `/users/${user.id}/`, { is_admin: false, is_active: true });
    expect(res.statusCode).toBe(200);
    const empty = await asAdmin('PATCH', `/users/${user.id}/`, {});
    expect(empty.statusCode).toBe(200);
    expect(await auditOf(ctx.app, 'user', user.id)).toEqual([]);
  });

  it.each([
    ['un-admin', { is_admin: false }],
    ['deactivate', { is_active: false }],
    ['un-admin and deactivate', { is_admin: false, is_active: false }],
  ])('refuses to let the last active admin %s itself', async (_name, body) => {
    const res = await asAdmin('PATCH', `/users/${admin.id}/`, body);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      code: 'conflict',
      detail: userAdminMessages.lastActiveAdmin,
    });
    expect((await asAdmin('GET', `/users/${admin.id}/`)).json()).toMatchObject({
      is_admin: true,
      is_active: true,
    });
  });

  it('counts only active admins: a deactivated admin does not save the last one', async () => {
    const dormant = await makeUser(ctx.app, { isAdmin: true, isActive: false });
    const res = await asAdmin('PATCH', `/users/${admin.id}/`, { is_admin: false });
    expect(res.statusCode).toBe(409);
    expect(dormant.isAdmin).toBe(true);
  });

  it('lets an admin step down once another admin is active', async () => {
    const second = await makeUser(ctx.app, { isAdmin: true });
    const asSecond = caller(ctx.app, auth(await login(ctx.app, second.username)));
    const res = await asSecond('PATCH', `/users/${second.id}/`, { is_admin: false });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().is_admin).toBe(false);
    // No longer an admin: the admin routes now refuse this caller.
    expect((await asSecond('GET', '/users/')).statusCode).toBe(403);
  });

  it('lets an admin deactivate another admin, which logs that admin out', async () => {
    const other = await makeUser(ctx.app, { isAdmin: true });
    const otherKey = await login(ctx.app, other.username);
    const res = await asAdmin('PATCH', `/users/${other.id}/`, { is_active: false });
    expect(res.statusCode).toBe(200);
    expect((await caller(ctx.app, auth(otherKey))('GET', '/users/')).statusCode).toBe(401);
  });

  it.each([
    ['another field', { email: 'new@example.org' }],
    ['a string flag', { is_admin: 'yes' }],
  ])('refuses %s with 400', async (_name, body) => {
    const user = await makeUser(ctx.app);
    const res = await asAdmin('PATCH', `/users/${user.id}/`, body);
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('validation_error');
  });

  it('answers 404 for a user that does not exist', async () => {
    const res = await asAdmin('PATCH', '/users/999999/', { is_admin: true });
    expect(res.statusCode).toBe(404);
    expect(res.json().detail).not.toBe(messages.internalError);
  });
});
