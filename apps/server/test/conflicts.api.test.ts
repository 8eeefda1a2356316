import { randomBytes } from 'node:crypto';
import type {
  CallDetail,
  CallConflictsPage,
  CallSave,
  ConflictDeclarationGate,
  ConflictItem,
  ProposalConflicts,
  ProposalDetail,
} from '@merit/contract';
import { conflictMessages, type ConflictType } from '@merit/domain';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, conflicts, proposalFiles, proposalReviewers } from '../src/db/schema.js';
import { saveCall } from '../src/modules/calls/calls.service.js';
import { auditOf, makeForm, makeFormName } from './admin-fixtures.js';
import { assignReviewers, callPayload } from './call-fixtures.js';
import {
  auth,
  createTestApp,
  giveRole,
  login,
  makeCommittee,
  makeUser,
  type TestContext,
} from './helpers.js';
import { outbox } from './mail.js';
import { proposalTypeOf } from './proposal-fixtures.js';

/**
 * Conflicts of interest (issue 26) on a real database: what Merit detects after a change
 * (a job after the commit, drained here), the applicants' declarations, the chairs'
 * judgements, the call's Conflicts page, and the member's declaration gate.
 */
let ctx: TestContext;
let forms: { proposal: number; review: number; score: number };

beforeAll(async () => {
  ctx = await createTestApp();
  const form = async (type: number, jsonSchema: object, options?: object) =>
    (
      await makeForm(ctx.app, (await makeFormName(ctx.app, { type })).id, {
        jsonSchema: jsonSchema as Record<string, unknown>,
        ...(options ? { options: options as Record<string, unknown> } : {}),
      })
    ).id;
  forms = {
    proposal: await form(0, { type: 'object', properties: { title: { type: 'string' } } }),
    review: await form(2, { type: 'object', properties: { text: { type: 'string' } } }),
    score: await form(
      3,
      { type: 'object', properties: { merit: { type: 'integer', minimum: 1, maximum: 5 } } },
      { method: 'average', fields: ['merit'] },
    ),
  };
});
afterAll(() => ctx.close());

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

async function person(overrides: Parameters<typeof makeUser>[1] = {}) {
  const user = await makeUser(ctx.app, overrides);
  const headers = auth(await login(ctx.app, user.username));
  const call = (method: Method, path: string, payload?: unknown) =>
    ctx.app.inject({
      method,
      url: `/api/v1${path}`,
      headers,
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    });
  return { user, headers, call };
}
type Person = Awaited<ReturnType<typeof person>>;

/** An address unique to this test run at `domain`. */
const at = (name: string, domain: string) => `${name}-${randomBytes(4).toString('hex')}@${domain}`;

/**
 * A committee with two chairs (Carla, at `carlaAt`; Cody) and three members: Rita at `cs.uu.se`, Ben
 * and Mia at gmail.com. A call of it, and a proposal by Ada (`uu.se`, Uppsala University)
 * with Mia and Col (gmail.com) as collaborators, submitted; detection has run.
 */
