import type { ActivityEntry, ActivityPage, ProposalHistory } from '@merit/contract';
import { AUDIT_ACTION_LABELS, TEAM_TIMELINE_ACTIONS } from '@merit/domain';
import { and, asc, eq, lt, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RETENTION_CLASSES } from '../src/app.js';
import { auditLog, conflicts, proposals, securityEvents } from '../src/db/schema.js';
import { saveCall } from '../src/modules/calls/calls.service.js';
import { createRetention } from '../src/ops/retention.js';
import { SECURITY_EVENT_LABELS } from '../src/platform/security/security-log.js';
import { caller } from './admin-fixtures.js';
import { callPayload, makeCallForms, type CallForms } from './call-fixtures.js';
import {
  auth,
  createTestApp,
  giveRole,
  login,
  makeCommittee,
  makeUser,
  TEST_PASSWORD,
  type TestContext,
} from './helpers.js';
import { proposalTypeOf } from './proposal-fixtures.js';

/**
 * History and Activity (issue 28): a proposal's history as its team, a chair and an
 * administrator read it; a call's activity for its chairs, filtered and as CSV; the whole
 * system's with the security events for administrators; and the audit log that feeds
 * them: the call, proposal, person acted on, request and address on each row, append-only
 * on the database, yet still pruned by retention and forgetting a deleted account's
 * addresses.
 */
let ctx: TestContext;
let forms: CallForms;
const DAY = 24 * 60 * 60 * 1000;

/** A person of an institution of their own: Merit finds no conflict of interest among them. */
async function person(overrides: Parameters<typeof makeUser>[1] = {}) {
  const user = await makeUser(ctx.app, {
    institution: `${overrides.firstName ?? 'Someone'} Institute`,
    ...overrides,
  });
  return { user, call: caller(ctx.app, auth(await login(ctx.app, user.username))) };
}
type Person = Awaited<ReturnType<typeof person>>;

let hashes = 100;

/**
 * A committee with two chairs (Carla; Cora, with a conflict of interest with "Close to
 * home") and a member (Rita, who reviews), an administrator (Adam), and a call in its
 * review period. Ada wrote "Close to home" and added Colin, who renamed it; Bob wrote "Far
 * away". Carla assigned Rita to both, Rita reviewed both (one Save All of two forms on
 * "Close to home"), and Carla wrote the decision summary of "Close to home".
 */
