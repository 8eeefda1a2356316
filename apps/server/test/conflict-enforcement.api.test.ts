import type {
  CallProposal,
  CallProposalExport,
  CallProposalPage,
  ProposalDetail,
  ProposalReviewList,
  PendingReview,
} from '@merit/contract';
import {
  conflictMessages,
  type ConflictSource,
  type ConflictState,
  type ConflictType,
} from '@merit/domain';
import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conflicts, proposalReviewers, proposals } from '../src/db/schema.js';
import { saveCall } from '../src/modules/calls/calls.service.js';
import { auditOf, caller, makeForm, makeFormName } from './admin-fixtures.js';
import { assignReviewers, callPayload, makeProposal } from './call-fixtures.js';
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
 * Conflicts of interest enforced (issue 26, "Enforced"): a member, a chair and an admin
 * with a confirmed conflict on one proposal see nothing of its reviews, scores or decision
 * from any route (its review, review list, the proposal's page, the call's list and
 * export, pending reviews), cannot review it, judge it or assign its reviewers; a
 * conflicted member is assigned only with a chair's written reason, which is audited and
 * shown to chairs; mails about its reviewers leave conflicted chairs out. Conflicts are
 * written straight into the table here: declaring and judging them is
 * conflicts.api.test.ts's.
 */
let ctx: TestContext;
let forms: { proposal: number; review: number; score: number };
const DAY = 24 * 60 * 60 * 1000;

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
    review: await form(2, {
      type: 'object',
      properties: { strengths: { type: 'string', title: 'Strengths' } },
    }),
    score: await form(
      3,
      {
        type: 'object',
        properties: { significance: { type: 'integer', title: 'Significance' } },
      },
      { method: 'average', fields: ['significance'] },
    ),
  };
});
afterAll(() => ctx.close());

async function person(overrides: Parameters<typeof makeUser>[1] = {}) {
  const user = await makeUser(ctx.app, overrides);
  return { user, call: caller(ctx.app, auth(await login(ctx.app, user.username))) };
}
type Person = Awaited<ReturnType<typeof person>>;

let hashes = 0;

/** A conflict of interest straight in the table, as the conflicts routes record them. */
async function recordConflict(
  proposalId: number,
  userId: number,
  facts: { type?: ConflictType; source?: ConflictSource; state?: ConflictState } = {},
) {
  await ctx.app.db.insert(conflicts).values({
    proposalId,
    userId,
    type: facts.type ?? 'personal',
    source: facts.source ?? 'chair',
    state: facts.state ?? 'confirmed',
    changedAt: ctx.clock.now(),
  });
}

/**
 * A committee of two chairs (Carla; Cora, conflicted) and four members (Rita, who reviews;
 * Mia, conflicted; Ben, to be assigned; Sam), an admin with a conflict, and a call in its
 * review period whose review is open to all members. Three submitted proposals: "Close to
 * home", which Mia, Cora and the admin have a confirmed conflict with, Sam a suggested one,
 * and which Rita reviewed (a canary in her answer) and Carla decided (a canary in the
 * summary); "Far away", reviewed by Rita too; "Not yet", without reviews.
 */
