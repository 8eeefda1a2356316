import type { AssignmentOverview, AssignmentRun, BidsResponse } from '@merit/contract';
import { assignmentMessages, conflictMessages, proposalMessages } from '@merit/domain';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assignmentBids, assignmentRuns, auditLog } from '../src/db/schema.js';
import { runProposal } from '../src/modules/assignment/assignment.jobs.js';
import { auditOf } from './admin-fixtures.js';
import {
  assignmentOf,
  assignmentsOf,
  assignmentWorld,
  proposeAndWait,
  recordConflict,
  waitForRun,
  type AssignmentWorld,
  type Person,
} from './assignment-fixtures.js';
import { assignReviewers, makeReview } from './call-fixtures.js';
import { auth, createTestApp, login, type TestContext } from './helpers.js';
import { outbox } from './mail.js';

/**
 * Reviewer assignment for a whole call (issue 27) on a real database: who may bid on
 * what and when, the chairs' settings and a member's own cap, Propose as a background job
 * with its preview, Apply (one transaction, one audit row, one digest mail per member)
 * and its refusal when the call changed since, Discard, Propose again keeping locked and
 * reviewed assignments, who may manage any of it, what a chair with a conflict is not
 * shown, and caps holding for single assignments too. The CSV and the matrix are in
 * assignment-csv.api.test.ts. The world is assignment-fixtures.ts's.
 *
 * The job runner is stopped: a proposal is worked out when a test drains it, so a test
 * can see one still running.
 */
let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestApp();
  await ctx.app.jobs.stop();
});
afterAll(() => ctx.close());

