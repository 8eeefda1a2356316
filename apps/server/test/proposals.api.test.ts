import {
  errorCodes,
  MAX_ENTRIES,
  PROPOSAL_ANSWERS_MAX_BYTES,
  proposalErrorCodes,
  RESPONSE_DATA_MAX_BYTES,
  TAB_HEADER,
  type ProposalDetail,
  type ProposalResponseSave,
} from '@merit/contract';
import { LOCK_LEASE_MS, proposalMessages } from '@merit/domain';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { proposalResponses, proposalReviewers, proposals } from '../src/db/schema.js';
import { auditOf, caller } from './admin-fixtures.js';
import { assignReviewers, makeReview } from './call-fixtures.js';
import {
  auth,
  createTestApp,
  giveRole,
  login,
  makeCommittee,
  makeUser,
  type TestContext,
} from './helpers.js';
import { mailTime } from '../src/modules/proposals/proposals.mails.js';
import { lastMailTo } from './mail.js';
import {
  makeProposalCall,
  makeProposalForms,
  savedEntry,
  type ProposalForms,
} from './proposal-fixtures.js';

let ctx: TestContext;
let forms: ProposalForms;
let committeeId: number;
let admin: { id: number; isAdmin: boolean };
let chair: ReturnType<typeof caller>;
let member: ReturnType<typeof caller>;
let chairId: number;
let chairEmail: string;

beforeAll(async () => {
  ctx = await createTestApp();
  forms = await makeProposalForms(ctx.app);
  committeeId = (await makeCommittee(ctx.app)).id;
  const adminUser = await makeUser(ctx.app, { isAdmin: true });
  admin = { id: adminUser.id, isAdmin: true };
  const chairUser = await makeUser(ctx.app);
  const memberUser = await makeUser(ctx.app);
  await giveRole(ctx.app, chairUser.id, committeeId, 'CHAIR', ctx.clock.now());
  await giveRole(ctx.app, memberUser.id, committeeId, 'MEMBER', ctx.clock.now());
  chairId = chairUser.id;
  chairEmail = chairUser.email;
  chair = await as(chairUser);
  member = await as(memberUser);
});
afterAll(() => ctx.close());

type User = Awaited<ReturnType<typeof makeUser>>;
type Call = ReturnType<typeof caller>;
const as = async (user: User) => caller(ctx.app, auth(await login(ctx.app, user.username)));

/** A new person with their own client (one login session, no tab named). */
async function person(overrides: Parameters<typeof makeUser>[1] = {}) {
  const user = await makeUser(ctx.app, overrides);
  const key = await login(ctx.app, user.username);
  return {
    user,
    key,
    call: caller(ctx.app, auth(key)),
    /** The same login session in the browser tab `tabId`: another editor. */
    tab: (tabId: string) => caller(ctx.app, { ...auth(key), [TAB_HEADER]: tabId }),
    /** A second login of the same person: another session, so another editor. */
    again: async () => caller(ctx.app, auth(await login(ctx.app, user.username))),
  };
}

const newCall = (opensDaysAgo = 1) =>
  makeProposalCall(ctx.app, { committeeId, forms, admin, opensDaysAgo });

let hashes = 0;
/** A fresh save hash, as the editor draws one per Save All. */
const nextHash = () => (hashes += 1);

/** An author with a new Draft in a new call, made through the API. */
async function draft(name = 'Dark matter survey') {
  const author = await person({ firstName: 'Ada', lastName: 'Lovelace' });
  const call = await newCall();
  const res = await author.call('POST', '/update_proposal_name/', {
    callId: call.callId,
    isNew: true,
    name,
    type: call.typeId,
  });
  expect(res.statusCode, res.body).toBe(201);
  const proposal = res.json() as ProposalDetail;
  return { author, ...call, proposal, id: proposal.id };
}

type Draft = Awaited<ReturnType<typeof draft>>;

/**
 * A save of `data` to `formId` of the draft, valid unless the data says otherwise: a new
 * entry, unless `extra` names one (`entryId`, `version`).
 */
const save = (
  d: Draft,
  who: Call,
  formId: number,
  data: Record<string, unknown>,
  extra: Partial<ProposalResponseSave> = {},
) =>
  who('POST', '/proposal_responses/', {
    call: d.callId,
    proposalTypeId: d.typeId,
    proposal: d.id,
    new: false,
    hash: nextHash(),
    formId,
    index: 0,
    data,
    ...extra,
  });

/** A save over the saved entry `index` of the form, from the version `who` reads now. */
const saveOver = async (
  d: Draft,
  who: Call,
  formId: number,
  data: Record<string, unknown>,
  extra: Partial<ProposalResponseSave> = {},
) =>
  save(d, who, formId, data, {
    ...(await savedEntry(who, d.id, formId, extra.index ?? 0)),
    ...extra,
  });

const detail = async (d: Draft, who = d.author.call) => {
  const res = await who('GET', `/proposals/${d.id}/`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as ProposalDetail;
};

/** Adds a collaborator through the API and returns them with their client. */
async function addCollaborator(d: Draft, overrides: Parameters<typeof makeUser>[1] = {}) {
  const collaborator = await person(overrides);
  const res = await d.author.call('POST', '/collaborators/', {
    proposalId: d.id,
    hash: collaborator.user.hash,
  });
  expect(res.statusCode, res.body).toBe(201);
  return collaborator;
}

/**
 * The SQL texts the app sends while `fn` runs outside a transaction: drizzle's session
 * sends each through its client's `query` (PGlite, or PostgreSQL's pool).
 */
async function statementsOf(fn: () => Promise<unknown>): Promise<string[]> {
  type Query = (...args: unknown[]) => Promise<unknown>;
  const { client } = (ctx.app.db as unknown as { session: { client: { query: Query } } }).session;
  const query = client.query;
  const texts: string[] = [];
  client.query = function (this: unknown, ...args: unknown[]) {
    const [first] = args;
    texts.push(typeof first === 'string' ? first : (first as { text: string }).text);
    return query.apply(this, args);
  };
  try {
    await fn();
  } finally {
    client.query = query;
  }
  return texts;
}

const entriesOf = (proposalId: number, formId: number) =>
  ctx.app.db
    .select({ index: proposalResponses.entryIndex, data: proposalResponses.data })
    .from(proposalResponses)
    .where(and(eq(proposalResponses.proposalId, proposalId), eq(proposalResponses.formId, formId)))
    .orderBy(proposalResponses.entryIndex);

describe('creating and naming a proposal', () => {
  it('creates a Draft of a type of the call for its author, who may do everything with it', async () => {
    const d = await draft();
    expect(d.proposal).toMatchObject({
      callId: d.callId,
      proposalName: 'Dark matter survey',
      author: 'Ada Lovelace',
      authorId: d.author.user.id,
      authorEmail: d.author.user.email,
      proposalTypeId: d.typeId,
      proposalTypeName: 'Standard',
      state: 'Draft',
      stateVal: 0,
      collaborators: [],
      lockHolder: null,
      // The multi-entry form has no entries yet; the one-entry form no answers.
      responses: { [String(forms.team)]: [] },
      abilities: {
        view: true,
        edit: true,
        submit: true,
        retract: false,
        manageCollaborators: true,
        delete: true,
        lock: true,
      },
    });
    const audit = await auditOf(ctx.app, 'proposal', d.id);
    expect(audit.map((a) => a.action)).toEqual(['proposal.create']);
    expect(audit[0]!.actorId).toBe(d.author.user.id);
  });

  it('refuses a missing or over-long name and a type of another call, on their fields', async () => {
    const { call: author } = await person();
    const call = await newCall();
    const other = await newCall();
    const create = (name: string, type: number | null) =>
      author('POST', '/update_proposal_name/', { callId: call.callId, isNew: true, name, type });
    const blank = await create('  ', call.typeId);
    expect(blank.statusCode).toBe(400);
    expect(blank.json().fields).toEqual({ name: ['This field is required.'] });
    const long = await create('x'.repeat(101), call.typeId);
    expect(long.json().fields).toEqual({
      name: ['Ensure this field has no more than 100 characters.'],
    });
    const wrongType = await create('A name', other.typeId);
    expect(wrongType.statusCode).toBe(400);
    expect(wrongType.json().fields).toEqual({ type: [proposalMessages.typeNotInCall] });
    const noType = await create('A name', null);
    expect(noType.json().fields).toEqual({ type: [proposalMessages.typeMissing] });
    const unknownCall = await author('POST', '/update_proposal_name/', {
      callId: 999_999,
      isNew: true,
      name: 'A name',
      type: call.typeId,
    });
    expect(unknownCall.statusCode).toBe(404);
  });

  it('refuses to create once submission has closed for the caller (409)', async () => {
    const { call: author } = await person();
    const closed = await newCall(10);
    const res = await author('POST', '/update_proposal_name/', {
      callId: closed.callId,
      isNew: true,
      name: 'Too late',
      type: closed.typeId,
    });
    expect(res.statusCode).toBe(409);
  });

  it('renames for those who may edit, moving lastModified, with one audit row', async () => {
    const d = await draft();
    ctx.clock.advance(1000);
    const rename = (who: ReturnType<typeof caller>, name: string) =>
      who('POST', '/update_proposal_name/', {
        callId: d.callId,
        isNew: false,
        proposalId: d.id,
        name,
      });
    const res = await rename(d.author.call, '  Dark matter survey, phase 2 ');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ proposalName: 'Dark matter survey, phase 2' });
    expect(res.json().lastModified).not.toBe(d.proposal.lastModified);
    const collaborator = await addCollaborator(d);
    expect((await rename(collaborator.call, 'By the collaborator')).statusCode).toBe(200);
    expect((await rename(chair, 'By the chair')).statusCode).toBe(403);
    expect((await rename(member, 'By a member')).statusCode).toBe(404);
    const audit = await auditOf(ctx.app, 'proposal', d.id);
    expect(audit.filter((a) => a.action === 'proposal.rename').map((a) => a.changes)).toEqual([
      { name: { before: 'Dark matter survey', after: 'Dark matter survey, phase 2' } },
      { name: { before: 'Dark matter survey, phase 2', after: 'By the collaborator' } },
    ]);
  });
});

