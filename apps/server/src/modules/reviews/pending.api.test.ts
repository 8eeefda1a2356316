import { PENDING_REVIEWS_PAGE, type PendingReview } from '@merit/contract';
import type { ConflictFacts, ConflictState } from '@merit/domain';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
import {
  makeProposalCall,
  makeProposalForms,
  type ProposalForms,
} from '../../../test/proposal-fixtures.js';
import {
  calls,
  committeeRoles,
  conflicts,
  extensions,
  proposalCollaborators,
  proposalReviewers,
  proposals,
} from '../../db/schema.js';
import { loadActor } from '../../platform/data/work.js';
import { mayReview } from './pending.queries.js';

/**
 * Who may review which proposal now is decided twice: by the domain's `mayReview` for one
 * proposal, and in SQL for the pending list and its count (pending.queries.ts), which an
 * admin runs over every open call. Every persona, on proposals of every relation to them
 * in calls of every window, must get the same list from both; and the list comes a page
 * at a time, with a count that reads no rows.
 */
let ctx: TestContext;
let forms: ProposalForms;
let admin: { id: number; isAdmin: true };
beforeAll(async () => {
  ctx = await createTestApp();
  forms = await makeProposalForms(ctx.app);
  admin = { id: (await makeUser(ctx.app, { isAdmin: true })).id, isAdmin: true };
});
afterAll(() => ctx.close());

const DAY = 24 * 60 * 60 * 1000;
const at = (days: number) => new Date(ctx.clock.now().getTime() + days * DAY);

/** A call's windows around now, in days: submission [from, to), review [from, to). */
const WINDOWS = {
  reviewing: { submission: [-14, -7], review: [-7, 7] },
  submitting: { submission: [-1, 6], review: [6, 13] },
  reviewEnded: { submission: [-21, -14], review: [-14, -1] },
  // Both at once: the call form refuses it, but the rule must hold whatever is stored.
  overlapping: { submission: [-1, 6], review: [-1, 13] },
} as const;

async function makeCall(
  committeeId: number,
  windows: (typeof WINDOWS)[keyof typeof WINDOWS],
  settings: { isReviewOpen: boolean; closed?: boolean; conflictsEnabled?: boolean },
) {
  const { callId, typeId } = await makeProposalCall(ctx.app, { committeeId, forms, admin });
  await ctx.app.db
    .update(calls)
    .set({
      commencement: at(windows.submission[0]),
      termination: at(windows.submission[1]),
      reviewCommencement: at(windows.review[0]),
      reviewTermination: at(windows.review[1]),
      isReviewOpen: settings.isReviewOpen,
      closed: settings.closed ?? false,
      conflictsEnabled: settings.conflictsEnabled ?? true,
    })
    .where(eq(calls.id, callId));
  return { callId, typeId };
}

const PERSONAS = ['outsider', 'member', 'former', 'chair', 'otherChair', 'admin'] as const;
type Persona = (typeof PERSONAS)[number];

