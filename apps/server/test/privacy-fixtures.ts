import type { ProposalDetail } from '@merit/contract';
import { expect } from 'vitest';
import { saveCall } from '../src/modules/calls/calls.service.js';
import { caller, makeForm, makeFormName } from './admin-fixtures.js';
import { callPayload } from './call-fixtures.js';
import { auth, giveRole, login, makeCommittee, makeUser, type TestContext } from './helpers.js';
import { proposalTypeOf } from './proposal-fixtures.js';

const DAY = 24 * 60 * 60 * 1000;
let hashes = 0;

/**
 * A submitted proposal with an answer, a file and a collaborator, reviewed by two members
 * once the review window opened (the clock is moved into it): what the privacy tests need
 * to show that a person's data holds their own part and nobody else's.
 */
export async function reviewedProposal(ctx: TestContext) {
  const { app } = ctx;
  const form = async (type: number, jsonSchema: object, options?: object) =>
    (
      await makeForm(app, (await makeFormName(app, { type })).id, {
        jsonSchema: jsonSchema as Record<string, unknown>,
        ...(options ? { options: options as Record<string, unknown> } : {}),
      })
    ).id;
  const forms = {
    proposal: await form(0, { type: 'object', properties: { title: { type: 'string' } } }),
    review: await form(2, {
      type: 'object',
      properties: { strengths: { type: 'string', title: 'Strengths' } },
    }),
    score: await form(
      3,
      {
        type: 'object',
        properties: { significance: { type: 'integer', minimum: 1, maximum: 5 } },
      },
      { method: 'average', fields: ['significance'] },
    ),
  };
  const person = async (firstName: string) => {
    const user = await makeUser(app, { firstName, lastName: 'Example' });
    return { user, call: caller(app, auth(await login(app, user.username))) };
  };
  const now = ctx.clock.now();
  const committeeId = (await makeCommittee(app)).id;
  const [chair, rita, ben, author, collaborator] = [
    await person('Carla'),
    await person('Rita'),
    await person('Ben'),
    await person('Ada'),
    await person('Col'),
  ];
  await giveRole(app, chair.user.id, committeeId, 'CHAIR', now);
  for (const m of [rita, ben]) await giveRole(app, m.user.id, committeeId, 'MEMBER', now);
  const admin = { id: (await makeUser(app, { isAdmin: true })).id, isAdmin: true };
  const callId = await app.writeAs(admin, (work) =>
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
      }),
    ),
  );
  const typeId = await proposalTypeOf(app, callId);
  const ok = (res: { statusCode: number; body: string }, status = 200) =>
    expect(res.statusCode, res.body).toBe(status);
  const created = await author.call('POST', '/update_proposal_name/', {
    callId,
    isNew: true,
    name: 'Dark matter survey',
    type: typeId,
  });
  ok(created, 201);
  const proposalId = (created.json() as ProposalDetail).id;
  ok(
    await author.call('POST', '/proposal_responses/', {
      call: callId,
      proposalTypeId: typeId,
      proposal: proposalId,
      new: false,
      hash: (hashes += 1),
      formId: forms.proposal,
      index: 0,
      data: { title: 'Mapping the halo of Andromeda' },
    }),
  );
  const hash = ((await collaborator.call('GET', '/user_hash/')).json() as { hash: string }).hash;
  ok(await author.call('POST', '/collaborators/', { proposalId, hash }), 201);
  ok(await author.call('POST', '/proposal_state/', { proposalId, state: 1 }));
  for (const reviewer of [rita, ben]) {
    ok(await chair.call('POST', '/reviewers/', { proposalId, userId: reviewer.user.id }), 201);
  }
  ctx.clock.advance(8 * DAY);
  // Eight days on, the logins above have expired: everyone logs in again.
  for (const p of [chair, rita, ben, author, collaborator]) {
    p.call = caller(app, auth(await login(app, p.user.username)));
  }
  for (const [reviewer, significance] of [
    [rita, 4],
    [ben, 2],
  ] as const) {
    const save = (
      formId: number,
      data: Record<string, unknown>,
      from?: { reviewId: number; version: number },
    ) =>
      reviewer.call('POST', '/review_responses/', {
        call: callId,
        proposal: proposalId,
        formId,
        hash: (hashes += 1),
        data,
        // The second form names the review and version the first save answered.
        ...(from ? { reviewId: from.reviewId, version: from.version } : {}),
      });
    const first = await save(forms.review, {
      strengths: `Review text by ${reviewer.user.firstName}`,
    });
    ok(first);
    ok(await save(forms.score, { significance }, first.json()));
  }
  return { committeeId, callId, proposalId, forms, chair, rita, ben, author, collaborator };
}
export type ReviewedProposal = Awaited<ReturnType<typeof reviewedProposal>>;
