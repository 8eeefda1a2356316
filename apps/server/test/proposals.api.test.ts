import {
  proposalErrorCodes,
  RESPONSE_DATA_MAX_BYTES,
  type ProposalDetail,
  type ProposalResponseSave,
} from '@merit/contract';
import { LOCK_LEASE_MS, proposalMessages } from '@merit/domain';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { proposalResponses, proposals } from '../src/db/schema.js';
import { auditOf, caller } from './admin-fixtures.js';
import { makeReview } from './call-fixtures.js';
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
import { makeProposalCall, makeProposalForms, type ProposalForms } from './proposal-fixtures.js';

let ctx: TestContext;
let forms: ProposalForms;
let committeeId: number;
let admin: { id: number; isAdmin: boolean };
let chair: ReturnType<typeof caller>;
let member: ReturnType<typeof caller>;
let chairId: number;

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
  chair = await as(chairUser);
  member = await as(memberUser);
});
afterAll(() => ctx.close());

type User = Awaited<ReturnType<typeof makeUser>>;
const as = async (user: User) => caller(ctx.app, auth(await login(ctx.app, user.username)));

/** A new person with their own client. */
async function person(overrides: Parameters<typeof makeUser>[1] = {}) {
  const user = await makeUser(ctx.app, overrides);
  return { user, call: await as(user) };
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

/** A save of `data` to `formId` of the draft, valid unless the data says otherwise. */
const save = (
  d: Draft,
  who: ReturnType<typeof caller>,
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

const detail = async (d: Draft, who = d.author.call) => {
  const res = await who('GET', `/proposals/${d.id}/`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as ProposalDetail;
};

/** Adds a collaborator through the API and returns them with their client. */
async function addCollaborator(d: Draft) {
  const collaborator = await person();
  const res = await d.author.call('POST', '/collaborators/', {
    proposalId: d.id,
    hash: collaborator.user.hash,
  });
  expect(res.statusCode, res.body).toBe(201);
  return collaborator;
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
    });
    for (const [index, name] of ['Ada', 'Grace', 'Edsger'].entries())
      expect((await save(d, d.author.call, forms.team, { name }, { index })).statusCode).toBe(200);
    const seen = await detail(d);
    expect(seen.responses).toEqual({
      [String(forms.project)]: { title: 'Dark matter', contact: 'ada@example.org' },
      [String(forms.team)]: [{ name: 'Ada' }, { name: 'Grace' }, { name: 'Edsger' }],
    });
    expect(seen.lastModified).toBe(ctx.clock.now().toISOString());
    // Saving again replaces the entry.
    await save(d, d.author.call, forms.team, { name: 'Grace Hopper' }, { index: 1 });
    expect((await entriesOf(d.id, forms.team)).map((e) => e.data)).toEqual([
      { name: 'Ada' },
      { name: 'Grace Hopper' },
      { name: 'Edsger' },
    ]);
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

  it('refuses a form of another type, an index on a one-entry form, and a gap in the entries', async () => {
    const d = await draft();
    const wrongForm = await save(d, d.author.call, forms.review.review, { title: 'x' });
    expect(wrongForm.statusCode).toBe(400);
    expect(wrongForm.json().fields).toEqual({ formId: [proposalMessages.formNotInType] });
    const index = await save(d, d.author.call, forms.project, { title: 'x' }, { index: 1 });
    expect(index.json().fields).toEqual({ index: [proposalMessages.notMultiForm] });
    const gap = await save(d, d.author.call, forms.team, { name: 'Ada' }, { index: 1 });
    expect(gap.json().fields).toEqual({ index: [proposalMessages.entryGap(0)] });
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
    // A retry after a later save changes nothing: the later answer stays.
    await save(d, d.author.call, forms.project, { title: 'Dark matter, revised' });
    await save(d, d.author.call, forms.project, { title: 'Dark matter' }, { hash });
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
    expect((await remove(5)).statusCode).toBe(404);
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
    expect(taken.json()).toEqual({ holderId: d.author.user.id, holder: 'Ada Lovelace' });
    expect((await collaborator.call('GET', `/lock/${d.id}/`)).json()).toEqual(taken.json());
    expect((await detail(d, collaborator.call)).lockHolder).toEqual(taken.json());

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
    expect((await chair('GET', `/lock/${d.id}/`)).json()).toEqual({ holderId: null, holder: null });
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
        (await save(d, d.author.call, forms.project, { title: `At ${second} s` })).statusCode,
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