describe('who sees a proposal', () => {
  it('shows it to its people and the chairs; a member sees it once submitted; others get 404', async () => {
    const d = await draft();
    const outsider = await person();
    expect((await d.author.call('GET', `/proposals/${d.id}/`)).statusCode).toBe(200);
    const seenByChair = await detail(d, chair);
    expect(seenByChair.abilities).toMatchObject({ view: true, edit: false, lock: false });
    expect((await member('GET', `/proposals/${d.id}/`)).statusCode).toBe(404);
    expect((await outsider.call('GET', `/proposals/${d.id}/`)).statusCode).toBe(404);
    expect((await outsider.call('GET', '/proposals/999999/')).json()).toEqual({
      detail: proposalMessages.notFound,
      code: 'not_found',
    });
    await save(d, d.author.call, forms.project, { title: 'Dark matter' });
    await save(d, d.author.call, forms.team, { name: 'Ada' });
    const submit = await d.author.call('POST', '/proposal_state/', {
      proposalId: d.id,
      state: 1,
    });
    expect(submit.statusCode, submit.body).toBe(200);
    expect((await member('GET', `/proposals/${d.id}/`)).statusCode).toBe(200);
    expect((await outsider.call('GET', `/proposals/${d.id}/`)).statusCode).toBe(404);
  });

  it('tells chairs a fully reviewed proposal is Reviewed, and its own people only Submitted', async () => {
    const d = await draft();
    await save(d, d.author.call, forms.project, { title: 'Dark matter' });
    await save(d, d.author.call, forms.team, { name: 'Ada' });
    await d.author.call('POST', '/proposal_state/', { proposalId: d.id, state: 1 });
    await makeReview(ctx.app, d.id, chairId);
    expect(await detail(d, chair)).toMatchObject({ state: 'Reviewed', stateVal: 2 });
    expect(await detail(d)).toMatchObject({ state: 'Submitted', stateVal: 1 });
    expect(await detail(d, member)).toMatchObject({ state: 'Submitted', stateVal: 1 });
  });
});