async function world(options: { conflictsEnabled?: boolean } = {}) {
  const now = ctx.clock.now();
  const committeeId = (await makeCommittee(ctx.app)).id;
  const carla = await person({ firstName: 'Carla', lastName: 'Chair' });
  const cora = await person({ firstName: 'Cora', lastName: 'Conflicted' });
  const rita = await person({ firstName: 'Rita', lastName: 'Reviewer' });
  const mia = await person({ firstName: 'Mia', lastName: 'Member' });
  const ben = await person({ firstName: 'Ben', lastName: 'Second' });
  const sam = await person({ firstName: 'Sam', lastName: 'Suggested' });
  const admin = await person({ firstName: 'Adam', lastName: 'Admin', isAdmin: true });
  const author = await person({ firstName: 'Ada', lastName: 'Author' });
  for (const chair of [carla, cora])
    await giveRole(ctx.app, chair.user.id, committeeId, 'CHAIR', now);
  for (const member of [rita, mia, ben, sam])
    await giveRole(ctx.app, member.user.id, committeeId, 'MEMBER', now);
  const callId = await ctx.app.writeAs({ id: admin.user.id, isAdmin: true }, (work) =>
    saveCall(
      work,
      callPayload(committeeId, { ...forms, proposalMulti: forms.proposal }, now, {
        isReviewOpen: true,
        conflicts: { enabled: options.conflictsEnabled ?? true, declarationRequired: false },
        proposalTypes: [
          {
            typeName: 'Standard',
            typeId: null,
            proposalForms: [forms.proposal],
            reviewForms: [forms.review, forms.score],
          },
        ],
      }),
    ),
  );
  const proposalTypeId = await proposalTypeOf(ctx.app, callId);
  const propose = async (name: string) => {
    const made = await makeProposal(ctx.app, {
      callId,
      proposalTypeId,
      authorId: author.user.id,
      stateVal: 1,
    });
    await ctx.app.db.update(proposals).set({ name }).where(eq(proposals.id, made.id));
    return made.id;
  };
  const close = await propose('Close to home');
  const far = await propose('Far away');
  const notYet = await propose('Not yet');
  await assignReviewers(ctx.app, close, [rita.user.id]);
  await assignReviewers(ctx.app, far, [rita.user.id]);
  // Submission has closed; the review period is open.
  ctx.clock.advance(8 * DAY);

  const canaries = {
    review: `zqreview${randomBytes(4).toString('hex')}`,
    decision: `zqdecision${randomBytes(4).toString('hex')}`,
  };
  const reviewOf = async (proposalId: number, strengths: string, significance: number) => {
    const save = (formId: number, data: object, extra: object = {}) =>
      rita.call('POST', '/review_responses/', {
        call: callId,
        proposal: proposalId,
        formId,
        hash: (hashes += 1),
        data,
        ...extra,
      });
    const first = await save(forms.review, { strengths });
    expect(first.statusCode, first.body).toBe(200);
    const { reviewId, version } = first.json() as { reviewId: number; version: number };
    const second = await save(forms.score, { significance }, { reviewId, version });
    expect(second.statusCode, second.body).toBe(200);
    return reviewId;
  };
  const reviews = {
    close: await reviewOf(close, `Strong: ${canaries.review}`, 5),
    far: await reviewOf(far, 'Sound enough', 2),
  };
  const decided = await carla.call('POST', '/update_decision_summary/', {
    proposalId: close,
    summary: `<p>Funded: ${canaries.decision}</p>`,
    version: 0,
  });
  expect(decided.statusCode, decided.body).toBe(200);

  await recordConflict(close, mia.user.id, { source: 'applicant' });
  await recordConflict(close, cora.user.id, { source: 'chair', type: 'financial' });
  await recordConflict(close, admin.user.id, { source: 'detected', type: 'institutional' });
  await recordConflict(close, sam.user.id, { source: 'detected', state: 'suggested' });

  return {
    committeeId,
    callId,
    ids: { close, far, notYet },
    reviews,
    canaries,
    people: { carla, cora, rita, mia, ben, sam, admin, author },
  };
}
type World = Awaited<ReturnType<typeof world>>;

/**
 * `who`'s requests, every answer searched for the canaries of the proposal they have a
 * conflict with: whatever the route, none may carry its review's answer or its decision.
 */
function watched(w: World, who: Person) {
  return async (method: 'GET' | 'POST' | 'DELETE', path: string, payload?: unknown) => {
    const res = await who.call(method, path, payload);
    for (const canary of Object.values(w.canaries))
      expect(res.body, `${method} ${path} as ${who.user.firstName}`).not.toContain(canary);
    return res;
  };
}

/** The review columns a chair's list row carries on a proposal they may see reviews of. */
const REVIEW_COLUMNS = [
  'reviewers',
  'isReviewed',
  'reviewScores',
  'score',
  'allReviewScores',
  'allReviewComments',
];

const rowOf = (page: CallProposalPage, id: number) => page.items.find((row) => row.id === id)!;

