import { formMessages } from '@merit/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditOf, caller, makeForm, makeFormName } from './admin-fixtures.js';
import { auth, createTestApp, login, makeUser, type TestContext } from './helpers.js';

let ctx: TestContext;
let admin: Awaited<ReturnType<typeof makeUser>>;
let asAdmin: ReturnType<typeof caller>;

beforeAll(async () => {
  ctx = await createTestApp();
  admin = await makeUser(ctx.app, { isAdmin: true });
  asAdmin = caller(ctx.app, auth(await login(ctx.app, admin.username)));
});
afterAll(() => ctx.close());

describe('POST /form_names/ without id: create', () => {
  it.each([0, 1, 2, 3, 4, 5])('creates a form name of type %i and audits it', async (type) => {
    const body = { name: ` budget_${type} `, display_name: 'Budget', type };
    const res = await asAdmin('POST', '/form_names/', body);
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json();
    expect(created).toEqual({
      id: expect.any(Number),
      name: `budget_${type}`,
      display_name: 'Budget',
      type,
      isUsed: false,
    });
    expect(await auditOf(ctx.app, 'form_name', created.id)).toMatchObject([
      {
        action: 'form_name.create',
        actorId: admin.id,
        changes: {
          name: { after: created.name },
          display_name: { after: created.display_name },
          type: { after: created.type },
        },
      },
    ]);
  });

  it.each([
    [
      'nothing',
      {},
      {
        name: ['This field is required.'],
        display_name: ['This field is required.'],
        type: ['This field is required.'],
      },
    ],
    ['type 6', { name: 'a6', display_name: 'A', type: 6 }, { type: [formMessages.type] }],
    ['type 1.5', { name: 'a15', display_name: 'A', type: 1.5 }, { type: [formMessages.type] }],
    [
      'names over 200 characters',
      { name: 'n'.repeat(201), display_name: 'd'.repeat(201), type: 0 },
      {
        name: ['Ensure this field has no more than 200 characters.'],
        display_name: ['Ensure this field has no more than 200 characters.'],
      },
    ],
  ])('refuses %s', async (_name, body, fields) => {
    const res = await asAdmin('POST', '/form_names/', body);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'validation_error', fields });
  });

  it('refuses a name that exists in any case', async () => {
    await makeFormName(ctx.app, { name: 'Ethics' });
    const res = await asAdmin('POST', '/form_names/', {
      name: 'ETHICS',
      display_name: 'E',
      type: 0,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toEqual({ name: [formMessages.nameTaken] });
  });
});

describe('POST /form_names/ with id: edit', () => {
  it('changes only the display name and audits before and after', async () => {
    const row = await makeFormName(ctx.app, { name: 'team', displayName: 'Team', type: 1 });
    const res = await asAdmin('POST', '/form_names/', {
      id: row.id,
      name: 'team',
      display_name: 'Project team',
      type: 1,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      id: row.id,
      name: 'team',
      display_name: 'Project team',
      type: 1,
      isUsed: false,
    });
    const [audit] = await auditOf(ctx.app, 'form_name', row.id);
    expect(audit).toMatchObject({
      action: 'form_name.update',
      changes: { display_name: { before: 'Team', after: 'Project team' } },
    });
    // Leaving name and type out is an edit of the display name too.
    const short = await asAdmin('POST', '/form_names/', { id: row.id, display_name: 'Crew' });
    expect(short.json()).toMatchObject({ name: 'team', display_name: 'Crew', type: 1 });
  });

  it.each([
    ['the name', { name: 'people' }, { name: [formMessages.nameFixed] }],
    ['the type', { type: 5 }, { type: [formMessages.typeFixed] }],
    [
      'both',
      { name: 'people', type: 0 },
      { name: [formMessages.nameFixed], type: [formMessages.typeFixed] },
    ],
  ])('refuses a change of %s with a clear 400', async (_name, change, fields) => {
    const row = await makeFormName(ctx.app, { type: 1 });
    const res = await asAdmin('POST', '/form_names/', {
      id: row.id,
      name: row.name,
      display_name: 'X',
      type: 1,
      ...change,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toEqual(fields);
    const list = (await asAdmin('GET', '/form_names/')).json() as { id: number }[];
    expect(list.find((f) => f.id === row.id)).toMatchObject({ name: row.name, type: 1 });
  });

  it('answers 404 for an id that does not exist', async () => {
    const res = await asAdmin('POST', '/form_names/', { id: 999999, display_name: 'X' });
    expect(res.statusCode).toBe(404);
  });
});

describe('GET /form_names/ and DELETE /form_names/', () => {
  it('says which names a form uses, and deletes only unused ones', async () => {
    const used = await makeFormName(ctx.app);
    const unused = await makeFormName(ctx.app);
    await makeForm(ctx.app, used.id);
    const list = (await asAdmin('GET', '/form_names/')).json() as { id: number; isUsed: boolean }[];
    expect(list.find((f) => f.id === used.id)?.isUsed).toBe(true);
    expect(list.find((f) => f.id === unused.id)?.isUsed).toBe(false);

    const refused = await asAdmin('DELETE', '/form_names/', { id: used.id });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().detail).toBe(formMessages.formNameInUse);
    expect(refused.json().detail).toMatch(/^In use/);

    const deleted = await asAdmin('DELETE', '/form_names/', { id: unused.id });
    expect(deleted.statusCode).toBe(204);
    expect(await auditOf(ctx.app, 'form_name', unused.id)).toMatchObject([
      {
        action: 'form_name.delete',
        changes: {
          name: { before: unused.name },
          display_name: { before: unused.displayName },
          type: { before: unused.type },
        },
      },
    ]);
    expect((await asAdmin('DELETE', '/form_names/', { id: unused.id })).statusCode).toBe(404);
  });
});