describe('saving answers', () => {
  it('saves a form and the entries of a multi-entry form, and sends them back in order', async () => {
    const d = await draft();
    ctx.clock.advance(1000);
    const res = await save(d, d.author.call, forms.project, {
      title: 'Dark matter',
      contact: 'ada@example.org',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      proposalId: d.id,
      author: 'Ada Lovelace',
      authorId: d.author.user.id,
      formId: forms.project,
      index: 0,
      lastModified: ctx.clock.now().toISOString(),
      entryId: expect.any(String),
      version: 1,
    });
    const added: string[] = [];
    for (const [index, name] of ['Ada', 'Grace', 'Edsger'].entries()) {
      const entry = await save(d, d.author.call, forms.team, { name }, { index });
      expect(entry.json()).toMatchObject({ index, version: 1 });
      added.push(entry.json().entryId);
    }
    const seen = await detail(d);
    expect(seen.responses).toEqual({
      [String(forms.project)]: { title: 'Dark matter', contact: 'ada@example.org' },
      [String(forms.team)]: [{ name: 'Ada' }, { name: 'Grace' }, { name: 'Edsger' }],
    });
    // Beside the answers, each entry's id and version, in the same order.
    const saved = { version: 1, savedAt: ctx.clock.now().toISOString(), savedBy: 'Ada Lovelace' };
    expect(seen.entries).toEqual({
      [String(forms.project)]: [{ entryId: res.json().entryId, ...saved }],
      [String(forms.team)]: added.map((entryId) => ({ entryId, ...saved })),
    });
    expect(seen.lastModified).toBe(ctx.clock.now().toISOString());
    // Saving again, naming the entry and its version, replaces it and raises its version.
    const again = await save(
      d,
      d.author.call,
      forms.team,
      { name: 'Grace Hopper' },
      { index: 1, entryId: added[1], version: 1 },
    );
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toMatchObject({ entryId: added[1], version: 2, index: 1 });
    expect((await entriesOf(d.id, forms.team)).map((e) => e.data)).toEqual([
      { name: 'Ada' },
      { name: 'Grace Hopper' },
      { name: 'Edsger' },
    ]);
    expect((await detail(d)).entries[String(forms.team)]!.map((e) => e.version)).toEqual([1, 2, 1]);
  });

  it('refuses answers that break the form, naming each field in words, and saves nothing', async () => {
    const d = await draft();
    const res = await save(d, d.author.call, forms.project, {
      summary: 'No title',
      contact: 'not an address',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      detail: 'Save failed. There is an error with a form.',
      code: 'validation_error',
      fields: {
        title: ['Project title is required.'],
        contact: ['Contact email must be an email address.'],
      },
    });
    const entry = await save(d, d.author.call, forms.team, {
      name: 'Ada',
      hours: -1,
      skills: ['go', 'x'],
    });
    expect(entry.json().fields).toEqual({
      hours: ['Hours must be at least 0.'],
      'skills.1': ['Item 2 of skills must be at least 2 characters long.'],
    });
    expect(await entriesOf(d.id, forms.project)).toEqual([]);
    expect(await entriesOf(d.id, forms.team)).toEqual([]);
  });

  it('saves a work in progress that does not satisfy the form yet, with validate: false', async () => {
    const d = await draft();
    const res = await save(
      d,
      d.author.call,
      forms.project,
      { summary: 'Title to come' },
      {
        validate: false,
      },
    );
    expect(res.statusCode, res.body).toBe(200);
    expect((await entriesOf(d.id, forms.project)).map((e) => e.data)).toEqual([
      { summary: 'Title to come' },
    ]);
  });

  it('refuses a form of another type and an index on a one-entry form; appends a new entry wherever it was sent', async () => {
    const d = await draft();
    const wrongForm = await save(d, d.author.call, forms.review.review, { title: 'x' });
    expect(wrongForm.statusCode).toBe(400);
    expect(wrongForm.json().fields).toEqual({ formId: [proposalMessages.formNotInType] });
    const index = await save(d, d.author.call, forms.project, { title: 'x' }, { index: 1 });
    expect(index.json().fields).toEqual({ index: [proposalMessages.notMultiForm] });
    // Positions are the browser's: a new entry goes at the end, and the answer says where.
    const appended = await save(d, d.author.call, forms.team, { name: 'Ada' }, { index: 1 });
    expect(appended.statusCode, appended.body).toBe(200);
    expect(appended.json().index).toBe(0);
    const wrongCall = await save(d, d.author.call, forms.project, { title: 'x' }, { call: 999 });
    expect(wrongCall.json().fields).toEqual({ call: [proposalMessages.otherCall] });
    const noProposal = await save(
      d,
      d.author.call,
      forms.project,
      { title: 'x' },
      {
        proposal: null,
      },
    );
    expect(noProposal.json().fields).toEqual({ proposal: [proposalMessages.proposalMissing] });
  });

  it('refuses answers over 1 MB on their field, and a body over the limit with 413', async () => {
    const d = await draft();
    const big = 'x'.repeat(RESPONSE_DATA_MAX_BYTES);
    const tooBig = await save(
      d,
      d.author.call,
      forms.project,
      { title: 'x', summary: big },
      {
        validate: false,
      },
    );
    expect(tooBig.statusCode).toBe(400);
    expect(tooBig.json().fields).toEqual({
      data: [proposalMessages.dataTooLarge(RESPONSE_DATA_MAX_BYTES)],
    });
    const huge = await save(d, d.author.call, forms.project, {
      summary: 'x'.repeat(RESPONSE_DATA_MAX_BYTES + 100 * 1024),
    });
    expect(huge.statusCode).toBe(413);
    expect(huge.json().code).toBe('payload_too_large');
  });

  it('a Save All retried with the same hash leaves one entry per index and one audit row', async () => {
    const d = await draft();
    const hash = nextHash();
    const batch = [
      { formId: forms.project, index: 0, data: { title: 'Dark matter' } },
      { formId: forms.team, index: 0, data: { name: 'Ada' } },
      { formId: forms.team, index: 1, data: { name: 'Grace' } },
    ];
    for (let round = 0; round < 3; round += 1) {
      for (const part of batch) {
        const res = await save(d, d.author.call, part.formId, part.data, {
          hash,
          index: part.index,
        });
        expect(res.statusCode, res.body).toBe(200);
      }
    }
    expect((await entriesOf(d.id, forms.team)).map((e) => e.index)).toEqual([0, 1]);
    expect(await entriesOf(d.id, forms.project)).toHaveLength(1);
    const saves = (await auditOf(ctx.app, 'proposal', d.id)).filter(
      (a) => a.action === 'proposal.save',
    );
    expect(saves.map((a) => a.changes)).toEqual([
      { hash: { after: hash }, forms: { after: [forms.project, forms.team] } },
    ]);
    // A retry after a later save changes nothing, and answers as the first save did.
    const first = await save(d, d.author.call, forms.project, { title: 'Dark matter' }, { hash });
    expect(first.json()).toMatchObject({ version: 1 });
    const revised = await saveOver(d, d.author.call, forms.project, {
      title: 'Dark matter, revised',
    });
    expect(revised.json()).toMatchObject({ entryId: first.json().entryId, version: 2 });
    const retried = await save(d, d.author.call, forms.project, { title: 'Dark matter' }, { hash });
    expect(retried.statusCode, retried.body).toBe(200);
    expect(retried.json()).toEqual(first.json());
    expect((await entriesOf(d.id, forms.project))[0]!.data).toEqual({
      title: 'Dark matter, revised',
    });
    // A second batch is a second audit row.
    expect(
      (await auditOf(ctx.app, 'proposal', d.id)).filter((a) => a.action === 'proposal.save'),
    ).toHaveLength(2);
  });

  it('creates the proposal with new: true and a name, once however often the save is sent', async () => {
    const { user, call: author } = await person();
    const call = await newCall();
    const payload = {
      call: call.callId,
      proposalTypeId: call.typeId,
      new: true,
      hash: nextHash(),
      formId: forms.project,
      data: { title: 'Dark matter' },
    };
    const nameless = await author('POST', '/proposal_responses/', payload);
    expect(nameless.statusCode).toBe(400);
    expect(nameless.json()).toMatchObject({
      detail: 'Please set a Proposal Name before saving any pages.',
      fields: { proposalName: ['Please set a Proposal Name before saving any pages.'] },
    });
    const named = { ...payload, proposalName: 'Saved first' };
    const first = await author('POST', '/proposal_responses/', named);
    expect(first.statusCode, first.body).toBe(201);
    const again = await author('POST', '/proposal_responses/', named);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().proposalId).toBe(first.json().proposalId);
    const mine = await ctx.app.db
      .select({ id: proposals.id, name: proposals.name })
      .from(proposals)
      .where(eq(proposals.authorId, user.id));
    expect(mine).toEqual([{ id: first.json().proposalId, name: 'Saved first' }]);
  });

  it('refuses saves from those who may not edit, whatever they send', async () => {
    const d = await draft();
    const outsider = await person();
    expect((await save(d, chair, forms.project, { title: 'x' })).statusCode).toBe(403);
    expect((await save(d, outsider.call, forms.project, { title: 'x' })).statusCode).toBe(404);
    expect(await entriesOf(d.id, forms.project)).toEqual([]);
  });
});

describe('deleting an entry of a multi-entry form', () => {
  it('removes it and moves the later entries up; the last entry stays', async () => {
    const d = await draft();
    for (const [index, name] of ['Ada', 'Grace', 'Edsger'].entries())
      await save(d, d.author.call, forms.team, { name }, { index });
    const remove = (formIndex: number, formId = forms.team) =>
      d.author.call('DELETE', '/delete_multi_form/', {
        callId: d.callId,
        proposalId: d.id,
        formId,
        formIndex,
      });
    expect((await remove(1)).statusCode).toBe(204);
    expect(await entriesOf(d.id, forms.team)).toEqual([
      { index: 0, data: { name: 'Ada' } },
      { index: 1, data: { name: 'Edsger' } },
    ]);
    // A number past the end names an entry that is gone: nothing else is deleted.
    const gone = await remove(5);
    expect(gone.statusCode).toBe(409);
    expect(gone.json()).toEqual({
      detail: proposalMessages.entryGone,
      code: errorCodes.stale,
      current: null,
    });
    expect((await remove(0, forms.project)).json().fields).toEqual({
      formId: [proposalMessages.notMultiForm],
    });
    expect((await remove(0)).statusCode).toBe(204);
    const last = await remove(0);
    expect(last.statusCode).toBe(409);
    expect(last.json().detail).toBe(proposalMessages.lastEntry);
    expect(await entriesOf(d.id, forms.team)).toEqual([{ index: 0, data: { name: 'Edsger' } }]);
    const audit = await auditOf(ctx.app, 'proposal', d.id);
    expect(audit.filter((a) => a.action === 'proposal.delete_entry')[0]!.changes).toEqual({
      formId: { before: forms.team },
      index: { before: 1 },
      entryId: { before: expect.any(String) },
      answers: { before: { name: 'Grace' } },
    });
  });
});