async function world(overrides: Partial<CallSave> = {}, carlaAt = 'Lund') {
  const now = ctx.clock.now();
  const committeeId = (await makeCommittee(ctx.app)).id;
  const carla = await person({
    firstName: 'Carla',
    lastName: 'Chair',
    institution: carlaAt,
  });
  const cody = await person({ firstName: 'Cody', lastName: 'Cochair', institution: 'Oslo' });
  const rita = await person({
    firstName: 'Rita',
    lastName: 'Reviewer',
    email: at('rita', 'cs.uu.se'),
    institution: 'Department of Computing',
  });
  const ben = await person({
    firstName: 'Ben',
    lastName: 'Gmail',
    email: at('ben', 'gmail.com'),
    institution: 'Bergen',
  });
  const mia = await person({
    firstName: 'Mia',
    lastName: 'Member',
    email: at('mia', 'gmail.com'),
    institution: 'Malmo',
  });
  await giveRole(ctx.app, carla.user.id, committeeId, 'CHAIR', now);
  await giveRole(ctx.app, cody.user.id, committeeId, 'CHAIR', now);
  for (const m of [rita, ben, mia]) await giveRole(ctx.app, m.user.id, committeeId, 'MEMBER', now);
  const ada = await person({
    firstName: 'Ada',
    lastName: 'Author',
    email: at('ada', 'uu.se'),
    institution: 'Uppsala University',
  });
  const col = await person({
    firstName: 'Col',
    lastName: 'Laborator',
    email: at('col', 'gmail.com'),
    institution: 'Gothenburg',
  });
  const outsider = await person({ institution: 'Nowhere' });
  const admin = { id: (await makeUser(ctx.app, { isAdmin: true })).id, isAdmin: true };
  const callId = await ctx.app.writeAs(admin, (work) =>
    saveCall(
      work,
      callPayload(committeeId, { ...forms, proposalMulti: forms.proposal }, now, {
        proposalTypes: [
          {
            typeName: 'Standard',
            typeId: null,
            proposalForms: [forms.proposal],
            reviewForms: [forms.review, forms.score],
          },
        ],
        ...overrides,
      }),
    ),
  );
  const typeId = await proposalTypeOf(ctx.app, callId);
  const created = await ada.call('POST', '/update_proposal_name/', {
    callId,
    isNew: true,
    name: 'Dark matter survey',
    type: typeId,
  });
  expect(created.statusCode, created.body).toBe(201);
  const proposalId = (created.json() as ProposalDetail).id;
  for (const who of [mia, col]) {
    const hash = (await who.call('GET', '/user_hash/')).json() as { hash: string };
    const added = await ada.call('POST', '/collaborators/', { proposalId, hash: hash.hash });
    expect(added.statusCode, added.body).toBe(201);
  }
  const submitted = await ada.call('POST', '/proposal_state/', { proposalId, state: 1 });
  expect(submitted.statusCode, submitted.body).toBe(200);
  await ctx.app.jobs.drain();
  return { committeeId, callId, proposalId, carla, cody, rita, ben, mia, ada, col, outsider };
}
type World = Awaited<ReturnType<typeof world>>;

