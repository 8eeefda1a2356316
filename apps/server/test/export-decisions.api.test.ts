import type { CallProposalExport, CallRanking } from '@merit/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calls } from '../src/db/schema.js';
import type { Person } from './assignment-fixtures.js';
import { DAY, decisionWorld, extraProposal, type DecisionWorld } from './decisions-fixtures.js';
import { createTestApp, type TestContext } from './helpers.js';

/**
 * The decision meeting in the chair's export (issue 29, "Exports"): `include=decisions`
 * puts each row's outcome and awards on the rows a reader may read them of, and the call's
 * own words for the outcomes; `include=ranking` the Ranking page's order and lines. Only
 * for the call's chairs; never what a chair is conflicted on, nor a chair's own proposal's
 * before release; nothing of it without the parts.
 *
 * The world is decisions-fixtures.ts's: Carla and Cleo chair, Cleo is conflicted on
 * "Galaxy rotation curves", Rita and Mia are members (Mia collaborates on "Pulsar timing
 * array").
 */
let ctx: TestContext;
let w: DecisionWorld;
let own: number;

const exportOf = async (who: Person, query = '') => {
  const res = await who.call('GET', `/calls/${w.callId}/proposals/export/${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as CallProposalExport;
};
const itemOf = (body: CallProposalExport, id: number) => body.items.find((item) => item.id === id)!;

const decideOn = async (proposalId: number, outcome: string, awards = {}) => {
  const res = await w.people.carla.call('POST', `/proposals/${proposalId}/decision/`, {
    outcome,
    awards,
    awardNotes: {},
    version: 0,
  });
  expect(res.statusCode, res.body).toBe(200);
};

beforeAll(async () => {
  ctx = await createTestApp();
  await ctx.app.jobs.stop();
  w = await decisionWorld(ctx);
  own = await extraProposal(ctx, w, 'Chair’s own survey', w.people.carla.user.id);
  // Into the review window: submission closed on day 7, outcomes can be set.
  ctx.clock.advance(8 * DAY);
  await decideOn(w.ids.pulsar, 'partly_approved', { Parkes: { hours: 60 } });
  await decideOn(w.ids.galaxy, 'approved', { Parkes: { hours: 30 } });
  await decideOn(w.ids.transits, 'declined');
  const capacity = await w.people.carla.call('PUT', `/calls/${w.callId}/capacity/`, {
    capacity: { Parkes: { hours: 150 } },
    version: 0,
  });
  expect(capacity.statusCode, capacity.body).toBe(200);
  await ctx.app.db
    .update(calls)
    .set({ outcomeLabels: { approved: 'Granted', declined: '  ' } })
    .where(eq(calls.id, w.callId));
});
afterAll(() => ctx.close());

describe('the export with the decisions', () => {
  it('gives the chairs each outcome and award, and the call’s own word for an outcome', async () => {
    const body = await exportOf(w.people.carla, '?include=decisions');
    expect(itemOf(body, w.ids.pulsar).decision).toEqual({
      outcome: 'partly_approved',
      awards: { Parkes: { hours: 60 } },
    });
    expect(itemOf(body, w.ids.galaxy).decision).toEqual({
      outcome: 'approved',
      awards: { Parkes: { hours: 30 } },
    });
    // An outcome that awards nothing keeps no awards; one not set yet is absent.
    expect(itemOf(body, w.ids.transits).decision).toEqual({ outcome: 'declined', awards: {} });
    expect(itemOf(body, w.ids.halos).decision).toEqual({ awards: {} });
    // Renamed only where the call gave a word (a blank one keeps the label).
    expect(body.outcomeLabels).toEqual({ approved: 'Granted' });
    expect(body.ranking).toBeUndefined();
  });

  it('leaves them out on a chair’s own proposal before release, and where a chair is conflicted', async () => {
    const carlas = await exportOf(w.people.carla, '?include=decisions');
    const mine = itemOf(carlas, own);
    expect(mine).toBeDefined();
    expect(mine).not.toHaveProperty('decision');

    const cleos = await exportOf(w.people.cleo, '?include=decisions');
    const conflicted = itemOf(cleos, w.ids.galaxy);
    // Its row stays, as today, with the note and nothing of its decision.
    expect(conflicted).toMatchObject({ myConflict: true });
    expect(conflicted).not.toHaveProperty('decision');
    expect(JSON.stringify(cleos.items.filter((item) => item.id === w.ids.galaxy))).not.toContain(
      'approved',
    );
    expect(itemOf(cleos, w.ids.pulsar).decision).toMatchObject({ outcome: 'partly_approved' });
    // Cleo is no author of Carla's survey: she reads its decision (none yet).
    expect(itemOf(cleos, own).decision).toEqual({ awards: {} });
  });

  it('gives a chair the outcome of their own proposal once the decisions are released', async () => {
    const closedAt = ctx.clock.now();
    await ctx.app.db
      .update(calls)
      .set({ closed: true, closedAt, decisionsReleasedAt: closedAt })
      .where(eq(calls.id, w.callId));
    try {
      const body = await exportOf(w.people.carla, '?include=decisions');
      expect(itemOf(body, own).decision).toEqual({ awards: {} });
    } finally {
      await ctx.app.db
        .update(calls)
        .set({ closed: false, closedAt: null, decisionsReleasedAt: null })
        .where(eq(calls.id, w.callId));
    }
  });

  it('carries nothing of them without the part', async () => {
    const body = await exportOf(w.people.carla, '?include=allReviewScores');
    expect(body).not.toHaveProperty('outcomeLabels');
    expect(body).not.toHaveProperty('ranking');
    for (const item of body.items) expect(item).not.toHaveProperty('decision');
  });

  it('of one type, only that type’s decisions', async () => {
    const body = await exportOf(w.people.carla, `?include=decisions&type=${w.types.optical}`);
    expect(body.items.map((item) => item.id).sort()).toEqual([w.ids.galaxy, w.ids.transits].sort());
    expect(itemOf(body, w.ids.galaxy).decision).toMatchObject({ outcome: 'approved' });
  });
});

describe('the export with the ranking', () => {
  const rankingOf = async (who: Person, query = '') => {
    const res = await who.call('GET', `/calls/${w.callId}/ranking/${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as CallRanking;
  };

  it('is the Ranking page’s order, totals and lines, the chair’s moves included', async () => {
    // Carla moves "Exoplanet transits" to the top.
    const page = await rankingOf(w.people.carla);
    const transits = page.rows.find((row) => row.proposalId === w.ids.transits)!;
    const moved = await w.people.carla.call('POST', `/calls/${w.callId}/ranking/move/`, {
      proposalId: w.ids.transits,
      after: null,
      reason: 'Time-critical observations.',
      version: transits.version,
    });
    expect(moved.statusCode, moved.body).toBe(200);

    const body = await exportOf(w.people.carla, '?include=decisions,ranking');
    const ranking = await rankingOf(w.people.carla);
    expect(body.ranking!.rows.map((row) => row.proposalId)).toEqual([
      w.ids.transits,
      w.ids.pulsar,
      w.ids.halos,
      w.ids.galaxy,
    ]);
    expect(body.ranking!.rows).toEqual(
      ranking.rows.map(({ rank, proposalId, score, requested, running, aboveLine, above }) => ({
        rank,
        proposalId,
        score,
        requested,
        running,
        aboveLine,
        above,
      })),
    );
    expect(body.ranking!.lines).toEqual(ranking.lines);
    // Parkes: 260 h asked for against 150, 90 h awarded: over- and undersubscription as numbers.
    expect(body.ranking!.lines).toContainEqual(
      expect.objectContaining({
        facility: 'Parkes',
        field: 'hours',
        capacity: 150,
        requested: 260,
        awarded: 90,
        oversubscription: 260 / 150,
        awardedShare: 90 / 150,
      }),
    );
    // The chair's own proposal is in the rows, not in the ranking.
    expect(body.items.some((item) => item.id === own)).toBe(true);
    expect(body.ranking!.rows.some((row) => row.proposalId === own)).toBe(false);
  });

  it('leaves out what the chair is conflicted on, and adds nothing of it up', async () => {
    const body = await exportOf(w.people.cleo, '?include=ranking');
    expect(body.ranking!.rows.map((row) => row.proposalId)).not.toContain(w.ids.galaxy);
    expect(body.ranking!.lines).toEqual((await rankingOf(w.people.cleo)).lines);
    expect(body.ranking!.lines).toContainEqual(
      expect.objectContaining({ facility: 'Parkes', requested: 230, awarded: 60 }),
    );
  });

  it('of one type, that type’s rows with the whole call’s ranks', async () => {
    const body = await exportOf(w.people.carla, `?include=ranking&type=${w.types.radio}`);
    expect(body.ranking!.rows.map((row) => [row.proposalId, row.rank])).toEqual([
      [w.ids.pulsar, 2],
      [w.ids.halos, 3],
    ]);
  });
});