describe('collaborators', () => {
  it('are added by hash with a mail, may edit drafts, and are removed by the author', async () => {
    const d = await draft();
    const collaborator = await person({ firstName: 'Grace', lastName: 'Hopper' });
    const res = await d.author.call('POST', '/collaborators/', {
      proposalId: d.id,
      hash: collaborator.user.hash,
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toEqual({
      id: collaborator.user.id,
      name: 'Grace Hopper',
      email: collaborator.user.email,
    });
    const mail = await lastMailTo(ctx, collaborator.user.email);
    expect(mail.subject).toBe('You are now a collaborator on Dark matter survey');
    expect(mail.text).toContain('Ada Lovelace added you as a collaborator');
    expect(mail.links).toContain(
      `${ctx.app.config.publicUrl}/calls/${d.callId}/proposals/${d.id}/`,
    );

    const seen = await detail(d, collaborator.call);
    expect(seen.collaboratorIds).toEqual([collaborator.user.id]);
    expect(seen.abilities).toMatchObject({ edit: true, submit: false, manageCollaborators: false });
    expect((await save(d, collaborator.call, forms.project, { title: 'Hers' })).statusCode).toBe(
      200,
    );
    const byCollaborator = await collaborator.call('POST', '/collaborators/', {
      proposalId: d.id,
      hash: (await makeUser(ctx.app)).hash,
    });
    expect(byCollaborator.statusCode).toBe(403);

    const removed = await d.author.call('DELETE', '/collaborators/', {
      proposalId: d.id,
      userId: collaborator.user.id,
    });
    expect(removed.statusCode).toBe(204);
    expect((await collaborator.call('GET', `/proposals/${d.id}/`)).statusCode).toBe(404);
    const again = await d.author.call('DELETE', '/collaborators/', {
      proposalId: d.id,
      userId: collaborator.user.id,
    });
    expect(again.statusCode).toBe(404);
    const audit = await auditOf(ctx.app, 'proposal', d.id);
    expect(
      audit.filter((a) => a.action.includes('collaborator')).map((a) => [a.action, a.changes]),
    ).toEqual([
      [
        'proposal.add_collaborator',
        { collaboratorIds: { before: [], after: [collaborator.user.id] } },
      ],
      [
        'proposal.remove_collaborator',
        { collaboratorIds: { before: [collaborator.user.id], after: [] } },
      ],
    ]);
  });

  it('refuses an unknown hash, the author’s own, and someone already on it, on the hash field', async () => {
    const d = await draft();
    const collaborator = await addCollaborator(d);
    const add = (hash: string) =>
      d.author.call('POST', '/collaborators/', { proposalId: d.id, hash });
    for (const [hash, message] of [
      ['NOSUCHHASH', proposalMessages.hashUnknown],
      [d.author.user.hash, proposalMessages.hashOwn],
      [collaborator.user.hash, proposalMessages.alreadyCollaborator],
    ] as const) {
      const res = await add(hash);
      expect(res.statusCode).toBe(400);
      expect(res.json().fields).toEqual({ hash: [message] });
    }
  });

  it('may not edit a submitted proposal', async () => {
    const d = await draft();
    const collaborator = await addCollaborator(d);
    await save(d, d.author.call, forms.project, { title: 'Dark matter' });
    await save(d, d.author.call, forms.team, { name: 'Ada' });
    await d.author.call('POST', '/proposal_state/', { proposalId: d.id, state: 1 });
    const res = await save(d, collaborator.call, forms.project, { title: 'Late change' });
    expect(res.statusCode).toBe(409);
    expect(res.json().detail).toBe(proposalMessages.submitted);
  });
});

describe('submitting and retracting', () => {
  it('refuses a submit while a required answer is missing, naming the form, and leaves a Draft', async () => {
    const d = await draft();
    await save(d, d.author.call, forms.project, { summary: 'No title yet' }, { validate: false });
    const res = await d.author.call('POST', '/proposal_state/', { proposalId: d.id, state: 1 });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      detail: proposalMessages.invalidForms,
      code: proposalErrorCodes.invalidForms,
      fields: {
        [String(forms.project)]: ['Project title is required.'],
        // Never answered: an empty entry, whose required field is missing.
        [String(forms.team)]: ['Entry 1: Name is required.'],
      },
    });
    expect(await detail(d)).toMatchObject({ state: 'Draft', stateVal: 0 });
    expect(
      (await auditOf(ctx.app, 'proposal', d.id)).filter((a) => a.action === 'proposal.submit'),
    ).toEqual([]);
  });

  it('submits a complete proposal with receipts, and retracts it with a note', async () => {
    const d = await draft();
    const collaborator = await addCollaborator(d);
    await save(d, d.author.call, forms.project, { title: 'Dark matter' });
    await save(d, d.author.call, forms.team, { name: 'Ada' });
    await save(d, d.author.call, forms.team, { name: 'Grace' }, { index: 1 });
    ctx.clock.advance(60_000);
    const byCollaborator = await collaborator.call('POST', '/proposal_state/', {
      proposalId: d.id,
      state: 1,
    });
    expect(byCollaborator.statusCode).toBe(403);
    const res = await d.author.call('POST', '/proposal_state/', { proposalId: d.id, state: 1 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      state: 'Submitted',
      stateVal: 1,
      lastModified: ctx.clock.now().toISOString(),
      abilities: { edit: false, submit: false, retract: true },
    });
    const link = `${ctx.app.config.publicUrl}/calls/${d.callId}/proposals/${d.id}/`;
    for (const to of [d.author.user.email, collaborator.user.email]) {
      const receipt = await lastMailTo(ctx, to);
      expect(receipt.subject).toBe('Submitted: Dark matter survey');
      expect(receipt.text).toContain('"Dark matter survey" (Standard)');
      expect(receipt.text).toContain('Telescope time 2026');
      expect(receipt.text).toContain(mailTime(ctx.clock.now()));
      expect(receipt.links).toContain(link);
    }
    const twice = await d.author.call('POST', '/proposal_state/', { proposalId: d.id, state: 1 });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().detail).toBe(proposalMessages.alreadySubmitted);

    const retracted = await d.author.call('POST', '/proposal_state/', {
      proposalId: d.id,
      state: 0,
    });
    expect(retracted.statusCode, retracted.body).toBe(200);
    expect(retracted.json()).toMatchObject({ state: 'Draft', stateVal: 0 });
    expect((await lastMailTo(ctx, collaborator.user.email)).subject).toBe(
      'Retracted, now a draft: Dark matter survey',
    );
    const changes = (await auditOf(ctx.app, 'proposal', d.id))
      .filter((a) => a.action === 'proposal.submit' || a.action === 'proposal.retract')
      .map((a) => [a.action, a.changes]);
    expect(changes).toEqual([
      ['proposal.submit', { stateVal: { before: 0, after: 1 } }],
      ['proposal.retract', { stateVal: { before: 1, after: 0 } }],
    ]);
  });

  it('refuses a submit once submission has closed for the author (409)', async () => {
    const d = await draft();
    await save(d, d.author.call, forms.project, { title: 'Dark matter' });
    await save(d, d.author.call, forms.team, { name: 'Ada' });
    const DAY = 24 * 60 * 60 * 1000;
    ctx.clock.advance(8 * DAY);
    try {
      const res = await d.author.call('POST', '/proposal_state/', { proposalId: d.id, state: 1 });
      expect(res.statusCode).toBe(409);
      expect(res.json().detail).toBe(proposalMessages.authorWindowClosed);
    } finally {
      ctx.clock.advance(-8 * DAY);
    }
  });

  it('says where submission stands for it, by its author’s windows, to everyone who sees it', async () => {
    const d = await draft();
    await save(d, d.author.call, forms.project, { title: 'Dark matter' });
    await save(d, d.author.call, forms.team, { name: 'Ada' });
    await d.author.call('POST', '/proposal_state/', { proposalId: d.id, state: 1 });
    expect((await detail(d)).submission).toEqual({ status: 'open', reopensAt: null });

    const DAY = 24 * 60 * 60 * 1000;
    const at = (days: number) => new Date(ctx.clock.now().getTime() + days * DAY).toISOString();
    // An extension for the author from day 10 to day 12; the call closes on day 7.
    const extension = await chair('POST', '/new_extension/', {
      callId: d.callId,
      user: d.author.user.id,
      commencement: at(10),
      termination: at(12),
      reason: 'Instrument repairs',
    });
    expect(extension.statusCode, extension.body).toBe(201);
    ctx.clock.advance(8 * DAY);
    try {
      // Past the deadline, the extension still to come: for the member who reads it too.
      const reopens = { status: 'reopens', reopensAt: at(2) };
      expect((await detail(d)).submission).toEqual(reopens);
      expect((await detail(d, member)).submission).toEqual(reopens);
      expect((await detail(d)).abilities.retract).toBe(false);
      ctx.clock.advance(3 * DAY);
      expect((await detail(d)).submission).toEqual({ status: 'open', reopensAt: null });
      expect((await detail(d)).abilities.retract).toBe(true);
      ctx.clock.advance(2 * DAY);
      expect((await detail(d)).submission).toEqual({ status: 'closed', reopensAt: null });
      expect((await detail(d)).abilities.retract).toBe(false);
    } finally {
      ctx.clock.advance(-13 * DAY);
    }
  });
});

