import {
  MAX_EXPERTISE_ITEMS,
  MAX_EXPERTISE_ITEM_LENGTH,
  expertiseMessages,
  roleMessages,
} from '@merit/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { committeeRoles } from '../src/db/schema.js';
import { auditOf, caller } from './admin-fixtures.js';
import {
  auth,
  createTestApp,
  login,
  makeCommittee,
  makeUser,
  type TestContext,
} from './helpers.js';

let ctx: TestContext;
let admin: Awaited<ReturnType<typeof makeUser>>;
let asAdmin: ReturnType<typeof caller>;
let committeeId: number;

beforeAll(async () => {
  ctx = await createTestApp();
  admin = await makeUser(ctx.app, { isAdmin: true });
  asAdmin = caller(ctx.app, auth(await login(ctx.app, admin.username)));
  committeeId = (await makeCommittee(ctx.app, 'Astronomy')).id;
});
afterAll(() => ctx.close());

// The test clock reads 2026-06-01T00:00:00Z.
const role = (overrides: Record<string, unknown> = {}) => ({
  committeeId,
  role: 'MEMBER',
  commencement: '2026-01-01',
  termination: '2026-12-31',
  ...overrides,
});

describe('POST /roles/{userId}/', () => {
  it('gives a role, current by the clock, and audits it', async () => {
    const user = await makeUser(ctx.app);
    const res = await asAdmin('POST', `/roles/${user.id}/`, role({ role: 'CHAIR' }));
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json();
    expect(created).toEqual({
      id: expect.any(Number),
      userId: user.id,
      committeeId,
      committeeName: 'Astronomy',
      role: 'CHAIR',
      commencement: '2026-01-01T00:00:00.000Z',
      termination: '2026-12-31T23:59:59.999Z',
      current: true,
      facilities: [],
      keywords: [],
    });
    const [row] = await auditOf(ctx.app, 'role', created.id);
    expect(row).toMatchObject({
      action: 'role.create',
      actorId: admin.id,
      changes: {
        userId: { after: user.id },
        committeeId: { after: committeeId },
        role: { after: 'CHAIR' },
        commencement: { after: created.commencement },
        termination: { after: created.termination },
      },
    });

    const list = await asAdmin('GET', `/roles/${user.id}/`);
    expect(list.json()).toEqual([created]);
    // The user page shows the same role, without the user it belongs to or the expertise
    // that only the admin screens need.
    const details = await asAdmin('GET', `/users/${user.id}/`);
    const { userId, facilities, keywords, ...asUserRole } = created;
    expect([userId, facilities, keywords]).toEqual([user.id, [], []]);
    expect(details.json().roles).toEqual([asUserRole]);
  });

  it('saves the member’s expertise trimmed and without duplicates, reads it back and audits it', async () => {
    const user = await makeUser(ctx.app);
    const res = await asAdmin(
      'POST',
      `/roles/${user.id}/`,
      role({
        facilities: [' MX2 ', 'SAXS', 'mx2', ''],
        keywords: ['Protein crystallography', 'PROTEIN CRYSTALLOGRAPHY', ' lipids'],
      }),
    );
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json();
    expect(created).toMatchObject({
      facilities: ['MX2', 'SAXS'],
      keywords: ['Protein crystallography', 'lipids'],
    });
    expect((await asAdmin('GET', `/roles/${user.id}/`)).json()).toEqual([created]);
    const [row] = await ctx.app.db
      .select({ facilities: committeeRoles.facilities, keywords: committeeRoles.keywords })
      .from(committeeRoles)
      .where(eq(committeeRoles.id, created.id));
    expect(row).toEqual({
      facilities: ['MX2', 'SAXS'],
      keywords: ['Protein crystallography', 'lipids'],
    });
    const [audit] = await auditOf(ctx.app, 'role', created.id);
    expect(audit!.changes).toMatchObject({
      facilities: { after: ['MX2', 'SAXS'] },
      keywords: { after: ['Protein crystallography', 'lipids'] },
    });
  });

  it('accepts date-times with a zone and the spec payload that repeats the user', async () => {
    const user = await makeUser(ctx.app);
    const res = await asAdmin(
      'POST',
      `/roles/${user.id}/`,
      role({
        userId: user.id,
        commencement: '2026-07-01T09:00:00+10:00',
        termination: '2026-07-01T09:00:00+10:00',
      }),
    );
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      commencement: '2026-06-30T23:00:00.000Z',
      termination: '2026-06-30T23:00:00.000Z',
      current: false,
    });
  });

  it.each([
    [
      'nothing',
      {},
      {
        committeeId: ['This field is required.'],
        role: ['This field is required.'],
        commencement: ['This field is required.'],
        termination: ['This field is required.'],
      },
    ],
    [
      'termination before commencement',
      role({ commencement: '2026-05-02', termination: '2026-05-01' }),
      { termination: ['Termination date can not be before the commencement date.'] },
    ],
    ['a role that is neither', role({ role: 'OBSERVER' }), { role: [roleMessages.role] }],
    [
      'an unreadable date',
      role({ commencement: '31/12/2026' }),
      { commencement: [roleMessages.date] },
    ],
    [
      'a committee that does not exist',
      role({ committeeId: 999999 }),
      { committeeId: [roleMessages.committeeMissing] },
    ],
    [
      'a date too long',
      role({ termination: 'x'.repeat(201) }),
      { termination: ['Ensure this field has no more than 200 characters.'] },
    ],
    [
      'too many facilities',
      role({
        facilities: Array.from({ length: MAX_EXPERTISE_ITEMS + 1 }, (_, i) => `Beamline ${i}`),
      }),
      { facilities: ['Enter at most 50 facilities.'] },
    ],
    [
      'a keyword too long',
      role({ keywords: ['optics', 'k'.repeat(MAX_EXPERTISE_ITEM_LENGTH + 1)] }),
      {
        keywords: [
          expertiseMessages.tooLong('keywords', 'k'.repeat(MAX_EXPERTISE_ITEM_LENGTH + 1)),
        ],
      },
    ],
    [
      'a bad role and bad expertise, all at once',
      role({ role: 'OBSERVER', keywords: ['k'.repeat(MAX_EXPERTISE_ITEM_LENGTH + 1)] }),
      {
        role: [roleMessages.role],
        keywords: [
          expertiseMessages.tooLong('keywords', 'k'.repeat(MAX_EXPERTISE_ITEM_LENGTH + 1)),
        ],
      },
    ],
  ])('refuses %s with 400 and the field messages', async (_name, body, fields) => {
    const user = await makeUser(ctx.app);
    const res = await asAdmin('POST', `/roles/${user.id}/`, body);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'validation_error', fields });
    expect((await asAdmin('GET', `/roles/${user.id}/`)).json()).toEqual([]);
  });

  it('refuses a committee id that is not a number, and a userId of someone else', async () => {
    const user = await makeUser(ctx.app);
    const text = await asAdmin('POST', `/roles/${user.id}/`, role({ committeeId: 'Astronomy' }));
    expect(text.statusCode).toBe(400);
    expect(text.json().fields.committeeId).toBeDefined();
    const other = await asAdmin('POST', `/roles/${user.id}/`, role({ userId: admin.id }));
    expect(other.statusCode).toBe(400);
    expect(other.json().fields.userId).toBeDefined();
  });

  it('answers 404 for a user that does not exist', async () => {
    expect((await asAdmin('POST', '/roles/999999/', role())).statusCode).toBe(404);
    expect((await asAdmin('GET', '/roles/999999/')).statusCode).toBe(404);
  });
});

