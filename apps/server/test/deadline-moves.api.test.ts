import type { CallDetail } from '@merit/contract';
import { utcTime } from '@merit/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { proposalCollaborators, users } from '../src/db/schema.js';
import { outbox } from './mail.js';
import { proposalTypeOf } from './proposal-fixtures.js';
import {
  auth,
  createTestApp,
  giveRole,
  login,
  makeCommittee,
  makeUser,
  type TestContext,
} from './helpers.js';
import {
  assignReviewers,
  callPayload,
  makeCallForms,
  makeProposal,
  makeReview,
  typesToSave,
  type CallForms,
} from './call-fixtures.js';

/**
 * Moving a call's deadlines (issue 30): the chair is told who it reaches before saving,
 * and moving the submission deadline earlier mails the people of each draft it cuts short.
 */
const DAY = 24 * 60 * 60 * 1000;
let ctx: TestContext;
let forms: CallForms;
let committee: { id: number };
let chair: Record<string, string>;
let member: Record<string, string>;
type Person = Awaited<ReturnType<typeof makeUser>>;
let ada: Person;
let grace: Person;
let hedy: Person;
let rita: Person;
let gone: Person;

beforeAll(async () => {
  ctx = await createTestApp();
  forms = await makeCallForms(ctx.app);
  committee = await makeCommittee(ctx.app, 'Astronomy');
  const now = ctx.clock.now();
  const c = await makeUser(ctx.app);
  const m = await makeUser(ctx.app);
  await giveRole(ctx.app, c.id, committee.id, 'CHAIR', now);
  await giveRole(ctx.app, m.id, committee.id, 'MEMBER', now);
  chair = auth(await login(ctx.app, c.username));
  member = auth(await login(ctx.app, m.username));
  ada = await makeUser(ctx.app, { firstName: 'Ada' });
  grace = await makeUser(ctx.app, { firstName: 'Grace' });
  hedy = await makeUser(ctx.app, { firstName: 'Hedy' });
  rita = await makeUser(ctx.app, { firstName: 'Rita' });
  gone = await makeUser(ctx.app, { firstName: 'Gone' });
  await ctx.app.db.update(users).set({ isActive: false }).where(eq(users.id, gone.id));
  await giveRole(ctx.app, rita.id, committee.id, 'MEMBER', now);
});
afterAll(() => ctx.close());

const at = (days: number) => new Date(ctx.clock.now().getTime() + days * DAY);

/**
 * A call closing in 7 days, review to day 14, with: Ada's draft (Grace and the inactive
 * Gone collaborating), Hedy's draft (Hedy has an extension to day 10), a submitted
 * proposal of Ada's with two reviewers assigned, one of whom has saved a review.
 */
async function world() {
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/v1/new_call/',
    headers: chair,
    payload: callPayload(committee.id, forms, ctx.clock.now()),
  });
  expect(res.statusCode, res.body).toBe(201);
  const call = res.json() as CallDetail;
  const proposalTypeId = await proposalTypeOf(ctx.app, call.id);
  const draft = await makeProposal(ctx.app, { callId: call.id, proposalTypeId, authorId: ada.id });
  await ctx.app.db.insert(proposalCollaborators).values([
    { proposalId: draft.id, userId: grace.id },
    { proposalId: draft.id, userId: gone.id },
  ]);
  await makeProposal(ctx.app, { callId: call.id, proposalTypeId, authorId: hedy.id });
  const extension = await ctx.app.inject({
    method: 'POST',
    url: '/api/v1/new_extension/',
    headers: chair,
    payload: {
      callId: call.id,
      user: hedy.id,
      commencement: at(-1).toISOString(),
      termination: at(10).toISOString(),
      reason: 'Observing run',
    },
  });
  expect(extension.statusCode, extension.body).toBe(201);
  const submitted = await makeProposal(ctx.app, {
    callId: call.id,
    proposalTypeId,
    authorId: ada.id,
    stateVal: 1,
  });
  await assignReviewers(ctx.app, submitted.id, [rita.id, grace.id]);
  await makeReview(ctx.app, submitted.id, rita.id);
  return { call, draft };
}

/** The call saved again as it is, with other deadlines. */
function edit(call: CallDetail, close: Date, review?: { opens: Date; closes: Date }) {
  return ctx.app.inject({
    method: 'POST',
    url: '/api/v1/new_call/',
    headers: chair,
    payload: callPayload(committee.id, forms, ctx.clock.now(), {
      new: false,
      id: call.id,
      closeDateTime: close.toISOString(),
      ...(review
        ? {
            reviewOpenDateTime: review.opens.toISOString(),
            reviewCloseDateTime: review.closes.toISOString(),
          }
        : {}),
      proposalTypes: typesToSave(call),
    }),
  });
}