describe('assigning a member with a conflict of interest', () => {
  it('is 409 naming the conflict; with a reason it is made, stored, audited and shown to chairs only', async () => {
    const w = await world();
    const { carla, ben, rita } = w.people;
    await recordConflict(w.ids.close, ben.user.id, { type: 'institutional' });
    const assign = (extra: object = {}) =>
      carla.call('POST', '/reviewers/', { proposalId: w.ids.close, userId: ben.user.id, ...extra });

    const refused = await assign();
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json()).toEqual({
      code: 'conflict',
      detail: conflictMessages.assignConflicted('Ben Second', 'institutional'),
    });
    const rowsOf = () =>
      ctx.app.db
        .select()
        .from(proposalReviewers)
        .where(
          and(
            eq(proposalReviewers.proposalId, w.ids.close),
            eq(proposalReviewers.userId, ben.user.id),
          ),
        );
    expect(await rowsOf()).toEqual([]);
    const audits = async () =>
      (await auditOf(ctx.app, 'proposal', w.ids.close)).filter(
        (a) => a.action === 'proposal.add_reviewer',
      );
    expect(await audits()).toEqual([]);

    const made = await assign({ overrideReason: '  Works in another department.  ' });
    expect(made.statusCode, made.body).toBe(201);
    const overrideReason = 'Works in another department.';
    expect(made.json()).toEqual({ id: ben.user.id, name: 'Ben Second', overrideReason });
    expect(await rowsOf()).toMatchObject([{ overrideReason }]);
    const [audit] = await audits();
    expect(audit!.actorId).toBe(carla.user.id);
    expect(audit!.changes).toMatchObject({
      overrideReason: { after: overrideReason },
      reviewerIds: { after: expect.arrayContaining([ben.user.id]) },
    });

    // Chairs see the reason beside the reviewer: on the proposal's page, its review list
    // and the call's list. A fellow reviewer (any member may review here) sees the names.
    const benWithReason = { id: ben.user.id, name: 'Ben Second', overrideReason };
    const benPlain = { id: ben.user.id, name: 'Ben Second' };
    const detail = async (who: Person) =>
      ((await who.call('GET', `/proposals/${w.ids.close}/`)).json() as ProposalDetail).reviewers;
    const reviewList = async (who: Person) =>
      (
        (
          await who.call('GET', `/calls/${w.callId}/proposals/${w.ids.close}/reviews/`)
        ).json() as ProposalReviewList
      ).reviewers;
    expect(await detail(carla)).toContainEqual(benWithReason);
    expect(await reviewList(carla)).toContainEqual(benWithReason);
    const list = (await carla.call('GET', `/calls/${w.callId}/proposals/`)).json();
    expect(rowOf(list as CallProposalPage, w.ids.close).reviewers).toContainEqual(benWithReason);
    expect(await detail(rita)).toContainEqual(benPlain);
    expect(await reviewList(rita)).toContainEqual(benPlain);
    expect(JSON.stringify(await detail(rita))).not.toContain(overrideReason);
    // The assignment that had no conflict carries no reason.
    expect(await detail(carla)).toContainEqual({ id: rita.user.id, name: 'Rita Reviewer' });

    // The override is what the chair meant: Ben may review it, and it is among his pending.
    const pendingOf = async () =>
      ((await ben.call('GET', '/pending_reviews/')).json() as PendingReview[]).map(
        (row) => row.proposalId,
      );
    expect(await pendingOf()).toContain(w.ids.close);
    const review = () =>
      ben.call('POST', '/review_responses/', {
        call: w.callId,
        proposal: w.ids.close,
        formId: forms.review,
        hash: (hashes += 1),
        data: { strengths: 'Reviewed on the chair’s word.' },
      });
    expect((await ben.call('GET', `/proposals/${w.ids.close}/`)).json()).toMatchObject({
      abilities: { review: true, viewReviews: true },
    });
    // Taking the assignment back ends the override: the conflict keeps him away again.
    const removed = await carla.call('DELETE', '/reviewers/', {
      proposalId: w.ids.close,
      userId: ben.user.id,
    });
    expect(removed.statusCode, removed.body).toBeLessThan(300);
    expect(await pendingOf()).not.toContain(w.ids.close);
    const kept = await review();
    expect(kept.statusCode, kept.body).toBe(403);
    expect(kept.json()).toMatchObject({ detail: conflictMessages.reviewConflicted });
  });

  it('needs no reason for a suggested or dismissed conflict, nor on a call with conflicts off', async () => {
    const w = await world();
    const { carla, sam, ben } = w.people;
    // Sam's is suggested.
    const suggested = await carla.call('POST', '/reviewers/', {
      proposalId: w.ids.close,
      userId: sam.user.id,
    });
    expect(suggested.statusCode, suggested.body).toBe(201);
    await recordConflict(w.ids.far, ben.user.id, { state: 'dismissed' });
    const dismissed = await carla.call('POST', '/reviewers/', {
      proposalId: w.ids.far,
      userId: ben.user.id,
      // Given where nothing is overridden: not kept.
      overrideReason: 'Just in case.',
    });
    expect(dismissed.statusCode, dismissed.body).toBe(201);
    expect(dismissed.json()).toEqual({ id: ben.user.id, name: 'Ben Second' });

    const off = await world({ conflictsEnabled: false });
    const mia = await off.people.carla.call('POST', '/reviewers/', {
      proposalId: off.ids.close,
      userId: off.people.mia.user.id,
    });
    expect(mia.statusCode, mia.body).toBe(201);
  });
});