const settingsOf = async (w: AssignmentWorld, who: Person = w.people.carla) => {
  const res = await who.call('GET', `/calls/${w.callId}/assignment/settings/`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as AssignmentOverview;
};
const patch = (w: AssignmentWorld, body: object, who: Person = w.people.carla) =>
  who.call('PATCH', `/calls/${w.callId}/assignment/settings/`, body);
const bid = (w: AssignmentWorld, who: Person, proposalId: number, preference: string) =>
  who.call('POST', `/calls/${w.callId}/bids/`, { proposalId, preference });
const pairsOf = (run: AssignmentRun, list: 'added' | 'removed') =>
  run[list].map((pair) => `${pair.proposalId}:${pair.userId}`).sort();

describe('bidding', () => {
  let w: AssignmentWorld;
  beforeAll(async () => {
    w = await assignmentWorld(ctx);
  });

  it('is refused while the chairs keep it closed, and readable all the same', async () => {
    const { rita } = w.people;
    const closed = await bid(w, rita, w.ids.halos, 'eager');
    expect(closed.statusCode, closed.body).toBe(409);
    expect(closed.json()).toMatchObject({ detail: assignmentMessages.biddingClosed });
    const list = await rita.call('GET', `/calls/${w.callId}/bids/`);
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json()).toMatchObject({ biddingOpen: false, load: 0, cap: 3, chairCap: 3 });
  });

  it('lists to a member the submitted proposals they may bid on, with what bidding shows', async () => {
    expect((await patch(w, { biddingOpen: true })).statusCode).toBe(200);
    const res = await w.people.ben.call('GET', `/calls/${w.callId}/bids/`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as BidsResponse;
    expect(body.biddingOpen).toBe(true);
    // Not the draft, and not "Galaxy rotation curves", which he has a conflict with.
    expect(body.proposals).toEqual([
      {
        proposalId: w.ids.halos,
        name: 'Dark matter halos',
        typeName: 'Radio',
        facilities: ['ATCA'],
        institutions: ['Col College'],
        preference: 'neutral',
      },
      {
        proposalId: w.ids.transits,
        name: 'Exoplanet transits',
        typeName: 'Optical',
        facilities: [],
        institutions: ['Col College'],
        preference: 'neutral',
      },
      {
        proposalId: w.ids.pulsar,
        name: 'Pulsar timing array',
        typeName: 'Radio',
        facilities: ['Parkes'],
        institutions: ['Ada University', 'Mia Institute'],
        preference: 'neutral',
      },
    ]);
    // Mia's list leaves out the proposal she is a collaborator of.
    const mia = (await w.people.mia.call('GET', `/calls/${w.callId}/bids/`)).json() as BidsResponse;
    expect(mia.proposals.map((p) => p.proposalId)).not.toContain(w.ids.pulsar);
    expect(mia.proposals.map((p) => p.proposalId)).toContain(w.ids.galaxy);
  });

  it('saves a member’s bid, shows it back, and clears it with neutral', async () => {
    const { rita } = w.people;
    const saved = await bid(w, rita, w.ids.halos, 'eager');
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toEqual({ proposalId: w.ids.halos, preference: 'eager' });
    const list = (await rita.call('GET', `/calls/${w.callId}/bids/`)).json() as BidsResponse;
    expect(list.proposals.find((p) => p.proposalId === w.ids.halos)?.preference).toBe('eager');
    expect((await bid(w, rita, w.ids.halos, 'reluctant')).statusCode).toBe(200);
    expect((await bid(w, rita, w.ids.halos, 'neutral')).statusCode).toBe(200);
    const rows = await ctx.app.db
      .select()
      .from(assignmentBids)
      .where(
        and(eq(assignmentBids.proposalId, w.ids.halos), eq(assignmentBids.userId, rita.user.id)),
      );
    expect(rows).toEqual([]);
  });

  it.each([
    ['a chair, who is a member too', 'carla', 'halos', 200, null],
    ['an admin with no role on the committee', 'adam', 'halos', 403, 'biddingMembersOnly'],
    ['a chair of another committee', 'otto', 'halos', 403, 'biddingMembersOnly'],
    ['an applicant', 'ada', 'halos', 403, 'biddingMembersOnly'],
    ['a member whose role ends during review (still a member)', 'sam', 'halos', 200, null],
    ['a member, on the proposal she collaborates on', 'mia', 'pulsar', 403, 'cannotBid'],
    ['a member, on a proposal he has a conflict with', 'ben', 'galaxy', 403, 'cannotBid'],
    ['a member, on a draft', 'rita', 'draft', 404, null],
  ] as const)('%s: %s bids on %s -> %s', async (_name, who, which, status, message) => {
    const res = await bid(w, w.people[who], w.ids[which], 'willing');
    expect(res.statusCode, res.body).toBe(status);
    if (message) expect(res.json().detail).toBe(assignmentMessages[message]);
    if (status === 404) expect(res.json().detail).toBe(proposalMessages.notFound);
  });

  it('reads only for members: an admin with no role is refused the list', async () => {
    const res = await w.people.adam.call('GET', `/calls/${w.callId}/bids/`);
    expect(res.statusCode).toBe(403);
    expect(res.json().detail).toBe(assignmentMessages.biddingMembersOnly);
  });

  it('is refused again once the chairs close it', async () => {
    expect((await patch(w, { biddingOpen: false })).statusCode).toBe(200);
    const res = await bid(w, w.people.rita, w.ids.transits, 'willing');
    expect(res.statusCode).toBe(409);
  });
});

describe('settings and caps', () => {
  let w: AssignmentWorld;
  beforeAll(async () => {
    w = await assignmentWorld(ctx);
  });

  it('shows the chairs k, the default cap, the counts and every current member', async () => {
    const overview = await settingsOf(w);
    expect(overview).toMatchObject({
      reviewsPerProposal: 3,
      perProposal: {},
      caps: {},
      biddingOpen: false,
      defaultCap: 3,
      // Four submitted proposals x 3; five eligible members x 3.
      counts: { proposals: 4, slots: 12, assigned: 0, members: 6, capacity: 15, short: 0 },
      run: null,
      abilities: { manage: true },
    });
    const byName = Object.fromEntries(overview.members.map((m) => [m.name, m]));
    expect(Object.keys(byName).sort()).toEqual(
      [
        'Ben Second',
        'Carla Chair',
        'Cleo Cochair',
        'Mia Member',
        'Rita Reviewer',
        'Sam Short',
      ].sort(),
    );
    expect(byName['Carla Chair']).toMatchObject({ role: 'CHAIR', eligible: true, cap: 3 });
    expect(byName['Sam Short']).toMatchObject({ role: 'MEMBER', eligible: false });
  });

  it('saves k, a proposal’s own k, a member’s cap and bidding, audited as one change', async () => {
    const res = await patch(w, {
      reviewsPerProposal: 2,
      perProposal: { [w.ids.halos]: 4 },
      caps: { [w.people.rita.user.id]: 5 },
      biddingShowsProposals: true,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      reviewsPerProposal: 2,
      perProposal: { [w.ids.halos]: 4 },
      caps: { [w.people.rita.user.id]: 5 },
      biddingShowsProposals: true,
      // 2 + 2 + 4 + 2 slots over six members: ceil(1.1 x 10 / 6) = 2.
      defaultCap: 2,
      counts: { slots: 10 },
    });
    const audit = (await auditOf(ctx.app, 'call', w.callId)).filter(
      (row) => row.action === 'call.update_assignment',
    );
    expect(audit).toHaveLength(1);
    expect(audit[0]!.changes).toMatchObject({
      reviewsPerProposal: { before: 3, after: 2 },
      biddingShowsProposals: { before: false, after: true },
    });
    // A null resets.
    const reset = await patch(w, {
      reviewsPerProposal: 3,
      perProposal: { [w.ids.halos]: null },
      caps: { [w.people.rita.user.id]: null },
    });
    expect(reset.json()).toMatchObject({ perProposal: {}, caps: {}, defaultCap: 3 });
  });

  it('refuses keys that are not the call’s submitted proposals or current members, by field', async () => {
    const res = await patch(w, {
      perProposal: { [w.ids.draft]: 2, nonsense: 2, [w.ids.pulsar]: 2 },
      caps: { [w.people.otto.user.id]: 1, [w.people.rita.user.id]: 1 },
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().fields).toEqual({
      [`perProposal.${w.ids.draft}`]: [assignmentMessages.csvProposal(String(w.ids.draft))],
      'perProposal.nonsense': [assignmentMessages.csvProposal('nonsense')],
      [`caps.${w.people.otto.user.id}`]: [
        assignmentMessages.capNotMember(String(w.people.otto.user.id)),
      ],
    });
    // Nothing of it was saved.
    expect((await settingsOf(w)).perProposal).toEqual({});
  });

  it.each([
    ['a member', 'rita', 403],
    ['an applicant', 'ada', 403],
    ['a chair of another committee', 'otto', 403],
    ['an admin', 'adam', 200],
  ] as const)('%s (%s) -> %s, reading and changing', async (_name, who, status) => {
    const read = await w.people[who].call('GET', `/calls/${w.callId}/assignment/settings/`);
    expect(read.statusCode, read.body).toBe(status);
    const change = await patch(w, { biddingOpen: false }, w.people[who]);
    expect(change.statusCode, change.body).toBe(status);
    if (status === 403) expect(change.json().detail).toBe(assignmentMessages.chairsOnly);
  });

  it('lets a member lower their own cap, never raise it above the chairs’', async () => {
    const { mia } = w.people;
    const url = `/calls/${w.callId}/assignment/my_cap/`;
    const lowered = await mia.call('POST', url, { cap: 1 });
    expect(lowered.statusCode, lowered.body).toBe(200);
    expect(lowered.json()).toEqual({ cap: 1, chairCap: 3 });
    const above = await mia.call('POST', url, { cap: 4 });
    expect(above.statusCode).toBe(400);
    expect(above.json().fields).toEqual({ cap: [assignmentMessages.capAboveChair(3)] });
    const member = (await settingsOf(w)).members.find((m) => m.userId === mia.user.id);
    expect(member).toMatchObject({ memberCap: 1, chairCap: null, cap: 1 });
    expect((await mia.call('POST', url, { cap: null })).json()).toEqual({ cap: 3, chairCap: 3 });
    // Only members have one.
    const admin = await w.people.adam.call('POST', url, { cap: 1 });
    expect(admin.statusCode).toBe(403);
    expect(admin.json().detail).toBe(assignmentMessages.notAMember);
  });
});

describe('propose, preview, apply', () => {
  let w: AssignmentWorld;
  beforeAll(async () => {
    w = await assignmentWorld(ctx);
    // Rita would like "Dark matter halos"; Mia will not review "Exoplanet transits".
    expect((await patch(w, { biddingOpen: true })).statusCode).toBe(200);
    expect((await bid(w, w.people.rita, w.ids.halos, 'eager')).statusCode).toBe(200);
    expect((await bid(w, w.people.mia, w.ids.transits, 'not_me')).statusCode).toBe(200);
    // "Pulsar timing array" wants 5, but only four members may review it.
    expect((await patch(w, { perProposal: { [w.ids.pulsar]: 5 } })).statusCode).toBe(200);
  });

  it('works in the background, one at a time, and shows a preview that saves nothing', async () => {
    const url = `/calls/${w.callId}/assignment/proposals/`;
    const started = await w.people.carla.call('POST', url, { seed: 11 });
    expect(started.statusCode, started.body).toBe(202);
    const { id } = started.json() as { id: number };
    // The job has not run yet: the run is running, and a second one is refused.
    const again = await w.people.cleo.call('POST', url, {});
    expect(again.statusCode).toBe(409);
    expect(again.json().detail).toBe(assignmentMessages.running);
    const running = await w.people.carla.call('GET', `${url}${id}/`);
    expect(running.json()).toMatchObject({ id, state: 'running', progress: 0, added: [] });
    expect((await settingsOf(w)).run).toEqual({ id, state: 'running' });

    const run = await waitForRun(ctx, w, id);
    expect(run.state).toBe('ready');
    expect(run.progress).toBe(1);
    const { carla, cleo, rita, ben, mia, sam } = w.people;
    // Nothing assigned yet.
    expect(await assignmentsOf(ctx, Object.values(w.ids))).toEqual([]);
    // The pulsar array gets its four eligible members and is listed as one short.
    expect(run.unfilled).toEqual([
      {
        proposalId: w.ids.pulsar,
        proposalName: 'Pulsar timing array',
        missing: 1,
        reason: 'not_enough_eligible',
        message: assignmentMessages.unfilled.not_enough_eligible,
      },
    ]);
    const added = pairsOf(run, 'added');
    expect(added).toHaveLength(4 + 3 + 3 + 3);
    // Never an excluded pair: Mia's own, the conflicts, her Not me, Sam (not eligible).
    for (const pair of [
      `${w.ids.pulsar}:${mia.user.id}`,
      `${w.ids.galaxy}:${ben.user.id}`,
      `${w.ids.galaxy}:${cleo.user.id}`,
      `${w.ids.transits}:${mia.user.id}`,
    ])
      expect(added).not.toContain(pair);
    expect(run.added.some((pair) => pair.userId === sam.user.id)).toBe(false);
    // Names, and Rita's bid honoured.
    expect(run.added).toContainEqual({
      proposalId: w.ids.halos,
      proposalName: 'Dark matter halos',
      userId: rita.user.id,
      userName: 'Rita Reviewer',
      preference: 'eager',
    });
    // Caps hold (3 each), and loads are even: 13 reviews over the five eligible members.
    for (const load of run.loads) {
      expect(load.after).toBeLessThanOrEqual(load.cap);
      expect(load.before).toBe(0);
    }
    const eligible = run.loads.filter((load) => load.userId !== sam.user.id);
    expect(eligible.map((load) => load.after).sort()).toEqual([2, 2, 3, 3, 3]);
    expect(run.loads.find((load) => load.userId === carla.user.id)?.userName).toBe('Carla Chair');
  });

  it('applies it in one batch: the assignments, one audit row, one digest mail per member', async () => {
    const before = await outbox(ctx);
    const { run } = await settingsOf(w);
    const preview = (
      await w.people.carla.call('GET', `/calls/${w.callId}/assignment/proposals/${run!.id}/`)
    ).json() as AssignmentRun;
    const applied = await w.people.carla.call(
      'POST',
      `/calls/${w.callId}/assignment/proposals/${run!.id}/apply/`,
    );
    expect(applied.statusCode, applied.body).toBe(200);
    expect(applied.json()).toEqual({ added: 13, removed: 0, mailed: 5 });
    expect(await assignmentsOf(ctx, Object.values(w.ids))).toEqual(pairsOf(preview, 'added'));

    const audit = (await auditOf(ctx.app, 'call', w.callId)).filter(
      (row) => row.action === 'call.assign_reviewers',
    );
    expect(audit).toHaveLength(1);
    expect(audit[0]!.changes).toMatchObject({
      kind: { after: 'proposal' },
      added: { after: 13 },
      removed: { after: 0 },
    });

    const mails = (await outbox(ctx)).slice(before.length);
    expect(mails).toHaveLength(5);
    const rita = mails.find((mail) => mail.to === w.people.rita.user.email)!;
    const ritas = preview.added.filter((pair) => pair.userId === w.people.rita.user.id);
    expect(rita.subject).toBe(assignmentMessages.digestSubject(ritas.length, w.callName));
    for (const pair of ritas) {
      expect(rita.text).toContain(pair.proposalName);
      expect(rita.links).toContain(
        `${ctx.app.config.publicUrl}/calls/${w.callId}/proposals/${pair.proposalId}/review/`,
      );
    }
    // Never another reviewer's name.
    expect(rita.text).not.toContain('Carla');
    // The run is gone.
    const gone = await w.people.carla.call(
      'GET',
      `/calls/${w.callId}/assignment/proposals/${run!.id}/`,
    );
    expect(gone.statusCode).toBe(404);
    expect((await settingsOf(w)).run).toBeNull();
  });

  it('refuses to apply a proposal once a conflict is recorded after it, and saves nothing', async () => {
    // Lower k back to 3 for the pulsar array, so the next proposal has something to add.
    await patch(w, { perProposal: { [w.ids.pulsar]: null }, reviewsPerProposal: 4 });
    const run = await proposeAndWait(ctx, w);
    expect(run.added.length).toBeGreaterThan(0);
    const pair = run.added[0]!;
    const other = w.ids.transits === pair.proposalId ? w.ids.halos : w.ids.transits;
    await recordConflict(ctx, other, w.people.rita.user.id);
    const before = await assignmentsOf(ctx, Object.values(w.ids));
    const refused = await w.people.carla.call(
      'POST',
      `/calls/${w.callId}/assignment/proposals/${run.id}/apply/`,
    );
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'stale', detail: assignmentMessages.stale });
    expect(await assignmentsOf(ctx, Object.values(w.ids))).toEqual(before);
  });

  it('refuses it too after an assignment made by hand', async () => {
    const run = await proposeAndWait(ctx, w);
    // Sam is not eligible for Propose, but a chair may still assign him by hand.
    const assigned = await w.people.carla.call('POST', '/reviewers/', {
      proposalId: w.ids.halos,
      userId: w.people.sam.user.id,
    });
    expect(assigned.statusCode, assigned.body).toBe(201);
    const refused = await w.people.carla.call(
      'POST',
      `/calls/${w.callId}/assignment/proposals/${run.id}/apply/`,
    );
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('stale');
  });

  it('discards a proposal', async () => {
    const run = await proposeAndWait(ctx, w);
    const url = `/calls/${w.callId}/assignment/proposals/${run.id}/`;
    expect((await w.people.rita.call('DELETE', url)).statusCode).toBe(403);
    const discarded = await w.people.carla.call('DELETE', url);
    expect(discarded.statusCode, discarded.body).toBe(204);
    expect((await w.people.carla.call('GET', url)).statusCode).toBe(404);
    expect((await w.people.carla.call('DELETE', url)).statusCode).toBe(404);
    expect((await settingsOf(w)).run).toBeNull();
  });

  it('works the call out anew when asked to redo, but keeps locked and reviewed assignments', async () => {
    const { carla, rita, sam } = w.people;
    const current = await assignmentsOf(ctx, Object.values(w.ids));
    const [lockedPair, reviewedPair] = current
      .filter((pair) => !pair.endsWith(`:${sam.user.id}`))
      .slice(0, 2)
      .map((pair) => pair.split(':').map(Number) as [number, number]);
    const lock = await carla.call('PATCH', `/calls/${w.callId}/assignment/locks/`, {
      proposalId: lockedPair![0],
      userId: lockedPair![1],
      locked: true,
    });
    expect(lock.statusCode, lock.body).toBe(200);
    expect((await assignmentOf(ctx, lockedPair![0], lockedPair![1]))?.locked).toBe(true);
    await makeReview(ctx.app, reviewedPair![0], reviewedPair![1]);
    // Locking what is not an assignment is refused.
    const none = await carla.call('PATCH', `/calls/${w.callId}/assignment/locks/`, {
      proposalId: w.ids.pulsar,
      userId: w.people.mia.user.id,
      locked: true,
    });
    expect(none.statusCode).toBe(400);

    const run = await proposeAndWait(ctx, w, { redo: true, seed: 3 });
    expect(run).toMatchObject({ state: 'ready', redo: true });
    const removed = pairsOf(run, 'removed');
    // Sam's assignment (made by hand: he is not eligible) is taken back; the locked and
    // the reviewed ones never are.
    expect(removed).toContain(`${w.ids.halos}:${sam.user.id}`);
    expect(removed).not.toContain(lockedPair!.join(':'));
    expect(removed).not.toContain(reviewedPair!.join(':'));
    const applied = await carla.call(
      'POST',
      `/calls/${w.callId}/assignment/proposals/${run.id}/apply/`,
    );
    expect(applied.statusCode, applied.body).toBe(200);
    expect(await assignmentOf(ctx, lockedPair![0], lockedPair![1])).toMatchObject({ locked: true });
    expect(await assignmentOf(ctx, reviewedPair![0], reviewedPair![1])).toBeDefined();
    expect(await assignmentOf(ctx, w.ids.halos, sam.user.id)).toBeUndefined();
    // Rita's conflict (recorded above) holds: she reviews nothing she has one with.
    const conflictedWith = (await assignmentsOf(ctx, [w.ids.halos, w.ids.transits])).filter(
      (pair) => pair.endsWith(`:${rita.user.id}`),
    );
    expect(conflictedWith.length).toBeLessThanOrEqual(1);
  });
});