describe('deleting a proposal', () => {
  it('lets the author delete a draft, not a submitted one nor one with reviews', async () => {
    const d = await draft();
    expect((await chair('DELETE', `/proposals/${d.id}/`)).statusCode).toBe(403);
    expect((await d.author.call('DELETE', `/proposals/${d.id}/`)).statusCode).toBe(204);
    expect((await d.author.call('GET', `/proposals/${d.id}/`)).statusCode).toBe(404);
    expect((await auditOf(ctx.app, 'proposal', d.id)).at(-1)!.action).toBe('proposal.delete');

    const submitted = await draft();
    await save(submitted, submitted.author.call, forms.project, { title: 'Dark matter' });
    await save(submitted, submitted.author.call, forms.team, { name: 'Ada' });
    await submitted.author.call('POST', '/proposal_state/', { proposalId: submitted.id, state: 1 });
    expect((await submitted.author.call('DELETE', `/proposals/${submitted.id}/`)).statusCode).toBe(
      409,
    );

    const reviewed = await draft();
    await makeReview(ctx.app, reviewed.id, chairId);
    const res = await reviewed.author.call('DELETE', `/proposals/${reviewed.id}/`);
    expect(res.statusCode).toBe(409);
    expect(res.json().detail).toBe(proposalMessages.hasReviews);
  });
});

describe('the editing lock', () => {
  it('is taken by the first editor; others see who holds it and are refused writes (409 locked)', async () => {
    const d = await draft();
    const collaborator = await addCollaborator(d);
    const taken = await d.author.call('GET', `/lock/${d.id}/`);
    expect(taken.statusCode).toBe(200);
    const held = { holderId: d.author.user.id, holder: 'Ada Lovelace' };
    expect(taken.json()).toEqual({ ...held, mine: true });
    expect((await collaborator.call('GET', `/lock/${d.id}/`)).json()).toEqual({
      ...held,
      mine: false,
      reason: 'held',
      message: proposalMessages.locked('Ada Lovelace'),
    });
    expect((await detail(d, collaborator.call)).lockHolder).toEqual({ ...held, mine: false });
    expect((await detail(d)).lockHolder).toEqual({ ...held, mine: true });

    const before = await detail(d);
    const res = await save(d, collaborator.call, forms.project, { title: 'Mine now' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      detail: proposalMessages.locked('Ada Lovelace'),
      code: proposalErrorCodes.locked,
    });
    const rename = await collaborator.call('POST', '/update_proposal_name/', {
      callId: d.callId,
      isNew: false,
      proposalId: d.id,
      name: 'Renamed under the lock',
    });
    expect(rename.statusCode).toBe(409);
    const after = await detail(d);
    expect(after.proposalName).toBe(before.proposalName);
    expect(after.lastModified).toBe(before.lastModified);
    expect(await entriesOf(d.id, forms.project)).toEqual([]);
    // The holder's own saves go through.
    expect((await save(d, d.author.call, forms.project, { title: 'Mine' })).statusCode).toBe(200);
  });

  it('is never taken by someone who may only look', async () => {
    const d = await draft();
    expect((await chair('GET', `/lock/${d.id}/`)).json()).toEqual({
      holderId: null,
      holder: null,
      mine: false,
      reason: 'noEdit',
      message: proposalMessages.editorsOnly,
    });
    expect((await d.author.call('GET', `/lock/${d.id}/`)).json().holderId).toBe(d.author.user.id);
    expect((await chair('GET', `/lock/${d.id}/`)).json().holderId).toBe(d.author.user.id);
    expect((await member('GET', `/lock/${d.id}/`)).statusCode).toBe(404);
  });

  it('passes to the next caller once the lease runs out, or once released', async () => {
    const d = await draft();
    const collaborator = await addCollaborator(d);
    await d.author.call('GET', `/lock/${d.id}/`);
    ctx.clock.advance(LOCK_LEASE_MS - 1);
    expect((await collaborator.call('GET', `/lock/${d.id}/`)).json().holderId).toBe(
      d.author.user.id,
    );
    ctx.clock.advance(1);
    expect((await collaborator.call('GET', `/lock/${d.id}/`)).json().holderId).toBe(
      collaborator.user.id,
    );
    // Someone else's DELETE leaves the lock where it is; the holder's releases it.
    expect((await d.author.call('DELETE', `/lock/${d.id}/`)).statusCode).toBe(204);
    expect((await detail(d)).lockHolder?.holderId).toBe(collaborator.user.id);
    expect((await collaborator.call('DELETE', `/lock/${d.id}/`)).statusCode).toBe(204);
    expect((await detail(d)).lockHolder).toBeNull();
    expect((await d.author.call('GET', `/lock/${d.id}/`)).json().holderId).toBe(d.author.user.id);
  });

  it("is renewed by its holder's saves, so a busy editor keeps it between polls", async () => {
    const d = await draft();
    const collaborator = await addCollaborator(d);
    await d.author.call('GET', `/lock/${d.id}/`);
    // Saving for 50 s without a poll in between: each save renews the 30-second lease.
    for (let second = 10; second <= 50; second += 10) {
      ctx.clock.advance(10_000);
      expect(
        (await saveOver(d, d.author.call, forms.project, { title: `At ${second} s` })).statusCode,
      ).toBe(200);
    }
    ctx.clock.advance(LOCK_LEASE_MS - 1);
    expect((await collaborator.call('GET', `/lock/${d.id}/`)).json().holderId).toBe(
      d.author.user.id,
    );
    // A collaborator's save (after the lease ran out) does not renew the author's lease.
    ctx.clock.advance(1);
    expect((await collaborator.call('GET', `/lock/${d.id}/`)).json().holderId).toBe(
      collaborator.user.id,
    );
  });

  it('has exactly one holder among 100 concurrent requests from two editors', async () => {
    const d = await draft();
    const collaborator = await addCollaborator(d);
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        (i % 2 === 0 ? d.author.call : collaborator.call)('GET', `/lock/${d.id}/`),
      ),
    );
    expect(answers.every((a) => a.statusCode === 200)).toBe(true);
    const holders = new Set(answers.map((a) => a.json().holderId));
    expect(holders.size).toBe(1);
    const [holder] = holders;
    expect([d.author.user.id, collaborator.user.id]).toContain(holder);
    expect((await detail(d)).lockHolder?.holderId).toBe(holder);
  });
});