describe('a member with a conflict of interest', () => {
  it('gets 404 for its review, review list, scores and decision, and may not review it', async () => {
    const w = await world();
    const { mia } = w.people;
    const get = watched(w, mia);

    expect((await get('GET', `/reviews/${w.ids.close}/${w.reviews.close}/`)).statusCode).toBe(404);
    expect(
      (await get('GET', `/calls/${w.callId}/proposals/${w.ids.close}/reviews/`)).statusCode,
    ).toBe(404);
    // The other proposal's, which any member may review here, are theirs to read.
    expect((await get('GET', `/reviews/${w.ids.far}/${w.reviews.far}/`)).statusCode).toBe(200);
    expect(
      (await get('GET', `/calls/${w.callId}/proposals/${w.ids.far}/reviews/`)).statusCode,
    ).toBe(200);

    // The proposal itself stays open to them, without its reviewers, scores, Reviewed or decision.
    const page = await get('GET', `/proposals/${w.ids.close}/`);
    expect(page.statusCode, page.body).toBe(200);
    const detail = page.json() as ProposalDetail;
    expect(detail.state).toBe('Submitted');
    for (const key of ['reviewers', 'reviewScores', 'isReviewed', 'decisionSummary'])
      expect(detail, key).not.toHaveProperty(key);
    expect(detail.abilities).toMatchObject({
      review: false,
      viewReviews: false,
      viewDecision: false,
    });
    const far = (await get('GET', `/proposals/${w.ids.far}/`)).json() as ProposalDetail;
    expect(far.abilities).toMatchObject({ review: true, viewReviews: true });

    const save = (proposal: number) =>
      get('POST', '/review_responses/', {
        call: w.callId,
        proposal,
        formId: forms.review,
        hash: (hashes += 1),
        data: { strengths: 'My view' },
      });
    const refused = await save(w.ids.close);
    expect(refused.statusCode, refused.body).toBe(403);
    expect(refused.json()).toMatchObject({ detail: conflictMessages.reviewConflicted });
    expect((await save(w.ids.far)).statusCode).toBe(200);

    // The call's list marks the row, and the rest of their answers say nothing either.
    const list = (await get('GET', `/calls/${w.callId}/proposals/`)).json() as CallProposalPage;
    expect(rowOf(list, w.ids.close)).toMatchObject({ myConflict: true, state: 'Submitted' });
    expect(rowOf(list, w.ids.far)).not.toHaveProperty('myConflict');
    for (const path of ['/reviews/', '/proposals/', `/calls/${w.callId}/`])
      expect((await get('GET', path)).statusCode, path).toBe(200);
  });

  it('no longer has it among their pending reviews, in the list or its count', async () => {
    const w = await world();
    const get = watched(w, w.people.mia);
    const pending = (await get('GET', '/pending_reviews/')).json() as PendingReview[];
    const ids = pending.map((row) => row.proposalId);
    expect(ids).toContain(w.ids.far);
    expect(ids).toContain(w.ids.notYet);
    expect(ids).not.toContain(w.ids.close);
    expect((await get('GET', '/pending_reviews/count/')).json()).toEqual({ total: ids.length });
    // Ben, without a conflict, has all three.
    const bens = (await w.people.ben.call('GET', '/pending_reviews/')).json() as PendingReview[];
    expect(bens.map((row) => row.proposalId)).toContain(w.ids.close);
  });

  it('once conflicted after reviewing it, loses their own review of it too', async () => {
    const w = await world();
    const { rita } = w.people;
    await recordConflict(w.ids.close, rita.user.id, { source: 'reviewer' });
    const get = watched(w, rita);
    const mine = (await get('GET', '/reviews/')).json() as { proposalId: number }[];
    expect(mine.map((row) => row.proposalId)).toEqual([w.ids.far]);
    expect((await get('GET', `/reviews/${w.ids.close}/${w.reviews.close}/`)).statusCode).toBe(404);
    const save = await get('POST', '/review_responses/', {
      call: w.callId,
      proposal: w.ids.close,
      reviewId: w.reviews.close,
      version: 2,
      formId: forms.review,
      hash: (hashes += 1),
      data: { strengths: 'Changed my mind' },
    });
    expect(save.statusCode, save.body).toBe(403);
    // Their review still counts for the chairs.
    const list = await w.people.carla.call(
      'GET',
      `/calls/${w.callId}/proposals/${w.ids.close}/reviews/`,
    );
    expect((list.json() as ProposalReviewList).reviews).toHaveLength(1);
  });

  it('reads and reviews it as before on a call with conflicts turned off', async () => {
    const w = await world({ conflictsEnabled: false });
    const { mia } = w.people;
    expect(
      (await mia.call('GET', `/calls/${w.callId}/proposals/${w.ids.close}/reviews/`)).statusCode,
    ).toBe(200);
    const pending = (await mia.call('GET', '/pending_reviews/')).json() as PendingReview[];
    expect(pending.map((row) => row.proposalId)).toContain(w.ids.close);
    const list = (await w.people.cora.call('GET', `/calls/${w.callId}/proposals/`)).json();
    expect(rowOf(list as CallProposalPage, w.ids.close)).toMatchObject({ state: 'Reviewed' });
  });
});