describe('pending reviews, in SQL and in the domain', () => {
  it('lists for each persona exactly the proposals mayReview allows and they have not reviewed', async () => {
    const { app } = ctx;
    const now = ctx.clock.now();
    const committee = await makeCommittee(app);
    const otherCommittee = await makeCommittee(app);
    const people: Record<Persona, { id: number; username: string; isAdmin: boolean }> = {
      outsider: await makeUser(app),
      member: await makeUser(app),
      former: await makeUser(app),
      chair: await makeUser(app),
      otherChair: await makeUser(app),
      admin: await makeUser(app, { isAdmin: true }),
    };
    await giveRole(app, people.member.id, committee.id, 'MEMBER', now);
    await giveRole(app, people.chair.id, committee.id, 'CHAIR', now);
    await giveRole(app, people.otherChair.id, otherCommittee.id, 'CHAIR', now);
    // A member whose role ended yesterday.
    await app.db.insert(committeeRoles).values({
      userId: people.former.id,
      committeeId: committee.id,
      role: 'MEMBER',
      commencement: at(-300),
      termination: at(-1),
    });

    const madeCalls = [
      await makeCall(committee.id, WINDOWS.reviewing, { isReviewOpen: false }),
      await makeCall(committee.id, WINDOWS.reviewing, { isReviewOpen: true }),
      await makeCall(committee.id, WINDOWS.submitting, { isReviewOpen: true }),
      await makeCall(committee.id, WINDOWS.reviewEnded, { isReviewOpen: true }),
      await makeCall(committee.id, WINDOWS.reviewing, { isReviewOpen: true, closed: true }),
      await makeCall(otherCommittee.id, WINDOWS.reviewing, { isReviewOpen: true }),
      await makeCall(committee.id, WINDOWS.overlapping, { isReviewOpen: true }),
      // Conflicts of interest recorded, but not enforced.
      await makeCall(committee.id, WINDOWS.reviewing, {
        isReviewOpen: true,
        conflictsEnabled: false,
      }),
    ];

    /** Every proposal made, with what the domain needs to judge it. */
    const made: {
      id: number;
      callId: number;
      authorId: number;
      collaboratorIds: number[];
      reviewerIds: number[];
      reviewedBy: number[];
      stateVal: number;
      extended: boolean;
      conflictOf: { userId: number; facts: ConflictFacts } | null;
    }[] = [];
    const stranger = await makeUser(app);
    const extendedAuthor = await makeUser(app);
    for (const { callId, typeId } of madeCalls) {
      await app.db.insert(extensions).values({
        callId,
        userId: extendedAuthor.id,
        commencement: at(-1),
        termination: at(1),
        reason: 'Illness',
        createdAt: now,
      });
      const propose = async (
        authorId: number,
        stateVal: number,
        options: {
          collaboratorId?: number;
          reviewerId?: number;
          reviewedBy?: number;
          /** A conflict of interest of this person with it, in this state. */
          conflict?: { userId: number; state: ConflictState };
        } = {},
      ) => {
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
        if (options.reviewerId)
          await app.db
            .insert(proposalReviewers)
            .values({ proposalId: proposal.id, userId: options.reviewerId });
        if (options.reviewedBy) await makeReview(app, proposal.id, options.reviewedBy);
        const facts: ConflictFacts | undefined = options.conflict && {
          type: 'personal',
          source: 'chair',
          state: options.conflict.state,
          pinned: false,
        };
        if (options.conflict && facts)
          await app.db.insert(conflicts).values({
            proposalId: proposal.id,
            userId: options.conflict.userId,
            ...facts,
            changedAt: now,
          });
        made.push({
          id: proposal.id,
          callId,
          authorId,
          collaboratorIds: options.collaboratorId ? [options.collaboratorId] : [],
          reviewerIds: options.reviewerId ? [options.reviewerId] : [],
          reviewedBy: options.reviewedBy ? [options.reviewedBy] : [],
          stateVal,
          extended: authorId === extendedAuthor.id,
          conflictOf: options.conflict && facts ? { userId: options.conflict.userId, facts } : null,
        });
      };
      await propose(stranger.id, 0);
      await propose(stranger.id, 1);
      await propose(extendedAuthor.id, 1);
      for (const who of PERSONAS) {
        const id = people[who].id;
        await propose(id, 1);
        await propose(stranger.id, 1, { collaboratorId: id });
        await propose(stranger.id, 1, { reviewerId: id });
        await propose(stranger.id, 0, { reviewerId: id });
        await propose(stranger.id, 1, { reviewerId: id, reviewedBy: id });
        for (const state of ['confirmed', 'suggested', 'dismissed'] as const) {
          await propose(stranger.id, 1, { conflict: { userId: id, state } });
          await propose(stranger.id, 1, { reviewerId: id, conflict: { userId: id, state } });
        }
      }
    }

    const callRows = new Map(
      (
        await app.db
          .select()
          .from(calls)
          .where(
            inArray(
              calls.id,
              madeCalls.map((c) => c.callId),
            ),
          )
      ).map((row) => [row.id, row]),
    );
    let pendingSomewhere = 0;
    let notPendingSomewhere = 0;
    let conflictedSomewhere = 0;
    for (const who of PERSONAS) {
      const user = people[who];
      const actor = await loadActor(app.db, user.id, user.isAdmin);
      const reviewable = (p: (typeof made)[number], actorConflict: ConflictFacts | null) =>
        mayReview(
          actor,
          {
            call: callRows.get(p.callId)!,
            authorId: p.authorId,
            collaboratorIds: p.collaboratorIds,
            stateVal: p.stateVal,
            authorExtensions: p.extended ? [{ commencement: at(-1), termination: at(1) }] : [],
            reviewerIds: p.reviewerIds,
            actorHasReview: p.reviewedBy.includes(user.id),
            actorConflict,
            actorDeclared: false,
          },
          now,
        ) === true;
      const conflictOf = (p: (typeof made)[number]) =>
        p.conflictOf?.userId === user.id ? p.conflictOf.facts : null;
      conflictedSomewhere += made.filter(
        (p) => reviewable(p, null) && !reviewable(p, conflictOf(p)),
      ).length;
      const expected = made
        .filter((p) => !p.reviewedBy.includes(user.id) && reviewable(p, conflictOf(p)))
        // The list's order: nearest deadline, then the call, then the name (all alike
        // here), then the id.
        .sort((a, b) => {
          const deadline = (p: (typeof made)[number]) =>
            callRows.get(p.callId)!.reviewTermination.getTime();
          return deadline(a) - deadline(b) || a.callId - b.callId || a.id - b.id;
        })
        .map((p) => p.id);

      const headers = auth(await login(app, user.username));
      const listed: PendingReview[] = [];
      // Small pages, so that every persona's list takes several.
      for (let offset = 0; ; offset += 4) {
        const res = await app.inject({
          method: 'GET',
          url: `/api/v1/pending_reviews/?limit=4&offset=${offset}`,
          headers,
        });
        expect(res.statusCode, res.body).toBe(200);
        const page = res.json() as PendingReview[];
        listed.push(...page);
        if (page.length < 4) break;
      }
      expect(
        listed.map((row) => row.proposalId),
        who,
      ).toEqual(expected);
      const count = await app.inject({
        method: 'GET',
        url: '/api/v1/pending_reviews/count/',
        headers,
      });
      expect(count.json(), who).toEqual({ total: expected.length });
      pendingSomewhere += expected.length;
      notPendingSomewhere += made.length - expected.length;
    }
    // Each answer occurs, so the comparison means something.
    expect(pendingSomewhere).toBeGreaterThan(0);
    expect(notPendingSomewhere).toBeGreaterThan(0);
    // And a conflict of interest takes some off that would be pending without it.
    expect(conflictedSomewhere).toBeGreaterThan(0);
  });
});

