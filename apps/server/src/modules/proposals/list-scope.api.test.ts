import type { CallProposal } from '@merit/contract';
import {
  decide,
  isConflicted,
  isReviewed,
  proposalStateName,
  seesReviewProgress,
  type ConflictFacts,
  type ProposalResource,
} from '@merit/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calls, conflicts, proposalCollaborators } from '../../db/schema.js';
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
 * twice: by `proposalPolicy.view` (and `seesReviewProgress`, and `isConflicted`) for one
 * proposal, and in SQL for the list of thousands. Every persona, on proposals in every
 * state and of every relation to them, conflicts of interest included, must get the same
 * answers from both.
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
      /** Whose conflict of interest with it is recorded, and what it is. */
      conflict: { userId: number; facts: ConflictFacts } | null;
    }[] = [];
    async function propose(
      authorId: number,
      stateVal: number,
      options: {
        collaboratorId?: number;
        reviewed?: boolean;
        conflict?: { userId: number; state: ConflictFacts['state'] };
      } = {},
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
      const conflict =
        options.conflict &&
        ({
          userId: options.conflict.userId,
          facts: {
            type: 'personal',
            source: 'chair',
            state: options.conflict.state,
            pinned: false,
          },
        } satisfies (typeof made)[number]['conflict']);
      if (conflict)
        await app.db.insert(conflicts).values({
          proposalId: proposal.id,
          userId: conflict.userId,
          ...conflict.facts,
          changedAt: now,
        });
      made.push({
        id: proposal.id,
        authorId,
        collaboratorIds: options.collaboratorId ? [options.collaboratorId] : [],
        stateVal,
        reviewed: Boolean(options.reviewed),
        conflict: conflict ?? null,
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
        // A conflict of interest, enforced or not; and the authorship conflict of their own.
        for (const state of ['confirmed', 'dismissed'] as const)
          await propose(stranger.id, stateVal, {
            reviewed,
            conflict: { userId: people[who].id, state },
          });
        await propose(people[who].id, stateVal, {
          reviewed,
          conflict: { userId: people[who].id, state: 'confirmed' },
        });
      }
    }

    const [call] = await app.db.select().from(calls).where(eq(calls.id, callId));
    let seenSomewhere = 0;
    let hiddenSomewhere = 0;
    let reviewedSomewhere = 0;
    let editableSomewhere = 0;
    let conflictedSomewhere = 0;
    let hiddenReviewed = 0;
    const scopeReviewed = (who: (typeof PERSONAS)[number]) => who === 'chair' || who === 'admin';
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
          actorConflict: p.conflict?.userId === user.id ? p.conflict.facts : null,
          actorDeclared: false,
        };
        if (decide('proposal.view', actor, resource, now) !== true) return [];
        const conflicted = isConflicted(actor, resource);
        const reviewed =
          seesReviewProgress(actor, resource, now) &&
          !conflicted &&
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
            conflicted,
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
      const listed = page.items.map((i) => ({
        id: i.id,
        state: i.state,
        editable: i.editable,
        conflicted: i.myConflict === true,
      }));
      const byId = (a: { id: number }, b: { id: number }) => a.id - b.id;
      expect(listed.sort(byId), who).toEqual(expected.sort(byId));
      expect(page.total, who).toBe(expected.length);
      seenSomewhere += expected.length;
      hiddenSomewhere += made.length - expected.length;
      reviewedSomewhere += expected.filter((e) => e.state === 'Reviewed').length;
      editableSomewhere += expected.filter((e) => e.editable).length;
      conflictedSomewhere += expected.filter((e) => e.conflicted).length;
      // A conflict of interest hides Reviewed from whoever would see it otherwise.
      hiddenReviewed += expected.filter(
        (e) => e.conflicted && made.find((p) => p.id === e.id)!.reviewed && scopeReviewed(who),
      ).length;
    }
    // Each answer occurs, so the comparison means something.
    expect(seenSomewhere).toBeGreaterThan(0);
    expect(hiddenSomewhere).toBeGreaterThan(0);
    expect(reviewedSomewhere).toBeGreaterThan(0);
    expect(editableSomewhere).toBeGreaterThan(0);
    expect(editableSomewhere).toBeLessThan(seenSomewhere);
    expect(conflictedSomewhere).toBeGreaterThan(0);
    expect(hiddenReviewed).toBeGreaterThan(0);
  });
});