describe('who may manage assignment', () => {
  let w: AssignmentWorld;
  let runId: number;
  beforeAll(async () => {
    w = await assignmentWorld(ctx);
    runId = (await proposeAndWait(ctx, w)).id;
    await assignReviewers(ctx.app, w.ids.halos, [w.people.rita.user.id]);
  });

  const routes = (): [string, string, object?][] => [
    ['GET', `/calls/${w.callId}/assignment/settings/`],
    ['PATCH', `/calls/${w.callId}/assignment/settings/`, { biddingOpen: true }],
    ['POST', `/calls/${w.callId}/assignment/proposals/`, {}],
    ['GET', `/calls/${w.callId}/assignment/proposals/${runId}/`],
    ['POST', `/calls/${w.callId}/assignment/proposals/${runId}/apply/`],
    ['DELETE', `/calls/${w.callId}/assignment/proposals/${runId}/`],
    ['GET', `/calls/${w.callId}/assignment/matrix/`],
    [
      'PATCH',
      `/calls/${w.callId}/assignment/locks/`,
      { proposalId: w.ids.halos, userId: w.people.rita.user.id, locked: true },
    ],
    ['GET', `/calls/${w.callId}/assignment/csv/`],
  ];

  it.each([
    ['a member', 'rita'],
    ['an applicant', 'ada'],
    ['a chair of another committee', 'otto'],
  ] as const)('refuses %s (%s) every route of the chairs', async (_name, who) => {
    for (const [method, url, body] of routes()) {
      const res = await w.people[who].call(method as 'GET', url, body);
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(403);
      expect(res.json().detail).toBe(assignmentMessages.chairsOnly);
    }
    const csv = await ctx.app.inject({
      method: 'POST',
      url: `/api/v1/calls/${w.callId}/assignment/csv/`,
      headers: {
        ...(await tokenOf(w.people[who])),
        'content-type': 'text/csv',
      },
      payload: 'proposal_id,username,action\n',
    });
    expect(csv.statusCode, csv.body).toBe(403);
  });

  it('lets an admin with no role read the page and the preview', async () => {
    const { adam } = w.people;
    expect((await adam.call('GET', `/calls/${w.callId}/assignment/settings/`)).statusCode).toBe(
      200,
    );
    expect(
      (await adam.call('GET', `/calls/${w.callId}/assignment/proposals/${runId}/`)).statusCode,
    ).toBe(200);
  });

  it('answers 404 for a call or a proposal that does not exist', async () => {
    const { carla } = w.people;
    expect((await carla.call('GET', '/calls/999999/assignment/settings/')).statusCode).toBe(404);
    const res = await carla.call('GET', `/calls/${w.callId}/assignment/proposals/999999/`);
    expect(res.statusCode).toBe(404);
    expect(res.json().detail).toBe(assignmentMessages.notFound);
  });
});