async function world() {
  const now = ctx.clock.now();
  const committeeId = (await makeCommittee(ctx.app)).id;
  const p = {
    carla: await person({ firstName: 'Carla', lastName: 'Chair' }),
    cora: await person({ firstName: 'Cora', lastName: 'Conflicted' }),
    rita: await person({ firstName: 'Rita', lastName: 'Reviewer' }),
    adam: await person({ firstName: 'Adam', lastName: 'Admin', isAdmin: true }),
    ada: await person({ firstName: 'Ada', lastName: 'Author' }),
    colin: await person({ firstName: 'Colin', lastName: 'Collaborator' }),
    bob: await person({ firstName: 'Bob', lastName: 'Other' }),
  };
  for (const chair of [p.carla, p.cora])
    await giveRole(ctx.app, chair.user.id, committeeId, 'CHAIR', now);
  await giveRole(ctx.app, p.rita.user.id, committeeId, 'MEMBER', now);
  const callId = await ctx.app.writeAs({ id: p.adam.user.id, isAdmin: true }, (work) =>
    saveCall(work, callPayload(committeeId, forms, now)),
  );
  const type = await proposalTypeOf(ctx.app, callId);
  const create = async (who: Person, name: string) => {
    const res = await who.call('POST', '/update_proposal_name/', {
      callId,
      isNew: true,
      name,
      type,
    });
    expect(res.statusCode, res.body).toBe(201);
    return (res.json() as { id: number }).id;
  };
  const close = await create(p.ada, 'Close to home');
  const added = await p.ada.call('POST', '/collaborators/', {
    proposalId: close,
    hash: p.colin.user.hash,
  });
  expect(added.statusCode, added.body).toBe(201);
  const renamed = await p.colin.call('POST', '/update_proposal_name/', {
    callId,
    isNew: false,
    proposalId: close,
    name: 'Close to home, renamed',
  });
  expect(renamed.statusCode, renamed.body).toBe(200);
  const far = await create(p.bob, 'Far away');
  await ctx.app.db
    .update(proposals)
    .set({ stateVal: 1 })
    .where(sql`${proposals.id} in (${close}, ${far})`);
  // Submission has closed; the review period is open.
  ctx.clock.advance(8 * DAY);
  for (const proposalId of [close, far]) {
    const res = await p.carla.call('POST', '/reviewers/', { proposalId, userId: p.rita.user.id });
    expect(res.statusCode, res.body).toBe(201);
  }
  const review = async (proposalId: number, title: string) => {
    const hash = (hashes += 1);
    const first = await p.rita.call('POST', '/review_responses/', {
      call: callId,
      proposal: proposalId,
      formId: forms.review,
      hash,
      data: { title },
    });
    expect(first.statusCode, first.body).toBe(200);
    const { reviewId, version } = first.json() as { reviewId: number; version: number };
    // The same Save All: its row gains the second form (addToAuditBatch, an UPDATE).
    const second = await p.rita.call('POST', '/review_responses/', {
      call: callId,
      proposal: proposalId,
      formId: forms.score,
      hash,
      data: { score: 4 },
      reviewId,
      version,
    });
    expect(second.statusCode, second.body).toBe(200);
    return first.headers['x-request-id'] as string;
  };
  const reviewRequest = await review(close, 'Strong');
  await review(far, 'Sound');
  const decided = await p.carla.call('POST', '/update_decision_summary/', {
    proposalId: close,
    summary: '<p>Funded</p>',
    version: 0,
  });
  expect(decided.statusCode, decided.body).toBe(200);
  await ctx.app.db.insert(conflicts).values({
    proposalId: close,
    userId: p.cora.user.id,
    type: 'personal',
    source: 'chair',
    state: 'confirmed',
    changedAt: ctx.clock.now(),
  });
  return { callId, ids: { close, far }, people: p, reviewRequest, forms };
}
type World = Awaited<ReturnType<typeof world>>;
let w: World;

beforeAll(async () => {
  ctx = await createTestApp();
  forms = await makeCallForms(ctx.app);
  w = await world();
});
afterAll(() => ctx.close());

const history = async (who: Person, proposalId: number, query = '') => {
  const res = await who.call('GET', `/proposals/${proposalId}/history/${query}`);
  return { res, body: res.json() as ProposalHistory };
};
const activity = async (who: Person, path: string) => {
  const res = await who.call('GET', path);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as ActivityPage;
};
const actionsOf = (items: readonly ActivityEntry[]) => items.map((i) => i.action);