describe('versioned answers', () => {
  /** The stored row of an entry: its answers, version and index. */
  const rowOf = async (entryId: string) => {
    const [row] = await ctx.app.db
      .select({
        index: proposalResponses.entryIndex,
        version: proposalResponses.version,
        data: proposalResponses.data,
      })
      .from(proposalResponses)
      .where(eq(proposalResponses.entryId, entryId));
    return row;
  };
  const saveCount = async (d: Draft) =>
    (await auditOf(ctx.app, 'proposal', d.id)).filter((a) => a.action === 'proposal.save').length;

  it('refuses a save from a version someone has saved over, with what is saved now, and writes nothing', async () => {
    const d = await draft();
    const added = await save(d, d.author.call, forms.team, { name: 'Ada' });
    const { entryId } = added.json();
    // Another tab of Ada's saves the entry (after the first let go of the lock).
    await d.author.call('DELETE', `/lock/${d.id}/`);
    ctx.clock.advance(60_000);
    const other = d.author.tab('tab-two');
    const theirs = await save(
      d,
      other,
      forms.team,
      { name: 'Ada Lovelace' },
      { entryId, version: 1 },
    );
    expect(theirs.json()).toMatchObject({ entryId, version: 2 });
    const savedAt = ctx.clock.now();
    await other('DELETE', `/lock/${d.id}/`);
    const before = { lastModified: (await detail(d)).lastModified, saves: await saveCount(d) };

    ctx.clock.advance(1000);
    const mine = await save(
      d,
      d.author.call,
      forms.team,
      { name: 'A. Lovelace' },
      { entryId, version: 1 },
    );
    expect(mine.statusCode).toBe(409);
    expect(mine.json()).toEqual({
      detail: proposalMessages.answersStale('Ada Lovelace', savedAt, true),
      code: errorCodes.stale,
      current: {
        entryId,
        version: 2,
        savedAt: savedAt.toISOString(),
        savedBy: 'Ada Lovelace',
        data: { name: 'Ada Lovelace' },
      },
    });
    expect(mine.json().detail).toMatch(
      /^Ada Lovelace saved this entry on \d+ \w+ \d{4}, \d\d:\d\d UTC/,
    );
    expect(await rowOf(entryId)).toEqual({ index: 0, version: 2, data: { name: 'Ada Lovelace' } });
    expect((await detail(d)).lastModified).toBe(before.lastModified);
    expect(await saveCount(d)).toBe(before.saves);
    // Keep mine: a save from the version now saved goes through.
    const kept = await save(
      d,
      d.author.call,
      forms.team,
      { name: 'A. Lovelace' },
      { entryId, version: 2 },
    );
    expect(kept.json()).toMatchObject({ entryId, version: 3 });
  });

  it('never writes a first answer over one saved meanwhile: 409 stale with it', async () => {
    const d = await draft();
    const first = await save(d, d.author.call, forms.project, { title: 'Dark matter' });
    const res = await save(d, d.author.call, forms.project, { title: 'Written in another tab' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      detail: proposalMessages.answersStale('Ada Lovelace', ctx.clock.now(), false),
      code: errorCodes.stale,
      current: {
        entryId: first.json().entryId,
        version: 1,
        savedAt: ctx.clock.now().toISOString(),
        savedBy: 'Ada Lovelace',
        data: { title: 'Dark matter' },
      },
    });
    expect((await entriesOf(d.id, forms.project)).map((e) => e.data)).toEqual([
      { title: 'Dark matter' },
    ]);
  });

  it('refuses a save of an entry deleted meanwhile (current null), and writes it nowhere', async () => {
    const d = await draft();
    const ada = (await save(d, d.author.call, forms.team, { name: 'Ada' })).json().entryId;
    await save(d, d.author.call, forms.team, { name: 'Grace' });
    const removed = await d.author.call('DELETE', '/delete_multi_form/', {
      callId: d.callId,
      proposalId: d.id,
      formId: forms.team,
      entryId: ada,
    });
    expect(removed.statusCode, removed.body).toBe(204);
    const res = await save(
      d,
      d.author.call,
      forms.team,
      { name: 'Ada L.' },
      { entryId: ada, version: 1 },
    );
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      detail: proposalMessages.entryGone,
      code: errorCodes.stale,
      current: null,
    });
    expect(await entriesOf(d.id, forms.team)).toEqual([{ index: 0, data: { name: 'Grace' } }]);
    // An entry of another form is none of this form's entries either.
    const project = (await save(d, d.author.call, forms.project, { title: 'x' })).json().entryId;
    const elsewhere = await save(
      d,
      d.author.call,
      forms.team,
      { name: 'Ada' },
      { entryId: project, version: 1 },
    );
    expect(elsewhere.json()).toMatchObject({ code: errorCodes.stale, current: null });
  });

  it('deletes the entry its id names, the others keeping theirs; a stale delete removes nothing', async () => {
    const d = await draft();
    const ids: string[] = [];
    for (const name of ['Ada', 'Grace', 'Edsger'])
      ids.push((await save(d, d.author.call, forms.team, { name })).json().entryId);
    const remove = (entry: { entryId?: string; formIndex?: number }) =>
      d.author.call('DELETE', '/delete_multi_form/', {
        callId: d.callId,
        proposalId: d.id,
        formId: forms.team,
        ...entry,
      });
    expect((await remove({ entryId: ids[1] })).statusCode).toBe(204);
    // Edsger moved up, with his id and version.
    expect(
      (await detail(d)).entries[String(forms.team)]!.map((e) => [e.entryId, e.version]),
    ).toEqual([
      [ids[0], 1],
      [ids[2], 1],
    ]);
    // Deleting Grace again (a stale tab) deletes nobody else.
    const again = await remove({ entryId: ids[1] });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({
      detail: proposalMessages.entryGone,
      code: errorCodes.stale,
      current: null,
    });
    // The id and the number must name one entry: Edsger is number 1 now, not 2.
    const moved = await remove({ entryId: ids[2], formIndex: 2 });
    expect(moved.statusCode).toBe(409);
    expect(moved.json()).toMatchObject({
      detail: proposalMessages.entryMoved,
      code: errorCodes.stale,
      current: { entryId: ids[2], version: 1, data: { name: 'Edsger' } },
    });
    expect(await entriesOf(d.id, forms.team)).toEqual([
      { index: 0, data: { name: 'Ada' } },
      { index: 1, data: { name: 'Edsger' } },
    ]);
    expect((await remove({ entryId: ids[2], formIndex: 1 })).statusCode).toBe(204);
    expect(await entriesOf(d.id, forms.team)).toEqual([{ index: 0, data: { name: 'Ada' } }]);
  });

  it('answers a retried save as the first did, and refuses a reused hash with other answers (409)', async () => {
    const d = await draft();
    const hash = nextHash();
    const first = await save(d, d.author.call, forms.team, { name: 'Ada', hours: 3 }, { hash });
    expect(first.statusCode, first.body).toBe(200);
    // The same answers, their keys in another order: the same save.
    const same = await save(d, d.author.call, forms.team, { hours: 3, name: 'Ada' }, { hash });
    expect(same.statusCode, same.body).toBe(200);
    expect(same.json()).toEqual(first.json());
    const other = await save(d, d.author.call, forms.team, { name: 'Grace' }, { hash });
    expect(other.statusCode).toBe(409);
    expect(other.json()).toEqual({
      detail: proposalMessages.saveReused,
      code: errorCodes.conflict,
    });
    expect((await entriesOf(d.id, forms.team)).map((e) => e.data)).toEqual([
      { name: 'Ada', hours: 3 },
    ]);

    // A save of a saved entry is keyed on that entry.
    const { entryId } = first.json();
    const change = { hash: nextHash(), entryId, version: 1 };
    const changed = await save(d, d.author.call, forms.team, { name: 'Ada L.' }, change);
    expect(changed.json()).toMatchObject({ entryId, version: 2 });
    const retried = await save(d, d.author.call, forms.team, { name: 'Ada L.' }, change);
    expect(retried.statusCode, retried.body).toBe(200);
    expect(retried.json()).toEqual(changed.json());
    const reused = await save(d, d.author.call, forms.team, { name: 'Someone else' }, change);
    expect(reused.statusCode).toBe(409);
    expect(reused.json().detail).toBe(proposalMessages.saveReused);
    expect(await rowOf(entryId)).toMatchObject({ version: 2, data: { name: 'Ada L.' } });
  });

  it('refuses a save that would take the answers past 10 MB (413), counting a replaced entry once', async () => {
    const d = await draft();
    const big = (letter: string) => ({ name: letter.repeat(RESPONSE_DATA_MAX_BYTES - 1024) });
    // Ten entries of nearly 1 MB each, straight in the database: 10 KB are left.
    await ctx.app.db.insert(proposalResponses).values(
      Array.from({ length: 10 }, (_, index) => ({
        proposalId: d.id,
        formId: forms.team,
        entryIndex: index,
        data: big('x'),
        updatedAt: ctx.clock.now(),
      })),
    );
    const tooMuch = await save(
      d,
      d.author.call,
      forms.project,
      { title: 'y'.repeat(20_000) },
      {
        validate: false,
      },
    );
    expect(tooMuch.statusCode).toBe(413);
    expect(tooMuch.json()).toEqual({
      detail: proposalMessages.answersTooLarge(PROPOSAL_ANSWERS_MAX_BYTES),
      code: errorCodes.payloadTooLarge,
    });
    expect(tooMuch.json().detail).toContain('10 MB');
    expect(await entriesOf(d.id, forms.project)).toEqual([]);
    expect((await save(d, d.author.call, forms.project, { title: 'Short' })).statusCode).toBe(200);
    // Replacing an entry with one as large takes nothing more.
    const replaced = await saveOver(d, d.author.call, forms.team, big('z'));
    expect(replaced.statusCode, replaced.body).toBe(200);
  });

  it(`refuses a new entry past ${MAX_ENTRIES} (409)`, async () => {
    const d = await draft();
    await ctx.app.db.insert(proposalResponses).values(
      Array.from({ length: MAX_ENTRIES }, (_, index) => ({
        proposalId: d.id,
        formId: forms.team,
        entryIndex: index,
        data: { name: `Member ${index + 1}` },
        updatedAt: ctx.clock.now(),
      })),
    );
    const res = await save(d, d.author.call, forms.team, { name: 'One too many' });
    expect(res.statusCode).toBe(409);
    expect(res.json().detail).toBe(proposalMessages.tooManyEntries(MAX_ENTRIES));
    expect(await entriesOf(d.id, forms.team)).toHaveLength(MAX_ENTRIES);
  });
});