describe('PATCH /roles/{userId}/', () => {
  it('replaces the role and audits before and after', async () => {
    const user = await makeUser(ctx.app);
    const created = (await asAdmin('POST', `/roles/${user.id}/`, role())).json();
    const other = await makeCommittee(ctx.app, 'Botany');
    const res = await asAdmin(
      'PATCH',
      `/roles/${user.id}/`,
      role({ id: created.id, committeeId: other.id, role: 'CHAIR', termination: '2026-03-01' }),
    );
    expect(res.statusCode, res.body).toBe(200);
    const updated = res.json();
    expect(updated).toMatchObject({
      id: created.id,
      committeeId: other.id,
      committeeName: 'Botany',
      role: 'CHAIR',
      termination: '2026-03-01T23:59:59.999Z',
      current: false,
    });
    const rows = await auditOf(ctx.app, 'role', created.id);
    expect(rows.map((r) => r.action)).toEqual(['role.create', 'role.update']);
    expect(rows[1]!.changes).toEqual({
      committeeId: { before: created.committeeId, after: other.id },
      role: { before: created.role, after: updated.role },
      termination: { before: created.termination, after: updated.termination },
    });
  });

  it('replaces the expertise, and a role sent without it has none', async () => {
    const user = await makeUser(ctx.app);
    const created = (
      await asAdmin(
        'POST',
        `/roles/${user.id}/`,
        role({ facilities: ['MX2'], keywords: ['optics'] }),
      )
    ).json();
    const changed = await asAdmin(
      'PATCH',
      `/roles/${user.id}/`,
      role({ id: created.id, facilities: ['SAXS', 'MX2'], keywords: ['optics'] }),
    );
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({ facilities: ['SAXS', 'MX2'], keywords: ['optics'] });
    const rows = await auditOf(ctx.app, 'role', created.id);
    // Only what changed: the keywords stayed the same.
    expect(rows[1]!.changes).toEqual({ facilities: { before: ['MX2'], after: ['SAXS', 'MX2'] } });

    // PATCH sends the whole role: leaving the expertise out clears it, like any field.
    const cleared = await asAdmin('PATCH', `/roles/${user.id}/`, role({ id: created.id }));
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect(cleared.json()).toMatchObject({ facilities: [], keywords: [] });
    expect((await asAdmin('GET', `/roles/${user.id}/`)).json()).toEqual([cleared.json()]);
  });

  it('refuses too many keywords and keeps the saved ones', async () => {
    const user = await makeUser(ctx.app);
    const created = (
      await asAdmin('POST', `/roles/${user.id}/`, role({ keywords: ['optics'] }))
    ).json();
    const res = await asAdmin(
      'PATCH',
      `/roles/${user.id}/`,
      role({
        id: created.id,
        keywords: Array.from({ length: MAX_EXPERTISE_ITEMS + 1 }, (_, i) => `topic ${i}`),
      }),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toEqual({ keywords: [expertiseMessages.tooMany('keywords')] });
    expect((await asAdmin('GET', `/roles/${user.id}/`)).json()).toEqual([created]);
  });

  it('keeps the date rule', async () => {
    const user = await makeUser(ctx.app);
    const created = (await asAdmin('POST', `/roles/${user.id}/`, role())).json();
    const res = await asAdmin(
      'PATCH',
      `/roles/${user.id}/`,
      role({ id: created.id, termination: '2025-12-31' }),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toEqual({
      termination: [roleMessages.terminationBeforeCommencement],
    });
  });

  it("answers 404 for a role that is not this user's or does not exist", async () => {
    const owner = await makeUser(ctx.app);
    const stranger = await makeUser(ctx.app);
    const created = (await asAdmin('POST', `/roles/${owner.id}/`, role())).json();
    const wrongUser = await asAdmin('PATCH', `/roles/${stranger.id}/`, role({ id: created.id }));
    expect(wrongUser.statusCode).toBe(404);
    const missing = await asAdmin('PATCH', `/roles/${owner.id}/`, role({ id: 999999 }));
    expect(missing.statusCode).toBe(404);
    const noId = await asAdmin('PATCH', `/roles/${owner.id}/`, role());
    expect(noId.statusCode).toBe(400);
  });
});

describe('DELETE /roles/{id}/', () => {
  it('deletes the role, audits it, and then answers 404', async () => {
    const user = await makeUser(ctx.app);
    const created = (await asAdmin('POST', `/roles/${user.id}/`, role())).json();
    const res = await asAdmin('DELETE', `/roles/${created.id}/`);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect((await asAdmin('GET', `/roles/${user.id}/`)).json()).toEqual([]);
    const rows = await auditOf(ctx.app, 'role', created.id);
    const fields = {
      userId: user.id,
      committeeId: created.committeeId,
      role: created.role,
      commencement: created.commencement,
      termination: created.termination,
      facilities: [],
      keywords: [],
    };
    const each = (side: 'before' | 'after') =>
      Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, { [side]: v }]));
    expect(rows.map((r) => [r.action, r.changes])).toEqual([
      ['role.create', each('after')],
      ['role.delete', each('before')],
    ]);
    expect((await asAdmin('DELETE', `/roles/${created.id}/`)).statusCode).toBe(404);
  });
});