describe('a proposal’s history', () => {
  it('shows its applicant the team’s own actions only, never a reviewer’s or a chair’s', async () => {
    const { res, body } = await history(w.people.ada, w.ids.close);
    expect(res.statusCode, res.body).toBe(200);
    expect(body.reader).toBe('team');
    expect(actionsOf(body.items)).toEqual([
      'proposal.rename',
      'proposal.add_collaborator',
      'proposal.create',
    ]);
    expect(body.total).toBe(3);
    expect(body.items[0]).toMatchObject({
      label: AUDIT_ACTION_LABELS['proposal.rename'],
      actor: { id: w.people.colin.user.id, name: 'Colin Collaborator' },
      proposalId: w.ids.close,
      proposalName: 'Close to home, renamed',
      callId: w.callId,
      changes: { name: { before: 'Close to home', after: 'Close to home, renamed' } },
    });
    // The person acted on, by name.
    expect(body.items[1]!.subject).toEqual({
      id: w.people.colin.user.id,
      name: 'Colin Collaborator',
    });
    expect(body.items.every((i) => TEAM_TIMELINE_ACTIONS.includes(i.action as never))).toBe(true);
    expect(res.body).not.toContain('Rita');
    expect(body.items[0]).not.toHaveProperty('requestId');
    // Paged in the query: the total stays the team's.
    const second = await history(w.people.colin, w.ids.close, '?page=2&pageSize=2');
    expect(actionsOf(second.body.items)).toEqual(['proposal.create']);
    expect(second.body.total).toBe(3);
  });

  it('shows a chair every row, a saved review without its values', async () => {
    const { res, body } = await history(w.people.carla, w.ids.close);
    expect(res.statusCode, res.body).toBe(200);
    expect(body.reader).toBe('chair');
    expect(actionsOf(body.items)).toEqual([
      'proposal.update_decision',
      'review.save',
      'proposal.add_reviewer',
      'proposal.rename',
      'proposal.add_collaborator',
      'proposal.create',
    ]);
    const saved = body.items.find((i) => i.action === 'review.save')!;
    expect(saved.actor).toEqual({ id: w.people.rita.user.id, name: 'Rita Reviewer' });
    expect(saved.changes).toEqual({ hash: {}, proposalId: {}, forms: {} });
    expect(body.items.find((i) => i.action === 'proposal.add_reviewer')!.subject).toEqual({
      id: w.people.rita.user.id,
      name: 'Rita Reviewer',
    });
    expect(saved).not.toHaveProperty('address');
  });

  it('shows an administrator every row whole, with its request id and address', async () => {
    const { body } = await history(w.people.adam, w.ids.close);
    expect(body.reader).toBe('admin');
    const saved = body.items.find((i) => i.action === 'review.save')!;
    // One Save All of two forms: one row, which gained the second form.
    expect(body.items.filter((i) => i.action === 'review.save')).toHaveLength(1);
    expect(saved.changes.forms).toEqual({ after: [w.forms.review, w.forms.score] });
    expect(saved.requestId).toBe(w.reviewRequest);
    expect(saved.address).toBe('127.0.0.1');
  });

  it('is refused to a chair with a conflict of interest with it (404, as its decision), and to a member', async () => {
    const { res } = await history(w.people.cora, w.ids.close);
    expect(res.statusCode, res.body).toBe(404);
    expect((await history(w.people.cora, w.ids.far)).res.statusCode).toBe(200);
    expect((await history(w.people.rita, w.ids.close)).res.statusCode).toBe(403);
    expect((await history(w.people.bob, w.ids.close)).res.statusCode).toBe(404);
  });
});