/** The Authorization header of a new login of a person's. */
const tokenOf = async (who: Person) => auth(await login(ctx.app, who.user.username));

describe('a chair with a conflict of interest', () => {
  let w: AssignmentWorld;
  beforeAll(async () => {
    w = await assignmentWorld(ctx);
  });

  it('is not shown the reviewers of that proposal, in the preview nor in the loads', async () => {
    const { cleo, carla } = w.people;
    const run = await proposeAndWait(ctx, w, {}, carla);
    const asCleo = (
      await cleo.call('GET', `/calls/${w.callId}/assignment/proposals/${run.id}/`)
    ).json() as AssignmentRun;
    expect(run.added.some((pair) => pair.proposalId === w.ids.galaxy)).toBe(true);
    expect(asCleo.added.some((pair) => pair.proposalId === w.ids.galaxy)).toBe(false);
    expect(asCleo.added).toEqual(run.added.filter((pair) => pair.proposalId !== w.ids.galaxy));
    // Each load counts without the galaxy survey, so no sum gives its reviewers away.
    for (const load of asCleo.loads) {
      const visible = asCleo.added.filter((pair) => pair.userId === load.userId).length;
      expect(load.after - load.before).toBe(visible);
    }
    // Applied, the same in the page's loads.
    expect(
      (await carla.call('POST', `/calls/${w.callId}/assignment/proposals/${run.id}/apply/`))
        .statusCode,
    ).toBe(200);
    const members = (await settingsOf(w, cleo)).members;
    const all = (await settingsOf(w, carla)).members;
    const galaxyReviewers = run.added
      .filter((pair) => pair.proposalId === w.ids.galaxy)
      .map((pair) => pair.userId);
    for (const member of members) {
      const full = all.find((m) => m.userId === member.userId)!;
      expect(full.load - member.load).toBe(galaxyReviewers.includes(member.userId) ? 1 : 0);
    }
  });

  it('may not lock its assignments', async () => {
    const [reviewer] = (await assignmentsOf(ctx, [w.ids.galaxy])).map(
      (pair) => pair.split(':').map(Number)[1]!,
    );
    const res = await w.people.cleo.call('PATCH', `/calls/${w.callId}/assignment/locks/`, {
      proposalId: w.ids.galaxy,
      userId: reviewer,
      locked: true,
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().detail).toBe(assignmentMessages.notYours);
    // Nor assign its reviewers one by one (the reviews module's own rule).
    const single = await w.people.cleo.call('POST', '/reviewers/', {
      proposalId: w.ids.galaxy,
      userId: w.people.sam.user.id,
    });
    expect(single.json().detail).toBe(conflictMessages.chairConflicted);
  });
});

describe('caps hold for one assignment too', () => {
  it('refuses a member at their cap with 409 over_cap, and assigns when the chair insists', async () => {
    const w = await assignmentWorld(ctx);
    const { carla, rita } = w.people;
    expect((await patch(w, { caps: { [rita.user.id]: 1 } })).statusCode).toBe(200);
    const assign = (proposalId: number, extra: object = {}) =>
      carla.call('POST', '/reviewers/', { proposalId, userId: rita.user.id, ...extra });
    expect((await assign(w.ids.halos)).statusCode).toBe(201);
    const refused = await assign(w.ids.transits);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      code: 'over_cap',
      detail: assignmentMessages.overCap('Rita Reviewer', 1),
    });
    expect(await assignmentOf(ctx, w.ids.transits, rita.user.id)).toBeUndefined();
    const insisted = await assign(w.ids.transits, { overCap: true });
    expect(insisted.statusCode, insisted.body).toBe(201);
    expect(await assignmentOf(ctx, w.ids.transits, rita.user.id)).toBeDefined();
    // The audit row of the single assignment is the reviews module's, as before.
    const rows = await ctx.app.db
      .select()
      .from(auditLog)
      .where(
        and(eq(auditLog.entityId, w.ids.transits), eq(auditLog.action, 'proposal.add_reviewer')),
      );
    expect(rows).toHaveLength(1);
  });
});