describe('GET /committee_members/?committee=', () => {
  it('lists the current members only, with their role and dates, by name', async () => {
    const committee = await makeCommittee(ctx.app);
    const at = (iso: string) => new Date(iso);
    const person = (firstName: string, lastName: string) =>
      makeUser(ctx.app, { firstName, lastName });
    const zoe = await person('Zoe', 'Zed');
    const amy = await person('Amy', 'Able');
    const past = await person('Pat', 'Past');
    const future = await person('Fay', 'Future');
    const edge = await person('Ed', 'Edge');
    const noName = await makeUser(ctx.app, { firstName: '', lastName: '', isActive: false });
    const give = (userId: number, role: 'CHAIR' | 'MEMBER', from: string, to: string) =>
      ctx.app.db
        .insert(committeeRoles)
        .values({
          userId,
          committeeId: committee.id,
          role,
          commencement: at(from),
          termination: at(to),
        })
        .returning();
    await give(zoe.id, 'MEMBER', '2026-01-01T00:00:00Z', '2026-12-31T00:00:00Z');
    await give(amy.id, 'CHAIR', '2026-01-01T00:00:00Z', '2026-12-31T00:00:00Z');
    await give(past.id, 'MEMBER', '2025-01-01T00:00:00Z', '2026-05-31T23:59:59.999Z');
    await give(future.id, 'MEMBER', '2026-06-01T00:00:00.001Z', '2026-12-31T00:00:00Z');
    // Both ends are inclusive: a role ending at this very moment still counts.
    await give(edge.id, 'MEMBER', '2026-01-01T00:00:00Z', '2026-06-01T00:00:00Z');
    await give(noName.id, 'MEMBER', '2026-06-01T00:00:00Z', '2026-06-02T00:00:00Z');

    const res = await asAdmin('GET', `/committee_members/?committee=${committee.id}`);
    expect(res.statusCode).toBe(200);
    const members = res.json() as { name: string }[];
    expect(members.map((m) => m.name)).toEqual(['Amy Able', 'Ed Edge', noName.username, 'Zoe Zed']);
    expect(members[0]).toEqual({
      roleId: expect.any(Number),
      userId: amy.id,
      name: 'Amy Able',
      email: amy.email,
      is_active: true,
      role: 'CHAIR',
      commencement: '2026-01-01T00:00:00.000Z',
      termination: '2026-12-31T00:00:00.000Z',
    });
    expect(members[2]).toMatchObject({ is_active: false });

    const page = await asAdmin('GET', `/committees/${committee.id}/`);
    expect(page.json()).toEqual({
      id: committee.id,
      name: committee.name,
      canDelete: false,
      members,
    });
  });

  it('answers 404 for a committee that does not exist and 400 without one', async () => {
    expect((await asAdmin('GET', '/committee_members/?committee=999999')).statusCode).toBe(404);
    expect((await asAdmin('GET', '/committee_members/')).statusCode).toBe(400);
    expect((await asAdmin('GET', '/committee_members/?committee=abc')).statusCode).toBe(400);
  });
});
