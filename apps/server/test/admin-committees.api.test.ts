import { committeeMessages } from '@merit/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditOf, caller } from './admin-fixtures.js';
import {
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
  admin = await makeUser(ctx.app, { isAdmin: true });
  asAdmin = caller(ctx.app, auth(await login(ctx.app, admin.username)));
});
afterAll(() => ctx.close());

describe('POST /committees/', () => {
  it('creates a committee, trimmed, deletable, and audits it', async () => {
    const res = await asAdmin('POST', '/committees/', { name: '  Marine Science ' });
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json();
    expect(created).toEqual({ id: expect.any(Number), name: 'Marine Science', canDelete: true });
    const rows = await auditOf(ctx.app, 'committee', created.id);
    expect(rows).toMatchObject([
      {
        action: 'committee.create',
        actorId: admin.id,
        changes: { name: { after: 'Marine Science' } },
      },
    ]);
  });

  describe('with Geology taken', () => {
    beforeAll(() => makeCommittee(ctx.app, 'Geology'));
    it.each([
      ['the same name', 'Geology'],
      ['another case', 'GEOLOGY'],
      ['spaces around', ' geology  '],
    ])('refuses %s as a duplicate', async (_name, name) => {
      const res = await asAdmin('POST', '/committees/', { name });
      expect(res.statusCode).toBe(400);
      expect(res.json().fields).toEqual({ name: [committeeMessages.nameTaken] });
    });
  });

  it.each([
    ['no name', {}, 'This field is required.'],
    ['a blank name', { name: '   ' }, 'This field is required.'],
    [
      'a name over 100 characters',
      { name: 'x'.repeat(101) },
      'Ensure this field has no more than 100 characters.',
    ],
  ])('refuses %s', async (_name, body, message) => {
    const res = await asAdmin('POST', '/committees/', body);
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toEqual({ name: [message] });
  });

  it('accepts exactly 100 characters', async () => {
    const res = await asAdmin('POST', '/committees/', { name: 'y'.repeat(100) });
    expect(res.statusCode).toBe(201);
  });
});

describe('GET /committees/', () => {
  it('lists committees by name, deletable only without roles', async () => {
    const used = await makeCommittee(ctx.app, 'aaa Used');
    const free = await makeCommittee(ctx.app, 'AAB Free');
    await giveRole(ctx.app, admin.id, used.id, 'MEMBER', ctx.clock.now());
    const res = await asAdmin('GET', '/committees/');
    expect(res.statusCode).toBe(200);
    const list = res.json() as { id: number; name: string; canDelete: boolean }[];
    expect(list.slice(0, 2)).toEqual([
      { id: used.id, name: 'aaa Used', canDelete: false },
      { id: free.id, name: 'AAB Free', canDelete: true },
    ]);
    const names = list.map((c) => c.name.toLowerCase());
    expect(names).toEqual([...names].sort());
  });

  it('counts a role that has ended as a reference too', async () => {
    const committee = await makeCommittee(ctx.app);
    const user = await makeUser(ctx.app);
    const longAgo = new Date('2020-01-01T00:00:00Z');
    await giveRole(ctx.app, user.id, committee.id, 'MEMBER', longAgo);
    const res = await asAdmin('GET', `/committees/${committee.id}/`);
    expect(res.json()).toEqual({
      id: committee.id,
      name: committee.name,
      canDelete: false,
      members: [],
    });
  });
});

describe('DELETE /committees/', () => {
  it('deletes an unused committee and audits it', async () => {
    const committee = await makeCommittee(ctx.app);
    const res = await asAdmin('DELETE', '/committees/', { id: committee.id });
    expect(res.statusCode).toBe(204);
    expect((await asAdmin('GET', `/committees/${committee.id}/`)).statusCode).toBe(404);
    const rows = await auditOf(ctx.app, 'committee', committee.id);
    expect(rows).toMatchObject([
      {
        action: 'committee.delete',
        changes: { name: { before: committee.name } },
      },
    ]);
  });

  it('refuses a committee with roles: 409, In use', async () => {
    const committee = await makeCommittee(ctx.app);
    await giveRole(ctx.app, admin.id, committee.id, 'CHAIR', ctx.clock.now());
    const res = await asAdmin('DELETE', '/committees/', { id: committee.id });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'conflict', detail: committeeMessages.inUse });
    expect(res.json().detail).toMatch(/^In use/);
    expect((await asAdmin('GET', `/committees/${committee.id}/`)).statusCode).toBe(200);
    expect(await auditOf(ctx.app, 'committee', committee.id)).toEqual([]);
  });

  it('answers 404 for a committee that does not exist and 400 without an id', async () => {
    expect((await asAdmin('DELETE', '/committees/', { id: 999999 })).statusCode).toBe(404);
    const noId = await asAdmin('DELETE', '/committees/', {});
    expect(noId.statusCode).toBe(400);
    expect(noId.json().fields).toEqual({ id: ['This field is required.'] });
  });
});

describe('GET /committees/{id}/', () => {
  it('answers 404 for a committee that does not exist', async () => {
    const res = await asAdmin('GET', '/committees/999999/');
    expect(res.statusCode).toBe(404);
    expect(res.json().detail).toBe('There is no committee with this id.');
  });
});
