import type { CallProposal } from '@merit/contract';
import {
  decide,
  isReviewed,
  proposalStateName,
  seesReviewProgress,
  type ProposalResource,
} from '@merit/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calls, proposalCollaborators } from '../../db/schema.js';
import { loadActor } from '../../platform/data/work.js';
import { makeProposal, makeReview } from '../../../test/call-fixtures.js';
import {
  auth,
  createTestApp,
  giveRole,
  login,
  makeCommittee,
  makeUser,
  type TestContext,
} from '../../../test/helpers.js';
import { makeProposalCall, makeProposalForms } from '../../../test/proposal-fixtures.js';
import { eq } from 'drizzle-orm';

/**
 * Which proposals of a call a caller sees, and whether they read Reviewed, is decided
 * twice: by `proposalPolicy.view` (and `seesReviewProgress`) for one proposal, and in SQL
 * for the list of thousands. Every persona, on proposals in every state and of every
 * relation to them, must get the same answers from both.
 */
let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

const PERSONAS = ['outsider', 'member', 'chair', 'otherChair', 'admin'] as const;

describe("a call's proposal list, in SQL and in the domain", () => {
  it('shows each persona exactly the proposals view allows, Reviewed exactly to whom it may', async () => {
    const { app, clock } = ctx;
    const now = clock.now();
    const committee = await makeCommittee(app);
    const otherCommittee = await makeCommittee(app);
    const admin = await makeUser(app, { isAdmin: true });
    const forms = await makeProposalForms(app);
    const { callId, typeId } = await makeProposalCall(app, {
      committeeId: committee.id,
      forms,
      admin,
    });
    const reviewer = await makeUser(app);

    const people = {
      outsider: await makeUser(app),
      member: await makeUser(app),
      chair: await makeUser(app),
      otherChair: await makeUser(app),
      admin,
    };
    await giveRole(app, people.member.id, committee.id, 'MEMBER', now);
    await giveRole(app, people.chair.id, committee.id, 'CHAIR', now);
    await giveRole(app, people.otherChair.id, otherCommittee.id, 'CHAIR', now);

    /** Every proposal made, with what the domain needs to judge it. */
    const made: {
      id: number;
      authorId: number;
      collaboratorIds: number[];
      stateVal: number;
      reviewed: boolean;
    }[] = [];
    async function propose(
      authorId: number,
      stateVal: number,
      options: { collaboratorId?: number; reviewed?: boolean } = {},
    ) {
      const proposal = await makeProposal(app, {
        callId,
        proposalTypeId: typeId,
        authorId,
        stateVal,
      });
      if (options.collaboratorId)
        await app.db
          .insert(proposalCollaborators)
          .values({ proposalId: proposal.id, userId: options.collaboratorId });
      if (options.reviewed) await makeReview(app, proposal.id, reviewer.id);
      made.push({
        id: proposal.id,
        authorId,
        collaboratorIds: options.collaboratorId ? [options.collaboratorId] : [],
        stateVal,
        reviewed: Boolean(options.reviewed),
      });
    }
    const stranger = await makeUser(app);
    for (const [stateVal, reviewed] of [
      [0, false],
      [1, false],
      [1, true],
    ] as const) {
      await propose(stranger.id, stateVal, { reviewed });
      for (const who of PERSONAS) {
        await propose(people[who].id, stateVal, { reviewed });
        await propose(stranger.id, stateVal, { reviewed, collaboratorId: people[who].id });
      }
    }

    const [call] = await app.db.select().from(calls).where(eq(calls.id, callId));
    let seenSomewhere = 0;
    let hiddenSomewhere = 0;
    let reviewedSomewhere = 0;
    let editableSomewhere = 0;
    for (const who of PERSONAS) {
      const user = people[who];
      const actor = await loadActor(app.db, user.id, user.isAdmin);
      const expected = made.flatMap((p) => {
        const resource: ProposalResource = {
          call: call!,
          authorId: p.authorId,
          collaboratorIds: p.collaboratorIds,
          stateVal: p.stateVal,
          authorExtensions: [],
          actorExtensions: [],
          lock: null,
          hasReviews: p.reviewed,
          reviewerIds: [],
          actorHasReview: false,
          actorConflict: null,
          actorDeclared: false,
        };
        if (decide('proposal.view', actor, resource, now) !== true) return [];
        const reviewed =
          seesReviewProgress(actor, resource, now) &&
          isReviewed({
            stateVal: p.stateVal,
            reviewerIds: p.reviewed ? [reviewer.id] : [],
            assignedReviewerIds: [],
          });
        return [
          {
            id: p.id,
            state: proposalStateName(p.stateVal, reviewed),
            editable:
              decide('proposal.lock', actor, { ...resource, hasReviews: false }, now) === true,
          },
        ];
      });

      const res = await app.inject({
        method: 'GET',
        url: `/api/v1/calls/${callId}/proposals/?pageSize=100`,
        headers: auth(await login(app, user.username)),
      });
      expect(res.statusCode, res.body).toBe(200);
      const page = res.json() as { items: CallProposal[]; total: number };
      const listed = page.items.map((i) => ({ id: i.id, state: i.state, editable: i.editable }));
      const byId = (a: { id: number }, b: { id: number }) => a.id - b.id;
      expect(listed.sort(byId), who).toEqual(expected.sort(byId));
      expect(page.total, who).toBe(expected.length);
      seenSomewhere += expected.length;
      hiddenSomewhere += made.length - expected.length;
      reviewedSomewhere += expected.filter((e) => e.state === 'Reviewed').length;
      editableSomewhere += expected.filter((e) => e.editable).length;
    }
    // Each answer occurs, so the comparison means something.
    expect(seenSomewhere).toBeGreaterThan(0);
    expect(hiddenSomewhere).toBeGreaterThan(0);
    expect(reviewedSomewhere).toBeGreaterThan(0);
    expect(editableSomewhere).toBeGreaterThan(0);
    expect(editableSomewhere).toBeLessThan(seenSomewhere);
  });
});