describe('a proposal that fails', () => {
  it('ends failed with a message, cannot be applied, and gives way to a new one', async () => {
    const w = await assignmentWorld(ctx);
    const [run] = await ctx.app.db
      .insert(assignmentRuns)
      .values({
        callId: w.callId,
        state: 'running',
        redo: false,
        seed: 1,
        createdAt: ctx.clock.now(),
      })
      .returning();
    // The solver's thread given no time at all: it is ended, and the run says so.
    await runProposal(
      { runId: run!.id },
      { db: ctx.app.db, now: ctx.clock.now(), log: ctx.app.log },
      { heapMb: 256, timeoutMs: 1 },
    );
    const url = `/calls/${w.callId}/assignment/proposals/${run!.id}/`;
    const failed = (await w.people.carla.call('GET', url)).json() as AssignmentRun;
    expect(failed).toMatchObject({ state: 'failed', error: assignmentMessages.failed, added: [] });
    const apply = await w.people.carla.call('POST', `${url}apply/`);
    expect(apply.statusCode).toBe(409);
    expect(apply.json().detail).toBe(assignmentMessages.failed);
    const next = await proposeAndWait(ctx, w);
    expect(next.state).toBe('ready');
    expect((await w.people.carla.call('GET', url)).statusCode).toBe(404);
  });
});

describe('the runs table', () => {
  it('keeps one run per call: a new proposal replaces one that is ready', async () => {
    const w = await assignmentWorld(ctx);
    const first = await proposeAndWait(ctx, w);
    const second = await proposeAndWait(ctx, w);
    expect(second.id).not.toBe(first.id);
    const rows = await ctx.app.db
      .select({ id: assignmentRuns.id })
      .from(assignmentRuns)
      .where(eq(assignmentRuns.callId, w.callId));
    expect(rows).toEqual([{ id: second.id }]);
  });
});