const impact = (callId: number, termination: Date, reviewTermination: Date, as = chair) =>
  ctx.app.inject({
    method: 'GET',
    url: `/api/v1/calls/${callId}/deadline_impact/?termination=${encodeURIComponent(
      termination.toISOString(),
    )}&reviewTermination=${encodeURIComponent(reviewTermination.toISOString())}`,
    headers: as,
  });

describe('what a change of deadlines reaches, asked before saving', () => {
  it('counts drafts cut short and their people, extensions passed, reviews not saved', async () => {
    const { call } = await world();
    const earlier = await impact(call.id, at(3), at(12));
    expect(earlier.statusCode, earlier.body).toBe(200);
    // Ada's draft moves to day 3; Hedy's keeps her extension to day 10. Ada and Grace are
    // mailed, not the inactive Gone. Grace's review is not saved.
    expect(earlier.json()).toEqual({
      draftsEarlier: 1,
      peopleMailed: 2,
      draftsLater: 0,
      extensionsPast: 1,
      extensionsOvertaken: 0,
      reviewsNotSaved: 1,
    });
    const later = await impact(call.id, at(12), at(14));
    expect(later.json()).toEqual({
      draftsEarlier: 0,
      peopleMailed: 0,
      draftsLater: 2,
      extensionsPast: 0,
      extensionsOvertaken: 1,
      reviewsNotSaved: 1,
    });
  });

  it('is for those who may edit the call: 401, 403 for a member, 404, 400', async () => {
    const { call } = await world();
    const url = `/api/v1/calls/${call.id}/deadline_impact/?termination=${at(3).toISOString()}&reviewTermination=${at(12).toISOString()}`;
    expect((await ctx.app.inject({ method: 'GET', url })).statusCode).toBe(401);
    expect((await impact(call.id, at(3), at(12), member)).statusCode).toBe(403);
    expect((await impact(999_999, at(3), at(12))).statusCode).toBe(404);
    const bad = await ctx.app.inject({
      method: 'GET',
      url: `/api/v1/calls/${call.id}/deadline_impact/?termination=tomorrow&reviewTermination=${at(12).toISOString()}`,
      headers: chair,
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields).toHaveProperty('termination');
  });
});

describe('saving an earlier submission deadline', () => {
  it('mails the author and collaborators of each draft it cuts short, once saved', async () => {
    const { call, draft } = await world();
    const before = (await outbox(ctx)).length;
    const close = at(3);
    const saved = await edit(call, close);
    expect(saved.statusCode, saved.body).toBe(200);

    const sent = (await outbox(ctx)).slice(before);
    expect(sent.map((m) => m.to).sort()).toEqual([ada.email, grace.email].sort());
    const mail = sent.find((m) => m.to === ada.email)!;
    expect(mail.subject).toBe('Submission deadline moved earlier: Telescope time 2026');
    expect(mail.text).toContain('Hello Ada,');
    expect(mail.text).toContain(
      `moved its submission deadline earlier, to ${utcTime(close)} (it was ${utcTime(at(7))}).`,
    );
    expect(mail.text).toContain(`submit it before ${utcTime(close)}`);
    expect(mail.links).toContain(
      `${ctx.app.config.publicUrl}/calls/${call.id}/proposals/${draft.id}/`,
    );
  });

  it('mails nobody when the deadline moves later, or the review deadline moves', async () => {
    const { call } = await world();
    const before = (await outbox(ctx)).length;
    const saved = await edit(call, at(9), { opens: at(9), closes: at(13) });
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await outbox(ctx)).slice(before)).toEqual([]);
  });

  it('says submission has closed when the new deadline has passed', async () => {
    const { call } = await world();
    const before = (await outbox(ctx)).length;
    // Hedy's extension (to day 10) still runs, so only Ada's draft is cut short.
    const saved = await edit(call, at(-0.5));
    expect(saved.statusCode, saved.body).toBe(200);
    const sent = (await outbox(ctx)).slice(before);
    expect(sent.map((m) => m.to).sort()).toEqual([ada.email, grace.email].sort());
    expect(sent[0]!.text).toContain('submission has now closed for it');
  });
});