async function callPage(w: World, who: Person = w.carla, query = '') {
  const res = await who.call('GET', `/calls/${w.callId}/conflicts/${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as CallConflictsPage;
}

/** The proposal's conflict of `who`, as the chairs' page lists it. */
async function conflictOf(w: World, who: Person, viewer: Person = w.carla) {
  return (await callPage(w, viewer)).items.find((c) => c.userId === who.user.id);
}

async function panel(w: World, who: Person) {
  const res = await who.call('GET', `/proposals/${w.proposalId}/conflicts/`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as ProposalConflicts;
}

async function gate(w: World, who: Person) {
  const res = await who.call('GET', `/proposals/${w.proposalId}/conflict_declaration/`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as ConflictDeclarationGate;
}

const auditActions = async (entityType: string, entityId: number) =>
  (await auditOf(ctx.app, entityType, entityId)).map((a) => a.action);

describe('detection', () => {
  it('records a collaborator who is a member as a confirmed author conflict, with no chair action', async () => {
    const w = await world();
    const mia = await conflictOf(w, w.mia);
    expect(mia).toMatchObject({
      type: 'author',
      source: 'detected',
      state: 'confirmed',
      changedBy: null,
      evidence: [{ kind: 'team', role: 'collaborator' }],
    });
    const [row] = await auditOf(ctx.app, 'conflict', mia!.id);
    expect(row).toMatchObject({ action: 'conflict.create', actorId: null });
    expect(await auditActions('call', w.callId)).toContain('call.detect_conflicts');
  });

  it('suggests a cs.uu.se member against a uu.se applicant, and nothing for gmail.com', async () => {
    const w = await world();
    const rita = await conflictOf(w, w.rita);
    expect(rita).toMatchObject({ type: 'institutional', source: 'detected', state: 'suggested' });
    expect(rita!.evidence).toEqual([
      {
        kind: 'domain',
        person: 'cs.uu.se',
        applicant: 'uu.se',
        applicantName: 'Ada Author',
      },
    ]);
    // Ben and Col both write from gmail.com: free mail says nothing of a workplace.
    expect(await conflictOf(w, w.ben)).toBeUndefined();
    const page = await callPage(w);
    expect(page.counts).toEqual({ suggested: 1, confirmed: 1, dismissed: 0 });
    expect(page.undeclared).toBe(1);
    expect(page.members.map((m) => m.name)).toEqual([
      'Ben Gmail',
      'Carla Chair',
      'Cody Cochair',
      'Mia Member',
      'Rita Reviewer',
    ]);
  });

  it('keeps a dismissed suggestion dismissed when detection runs again with new evidence', async () => {
    const w = await world();
    const suggestion = (await conflictOf(w, w.rita))!;
    const dismissed = await w.carla.call('POST', `/conflicts/${suggestion.id}/`, {
      state: 'dismissed',
    });
    expect(dismissed.statusCode, dismissed.body).toBe(200);
    expect(dismissed.json()).toMatchObject({ state: 'dismissed', changedBy: 'Carla Chair' });

    // Rita lists Ada as a recent collaborator: detection runs again for her calls.
    const saved = await w.rita.call('PUT', '/recent_collaborators/', {
      collaborators: [{ name: 'Ada Author', email: w.ada.user.email }],
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await w.rita.call('GET', '/recent_collaborators/')).json()).toEqual({
      collaborators: [{ name: 'Ada Author', email: w.ada.user.email }],
    });
    expect(await auditActions('user', w.rita.user.id)).toContain(
      'user.update_recent_collaborators',
    );
    await ctx.app.jobs.drain();

    const after = (await conflictOf(w, w.rita))!;
    expect(after.id).toBe(suggestion.id);
    // The new evidence is there (the stronger kind first), the chair's judgement stays.
    expect(after).toMatchObject({
      state: 'dismissed',
      type: 'collaborator',
      changedBy: 'Carla Chair',
    });
    expect(after.evidence.map((e) => e.kind)).toEqual(['collaboratorList', 'domain']);
    expect(await auditActions('conflict', suggestion.id)).toEqual([
      'conflict.create',
      'conflict.update',
      'conflict.update',
    ]);
  });

  it('looks again when a member changes institution and when the committee gains a member', async () => {
    const w = await world();
    const moved = await w.ben.call('PATCH', '/user_details/', {
      institution: 'Uppsala University',
    });
    expect(moved.statusCode, moved.body).toBe(200);
    await ctx.app.jobs.drain();
    expect((await conflictOf(w, w.ben))!.evidence).toEqual([
      {
        kind: 'institution',
        person: 'Uppsala University',
        applicant: 'Uppsala University',
        applicantName: 'Ada Author',
      },
    ]);

    const newcomer = await person({ email: at('nora', 'math.uu.se'), institution: 'Math' });
    const admin = await person({ isAdmin: true });
    const given = await admin.call('POST', `/roles/${newcomer.user.id}/`, {
      committeeId: w.committeeId,
      role: 'MEMBER',
      commencement: '2026-01-01',
      termination: '2026-12-31',
    });
    expect(given.statusCode, given.body).toBe(201);
    await ctx.app.jobs.drain();
    expect(await conflictOf(w, newcomer)).toMatchObject({
      type: 'institutional',
      state: 'suggested',
    });

    // A role that begins next month: recorded now, since nothing runs the day it begins.
    const later = await person({ email: at('lou', 'uu.se'), institution: 'Later' });
    const from = new Date(ctx.clock.now().getTime() + 30 * 24 * 60 * 60 * 1000);
    const future = await admin.call('POST', `/roles/${later.user.id}/`, {
      committeeId: w.committeeId,
      role: 'MEMBER',
      commencement: from.toISOString().slice(0, 10),
      termination: '2027-12-31',
    });
    expect(future.statusCode, future.body).toBe(201);
    await ctx.app.jobs.drain();
    expect(await conflictOf(w, later)).toMatchObject({ type: 'institutional', state: 'suggested' });
  });

  it('finds nothing while a call has conflicts off, and looks as soon as a chair turns them on', async () => {
    const off = { conflicts: { enabled: false, declarationRequired: false } };
    const w = await world(off);
    const asChair = async () => w.carla.call('GET', `/calls/${w.callId}/conflicts/`);
    expect(((await asChair()).json() as CallConflictsPage).items).toEqual([]);
    const call = (await w.carla.call('GET', `/calls/${w.callId}/`)).json() as CallDetail;
    const edit = (conflicts: CallSave['conflicts']) =>
      w.carla.call('POST', '/new_call/', {
        new: false,
        id: w.callId,
        version: call.version,
        committee: w.committeeId,
        name: call.name,
        openDateTime: call.commencement,
        closeDateTime: call.termination,
        reviewOpenDateTime: call.reviewCommencement,
        reviewCloseDateTime: call.reviewTermination,
        isReviewOpen: call.isReviewOpen,
        description: call.description,
        conflicts,
        proposalTypes: call.proposalTypes.map((t) => ({
          typeId: t.typeId,
          typeName: t.typeName,
          proposalForms: t.proposalForms,
          reviewForms: t.reviewForms,
        })),
      });
    const turned = await edit({ enabled: true, declarationRequired: false });
    expect(turned.statusCode, turned.body).toBeLessThan(300);
    await ctx.app.jobs.drain();
    const page = (await asChair()).json() as CallConflictsPage;
    expect(page.items.map((c) => [c.userName, c.state]).sort()).toEqual([
      ['Mia Member', 'confirmed'],
      ['Rita Reviewer', 'suggested'],
    ]);
  });

  it('takes an author conflict away when the collaborator leaves the proposal', async () => {
    const w = await world();
    const mia = (await conflictOf(w, w.mia))!;
    const removed = await w.ada.call('DELETE', '/collaborators/', {
      proposalId: w.proposalId,
      userId: w.mia.user.id,
    });
    expect(removed.statusCode, removed.body).toBe(204);
    await ctx.app.jobs.drain();
    expect(await conflictOf(w, w.mia)).toBeUndefined();
    expect(await auditActions('conflict', mia.id)).toEqual(['conflict.create', 'conflict.delete']);
  });
});

describe("the applicants' declarations", () => {
  it('saves the Conflicts panel whole from its version, and refuses a stale save', async () => {
    const w = await world();
    const opened = await panel(w, w.ada);
    expect(opened).toMatchObject({ enabled: true, version: 0, conflicts: [] });
    expect(opened.abilities).toEqual({ declare: true, manage: false });
    // The committee but the proposal's own people (Mia), with name and institution only.
    expect(opened.candidates.map((c) => c.name)).toEqual([
      'Ben Gmail',
      'Carla Chair',
      'Cody Cochair',
      'Rita Reviewer',
    ]);
    expect(Object.keys(opened.candidates[0]!).sort()).toEqual(['institution', 'name', 'userId']);

    const save = (version: number, declarations: unknown[]) =>
      w.ada.call('PUT', `/proposals/${w.proposalId}/conflicts/`, { version, declarations });
    const res = await save(0, [{ userId: w.ben.user.id, type: 'personal', reason: 'My brother' }]);
    expect(res.statusCode, res.body).toBe(200);
    const saved = res.json() as ProposalConflicts;
    expect(saved.version).toBe(1);
    expect(saved.conflicts).toEqual([
      expect.objectContaining({
        userId: w.ben.user.id,
        type: 'personal',
        source: 'applicant',
        state: 'confirmed',
        reason: 'My brother',
        changedBy: 'Ada Author',
        abilities: { confirm: false, dismiss: false, pin: false, remove: true },
      }),
    ]);
    const [row] = await auditOf(ctx.app, 'conflict', saved.conflicts[0]!.id);
    expect(row).toMatchObject({ action: 'conflict.create', actorId: w.ada.user.id });

    // Another tab still at version 0: nothing is saved, and it gets the panel as saved.
    const staleSave = await save(0, []);
    expect(staleSave.statusCode).toBe(409);
    expect(staleSave.json()).toMatchObject({
      code: 'stale',
      detail: conflictMessages.stale,
      current: { version: 1, conflicts: [expect.objectContaining({ userId: w.ben.user.id })] },
    });
    expect((await panel(w, w.ada)).conflicts).toHaveLength(1);

    // Saved again without Ben: his declaration goes, audited.
    const cleared = await save(1, []);
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect(cleared.json()).toMatchObject({ version: 2, conflicts: [] });
    expect(await auditActions('conflict', saved.conflicts[0]!.id)).toEqual([
      'conflict.create',
      'conflict.delete',
    ]);
  });

  it('declares one member by POST, makes a suggestion theirs, and shows the team only their own', async () => {
    const w = await world();
    const declared = await w.col.call('POST', `/proposals/${w.proposalId}/conflicts/`, {
      userId: w.ben.user.id,
      type: 'financial',
    });
    expect(declared.statusCode, declared.body).toBe(201);
    expect(declared.json()).toMatchObject({ source: 'applicant', state: 'confirmed' });

    const suggestion = (await conflictOf(w, w.rita))!;
    const taken = await w.ada.call('POST', `/proposals/${w.proposalId}/conflicts/`, {
      userId: w.rita.user.id,
      type: 'institutional',
      reason: 'Same department',
    });
    expect(taken.statusCode, taken.body).toBe(200);
    // Theirs now, and what Merit matched is not shown to applicants.
    expect(taken.json()).toMatchObject({
      id: suggestion.id,
      source: 'applicant',
      state: 'confirmed',
      evidence: [],
    });

    const seen = await panel(w, w.ada);
    expect(seen.version).toBe(2);
    expect(seen.conflicts.map((c) => c.userId).sort()).toEqual(
      [w.ben.user.id, w.rita.user.id].sort(),
    );
    // Not Mia's authorship, which Merit recorded: the team sees what they declared.
    expect(seen.conflicts.some((c) => c.userId === w.mia.user.id)).toBe(false);

    const notMember = await w.ada.call('POST', `/proposals/${w.proposalId}/conflicts/`, {
      userId: w.outsider.user.id,
      type: 'personal',
    });
    expect(notMember.statusCode).toBe(400);
    expect(notMember.json().fields.userId).toEqual([conflictMessages.notMember]);
    const author = await w.ada.call('POST', `/proposals/${w.proposalId}/conflicts/`, {
      userId: w.ben.user.id,
      type: 'author',
    });
    expect(author.statusCode).toBe(400);
  });

  it('lets the applicant remove an unpinned declaration, never one a chair pinned', async () => {
    const w = await world();
    const declare = async (who: Person) =>
      (
        await w.ada.call('POST', `/proposals/${w.proposalId}/conflicts/`, {
          userId: who.user.id,
          type: 'personal',
        })
      ).json() as ConflictItem;
    const ben = await declare(w.ben);
    const cody = await declare(w.cody);
    const pinned = await w.carla.call('POST', `/conflicts/${ben.id}/`, { pinned: true });
    expect(pinned.statusCode, pinned.body).toBe(200);
    expect(pinned.json()).toMatchObject({ pinned: true, state: 'confirmed', source: 'applicant' });

    const refused = await w.ada.call('DELETE', `/conflicts/${ben.id}/`);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().detail).toBe(conflictMessages.pinned);
    const { version } = await panel(w, w.ada);
    const wholeSave = await w.ada.call('PUT', `/proposals/${w.proposalId}/conflicts/`, {
      version,
      declarations: [],
    });
    expect(wholeSave.statusCode).toBe(403);
    expect((await panel(w, w.ada)).conflicts).toHaveLength(2);

    expect((await w.ada.call('DELETE', `/conflicts/${cody.id}/`)).statusCode).toBe(204);
    // A row the team did not declare is not theirs to know of.
    const mia = (await conflictOf(w, w.mia))!;
    expect((await w.ada.call('DELETE', `/conflicts/${mia.id}/`)).statusCode).toBe(404);
    expect(await auditActions('conflict', ben.id)).toEqual(['conflict.create', 'conflict.update']);
    expect(await auditActions('conflict', cody.id)).toEqual(['conflict.create', 'conflict.delete']);
  });
});

describe("the chairs' judgements", () => {
  it('confirms and dismisses one, and many at once with the refusals listed', async () => {
    const w = await world();
    const rita = (await conflictOf(w, w.rita))!;
    const mia = (await conflictOf(w, w.mia))!;
    expect(rita.abilities).toEqual({ confirm: true, dismiss: true, pin: true, remove: true });
    // Authorship is a fact: it cannot be dismissed or removed.
    expect(mia.abilities).toEqual({ confirm: false, dismiss: false, pin: true, remove: false });

    const confirmed = await w.cody.call('POST', `/conflicts/${rita.id}/`, { state: 'confirmed' });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json()).toMatchObject({ state: 'confirmed', changedBy: 'Cody Cochair' });

    const bulk = await w.carla.call('POST', '/conflicts/bulk/', {
      ids: [rita.id, mia.id, 2_000_000_000],
      state: 'dismissed',
    });
    expect(bulk.statusCode, bulk.body).toBe(200);
    expect(bulk.json()).toEqual({
      changed: [rita.id],
      refused: [
        { id: mia.id, detail: conflictMessages.authorConflict },
        { id: 2_000_000_000, detail: conflictMessages.notFound },
      ],
    });
    expect((await conflictOf(w, w.rita))!.state).toBe('dismissed');
    expect((await conflictOf(w, w.mia))!.state).toBe('confirmed');
    const rows = await auditOf(ctx.app, 'conflict', rita.id);
    expect(rows.map((r) => [r.action, r.actorId])).toEqual([
      ['conflict.create', null],
      ['conflict.update', w.cody.user.id],
      ['conflict.update', w.carla.user.id],
    ]);
    expect(rows[2]!.changes).toMatchObject({
      state: { before: 'confirmed', after: 'dismissed' },
    });

    // Members do not see the call's conflicts at all.
    expect((await w.rita.call('GET', `/calls/${w.callId}/conflicts/`)).statusCode).toBe(403);
    expect(
      (await w.ben.call('POST', '/conflicts/bulk/', { ids: [rita.id], state: 'confirmed' })).json(),
    ).toEqual({
      changed: [],
      refused: [{ id: rita.id, detail: conflictMessages.chairsOnly }],
    });
  });

  it('adds a conflict, pinned, only for a current member of the committee', async () => {
    const w = await world();
    const add = (body: object) =>
      w.carla.call('POST', `/proposals/${w.proposalId}/conflicts/`, body);
    const outsider = await add({ userId: w.outsider.user.id, type: 'personal' });
    expect(outsider.statusCode).toBe(400);
    expect(outsider.json().fields.userId).toEqual([conflictMessages.notMember]);
    const own = await add({ userId: w.carla.user.id, type: 'personal' });
    expect(own.statusCode).toBe(403);
    expect(own.json().detail).toBe(conflictMessages.ownConflict);

    const added = await add({
      userId: w.ben.user.id,
      type: 'financial',
      reason: 'Shares',
      pinned: true,
    });
    expect(added.statusCode, added.body).toBe(201);
    expect(added.json()).toMatchObject({
      source: 'chair',
      state: 'confirmed',
      pinned: true,
      reason: 'Shares',
      changedBy: 'Carla Chair',
    });
    const all = await panel(w, w.carla);
    expect(all.abilities).toEqual({ declare: false, manage: true });
    expect(all.conflicts.map((c) => c.userName).sort()).toEqual([
      'Ben Gmail',
      'Mia Member',
      'Rita Reviewer',
    ]);
    expect(await auditActions('conflict', (added.json() as ConflictItem).id)).toEqual([
      'conflict.create',
    ]);
  });

  it("never lets a chair judge their own conflict, and hides a proposal's rows once they are conflicted", async () => {
    // Carla works at "The Uppsala University", as Ada does: Merit suggests her against Ada.
    const w = await world({}, 'The Uppsala University');
    const own = (await conflictOf(w, w.carla))!;
    expect(own).toMatchObject({ type: 'institutional', state: 'suggested' });
    expect(own.abilities).toEqual({ confirm: false, dismiss: false, pin: false, remove: false });
    const refused = await w.carla.call('POST', `/conflicts/${own.id}/`, { state: 'dismissed' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().detail).toBe(conflictMessages.ownConflict);
    const bulk = await w.carla.call('POST', '/conflicts/bulk/', {
      ids: [own.id],
      state: 'dismissed',
    });
    expect(bulk.json()).toEqual({
      changed: [],
      refused: [{ id: own.id, detail: conflictMessages.ownConflict }],
    });

    // Cody confirms it: the proposal's conflicts leave Carla's view.
    const confirmed = await w.cody.call('POST', `/conflicts/${own.id}/`, { state: 'confirmed' });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const page = await callPage(w, w.carla);
    expect(page.items.filter((c) => c.proposalId === w.proposalId)).toEqual([]);
    expect(page.counts).toEqual({ suggested: 0, confirmed: 0, dismissed: 0 });
    expect((await w.carla.call('GET', `/proposals/${w.proposalId}/conflicts/`)).statusCode).toBe(
      404,
    );
    const rita = (await conflictOf(w, w.rita, w.cody))!;
    expect(
      (await w.carla.call('POST', `/conflicts/${rita.id}/`, { state: 'dismissed' })).statusCode,
    ).toBe(404);
    // Cody still sees all three.
    expect((await callPage(w, w.cody)).items).toHaveLength(3);
  });
});

describe("the member's declaration", () => {
  it('keeps the proposal, its answers, files and extract closed until the member answers', async () => {
    const w = await world({ conflicts: { enabled: true, declarationRequired: true } });
    const key = `conflict-test-${randomBytes(8).toString('hex')}`;
    await ctx.app.files.write(key, Buffer.from('%PDF-1.4 test'));
    const [file] = await ctx.app.db
      .insert(proposalFiles)
      .values({
        proposalId: w.proposalId,
        storageKey: key,
        name: 'cv.pdf',
        size: 13,
        contentType: 'application/pdf',
        uploadedBy: w.ada.user.id,
        uploadedAt: ctx.clock.now(),
      })
      .returning();
    const closed = [
      () => w.ben.call('GET', `/proposals/${w.proposalId}/`),
      () => w.ben.call('GET', `/proposal_files/${w.proposalId}/`),
      () => w.ben.call('POST', '/download_tickets/', { fileId: file!.id }),
      () => w.ben.call('GET', `/files/${file!.id}/`),
      () => w.ben.call('GET', `/download_proposal_extract/${w.proposalId}/`),
    ];
    for (const request of closed) {
      const res = await request();
      expect(res.statusCode, res.body).toBe(403);
      expect(res.json()).toMatchObject({
        code: 'declaration_required',
        detail: conflictMessages.declarationRequired,
      });
    }
    // The list row and the gate's facts stay readable.
    const list = await w.ben.call('GET', `/calls/${w.callId}/proposals/`);
    expect(list.statusCode, list.body).toBe(200);
    expect(await gate(w, w.ben)).toEqual({
      proposalId: w.proposalId,
      callId: w.callId,
      proposalName: 'Dark matter survey',
      proposalTypeName: 'Standard',
      institutions: ['Gothenburg', 'Malmo', 'Uppsala University'],
      required: true,
      answer: null,
      mayAnswer: true,
    });
    // Chairs run the call: no gate for them.
    expect((await w.carla.call('GET', `/proposals/${w.proposalId}/`)).statusCode).toBe(200);

    const answered = await w.ben.call('POST', `/proposals/${w.proposalId}/conflict_declaration/`, {
      conflict: false,
    });
    expect(answered.statusCode, answered.body).toBe(200);
    expect(answered.json()).toMatchObject({
      required: false,
      mayAnswer: false,
      answer: { conflict: false, type: null },
    });
    expect((await w.ben.call('GET', `/proposals/${w.proposalId}/`)).statusCode).toBe(200);
    expect((await w.ben.call('GET', `/proposal_files/${w.proposalId}/`)).statusCode).toBe(200);
    const download = await w.ben.call('GET', `/files/${file!.id}/`);
    expect(download.statusCode).toBe(200);
    expect(download.body).toBe('%PDF-1.4 test');

    const again = await w.ben.call('POST', `/proposals/${w.proposalId}/conflict_declaration/`, {
      conflict: true,
      type: 'personal',
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().detail).toBe(conflictMessages.alreadyDeclared);
    expect(await auditActions('proposal', w.proposalId)).toContain('proposal.declare_conflict');
    expect(await conflictOf(w, w.ben)).toBeUndefined();
  });

  it('records a declared conflict as theirs, takes them off the reviewers, and mails the chairs without a conflict', async () => {
    const w = await world({ conflicts: { enabled: true, declarationRequired: true } });
    await assignReviewers(ctx.app, w.proposalId, [w.rita.user.id]);
    // Cody has a conflict of his own with the proposal: he hears nothing of its conflicts.
    const codyConflict = await w.carla.call('POST', `/proposals/${w.proposalId}/conflicts/`, {
      userId: w.cody.user.id,
      type: 'personal',
    });
    expect(codyConflict.statusCode, codyConflict.body).toBe(201);
    const suggestion = (await conflictOf(w, w.rita))!;
    const mailsBefore = (await outbox(ctx)).length;

    const res = await w.rita.call('POST', `/proposals/${w.proposalId}/conflict_declaration/`, {
      conflict: true,
      type: 'personal' satisfies ConflictType,
      reason: 'My cousin wrote it',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      required: false,
      mayAnswer: false,
      answer: { conflict: true, type: 'personal' },
    });
    expect(await conflictOf(w, w.rita)).toMatchObject({
      id: suggestion.id,
      type: 'personal',
      source: 'reviewer',
      state: 'confirmed',
      reason: 'My cousin wrote it',
      changedBy: 'Rita Reviewer',
    });
    const assigned = await ctx.app.db
      .select()
      .from(proposalReviewers)
      .where(
        and(
          eq(proposalReviewers.proposalId, w.proposalId),
          eq(proposalReviewers.userId, w.rita.user.id),
        ),
      );
    expect(assigned).toEqual([]);
    expect(await auditActions('proposal', w.proposalId)).toEqual(
      expect.arrayContaining(['proposal.declare_conflict', 'proposal.remove_reviewer']),
    );
    expect(await auditActions('conflict', suggestion.id)).toEqual([
      'conflict.create',
      'conflict.update',
    ]);

    const mails = (await outbox(ctx)).slice(mailsBefore);
    const toChairs = mails.filter(
      (m) => m.subject === 'Conflict of interest declared: Dark matter survey',
    );
    expect(toChairs.map((m) => m.to)).toEqual([w.carla.user.email]);
    expect(toChairs[0]!.text).toContain(
      'Rita Reviewer declared a conflict of interest (personal) with the proposal "Dark matter survey"',
    );
    expect(toChairs[0]!.links).toContain(`${ctx.app.config.publicUrl}/calls/${w.callId}/conflicts`);
    // The reason is not mailed.
    expect(toChairs[0]!.text).not.toContain('cousin');

    // A member with a confirmed conflict cannot be dismissed out of it by a chair.
    const dismiss = await w.carla.call('POST', `/conflicts/${suggestion.id}/`, {
      state: 'dismissed',
    });
    expect(dismiss.statusCode).toBe(403);
    expect(dismiss.json().detail).toBe(conflictMessages.reviewerDeclared);
  });

  it('needs no answer where the call does not ask for one', async () => {
    const w = await world();
    expect((await w.ben.call('GET', `/proposals/${w.proposalId}/`)).statusCode).toBe(200);
    expect(await gate(w, w.ben)).toMatchObject({ required: false, mayAnswer: true });
    // The gate is no way round the proposal's visibility.
    expect(
      (await w.outsider.call('GET', `/proposals/${w.proposalId}/conflict_declaration/`)).statusCode,
    ).toBe(404);
  });
});

describe('the audit log', () => {
  it('writes nothing when detection finds what is stored', async () => {
    const w = await world();
    const count = async () =>
      (await ctx.app.db.select().from(auditLog).where(eq(auditLog.entityType, 'conflict'))).length;
    const before = await count();
    const stored = await ctx.app.db
      .select()
      .from(conflicts)
      .where(eq(conflicts.proposalId, w.proposalId));
    const { detectForScope } = await import('../src/modules/conflicts/conflicts.jobs.js');
    const outcomes = await detectForScope(ctx.app.db, { callId: w.callId }, ctx.clock.now());
    expect(outcomes).toEqual([{ callId: w.callId, created: 0, updated: 0, removed: 0 }]);
    expect(await count()).toBe(before);
    expect(
      await ctx.app.db.select().from(conflicts).where(eq(conflicts.proposalId, w.proposalId)),
    ).toEqual(stored);
  });
});