describe('a call’s activity', () => {
  const path = () => `/calls/${w.callId}/activity/`;

  it('lists the call’s rows newest first, with the menus of its people and actions', async () => {
    const page = await activity(w.people.carla, path());
    expect(page.items[0]!.action).toBe('proposal.update_decision');
    expect(actionsOf(page.items)).toContain('call.create');
    const times = page.items.map((i) => i.at);
    expect([...times].sort().reverse()).toEqual(times);
    expect(page.total).toBe(page.items.length);
    expect(page.people.map((p) => p.name)).toEqual(
      expect.arrayContaining(['Ada Author', 'Bob Other', 'Carla Chair', 'Rita Reviewer']),
    );
    expect(page.actions).toContainEqual({
      action: 'review.save',
      label: AUDIT_ACTION_LABELS['review.save'],
    });
    // A review's values are an administrator's only.
    for (const item of page.items.filter((i) => i.action === 'review.save'))
      expect(Object.values(item.changes).every((c) => Object.keys(c).length === 0)).toBe(true);
  });

  it('filters by person, action, proposal and time, and pages', async () => {
    const rita = w.people.rita.user.id;
    const byRita = await activity(w.people.carla, `${path()}?user=${rita}`);
    expect(actionsOf(byRita.items)).toEqual(['review.save', 'review.save']);
    const assigned = await activity(w.people.carla, `${path()}?action=proposal.add_reviewer`);
    expect(assigned.items.map((i) => i.proposalId).sort()).toEqual([w.ids.close, w.ids.far].sort());
    const far = await activity(w.people.carla, `${path()}?proposal=${w.ids.far}`);
    expect(actionsOf(far.items)).toEqual([
      'review.save',
      'proposal.add_reviewer',
      'proposal.create',
    ]);
    // Before the review period (the clock moved 8 days on): the applicants' work alone.
    const before = new Date(ctx.clock.now().getTime() - 4 * DAY).toISOString();
    const early = await activity(
      w.people.carla,
      `${path()}?to=${encodeURIComponent(before)}&action=proposal.create`,
    );
    expect(early.total).toBe(2);
    const late = await activity(w.people.carla, `${path()}?from=${encodeURIComponent(before)}`);
    expect(actionsOf(late.items)).not.toContain('proposal.create');
    const paged = await activity(w.people.carla, `${path()}?user=${rita}&pageSize=1&page=2`);
    expect(paged.items).toHaveLength(1);
    expect(paged.total).toBe(2);
  });

  it('gives every row of the filter as CSV, and keeps the download as a security event', async () => {
    const res = await w.people.carla.call(
      'GET',
      `${path()}?action=review.save&format=csv&pageSize=1`,
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(
      new RegExp(`^attachment; filename="activity-call-${w.callId}-\\d{4}-\\d{2}-\\d{2}\\.csv"$`),
    );
    const lines = res.body.trimEnd().split('\r\n');
    expect(lines[0]).toBe('at,person,action,proposal,details');
    expect(lines).toHaveLength(3);
    expect(lines[1]).toMatch(/^\d{4}-\d\d-\d\dT[^,]+Z,Rita Reviewer,Saved a review,Far away,/);
    // The fields as the database keeps them (jsonb orders keys by length).
    expect(lines[2]).toContain(',"Close to home, renamed",hash; forms; proposalId');
    await ctx.app.securityEvents.flush();
    const [event] = await ctx.app.db
      .select()
      .from(securityEvents)
      .where(
        and(
          eq(securityEvents.event, 'export.downloaded'),
          eq(securityEvents.userId, w.people.carla.user.id),
        ),
      );
    expect(event).toMatchObject({
      details: { kind: 'activity_csv', callId: w.callId, rows: 2 },
      address: '127.0.0.1',
    });
  });

  it('leaves out every row of the proposal a chair has a conflict with', async () => {
    const page = await activity(w.people.cora, path());
    expect(page.items.length).toBeGreaterThan(0);
    expect(page.items.some((i) => i.proposalId === w.ids.close)).toBe(false);
    expect(page.items.some((i) => i.proposalId === w.ids.far)).toBe(true);
    const carla = await activity(w.people.carla, path());
    expect(page.total).toBe(carla.items.filter((i) => i.proposalId !== w.ids.close).length);
    expect(page.people.map((p) => p.name)).not.toContain('Ada Author');
    const filtered = await activity(w.people.cora, `${path()}?proposal=${w.ids.close}`);
    expect(filtered.total).toBe(0);
  });

  it('is refused to a member (403)', async () => {
    const res = await w.people.rita.call('GET', path());
    expect(res.statusCode, res.body).toBe(403);
  });
});

describe('the whole system’s activity', () => {
  it('shows a login beside the audit rows, filtered by person and by action', async () => {
    const rita = w.people.rita.user.id;
    const page = await activity(w.people.adam, `/activity/?user=${rita}`);
    const login = page.items.find((i) => i.action === 'login.succeeded')!;
    expect(login).toMatchObject({
      key: expect.stringMatching(/^security-\d+$/),
      label: SECURITY_EVENT_LABELS['login.succeeded'],
      actor: { id: rita, name: 'Rita Reviewer' },
      changes: { method: { after: 'password' } },
      address: '127.0.0.1',
    });
    expect(login.requestId).toEqual(expect.any(String));
    expect(actionsOf(page.items)).toContain('review.save');
    expect(page.items.find((i) => i.action === 'review.save')!.key).toMatch(/^audit-\d+$/);
    // Newest first across both: the login came before the reviews.
    expect(actionsOf(page.items).at(-1)).toBe('login.succeeded');
    const logins = await activity(w.people.adam, `/activity/?user=${rita}&action=login.succeeded`);
    expect(actionsOf(logins.items)).toEqual(['login.succeeded']);
    const saves = await activity(w.people.adam, `/activity/?user=${rita}&action=review.save`);
    expect(actionsOf(saves.items)).toEqual(['review.save', 'review.save']);
    expect(page.actions).toContainEqual({ action: 'login.succeeded', label: 'Logged in' });
    expect(page.people.map((p) => p.id)).toContain(rita);
    const nothing = await activity(w.people.adam, '/activity/?action=no.such');
    expect(nothing.total).toBe(0);
  });

  it('pages and counts both kinds, and gives the filter as CSV', async () => {
    const all = await activity(w.people.adam, '/activity/?pageSize=100');
    const first = await activity(w.people.adam, '/activity/?pageSize=3');
    const second = await activity(w.people.adam, '/activity/?pageSize=3&page=2');
    expect([...first.items, ...second.items].map((i) => i.key)).toEqual(
      all.items.slice(0, 6).map((i) => i.key),
    );
    expect(first.total).toBe(all.total);
    const csv = await w.people.adam.call(
      'GET',
      `/activity/?user=${w.people.rita.user.id}&action=login.succeeded&format=csv`,
    );
    expect(csv.statusCode).toBe(200);
    expect(csv.body.trimEnd().split('\r\n')).toEqual([
      'at,person,action,proposal,details',
      expect.stringMatching(/,Rita Reviewer,Logged in,,method: password$/),
    ]);
  });

  it('is refused to everyone but administrators (403)', async () => {
    for (const who of [w.people.carla, w.people.ada]) {
      const res = await who.call('GET', '/activity/');
      expect(res.statusCode, res.body).toBe(403);
    }
    const anonymous = await ctx.app.inject({ method: 'GET', url: '/api/v1/activity/' });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('the audit log', () => {
  const oneRow = async () => {
    const [row] = await ctx.app.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.proposalId, w.ids.far))
      .orderBy(asc(auditLog.id))
      .limit(1);
    return row!;
  };

  it('refuses an UPDATE that changes a row, and a DELETE', async () => {
    const row = await oneRow();
    // The database's own refusal, under drizzle's "Failed query".
    const refused = (message: RegExp) => ({
      cause: expect.objectContaining({ message: expect.stringMatching(message) }),
    });
    await expect(
      ctx.app.db.update(auditLog).set({ action: 'proposal.rename' }).where(eq(auditLog.id, row.id)),
    ).rejects.toMatchObject(refused(/only gain, never change/));
    await expect(
      ctx.app.db.update(auditLog).set({ changes: {} }).where(eq(auditLog.id, row.id)),
    ).rejects.toMatchObject(refused(/only gain, never change/));
    await expect(ctx.app.db.delete(auditLog).where(eq(auditLog.id, row.id))).rejects.toMatchObject(
      refused(/never deleted/),
    );
    expect(await oneRow()).toEqual(row);
  });

  it('is still pruned by retention, in its own transaction', async () => {
    const [old] = await ctx.app.db
      .insert(auditLog)
      .values({
        at: new Date(ctx.clock.now().getTime() - 40 * DAY),
        action: 'call.update',
        entityType: 'call',
        entityId: w.callId,
        changes: {},
      })
      .returning({ id: auditLog.id });
    const retention = createRetention({
      db: ctx.app.db,
      now: ctx.clock.now,
      log: ctx.app.log,
      settings: { ...ctx.app.config.retention, auditDays: 30 },
      session: ctx.app.config.session,
      everyMs: 0,
      classes: RETENTION_CLASSES,
    });
    const deleted = await retention.run();
    expect(deleted.audit_log).toBe(1);
    const left = await ctx.app.db
      .select()
      .from(auditLog)
      .where(lt(auditLog.at, new Date(ctx.clock.now().getTime() - 30 * DAY)));
    expect(left).toEqual([]);
    expect(old).toBeDefined();
  });

  it('forgets the addresses of an account deleted, which keeps its rows', async () => {
    const dora = await person({ firstName: 'Dora', lastName: 'Departing' });
    const saved = await dora.call('PUT', '/recent_collaborators/', {
      collaborators: [{ name: 'Ann Other', email: 'ann@example.org' }],
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const mine = () => ctx.app.db.select().from(auditLog).where(eq(auditLog.actorId, dora.user.id));
    expect((await mine()).map((r) => r.address)).toEqual(['127.0.0.1']);
    const gone = await dora.call('POST', '/auth/account/delete/', { password: TEST_PASSWORD });
    expect(gone.statusCode, gone.body).toBe(200);
    await ctx.app.securityEvents.flush();
    const rows = await mine();
    expect(rows.map((r) => r.action).sort()).toEqual([
      'user.delete',
      'user.update_recent_collaborators',
    ]);
    expect(rows.map((r) => r.address)).toEqual([null, null]);
    expect(rows.every((r) => r.requestId !== null && r.subjectUserId === dora.user.id)).toBe(true);
    const events = await ctx.app.db
      .select()
      .from(securityEvents)
      .where(eq(securityEvents.userId, dora.user.id));
    expect(events.map((e) => e.event)).toEqual(['login.succeeded', 'account.deleted']);
    expect(events.map((e) => e.address)).toEqual([null, null]);
  });
});