/** What a chair, or an admin, with a conflict gets: the same whoever they are. */
async function expectKeptOut(w: World, who: Person) {
  const get = watched(w, who);
  const { close, far } = w.ids;
  expect((await get('GET', `/reviews/${close}/${w.reviews.close}/`)).statusCode).toBe(404);
  expect((await get('GET', `/calls/${w.callId}/proposals/${close}/reviews/`)).statusCode).toBe(404);
  expect((await get('GET', `/calls/${w.callId}/proposals/${far}/reviews/`)).statusCode).toBe(200);

  const detail = (await get('GET', `/proposals/${close}/`)).json() as ProposalDetail;
  expect(detail.state).toBe('Submitted');
  for (const key of ['reviewers', 'reviewScores', 'isReviewed', 'decisionSummary'])
    expect(detail, key).not.toHaveProperty(key);
  expect(detail.abilities).toMatchObject({
    viewReviews: false,
    manageReviewers: false,
    viewDecision: false,
    editDecision: false,
    viewConflicts: false,
    manageConflicts: false,
  });

  // Neither its decision nor its reviewers are theirs to change.
  const decision = await get('POST', '/update_decision_summary/', {
    proposalId: close,
    summary: '<p>Rejected.</p>',
    version: 1,
  });
  expect(decision.statusCode, decision.body).toBe(404);
  const reviewer = { proposalId: close, userId: w.people.ben.user.id };
  const assigned = await get('POST', '/reviewers/', reviewer);
  expect(assigned.statusCode, assigned.body).toBe(403);
  expect(assigned.json()).toMatchObject({ detail: conflictMessages.chairConflicted });
  const removed = await get('DELETE', '/reviewers/', {
    proposalId: close,
    userId: w.people.rita.user.id,
  });
  expect(removed.statusCode, removed.body).toBe(403);

  // The call's list: the row, its resources and `myConflict`, none of its review columns.
  const list = (await get('GET', `/calls/${w.callId}/proposals/`)).json() as CallProposalPage;
  const row = rowOf(list, close);
  expect(row).toMatchObject({ myConflict: true, state: 'Submitted', stateVal: 1 });
  expect(row.resourceValues).toBeDefined();
  for (const key of [...REVIEW_COLUMNS, 'conflicts']) expect(row, key).not.toHaveProperty(key);
  expect(rowOf(list, far)).toMatchObject({ isReviewed: true, state: 'Reviewed' });
  expect(rowOf(list, far).conflicts).toEqual({
    confirmed: 0,
    suggested: 0,
    declaredByApplicants: false,
  });

  // Sorted by score either way, it sorts as a proposal without one: after the scored.
  for (const sort of ['score', '-score']) {
    const sorted = (await get('GET', `/calls/${w.callId}/proposals/?sort=${sort}`)).json();
    const order = (sorted as CallProposalPage).items.map((item) => item.id);
    expect(order.indexOf(far), sort).toBeLessThan(order.indexOf(close));
  }

  // The chair's numbers count it as awaiting review, as its row reads.
  expect((await get('GET', `/calls/${w.callId}/manage/`)).json()).toEqual({
    submitted: 3,
    awaitingReview: 2,
  });

  // The whole-call export: its row without reviews, scores or decision, and a note.
  const exported = await get(
    'GET',
    `/calls/${w.callId}/proposals/export/?include=allReviewScores,allReviewComments`,
  );
  expect(exported.statusCode, exported.body).toBe(200);
  const body = exported.json() as CallProposalExport;
  const item = body.items.find((i) => i.id === close)!;
  expect(item.myConflict).toBe(true);
  for (const key of REVIEW_COLUMNS) expect(item, key).not.toHaveProperty(key);
  expect(body.items.find((i) => i.id === far)!.allReviewComments).toHaveLength(1);
  expect(body.omitted).toEqual([{ proposalId: close, reason: conflictMessages.exportOmitted }]);
}