describe('who gets the decisions’ parts', () => {
  it('never a member who is not a chair, nor an applicant, nor another committee’s chair', async () => {
    const { rita, mia, ada, otto } = w.people;
    for (const who of [rita, mia, ada, otto]) {
      const res = await who.call(
        'GET',
        `/calls/${w.callId}/proposals/export/?include=decisions,ranking`,
      );
      // Every signed-in user sees the call: the export is refused, not hidden.
      expect(res.statusCode, `${who.user.username}: ${res.body}`).toBe(403);
      expect(res.body).not.toContain('partly_approved');
      expect(res.body).not.toContain('Pulsar');
    }
  });

  it('admins, who count as chairs', async () => {
    const body = await exportOf(w.people.adam, '?include=decisions,ranking');
    expect(itemOf(body, w.ids.galaxy).decision).toMatchObject({ outcome: 'approved' });
    // Adam is on no proposal's team: Carla's survey is ranked too, last without a score.
    expect(body.ranking!.rows.map((row) => row.proposalId)).toEqual([
      w.ids.transits,
      w.ids.pulsar,
      w.ids.halos,
      w.ids.galaxy,
      own,
    ]);
  });

  it('refuses a part it does not know', async () => {
    const res = await w.people.carla.call(
      'GET',
      `/calls/${w.callId}/proposals/export/?include=decisions,letters`,
    );
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ code: expect.any(String) });
    expect(res.body).toContain('decisions, ranking');
  });
});
