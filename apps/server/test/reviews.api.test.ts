import type { CallSave, ProposalDetail, ReviewDetail, ReviewResponseSave } from '@merit/contract';
import { reviewMessages } from '@merit/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveCall } from '../src/modules/calls/calls.service.js';
import { auditOf, caller, makeForm, makeFormName } from './admin-fixtures.js';
import { callPayload } from './call-fixtures.js';
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
 * Reviews (issue 13) on a real database: assigning reviewers, saving reviews with their
 * scores worked out on the server, who sees which review, pending reviews, one's own
 * reviews, and that a proposal's authors learn nothing of its reviews from any route.
 */
let ctx: TestContext;
let forms: { proposal: number; review: number; score: number };
const DAY = 24 * 60 * 60 * 1000;

const reviewSchema = {
  type: 'object',
  required: ['strengths'],
  properties: {
    strengths: { type: 'string', title: 'Strengths', minLength: 3 },
    weaknesses: { type: 'string', title: 'Weaknesses' },
  },
};
const scoreSchema = {
  type: 'object',
  properties: {
    significance: { type: 'integer', title: 'Significance', minimum: 1, maximum: 5 },
    feasibility: { type: 'integer', title: 'Feasibility', minimum: 1, maximum: 5 },
  },
};

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
    review: await form(2, reviewSchema),
    score: await form(3, scoreSchema, {
      method: 'average',
      fields: ['significance', 'feasibility'],
    }),
  };
});
afterAll(() => ctx.close());

async function person(overrides: Parameters<typeof makeUser>[1] = {}) {
  const user = await makeUser(ctx.app, overrides);
  return { user, call: caller(ctx.app, auth(await login(ctx.app, user.username))) };
}
type Person = Awaited<ReturnType<typeof person>>;

let hashes = 0;

/**
 * A committee with a chair and three members, a call of it (submission open for a week
 * from yesterday, then review for a week), and a proposal its author has submitted with
 * a collaborator. `isReviewOpen` lets any member review.
 */
async function world(overrides: Partial<CallSave> = {}) {
  const now = ctx.clock.now();
  const committeeId = (await makeCommittee(ctx.app)).id;
  const chair = await person({ firstName: 'Carla', lastName: 'Chair' });
  const [rita, ben, mia] = [
    await person({ firstName: 'Rita', lastName: 'Reviewer' }),
    await person({ firstName: 'Ben', lastName: 'Second' }),
    await person({ firstName: 'Mia', lastName: 'Member' }),
  ];
  await giveRole(ctx.app, chair.user.id, committeeId, 'CHAIR', now);
  for (const m of [rita, ben, mia]) await giveRole(ctx.app, m.user.id, committeeId, 'MEMBER', now);
  const author = await person({ firstName: 'Ada', lastName: 'Author' });
  const collaborator = await person({ firstName: 'Col', lastName: 'Laborator' });
  const outsider = await person();
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
  const created = await author.call('POST', '/update_proposal_name/', {
    callId,
    isNew: true,
    name: 'Dark matter survey',
    type: typeId,
  });
  expect(created.statusCode, created.body).toBe(201);
  const proposalId = (created.json() as ProposalDetail).id;
  const collaborators = await author.call('POST', '/collaborators/', {
    proposalId,
    hash: (await userHash(collaborator)).hash,
  });
  expect(collaborators.statusCode, collaborators.body).toBe(201);
  const submitted = await author.call('POST', '/proposal_state/', { proposalId, state: 1 });
  expect(submitted.statusCode, submitted.body).toBe(200);
  return { committeeId, callId, proposalId, chair, rita, ben, mia, author, collaborator, outsider };
}
type World = Awaited<ReturnType<typeof world>>;