describe('a chair with a conflict of interest', () => {
  it('sees nothing of its reviews, scores or decision anywhere, and changes neither', async () => {
    const w = await world();
    await expectKeptOut(w, w.people.cora);
  });

  it('leaves the other chairs everything, with the proposal’s conflicts counted', async () => {
    const w = await world();
    const { carla } = w.people;
    const list = (await carla.call('GET', `/calls/${w.callId}/proposals/`)).json();
    const row = rowOf(list as CallProposalPage, w.ids.close);
    expect(row).not.toHaveProperty('myConflict');
    expect(row).toMatchObject({ state: 'Reviewed', isReviewed: true, score: 5 });
    expect(row.conflicts).toEqual({ confirmed: 3, suggested: 1, declaredByApplicants: true });
    const sorted = (await carla.call('GET', `/calls/${w.callId}/proposals/?sort=-score`)).json();
    expect((sorted as CallProposalPage).items[0]!.id).toBe(w.ids.close);
    expect((await carla.call('GET', `/calls/${w.callId}/manage/`)).json()).toEqual({
      submitted: 3,
      awaitingReview: 1,
    });
    const exported = await carla.call(
      'GET',
      `/calls/${w.callId}/proposals/export/?include=allReviewScores,allReviewComments`,
    );
    const body = exported.json() as CallProposalExport;
    expect(body).not.toHaveProperty('omitted');
    expect(exported.body).toContain(w.canaries.review);
    const item = body.items.find((i: CallProposal) => i.id === w.ids.close)!;
    expect(item.allReviewScores).toHaveLength(1);
    const detail = (await carla.call('GET', `/proposals/${w.ids.close}/`)).json();
    expect((detail as ProposalDetail).decisionSummary).toContain(w.canaries.decision);
  });
});

describe('an admin with a conflict of interest', () => {
  it('is kept out as a chair is: admins see everything but what they are conflicted on', async () => {
    const w = await world();
    await expectKeptOut(w, w.people.admin);
  });
});

describe('mails about a proposal’s reviewers', () => {
  it('leave out the chairs with a conflict of interest with it', async () => {
    const w = await world();
    const { carla, cora, ben, author } = w.people;
    await assignReviewers(ctx.app, w.ids.close, [ben.user.id]);
    const hash = ((await ben.call('GET', '/user_hash/')).json() as { hash: string }).hash;
    const added = await author.call('POST', '/collaborators/', { proposalId: w.ids.close, hash });
    expect(added.statusCode, added.body).toBe(201);
    const subject = 'Reviewer removed from Close to home';
    const sent = (await outbox(ctx)).filter((mail) => mail.subject === subject);
    expect(sent.map((mail) => mail.to)).toContain(carla.user.email);
    expect(sent.map((mail) => mail.to)).not.toContain(cora.user.email);
  });
});