describe('the pending list a page at a time', () => {
  const SIZE = PENDING_REVIEWS_PAGE + 5;
  let headers: Record<string, string>;
  let reviewerId: number;
  let all: PendingReview[];
  let callId: number;
  let ids: number[];

  const get = (url: string, as = headers) =>
    ctx.app.inject({ method: 'GET', url: `/api/v1${url}`, headers: as });

  beforeAll(async () => {
    const committee = await makeCommittee(ctx.app);
    const reviewer = await makeUser(ctx.app);
    reviewerId = reviewer.id;
    await giveRole(ctx.app, reviewer.id, committee.id, 'MEMBER', ctx.clock.now());
    headers = auth(await login(ctx.app, reviewer.username));
    const call = await makeCall(committee.id, WINDOWS.reviewing, { isReviewOpen: true });
    callId = call.callId;
    const author = await makeUser(ctx.app);
    const now = ctx.clock.now();
    const rows = await ctx.app.db
      .insert(proposals)
      .values(
        Array.from({ length: SIZE }, (_, i) => ({
          callId,
          proposalTypeId: call.typeId,
          authorId: author.id,
          // Names out of the ids' order: the list sorts by name within a call.
          name: `Proposal ${String((i * 37) % SIZE).padStart(3, '0')}`,
          stateVal: 1,
          createdAt: now,
          updatedAt: now,
        })),
      )
      .returning({ id: proposals.id, name: proposals.name });
    ids = rows.sort((a, b) => a.name.localeCompare(b.name)).map((row) => row.id);
    all = [];
    for (let offset = 0; offset < SIZE; offset += 50)
      all.push(
        ...((await get(`/pending_reviews/?limit=50&offset=${offset}`)).json() as PendingReview[]),
      );
  });

  it('holds every pending review once, in the list’s order, over its pages', () => {
    expect(all.map((row) => row.proposalId)).toEqual(ids);
    expect(all[0]).toEqual({
      committeeName: expect.any(String),
      callId,
      callName: 'Telescope time 2026',
      proposalId: ids[0],
      proposalName: 'Proposal 000',
      reviewDeadline: at(7).toISOString(),
    });
  });

  it(`gives the first ${PENDING_REVIEWS_PAGE} without a query, as the spec asks it, and the rest after`, async () => {
    const first = await get('/pending_reviews/');
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual(all.slice(0, PENDING_REVIEWS_PAGE));
    const rest = await get(`/pending_reviews/?offset=${PENDING_REVIEWS_PAGE}`);
    expect(rest.json()).toEqual(all.slice(PENDING_REVIEWS_PAGE));
    expect((await get('/pending_reviews/?limit=10&offset=20')).json()).toEqual(all.slice(20, 30));
    expect((await get(`/pending_reviews/?offset=${SIZE}`)).json()).toEqual([]);
  });

  it('counts them all without reading them, and a saved review takes one off', async () => {
    expect((await get('/pending_reviews/count/')).json()).toEqual({ total: SIZE });
    await makeReview(ctx.app, ids[3]!, reviewerId);
    expect((await get('/pending_reviews/count/')).json()).toEqual({ total: SIZE - 1 });
    const first = (await get('/pending_reviews/')).json() as PendingReview[];
    expect(first.map((row) => row.proposalId)).not.toContain(ids[3]);
    expect(first).toHaveLength(PENDING_REVIEWS_PAGE);
  });

  it('counts none for someone on no committee', async () => {
    const outsider = auth(await login(ctx.app, (await makeUser(ctx.app)).username));
    expect((await get('/pending_reviews/count/', outsider)).json()).toEqual({ total: 0 });
    expect((await get('/pending_reviews/', outsider)).json()).toEqual([]);
  });

  it.each([
    ['limit=0', 'limit'],
    [`limit=${PENDING_REVIEWS_PAGE + 1}`, 'limit'],
    ['limit=ten', 'limit'],
    ['offset=-1', 'offset'],
    ['offset=1.5', 'offset'],
    ['limit=5&limit=6', 'limit'],
  ])('refuses %s, naming %s', async (query, field) => {
    const res = await get(`/pending_reviews/?${query}`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'validation_error',
      fields: { [field]: expect.any(Array) },
    });
  });

  it('answers no one who is not logged in', async () => {
    for (const url of ['/pending_reviews/', '/pending_reviews/count/']) {
      const res = await ctx.app.inject({ method: 'GET', url: `/api/v1${url}` });
      expect(res.statusCode, url).toBe(401);
    }
  });
});