async function userHash(p: Person): Promise<{ hash: string }> {
  const res = await p.call('GET', '/user_hash/');
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

/** Moves the clock into the call's review window (submission has closed). */
const reviewTime = () => ctx.clock.advance(8 * DAY);

const assign = (w: World, userId: number, who: Person = w.chair) =>
  who.call('POST', '/reviewers/', { proposalId: w.proposalId, userId });

const saveReview = (
  w: World,
  who: Person,
  formId: number,
  data: Record<string, unknown>,
  extra: Partial<ReviewResponseSave> = {},
) =>
  who.call('POST', '/review_responses/', {
    call: w.callId,
    proposal: w.proposalId,
    formId,
    hash: (hashes += 1),
    data,
    ...extra,
  });

/** The review and version a save answered: what the next save of that review names. */
const next = (saved: { json: () => { reviewId: number; version: number } }) => {
  const { reviewId, version } = saved.json();
  return { reviewId, version };
};

/** A full review, as Save All sends it: its written form, then its scores. */
async function review(w: World, who: Person, significance: number, feasibility: number) {
  const first = await saveReview(w, who, forms.review, {
    strengths: `Strong, says ${who.user.firstName}`,
  });
  expect(first.statusCode, first.body).toBe(200);
  const second = await saveReview(w, who, forms.score, { significance, feasibility }, next(first));
  expect(second.statusCode, second.body).toBe(200);
  return second.json() as { reviewId: number; score: number | null; version: number };
}

/** A review as its author reads it. */
async function reviewOf(w: World, who: Person, reviewId: number) {
  const res = await who.call('GET', `/reviews/${w.proposalId}/${reviewId}/`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as ReviewDetail;
}

describe('assigning reviewers', () => {
  it('lets a chair assign a current member, who gets a mail naming the call and deadline', async () => {
    const w = await world();
    const res = await assign(w, w.rita.user.id);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toEqual({ id: w.rita.user.id, name: 'Rita Reviewer' });
    const mail = (await outbox(ctx)).find(
      (m) => m.to === w.rita.user.email && m.subject === 'Please review: Dark matter survey',
    )!;
    expect(mail).toBeDefined();
    expect(mail.text).toContain('Telescope time 2026');
    expect(mail.links).toContain(
      `${ctx.app.config.publicUrl}/calls/${w.callId}/proposals/${w.proposalId}/review/`,
    );
    expect((await auditOf(ctx.app, 'proposal', w.proposalId)).map((a) => a.action)).toContain(
      'proposal.add_reviewer',
    );
  });

  it.each([
    ['the author', (w: World) => w.author.user.id, reviewMessages.reviewerIsTeam],
    ['a collaborator', (w: World) => w.collaborator.user.id, reviewMessages.reviewerIsTeam],
    [
      'someone off the committee',
      (w: World) => w.outsider.user.id,
      reviewMessages.reviewerNotMember,
    ],
    ['an unknown user', () => 999_999, reviewMessages.reviewerNotMember],
  ])('refuses %s with a message on userId', async (_name, who, message) => {
    const w = await world();
    const res = await assign(w, who(w));
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toEqual({ userId: [message] });
  });

  it('refuses someone assigned already, and members who are not chairs', async () => {
    const w = await world();
    expect((await assign(w, w.rita.user.id)).statusCode).toBe(201);
    const again = await assign(w, w.rita.user.id);
    expect(again.json().fields).toEqual({ userId: [reviewMessages.alreadyReviewer] });
    expect((await assign(w, w.ben.user.id, w.mia)).statusCode).toBe(403);
    expect((await assign(w, w.ben.user.id, w.outsider)).statusCode).toBe(404);
  });

  it('waits until the proposal leaves the submission stage', async () => {
    const w = await world();
    expect(
      (await w.author.call('POST', '/proposal_state/', { proposalId: w.proposalId, state: 0 }))
        .statusCode,
    ).toBe(200);
    const res = await assign(w, w.rita.user.id);
    expect(res.statusCode).toBe(409);
    expect(res.json().detail).toBe(reviewMessages.submissionStage);
  });

  it('takes an assignment back, with a note to the person', async () => {
    const w = await world();
    await assign(w, w.rita.user.id);
    const res = await w.chair.call('DELETE', '/reviewers/', {
      proposalId: w.proposalId,
      userId: w.rita.user.id,
    });
    expect(res.statusCode, res.body).toBe(204);
    // Both mails go after their commits, by whichever job pass comes first: find them by subject.
    const subjects = (await outbox(ctx))
      .filter((m) => m.to === w.rita.user.email)
      .map((m) => m.subject);
    expect(subjects).toEqual(
      expect.arrayContaining([
        'Please review: Dark matter survey',
        'No longer a reviewer of Dark matter survey',
      ]),
    );
    const gone = await w.chair.call('DELETE', '/reviewers/', {
      proposalId: w.proposalId,
      userId: w.rita.user.id,
    });
    expect(gone.json().fields).toEqual({ userId: [reviewMessages.notReviewer] });
  });

  it('lets chairs of the committee read its members for the picker', async () => {
    const w = await world();
    const res = await w.chair.call('GET', `/committee_members/?committee=${w.committeeId}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().map((m: { userId: number }) => m.userId)).toContain(w.rita.user.id);
    expect(
      (await w.rita.call('GET', `/committee_members/?committee=${w.committeeId}`)).statusCode,
    ).toBe(403);
  });
});

describe('saving a review', () => {
  it('makes the review on its first save and works its score out on the server', async () => {
    const w = await world();
    await assign(w, w.rita.user.id);
    reviewTime();
    const first = await saveReview(w, w.rita, forms.review, { strengths: 'A bold plan' });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({
      proposalId: w.proposalId,
      formId: forms.review,
      score: null,
    });
    const { reviewId } = first.json();
    const second = await saveReview(
      w,
      w.rita,
      forms.score,
      { significance: 4, feasibility: 3 },
      next(first),
    );
    expect(second.json()).toMatchObject({ reviewId, score: 3.5 });
    const res = await w.rita.call('GET', `/reviews/${w.proposalId}/${reviewId}/`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      id: reviewId,
      author: 'Rita Reviewer',
      proposalName: 'Dark matter survey',
      responses: {
        [forms.review]: { strengths: 'A bold plan' },
        [forms.score]: { significance: 4, feasibility: 3 },
      },
      scores: [
        { name: 'significance', value: 4 },
        { name: 'feasibility', value: 3 },
      ],
      score: 3.5,
      version: 2,
      abilities: { edit: true },
    });
  });

  it('refuses answers that break the form, with the spec’s message and the field', async () => {
    const w = await world();
    await assign(w, w.rita.user.id);
    reviewTime();
    const res = await saveReview(w, w.rita, forms.review, { strengths: 'no' });
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toBe('There was an error saving the review');
    expect(Object.keys(res.json().fields)).toEqual(['strengths']);
    // A draft of the review may be saved without the checks.
    expect(
      (await saveReview(w, w.rita, forms.review, { strengths: 'no' }, { validate: false }))
        .statusCode,
    ).toBe(200);
  });

  it('keeps one audit row per Save All batch, however many forms it saved', async () => {
    const w = await world();
    await assign(w, w.rita.user.id);
    reviewTime();
    const hash = 4242;
    const one = await saveReview(w, w.rita, forms.review, { strengths: 'Solid' }, { hash });
    const two = await saveReview(
      w,
      w.rita,
      forms.score,
      { significance: 5 },
      { hash, ...next(one) },
    );
    await saveReview(w, w.rita, forms.score, { significance: 5 }, { hash, ...next(two) });
    const rows = await auditOf(ctx.app, 'review', one.json().reviewId);
    expect(rows).toHaveLength(1);
  });

  it.each([
    ['a member not assigned', (w: World) => w.ben, 403, reviewMessages.notAssigned],
    ['the author', (w: World) => w.author, 403, reviewMessages.ownProposal],
    ['a collaborator', (w: World) => w.collaborator, 403, reviewMessages.ownProposal],
    ['an outsider', (w: World) => w.outsider, 404, undefined],
  ])('refuses %s', async (_name, who, status, message) => {
    const w = await world();
    await assign(w, w.rita.user.id);
    reviewTime();
    const res = await saveReview(w, who(w), forms.review, { strengths: 'Sneaky' });
    expect(res.statusCode).toBe(status);
    if (message) expect(res.json().detail).toBe(message);
  });

  it('lets any member review when the call is open to all', async () => {
    const w = await world({ isReviewOpen: true });
    reviewTime();
    expect(
      (await saveReview(w, w.ben, forms.review, { strengths: 'Open to all' })).statusCode,
    ).toBe(200);
  });

  it('is refused before the review window opens and after it closes', async () => {
    const w = await world();
    await assign(w, w.rita.user.id);
    const early = await saveReview(w, w.rita, forms.review, { strengths: 'Too early' });
    expect(early.statusCode).toBe(409);
    ctx.clock.advance(15 * DAY);
    // A fortnight on, the old session has gone idle: log in again.
    const rita = {
      ...w.rita,
      call: caller(ctx.app, auth(await login(ctx.app, w.rita.user.username))),
    };
    const late = await saveReview(w, rita, forms.review, { strengths: 'Too late' });
    expect(late.statusCode).toBe(409);
    expect(late.json().detail).toBe(reviewMessages.windowClosed);
  });

  it('never changes someone else’s review', async () => {
    const w = await world();
    await assign(w, w.rita.user.id);
    await assign(w, w.ben.user.id);
    reviewTime();
    const { reviewId, version } = await review(w, w.rita, 4, 4);
    const res = await saveReview(
      w,
      w.ben,
      forms.review,
      { strengths: 'Overwritten' },
      { reviewId, version },
    );
    expect(res.statusCode).toBe(403);
    expect(res.json().detail).toBe(reviewMessages.notOwnReview);
    const view = await w.ben.call('GET', `/reviews/${w.proposalId}/${reviewId}/`);
    expect(view.json().responses[forms.review]).toEqual({ strengths: 'Strong, says Rita' });
    expect(view.json().abilities.edit).toBe(false);
  });
});

describe('versions of a review', () => {
  it('saves a Save All of two forms, each naming the version the one before answered', async () => {
    const w = await world();
    await assign(w, w.rita.user.id);
    reviewTime();
    const first = await saveReview(w, w.rita, forms.review, { strengths: 'Careful plan' });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().version).toBe(1);
    const second = await saveReview(w, w.rita, forms.score, { significance: 5 }, next(first));
    expect(second.statusCode, second.body).toBe(200);
    expect(second.json()).toMatchObject({ reviewId: first.json().reviewId, version: 2 });
    const saved = await reviewOf(w, w.rita, first.json().reviewId);
    expect(saved.version).toBe(2);
    expect(saved.responses).toEqual({
      [forms.review]: { strengths: 'Careful plan' },
      [forms.score]: { significance: 5 },
    });
  });

  it('refuses a save from a version saved over since, with the review as saved, writing nothing', async () => {
    const w = await world();
    await assign(w, w.rita.user.id);
    reviewTime();
    const { reviewId } = await review(w, w.rita, 4, 4);
    const opened = await reviewOf(w, w.rita, reviewId);
    // Another tab saves the scores again; this one still has the version it opened.
    const elsewhere = await saveReview(
      w,
      w.rita,
      forms.score,
      { significance: 2, feasibility: 2 },
      { reviewId, version: opened.version },
    );
    expect(elsewhere.statusCode, elsewhere.body).toBe(200);
    const savedAt = new Date(elsewhere.json().lastModified);
    const auditBefore = await auditOf(ctx.app, 'review', reviewId);
    ctx.clock.advance(60_000);

    const res = await saveReview(
      w,
      w.rita,
      forms.review,
      { strengths: 'From the stale tab' },
      { reviewId, version: opened.version },
    );
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      code: 'stale',
      detail: reviewMessages.stale(savedAt),
      current: {
        reviewId,
        version: opened.version + 1,
        responses: {
          [forms.review]: { strengths: 'Strong, says Rita' },
          [forms.score]: { significance: 2, feasibility: 2 },
        },
        savedAt: savedAt.toISOString(),
      },
    });
    expect(res.json().detail).toContain(`${savedAt.getUTCFullYear()},`);
    expect(res.json().detail).toContain('UTC');
    const after = await reviewOf(w, w.rita, reviewId);
    expect(after).toMatchObject({
      version: opened.version + 1,
      score: 2,
      lastModified: savedAt.toISOString(),
    });
    expect(after.responses[forms.review]).toEqual({ strengths: 'Strong, says Rita' });
    expect(await auditOf(ctx.app, 'review', reviewId)).toEqual(auditBefore);
  });

  it('refuses a second review without reviewId (the new-review page open twice), keeping the saved one', async () => {
    const w = await world();
    await assign(w, w.rita.user.id);
    reviewTime();
    const { reviewId, version } = await review(w, w.rita, 4, 3);
    const saved = await reviewOf(w, w.rita, reviewId);
    // The second tab opened before the first saved: it saves its blank form as a new review.
    const res = await saveReview(w, w.rita, forms.review, {}, { validate: false });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      code: 'stale',
      detail: reviewMessages.reviewExists(new Date(saved.lastModified)),
      current: {
        reviewId,
        version,
        responses: saved.responses,
        savedAt: saved.lastModified,
      },
    });
    expect(await reviewOf(w, w.rita, reviewId)).toEqual(saved);
  });

  it('lets exactly one of two saves from one version through', async () => {
    const w = await world();
    await assign(w, w.rita.user.id);
    reviewTime();
    const { reviewId, version } = await review(w, w.rita, 3, 3);
    const answers = await Promise.all(
      ['First tab', 'Second tab'].map((strengths) =>
        saveReview(w, w.rita, forms.review, { strengths }, { reviewId, version }),
      ),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    const won = answers.find((a) => a.statusCode === 200)!.json();
    const lost = answers.find((a) => a.statusCode === 409)!.json();
    expect(won.version).toBe(version + 1);
    expect(lost.code).toBe('stale');
    const saved = await reviewOf(w, w.rita, reviewId);
    expect(saved.version).toBe(version + 1);
    expect(lost.current).toMatchObject({
      version: version + 1,
      responses: { [forms.review]: saved.responses[forms.review] },
    });
  });

  it('needs the version a save of a saved review started from', async () => {
    const w = await world();
    await assign(w, w.rita.user.id);
    reviewTime();
    const { reviewId } = await review(w, w.rita, 3, 3);
    const res = await saveReview(w, w.rita, forms.review, { strengths: 'Hm' }, { reviewId });
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().fields)).toEqual(['version']);
  });
});

describe('reading reviews and scores', () => {
  it('gives chairs every review, the per-field means, the result and the totals', async () => {
    const w = await world();
    await assign(w, w.rita.user.id);
    await assign(w, w.ben.user.id);
    reviewTime();
    await review(w, w.rita, 4, 3);
    const before = (
      await w.chair.call('GET', `/proposals/${w.proposalId}/`)
    ).json() as ProposalDetail;
    expect(before.isReviewed).toBe(false);
    expect(before.state).toBe('Submitted');
    await review(w, w.ben, 2, 5);

    const proposal = (
      await w.chair.call('GET', `/proposals/${w.proposalId}/`)
    ).json() as ProposalDetail;
    expect(proposal.state).toBe('Reviewed');
    expect(proposal.isReviewed).toBe(true);
    // By last name, as every list of people.
    expect(proposal.reviewers?.map((r) => r.name)).toEqual(['Rita Reviewer', 'Ben Second']);
    expect(proposal.reviewScores).toEqual([
      { name: 'significance', value: 3 },
      { name: 'feasibility', value: 4 },
      { name: 'result', value: 3.5 },
    ]);
    expect(proposal.abilities).toMatchObject({
      viewReviews: true,
      manageReviewers: true,
      review: false,
    });

    const list = await w.chair.call('GET', `/calls/${w.callId}/proposals/${w.proposalId}/reviews/`);
    expect(list.statusCode, list.body).toBe(200);
    expect(
      list.json().reviews.map((r: { author: string; score: number }) => [r.author, r.score]),
    ).toEqual([
      ['Rita Reviewer', 3.5],
      ['Ben Second', 3.5],
    ]);
    expect(list.json().reviews[0].comments).toEqual([
      { name: 'Strengths', value: 'Strong, says Rita' },
    ]);
    expect(list.json().totals).toEqual(proposal.reviewScores);
  });

  it('gives a member who may review every review, without the chair’s totals', async () => {
    const w = await world();
    await assign(w, w.rita.user.id);
    await assign(w, w.ben.user.id);
    reviewTime();
    await review(w, w.rita, 4, 3);
    const list = await w.ben.call('GET', `/calls/${w.callId}/proposals/${w.proposalId}/reviews/`);
    expect(list.statusCode).toBe(200);
    expect(list.json().reviews).toHaveLength(1);
    expect(list.json().totals).toBeUndefined();
    // A member who may not review it does not see them.
    expect(
      (await w.mia.call('GET', `/calls/${w.callId}/proposals/${w.proposalId}/reviews/`)).statusCode,
    ).toBe(404);
  });

  it('lists pending reviews until they are saved, and one’s own reviews after', async () => {
    const w = await world();
    await assign(w, w.rita.user.id);
    reviewTime();
    const pending = await w.rita.call('GET', '/pending_reviews/');
    expect(pending.statusCode, pending.body).toBe(200);
    expect(pending.json()).toContainEqual({
      committeeName: expect.any(String),
      callId: w.callId,
      callName: 'Telescope time 2026',
      proposalId: w.proposalId,
      proposalName: 'Dark matter survey',
      reviewDeadline: expect.any(String),
    });
    expect((await w.ben.call('GET', '/pending_reviews/')).json()).not.toContainEqual(
      expect.objectContaining({ proposalId: w.proposalId }),
    );
    const { reviewId } = await review(w, w.rita, 5, 5);
    expect((await w.rita.call('GET', '/pending_reviews/')).json()).not.toContainEqual(
      expect.objectContaining({ proposalId: w.proposalId }),
    );
    expect((await w.rita.call('GET', '/reviews/')).json()).toContainEqual(
      expect.objectContaining({
        reviewId,
        proposalId: w.proposalId,
        score: 5,
        callName: 'Telescope time 2026',
      }),
    );
  });
});

describe('what authors learn of reviews', () => {
  it('is nothing, from any route the product has', async () => {
    const w = await world();
    await assign(w, w.rita.user.id);
    reviewTime();
    const { reviewId } = await review(w, w.rita, 4, 2);
    const values: Record<string, number> = {
      id: w.proposalId,
      callId: w.callId,
      proposalId: w.proposalId,
      reviewId,
      committee: w.committeeId,
    };
    const secrets = [
      'Rita Reviewer',
      w.rita.user.email,
      'Strong, says Rita',
      'reviewScores',
      '"reviewers"',
      'isReviewed',
      '"Reviewed"',
    ];
    // The applicant's Conflicts panel lists every member of the call's committee by name
    // (issue 26: "name and institution, nothing else"), reviewers or not: there a name says
    // nothing of who reviews, so it is checked to stand among the others instead.
    const committeeListings = ['/api/v1/proposals/:id/conflicts/'];
    const gets = ctx.app.routes.filter((r) => r.method === 'GET' && r.url.startsWith('/api/v1/'));
    expect(gets.length).toBeGreaterThan(20);
    for (const who of [w.author, w.collaborator, w.outsider]) {
      const headers = auth(await login(ctx.app, who.user.username));
      for (const route of gets) {
        const url = route.url.replace(/:(\w+)/g, (_m, key: string) => String(values[key] ?? 1));
        const query = url.includes('committee_members') ? `?committee=${w.committeeId}` : '';
        const res = await ctx.app.inject({
          method: 'GET',
          url: `${url}${query}`,
          headers,
        });
        const listsCommittee = committeeListings.includes(route.url);
        for (const secret of secrets) {
          if (listsCommittee && secret === 'Rita Reviewer') continue;
          expect(res.body, `${route.url} as ${who.user.firstName}`).not.toContain(secret);
        }
        if (listsCommittee && res.body.includes('Rita Reviewer'))
          for (const other of ['Ben Second', 'Mia Member'])
            expect(res.body, `${route.url} as ${who.user.firstName}`).toContain(other);
      }
    }
    // And the routes made for reviews say they do not exist.
    expect((await w.author.call('GET', `/reviews/${w.proposalId}/${reviewId}/`)).statusCode).toBe(
      404,
    );
    expect(
      (await w.author.call('GET', `/calls/${w.callId}/proposals/${w.proposalId}/reviews/`))
        .statusCode,
    ).toBe(404);
    const own = (await w.author.call('GET', `/proposals/${w.proposalId}/`)).json();
    expect(own).not.toHaveProperty('reviewers');
    expect(own).not.toHaveProperty('reviewScores');
    expect(own.abilities).toMatchObject({
      review: false,
      viewReviews: false,
      manageReviewers: false,
    });
  });
});