describe('one editor is one browser tab', () => {
  const lockOf = async (who: Call, d: Draft) => {
    const res = await who('GET', `/lock/${d.id}/`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  const otherTab = {
    mine: false,
    reason: 'otherTab',
    message: proposalMessages.lockedInOtherTab,
  };

  it('lets one of two logins of one person save; the other is told it is open elsewhere', async () => {
    const d = await draft();
    const second = await d.author.again();
    expect((await save(d, d.author.call, forms.project, { title: 'Dark matter' })).statusCode).toBe(
      200,
    );
    const res = await saveOver(d, second, forms.project, { title: 'From the other login' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      detail: proposalMessages.lockedInOtherTab,
      code: proposalErrorCodes.locked,
    });
    expect((await entriesOf(d.id, forms.project)).map((e) => e.data)).toEqual([
      { title: 'Dark matter' },
    ]);
    const holder = { holderId: d.author.user.id, holder: 'Ada Lovelace' };
    expect(await lockOf(second, d)).toEqual({ ...holder, ...otherTab });
    expect(await lockOf(d.author.call, d)).toEqual({ ...holder, mine: true });
    expect((await detail(d, second)).lockHolder).toEqual({ ...holder, mine: false });
  });

  it('lets one of two tabs of one login save; each lets go only of its own lock', async () => {
    const d = await draft();
    const one = d.author.tab('tab-one');
    const two = d.author.tab('tab-two');
    expect(await lockOf(one, d)).toMatchObject({ mine: true });
    expect(await lockOf(two, d)).toMatchObject(otherTab);
    const refused = await save(d, two, forms.project, { title: 'From tab two' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe(proposalErrorCodes.locked);
    expect((await save(d, one, forms.project, { title: 'From tab one' })).statusCode).toBe(200);
    expect((await detail(d, two)).lockHolder).toMatchObject({ mine: false });
    expect((await detail(d, one)).lockHolder).toMatchObject({ mine: true });
    // The other tab's DELETE leaves the lock with tab one; tab one's releases it.
    expect((await two('DELETE', `/lock/${d.id}/`)).statusCode).toBe(204);
    expect((await detail(d, one)).lockHolder).toMatchObject({ mine: true });
    expect((await one('DELETE', `/lock/${d.id}/`)).statusCode).toBe(204);
    expect((await detail(d)).lockHolder).toBeNull();
    expect((await saveOver(d, two, forms.project, { title: 'From tab two' })).statusCode).toBe(200);
  });

  it('gives the lock to a save when nobody holds it, as GET /lock/ would', async () => {
    const d = await draft();
    const tab = d.author.tab('tab-one');
    expect((await detail(d)).lockHolder).toBeNull();
    expect((await save(d, tab, forms.project, { title: 'Dark matter' })).statusCode).toBe(200);
    expect((await detail(d, tab)).lockHolder).toMatchObject({ mine: true });
    expect(await lockOf(d.author.call, d)).toMatchObject(otherTab);
    expect(await lockOf(tab, d)).toMatchObject({ mine: true });
  });

  it('after the lease ran out and another person saved, the first one’s save is 409 stale with theirs', async () => {
    const d = await draft();
    const grace = await addCollaborator(d, { firstName: 'Grace', lastName: 'Hopper' });
    const first = await save(d, d.author.call, forms.project, { title: 'Dark matter' });
    const { entryId } = first.json();
    // Ada's laptop sleeps past the lease; Grace takes the lock, saves, and leaves.
    ctx.clock.advance(LOCK_LEASE_MS);
    expect(await lockOf(grace.call, d)).toMatchObject({ holderId: grace.user.id, mine: true });
    const theirs = await save(
      d,
      grace.call,
      forms.project,
      { title: 'Dark energy' },
      {
        entryId,
        version: 1,
      },
    );
    expect(theirs.json()).toMatchObject({ entryId, version: 2 });
    const savedAt = ctx.clock.now();
    // While Grace holds it, Ada's save is refused for the lock, naming her.
    const meanwhile = await save(
      d,
      d.author.call,
      forms.project,
      { title: 'Mine' },
      {
        entryId,
        version: 1,
      },
    );
    expect(meanwhile.json()).toEqual({
      detail: proposalMessages.locked('Grace Hopper'),
      code: proposalErrorCodes.locked,
    });
    expect((await grace.call('DELETE', `/lock/${d.id}/`)).statusCode).toBe(204);
    // Ada's tab wakes and saves what it had: it takes the free lock, and is told.
    ctx.clock.advance(1000);
    const mine = await save(
      d,
      d.author.call,
      forms.project,
      { title: 'Dark matter, revised' },
      {
        entryId,
        version: 1,
      },
    );
    expect(mine.statusCode).toBe(409);
    expect(mine.json()).toEqual({
      detail: proposalMessages.answersStale('Grace Hopper', savedAt, false),
      code: errorCodes.stale,
      current: {
        entryId,
        version: 2,
        savedAt: savedAt.toISOString(),
        savedBy: 'Grace Hopper',
        data: { title: 'Dark energy' },
      },
    });
    expect((await entriesOf(d.id, forms.project)).map((e) => e.data)).toEqual([
      { title: 'Dark energy' },
    ]);
  });

  it('refuses submit, retract and delete while another tab holds the lock', async () => {
    const d = await draft();
    await save(d, d.author.call, forms.project, { title: 'Dark matter' });
    await save(d, d.author.call, forms.team, { name: 'Ada' });
    const tab = d.author.tab('tab-two');
    const state = (who: Call, state: number) =>
      who('POST', '/proposal_state/', { proposalId: d.id, state });
    for (const res of [await state(tab, 1), await tab('DELETE', `/proposals/${d.id}/`)]) {
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({
        detail: proposalMessages.lockedInOtherTab,
        code: proposalErrorCodes.locked,
      });
    }
    expect((await state(d.author.call, 1)).statusCode).toBe(200);
    expect((await state(tab, 0)).json().code).toBe(proposalErrorCodes.locked);
    expect((await state(d.author.call, 0)).statusCode).toBe(200);
  });

  it('costs a poll one read of the facts the rule needs and one statement on the lock table', async () => {
    const d = await draft();
    await lockOf(d.author.call, d);
    const collaborator = await addCollaborator(d);
    await ctx.app.jobs.drain();
    for (const [who, mine] of [
      [d.author.call, true],
      [collaborator.call, false],
    ] as const) {
      const sent = await statementsOf(async () =>
        expect(await lockOf(who, d)).toMatchObject({ mine }),
      );
      // Besides the session's own lookup (and the job runner's own work, on PostgreSQL's
      // pool beside the request): no transaction, no write to the proposal's row.
      const own = sent.filter((text) => !/"(auth_tokens|jobs)"/.test(text));
      expect(own, own.join('\n')).toHaveLength(2);
      expect(own[0]).toMatch(/^select .* from "proposals" inner join "calls"/s);
      expect(own[1]).toMatch(/^with "taken" as \(insert into "proposal_locks"/);
    }
  });

  it('reads a malformed tab id as none: the session alone is then the editor', async () => {
    const d = await draft();
    const tooLong = d.author.tab('x'.repeat(65));
    const spaced = d.author.tab('tab one');
    expect((await save(d, tooLong, forms.project, { title: 'Dark matter' })).statusCode).toBe(200);
    expect(await lockOf(d.author.call, d)).toMatchObject({ mine: true });
    expect(await lockOf(spaced, d)).toMatchObject({ mine: true });
    expect(await lockOf(d.author.tab('tab-one'), d)).toMatchObject(otherTab);
  });

  it('tells an editor who may not take it why: submission closed for them, or no longer editable', async () => {
    const d = await draft();
    await save(d, d.author.call, forms.project, { title: 'Dark matter' });
    await save(d, d.author.call, forms.team, { name: 'Ada' });
    const DAY = 24 * 60 * 60 * 1000;
    ctx.clock.advance(8 * DAY);
    try {
      expect(await lockOf(d.author.call, d)).toEqual({
        holderId: null,
        holder: null,
        mine: false,
        reason: 'closed',
        message: proposalMessages.authorWindowClosed,
      });
    } finally {
      ctx.clock.advance(-8 * DAY);
    }
    await d.author.call('POST', '/proposal_state/', { proposalId: d.id, state: 1 });
    // The lease the save took is still running, but a submitted proposal is no one's to edit.
    expect(await lockOf(d.author.call, d)).toEqual({
      holderId: d.author.user.id,
      holder: 'Ada Lovelace',
      mine: false,
      reason: 'noEdit',
      message: proposalMessages.submitted,
    });
  });
});

describe('collaborators who review the proposal', () => {
  /** A submitted proposal with Rita assigned to review it; with her review saved if told. */
  async function reviewed(withReview: boolean) {
    const d = await draft();
    await save(d, d.author.call, forms.project, { title: 'Dark matter' });
    await save(d, d.author.call, forms.team, { name: 'Ada' });
    await d.author.call('POST', '/proposal_state/', { proposalId: d.id, state: 1 });
    const rita = await person({ firstName: 'Rita', lastName: 'Reviewer' });
    await assignReviewers(ctx.app, d.id, [rita.user.id]);
    if (withReview) await makeReview(ctx.app, d.id, rita.user.id);
    const add = () =>
      d.author.call('POST', '/collaborators/', { proposalId: d.id, hash: rita.user.hash });
    const reviewers = async () =>
      (
        await ctx.app.db
          .select({ id: proposalReviewers.userId })
          .from(proposalReviewers)
          .where(eq(proposalReviewers.proposalId, d.id))
      ).map((r) => r.id);
    return { d, rita, add, reviewers };
  }

  it('refuses one who has saved a review of it (409), changing nothing', async () => {
    const { d, rita, add, reviewers } = await reviewed(true);
    const res = await add();
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      detail: proposalMessages.reviewerCollaborator,
      code: errorCodes.conflict,
    });
    expect((await detail(d)).collaboratorIds).toEqual([]);
    expect(await reviewers()).toEqual([rita.user.id]);
  });

  it('takes one who has not off the reviewers in the same change, audited, and tells the chairs', async () => {
    const { d, rita, add, reviewers } = await reviewed(false);
    const res = await add();
    expect(res.statusCode, res.body).toBe(201);
    expect((await detail(d)).collaboratorIds).toEqual([rita.user.id]);
    expect(await reviewers()).toEqual([]);
    const audit = (await auditOf(ctx.app, 'proposal', d.id)).slice(-2);
    expect(audit.map((a) => [a.action, a.changes])).toEqual([
      ['proposal.remove_reviewer', { reviewerIds: { before: [rita.user.id], after: [] } }],
      ['proposal.add_collaborator', { collaboratorIds: { before: [], after: [rita.user.id] } }],
    ]);
    const mail = await lastMailTo(ctx, chairEmail);
    expect(mail.subject).toBe('Reviewer removed from Dark matter survey');
    expect(mail.text).toContain('Ada Lovelace added Rita Reviewer as a collaborator');
    expect(mail.links).toContain(
      `${ctx.app.config.publicUrl}/calls/${d.callId}/proposals/${d.id}/`,
    );
  });
});

describe('lists', () => {
  it("lists the caller's own proposals across calls, as author or collaborator", async () => {
    const d = await draft('Mine');
    const other = await draft('Theirs');
    const collaborator = await person();
    await other.author.call('POST', '/collaborators/', {
      proposalId: other.id,
      hash: collaborator.user.hash,
    });
    await d.author.call('POST', '/collaborators/', {
      proposalId: d.id,
      hash: collaborator.user.hash,
    });
    ctx.clock.advance(1000);
    await save(d, d.author.call, forms.project, { title: 'Newest change' });
    const res = await collaborator.call('GET', '/proposals/');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([
      {
        id: d.id,
        callId: d.callId,
        callName: 'Telescope time 2026',
        proposalName: 'Mine',
        proposalTypeName: 'Standard',
        state: 'Draft',
        stateVal: 0,
        lastModified: ctx.clock.now().toISOString(),
        role: 'Collaborator',
      },
      expect.objectContaining({ id: other.id, role: 'Collaborator' }),
    ]);
    expect((await d.author.call('GET', '/proposals/')).json()).toEqual([
      expect.objectContaining({ id: d.id, role: 'Author' }),
    ]);
  });

  it("pages, sorts and searches a call's proposals on the server", async () => {
    const call = await newCall();
    const names = ['Cosmic rays', 'asteroids', 'Black holes', 'Dark energy', 'Exoplanets'];
    for (const name of names) {
      const { call: author } = await person();
      const res = await author('POST', '/update_proposal_name/', {
        callId: call.callId,
        isNew: true,
        name,
        type: call.typeId,
      });
      expect(res.statusCode).toBe(201);
    }
    const page = async (query: string) => {
      const res = await chair('GET', `/calls/${call.callId}/proposals/?${query}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as { items: { proposalName: string }[]; total: number; page: number };
    };
    const first = await page('pageSize=2');
    expect(first.total).toBe(5);
    expect(first.items.map((i) => i.proposalName)).toEqual(['asteroids', 'Black holes']);
    expect((await page('pageSize=2&page=3')).items.map((i) => i.proposalName)).toEqual([
      'Exoplanets',
    ]);
    expect((await page('sort=-name&pageSize=1')).items.map((i) => i.proposalName)).toEqual([
      'Exoplanets',
    ]);
    const found = await page('q=dark');
    expect(found.total).toBe(1);
    expect(found.items[0]).toMatchObject({
      proposalName: 'Dark energy',
      proposalTypeName: 'Standard',
      state: 'Draft',
    });
    expect((await chair('GET', `/calls/${call.callId}/proposals/?sort=nope`)).statusCode).toBe(400);
    expect((await chair('GET', '/calls/999999/proposals/')).statusCode).toBe(404);
  });
});
