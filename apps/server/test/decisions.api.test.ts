import type {
  CallCapacity,
  CallRanking,
  DecisionSaved,
  OutcomesFromLineAnswer,
  ProposalDecision,
  ProposalDetail,
} from '@merit/contract';
import { decisionMessages, withAwarded, type Outcome } from '@merit/domain';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditLog,
  calls,
  decisionLetters,
  proposalDecisions,
  proposals,
} from '../src/db/schema.js';
import type { Person } from './assignment-fixtures.js';
import { DAY, decisionWorld, extraProposal, type DecisionWorld } from './decisions-fixtures.js';
import { createTestApp, type TestContext } from './helpers.js';

/**
 * The decision meeting (issue 29) on a real database: who may set a proposal's outcome
 * and awards and how awards are checked, saves from a stale version, the capacities, the
 * ranking with its line (ordered by score, ties by name, moved by a chair, without what
 * the reader is conflicted on), its filters, the outcomes from the line, and what the
 * applicants read of it before and after the decisions are released.
 *
 * The world is decisions-fixtures.ts's; the tests run in order, each from where the one
 * before left the call.
 */
let ctx: TestContext;
let w: DecisionWorld;

beforeAll(async () => {
  ctx = await createTestApp();
  await ctx.app.jobs.stop();
  w = await decisionWorld(ctx);
});
afterAll(() => ctx.close());

const decisionBody = (
  outcome: Outcome | null,
  version: number,
  awards: Record<string, Record<string, number>> = {},
  awardNotes: Record<string, string> = {},
) => ({ outcome, awards, awardNotes, version });

const saveDecision = (who: Person, proposalId: number, body: ReturnType<typeof decisionBody>) =>
  who.call('POST', `/proposals/${proposalId}/decision/`, body);

const rankingOf = async (who: Person = w.people.carla, query = '') => {
  const res = await who.call('GET', `/calls/${w.callId}/ranking/${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as CallRanking;
};
const namesOf = (ranking: CallRanking) => ranking.rows.map((row) => row.name);
const rowOf = (ranking: CallRanking, id: number) => ranking.rows.find((r) => r.proposalId === id)!;

const storedDecision = async (proposalId: number) =>
  (
    await ctx.app.db
      .select()
      .from(proposalDecisions)
      .where(eq(proposalDecisions.proposalId, proposalId))
  )[0];

const auditsOf = (action: string, entityId: number) =>
  ctx.app.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, action), eq(auditLog.entityId, entityId)))
    .orderBy(asc(auditLog.id));

const detailOf = async (who: Person, proposalId: number) => {
  const res = await who.call('GET', `/proposals/${proposalId}/`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as ProposalDetail;
};

describe('who may set outcomes and awards', () => {
  it('nobody while submission is open for the proposal', async () => {
    const res = await saveDecision(w.people.carla, w.ids.pulsar, decisionBody('approved', 0));
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json()).toMatchObject({ detail: decisionMessages.notYet });
    expect(await storedDecision(w.ids.pulsar)).toBeUndefined();
  });

  it('the chairs once it has closed; not members, applicants, conflicted chairs, nor on drafts', async () => {
    // Into the review window: submission closed on day 7.
    ctx.clock.advance(8 * DAY);
    const { carla, cleo, rita, ada, mia, otto, adam } = w.people;
    const refusals = [
      [rita, w.ids.pulsar, 403, decisionMessages.chairsOnly],
      [ada, w.ids.pulsar, 403, decisionMessages.ownProposal],
      [mia, w.ids.pulsar, 403, decisionMessages.ownProposal],
      [cleo, w.ids.galaxy, 404, undefined],
      [otto, w.ids.pulsar, 404, undefined],
      [carla, w.ids.draft, 409, decisionMessages.draft],
    ] as const;
    for (const [who, proposalId, status, detail] of refusals) {
      const res = await saveDecision(who, proposalId, decisionBody('approved', 0));
      expect(res.statusCode, `${who.user.username}: ${res.body}`).toBe(status);
      if (detail) expect(res.json()).toMatchObject({ detail });
      expect(await storedDecision(proposalId)).toBeUndefined();
    }

    const saved = await saveDecision(carla, w.ids.pulsar, decisionBody('approved', 0));
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toEqual({
      outcome: 'approved',
      awards: {},
      awardNotes: {},
      version: 1,
      letter: null,
      requested: { Parkes: { hours: 100 } },
      decidedAt: ctx.clock.now().toISOString(),
      decidedBy: 'Carla Chair',
      // Nothing is awarded in the call yet.
      awarded: {},
      // Before the release no letter is owed.
      letterDue: false,
    } satisfies DecisionSaved);
    // Admins count as chairs.
    const byAdmin = await saveDecision(adam, w.ids.transits, decisionBody('approved', 0));
    expect(byAdmin.statusCode, byAdmin.body).toBe(200);
  });

  it('never a chair on a proposal of their own', async () => {
    const own = await extraProposal(ctx, w, 'Chair’s own survey', w.people.carla.user.id);
    const res = await saveDecision(w.people.carla, own, decisionBody('approved', 0));
    expect(res.statusCode, res.body).toBe(403);
    expect(res.json()).toMatchObject({ detail: decisionMessages.ownProposal });
    await ctx.app.db.delete(proposals).where(eq(proposals.id, own));
  });
});

describe('awards', () => {
  const tryAwards = (
    awards: Record<string, Record<string, number>>,
    notes: Record<string, string> = {},
    outcome: Outcome = 'partly_approved',
  ) => saveDecision(w.people.carla, w.ids.halos, decisionBody(outcome, 0, awards, notes));

  it('refuses what the proposal cannot be awarded, with each problem beside its field', async () => {
    const cases = [
      [{ Parkes: { hours: -1 } }, 'awards.Parkes.hours', decisionMessages.negative],
      [{ Parkes: { hours: 90 } }, 'awards.Parkes.hours', decisionMessages.aboveRequest(80)],
      [{ Effelsberg: { hours: 5 } }, 'awards.Effelsberg.hours', decisionMessages.notRequested],
      [{ Parkes: { nights: 2 } }, 'awards.Parkes.nights', decisionMessages.fieldNotRequested],
    ] as const;
    for (const [awards, field, message] of cases) {
      const res = await tryAwards(awards);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({
        code: 'validation_error',
        fields: { [field]: [message] },
      });
    }
    const waitlisted = await tryAwards({ Parkes: { hours: 10 } }, {}, 'waitlisted');
    expect(waitlisted.statusCode).toBe(400);
    expect(waitlisted.json()).toMatchObject({
      fields: { awards: [decisionMessages.awardsNeedApproval] },
    });
    expect(await storedDecision(w.ids.halos)).toBeUndefined();
  });

  it('takes more than asked for with a note, and clears both for an outcome that awards nothing', async () => {
    const res = await tryAwards(
      { Parkes: { hours: 90 }, ATCA: { hours: 12 } },
      { Parkes: '  Extra calibration time  ', ATCA: ' ' },
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      outcome: 'partly_approved',
      awards: { Parkes: { hours: 90 }, ATCA: { hours: 12 } },
      awardNotes: { Parkes: 'Extra calibration time' },
      version: 1,
    });

    const declined = await saveDecision(
      w.people.carla,
      w.ids.halos,
      decisionBody('declined', 1, {}, { Parkes: 'kept?' }),
    );
    expect(declined.statusCode, declined.body).toBe(200);
    expect(await storedDecision(w.ids.halos)).toMatchObject({
      outcome: 'declined',
      awards: {},
      awardNotes: {},
      version: 2,
      decidedBy: w.people.carla.user.id,
    });
    const audits = await auditsOf('proposal.decide', w.ids.halos);
    expect(audits).toHaveLength(2);
    expect(audits[1]!.changes).toMatchObject({
      outcome: { before: 'partly_approved', after: 'declined' },
      awards: { before: { Parkes: { hours: 90 }, ATCA: { hours: 12 } }, after: {} },
    });
    expect(audits[1]!.proposalId).toBe(w.ids.halos);
  });
});

describe('saves from a stale version', () => {
  it('are refused with the decision as another chair saved it', async () => {
    const { carla, cleo } = w.people;
    const first = await saveDecision(
      cleo,
      w.ids.pulsar,
      decisionBody('partly_approved', 1, { Parkes: { hours: 60 } }),
    );
    expect(first.statusCode, first.body).toBe(200);
    const late = await saveDecision(carla, w.ids.pulsar, decisionBody('declined', 1));
    expect(late.statusCode, late.body).toBe(409);
    expect(late.json()).toMatchObject({
      code: 'stale',
      detail: decisionMessages.stale('Cleo Cochair'),
      current: {
        outcome: 'partly_approved',
        awards: { Parkes: { hours: 60 } },
        version: 2,
        decidedBy: 'Cleo Cochair',
      },
    });
    expect(await storedDecision(w.ids.pulsar)).toMatchObject({
      outcome: 'partly_approved',
      version: 2,
    });
  });
});

describe('capacities', () => {
  const capacityUrl = () => `/calls/${w.callId}/capacity/`;

  it('are the chairs’: what the proposals ask for, none entered yet', async () => {
    const res = await w.people.cleo.call('GET', capacityUrl());
    expect(res.statusCode, res.body).toBe(200);
    const noCapacity = {
      capacity: null,
      firstBelow: null,
      oversubscription: null,
      awardedShare: null,
      overAwarded: false,
    };
    expect(res.json()).toEqual({
      capacity: {},
      version: 0,
      asked: [
        { facility: 'ATCA', field: 'hours' },
        { facility: 'Parkes', field: 'hours' },
      ],
      // Cleo's totals leave out Galaxy, which she is conflicted on; Pulsar has 60 h.
      lines: [
        { facility: 'ATCA', field: 'hours', requested: 12, awarded: 0, ...noCapacity },
        { facility: 'Parkes', field: 'hours', requested: 230, awarded: 60, ...noCapacity },
      ],
      // The fixture's form gives its field no title (the demo's test reads titles).
      fieldTitles: {},
    } satisfies CallCapacity);
    for (const who of [w.people.rita, w.people.ada]) {
      const refused = await who.call('GET', capacityUrl());
      expect(refused.statusCode).toBe(403);
    }
  });

  it('are checked, saved from their version and audited', async () => {
    const { carla, cleo } = w.people;
    const negative = await carla.call('PUT', capacityUrl(), {
      capacity: { Parkes: { hours: -5 } },
      version: 0,
    });
    expect(negative.statusCode).toBe(400);
    expect(negative.json()).toMatchObject({
      fields: { 'capacity.Parkes.hours': [decisionMessages.capacityNegative] },
    });
    const capacity = { Parkes: { hours: 200 }, ATCA: { hours: 10 } };
    const saved = await carla.call('PUT', capacityUrl(), { capacity, version: 0 });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ capacity, version: 1 });
    // The answer's totals are against the new capacities at once.
    expect((saved.json() as CallCapacity).lines).toContainEqual(
      expect.objectContaining({ facility: 'Parkes', capacity: 200, requested: 260 }),
    );
    const late = await cleo.call('PUT', capacityUrl(), {
      capacity: { Parkes: { hours: 1 } },
      version: 0,
    });
    expect(late.statusCode).toBe(409);
    expect(late.json()).toMatchObject({
      code: 'stale',
      detail: decisionMessages.capacityStale,
      current: { capacity, version: 1 },
    });
    const audits = await auditsOf('call.update_capacity', w.callId);
    expect(audits).toHaveLength(1);
    expect(audits[0]!.changes).toMatchObject({ capacity: { before: {}, after: capacity } });
    const refused = await w.people.rita.call('PUT', capacityUrl(), { capacity, version: 1 });
    expect(refused.statusCode).toBe(403);
  });
});

describe('the ranking', () => {
  it('orders by score, ties by name, with running totals and each facility’s line', async () => {
    const ranking = await rankingOf();
    expect(namesOf(ranking)).toEqual([
      'Pulsar timing array',
      'Dark matter halos',
      'Galaxy rotation curves',
      'Exoplanet transits',
    ]);
    expect(ranking.hidden).toBe(0);
    expect(ranking.rows.map((r) => [r.rank, r.score, r.running])).toEqual([
      [1, 4.5, { Parkes: { hours: 100 } }],
      [2, 4, { Parkes: { hours: 180 }, ATCA: { hours: 12 } }],
      [3, 4, { Parkes: { hours: 210 }, ATCA: { hours: 12 } }],
      [4, 3, { Parkes: { hours: 260 }, ATCA: { hours: 12 } }],
    ]);
    // Parkes passes 200 h at the third; ATCA passes 10 h at the second.
    expect(ranking.rows.map((r) => [r.aboveLine, r.above])).toEqual([
      [{ Parkes: true }, true],
      [{ Parkes: true, ATCA: false }, false],
      [{ Parkes: false }, false],
      [{ Parkes: false }, false],
    ]);
    expect(ranking.lines).toEqual([
      expect.objectContaining({
        facility: 'ATCA',
        field: 'hours',
        capacity: 10,
        requested: 12,
        firstBelow: 2,
        awarded: 0,
      }),
      expect.objectContaining({
        facility: 'Parkes',
        capacity: 200,
        requested: 260,
        firstBelow: 3,
        oversubscription: 1.3,
        // Pulsar's partial award; halos was declined, transits approved without awards.
        awarded: 60,
        overAwarded: false,
      }),
    ]);
    expect(rowOf(ranking, w.ids.pulsar)).toMatchObject({
      outcome: 'partly_approved',
      awards: { Parkes: { hours: 60 } },
      version: 2,
      decide: true,
      moved: null,
      proposalTypeName: 'Radio',
    });
    expect(ranking.capacityVersion).toBe(1);
    expect(ranking.proposalTypes.map((t) => t.name)).toEqual(['Radio', 'Optical']);
  });

  it('has the same lines in the capacities’ answer, without its rows, for each reader', async () => {
    for (const who of [w.people.carla, w.people.cleo]) {
      const res = await who.call('GET', `/calls/${w.callId}/capacity/`);
      expect(res.statusCode, res.body).toBe(200);
      const { lines } = res.json() as CallCapacity;
      expect(lines, who.user.username).toEqual((await rankingOf(who)).lines);
      expect(JSON.stringify(res.json())).not.toContain('Pulsar');
    }
  });

  it('leaves out what the reader is conflicted on, counting it, and adds nothing of it up', async () => {
    const ranking = await rankingOf(w.people.cleo);
    expect(namesOf(ranking)).toEqual([
      'Pulsar timing array',
      'Dark matter halos',
      'Exoplanet transits',
    ]);
    expect(ranking.hidden).toBe(1);
    expect(rowOf(ranking, w.ids.transits).running).toEqual({
      Parkes: { hours: 230 },
      ATCA: { hours: 12 },
    });
    expect(JSON.stringify(ranking)).not.toContain('Galaxy');
  });

  it('keeps the whole call’s ranks and totals when filtered by facility or type', async () => {
    const atca = await rankingOf(w.people.carla, '?facility=ATCA');
    expect(atca.rows.map((r) => [r.name, r.rank, r.running.Parkes])).toEqual([
      ['Dark matter halos', 2, { hours: 180 }],
    ]);
    expect(atca.lines.find((l) => l.facility === 'Parkes')!.requested).toBe(260);
    const optical = await rankingOf(w.people.carla, `?type=${w.types.optical}`);
    expect(optical.rows.map((r) => [r.name, r.rank])).toEqual([
      ['Galaxy rotation curves', 3],
      ['Exoplanet transits', 4],
    ]);
  });

  it('is the chairs’ and admins’ alone', async () => {
    for (const who of [w.people.rita, w.people.ada, w.people.otto]) {
      const res = await who.call('GET', `/calls/${w.callId}/ranking/`);
      expect(res.statusCode, who.user.username).toBe(403);
    }
    expect(namesOf(await rankingOf(w.people.adam))).toHaveLength(4);
  });
});

describe('moving a proposal in the ranking', () => {
  const move = (
    who: Person,
    proposalId: number,
    after: number | null,
    version: number,
    reason = 'Strategic priority of the observatory',
  ) => who.call('POST', `/calls/${w.callId}/ranking/move/`, { proposalId, after, reason, version });

  it('puts it where the chair says, with the reason, and answers the new order', async () => {
    const { carla } = w.people;
    const before = rowOf(await rankingOf(), w.ids.transits);
    const res = await move(carla, w.ids.transits, null, before.version);
    expect(res.statusCode, res.body).toBe(200);
    const ranking = res.json() as CallRanking;
    expect(namesOf(ranking)).toEqual([
      'Exoplanet transits',
      'Pulsar timing array',
      'Dark matter halos',
      'Galaxy rotation curves',
    ]);
    expect(rowOf(ranking, w.ids.transits)).toMatchObject({
      rank: 1,
      score: 3,
      moved: { reason: 'Strategic priority of the observatory', by: 'Carla Chair' },
      version: before.version + 1,
      running: { Parkes: { hours: 50 } },
    });
    expect((await storedDecision(w.ids.transits))!.rankKey).toBe(5.5);

    // Between two neighbours: below the pulsar, above the halos.
    const galaxy = rowOf(ranking, w.ids.galaxy);
    const between = await move(carla, w.ids.galaxy, w.ids.pulsar, galaxy.version, 'Timely');
    expect(between.statusCode, between.body).toBe(200);
    expect(namesOf(between.json() as CallRanking)).toEqual([
      'Exoplanet transits',
      'Pulsar timing array',
      'Galaxy rotation curves',
      'Dark matter halos',
    ]);
    expect((await storedDecision(w.ids.galaxy))!.rankKey).toBe(4.25);
    const audits = await auditsOf('proposal.move_in_ranking', w.ids.galaxy);
    expect(audits).toHaveLength(1);
    expect(audits[0]!.changes).toMatchObject({
      rankKey: { before: null, after: 4.25 },
      reason: { before: null, after: 'Timely' },
    });
  });

  it('refuses a stale version, a conflicted chair, and a move without a reason', async () => {
    const { carla, cleo } = w.people;
    const stale = await move(carla, w.ids.transits, w.ids.pulsar, 0);
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ code: 'stale', detail: decisionMessages.rankStale });
    expect(namesOf((stale.json() as { current: CallRanking }).current)[0]).toBe(
      'Exoplanet transits',
    );
    const galaxy = rowOf(await rankingOf(), w.ids.galaxy);
    const conflicted = await move(cleo, w.ids.galaxy, null, galaxy.version);
    expect(conflicted.statusCode).toBe(404);
    const noReason = await move(carla, w.ids.galaxy, null, galaxy.version, '  ');
    expect(noReason.statusCode).toBe(400);
    expect(rowOf(await rankingOf(), w.ids.galaxy).rank).toBe(3);
  });
});

describe('outcomes from the line', () => {
  const fromLine = (who: Person, waitlist: number, apply: boolean) =>
    who.call('POST', `/calls/${w.callId}/ranking/outcomes/`, { waitlist, apply });

  it('previews Approved above the line, Waitlisted next and Declined below, writing nothing', async () => {
    // Transits 50, pulsar 150, galaxy 180 h of Parkes' 200; the halos pass it (and ATCA's).
    const res = await fromLine(w.people.carla, 1, false);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      proposals: [
        { proposalId: w.ids.transits, outcome: 'approved', current: 'approved' },
        { proposalId: w.ids.pulsar, outcome: 'approved', current: 'partly_approved' },
        { proposalId: w.ids.galaxy, outcome: 'approved', current: null },
        { proposalId: w.ids.halos, outcome: 'waitlisted', current: 'declined' },
      ],
      counts: { approved: 3, partly_approved: 0, waitlisted: 1, declined: 0 },
      changed: 3,
    } satisfies OutcomesFromLineAnswer);
    expect((await storedDecision(w.ids.galaxy))!.outcome).toBeNull();
    expect((await storedDecision(w.ids.halos))!.outcome).toBe('declined');
    expect(await auditsOf('call.outcomes_from_line', w.callId)).toHaveLength(0);

    // A conflicted chair's line is drawn without what they cannot see.
    const cleo = (await fromLine(w.people.cleo, 0, false)).json() as OutcomesFromLineAnswer;
    expect(cleo.proposals.map((p) => [p.proposalId, p.outcome])).toEqual([
      [w.ids.transits, 'approved'],
      [w.ids.pulsar, 'approved'],
      [w.ids.halos, 'declined'],
    ]);
  });

  it('applies them, awarding what was asked where nothing was awarded, and audits the counts', async () => {
    const versions = Object.fromEntries(
      (await rankingOf()).rows.map((r) => [r.proposalId, r.version]),
    );
    const res = await fromLine(w.people.carla, 1, true);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ changed: 3 });
    expect(await storedDecision(w.ids.pulsar)).toMatchObject({
      outcome: 'approved',
      // It had an award already: kept.
      awards: { Parkes: { hours: 60 } },
      version: versions[w.ids.pulsar]! + 1,
    });
    expect(await storedDecision(w.ids.galaxy)).toMatchObject({
      outcome: 'approved',
      awards: { Parkes: { hours: 30 } },
      version: versions[w.ids.galaxy]! + 1,
      // Where it was moved stays.
      rankKey: 4.25,
    });
    expect(await storedDecision(w.ids.halos)).toMatchObject({
      outcome: 'waitlisted',
      awards: {},
      version: versions[w.ids.halos]! + 1,
    });
    // Unchanged: not written.
    expect((await storedDecision(w.ids.transits))!.version).toBe(versions[w.ids.transits]);
    const audits = await auditsOf('call.outcomes_from_line', w.callId);
    expect(audits).toHaveLength(1);
    expect(audits[0]!.changes).toMatchObject({
      counts: { after: { approved: 3, partly_approved: 0, waitlisted: 1, declined: 0 } },
      changed: { after: 3 },
    });
    const again = await fromLine(w.people.carla, 1, true);
    expect(again.json()).toMatchObject({ changed: 0 });
    expect(await auditsOf('call.outcomes_from_line', w.callId)).toHaveLength(1);
    const refused = await fromLine(w.people.rita, 1, true);
    expect(refused.statusCode).toBe(403);
  });

  it('answers a saved award with what the reader’s ranking is awarded, as its lines add it up', async () => {
    // Cleo is conflicted on Galaxy: her totals leave its 30 hours out, Carla's count them.
    // Carla last: the decision is hers again, as the tests after this one read it.
    for (const [who, parkes] of [
      [w.people.cleo, 60],
      [w.people.carla, 60 + 30],
    ] as const) {
      const before = await rankingOf(who);
      const row = rowOf(before, w.ids.pulsar);
      expect(row.decide).toBe(true);
      const res = await saveDecision(
        who,
        w.ids.pulsar,
        decisionBody('approved', row.version, { Parkes: { hours: 59 } }),
      );
      expect(res.statusCode, res.body).toBe(200);
      const { awarded, version } = res.json() as DecisionSaved;
      expect(awarded.Parkes, who.user.username).toEqual({ hours: parkes - 1 });
      const after = await rankingOf(who);
      expect(withAwarded(before.lines, awarded)).toEqual(after.lines);
      // Back as it was, for the tests after this one.
      const back = await saveDecision(
        who,
        w.ids.pulsar,
        decisionBody('approved', version, { Parkes: { hours: 60 } }),
      );
      expect((back.json() as DecisionSaved).awarded.Parkes).toEqual({ hours: parkes });
    }
  });
});

describe('what the applicants read', () => {
  it('nothing before the call is closed and its decisions released; the chairs everything', async () => {
    const { ada, mia, rita, carla } = w.people;
    for (const who of [ada, mia, rita])
      expect(await detailOf(who, w.ids.pulsar)).not.toHaveProperty('decision');
    expect((await detailOf(carla, w.ids.pulsar)).decision).toMatchObject({
      outcome: 'approved',
      awards: { Parkes: { hours: 60 } },
      requested: { Parkes: { hours: 100 } },
      decidedBy: 'Carla Chair',
      letter: null,
    });

    await ctx.app.db
      .update(calls)
      .set({ closed: true, closedAt: ctx.clock.now() })
      .where(eq(calls.id, w.callId));
    for (const who of [ada, mia])
      expect(await detailOf(who, w.ids.pulsar)).not.toHaveProperty('decision');
    // The chairs may still decide once the call is closed.
    const galaxy = (await storedDecision(w.ids.galaxy))!;
    const closed = await saveDecision(
      carla,
      w.ids.galaxy,
      decisionBody('approved', galaxy.version, { Parkes: { hours: 40 } }, { Parkes: 'Weather' }),
    );
    expect(closed.statusCode, closed.body).toBe(200);
  });

  it('once released: the outcome, the awards beside the request and the letter sent, no notes', async () => {
    const { ada, col, carla } = w.people;
    await ctx.app.db
      .update(calls)
      .set({ decisionsReleasedAt: ctx.clock.now() })
      .where(eq(calls.id, w.callId));
    const galaxy = (await storedDecision(w.ids.galaxy))!;
    const letter = (state: 'queued' | 'sent' | 'failed' | 'superseded', minutes: number) => ({
      proposalId: w.ids.galaxy,
      decisionVersion: galaxy.version - 1 + minutes,
      lettersVersion: 0,
      outcome: 'approved' as const,
      subject: 'Your proposal',
      bodyText: 'Approved',
      bodyHtml: '<p>Approved</p>',
      state,
      createdAt: new Date(ctx.clock.now().getTime() + minutes * 60_000),
    });
    const [sent] = await ctx.app.db
      .insert(decisionLetters)
      .values({ ...letter('sent', 1), sentAt: ctx.clock.now(), storageKey: 'letter-key' })
      .returning();
    await ctx.app.db.insert(decisionLetters).values(letter('superseded', 2));
    const [failed] = await ctx.app.db
      .insert(decisionLetters)
      .values(letter('failed', 3))
      .returning();

    const seen = (await detailOf(ada, w.ids.galaxy)).decision;
    expect(seen).toEqual({
      outcome: 'approved',
      awards: { Parkes: { hours: 40 } },
      requested: { Parkes: { hours: 30 } },
      version: galaxy.version,
      letter: {
        id: sent!.id,
        state: 'sent',
        outcome: 'approved',
        createdAt: sent!.createdAt.toISOString(),
        sentAt: ctx.clock.now().toISOString(),
        hasPdf: true,
      },
    } satisfies ProposalDecision);
    // The chairs see the failed one, to send again.
    expect((await detailOf(carla, w.ids.galaxy)).decision).toMatchObject({
      awardNotes: { Parkes: 'Weather' },
      letter: { id: failed!.id, state: 'failed', hasPdf: false },
    });
    // Another applicant's proposal stays theirs.
    const other = await col.call('GET', `/proposals/${w.ids.galaxy}/`);
    expect(other.statusCode).toBe(404);
    expect((await detailOf(col, w.ids.halos)).decision).toEqual({
      outcome: 'waitlisted',
      awards: {},
      requested: { ATCA: { hours: 12 }, Parkes: { hours: 80 } },
      version: expect.any(Number),
      letter: null,
    });

    // A chair's change now owes the applicants a letter of it; clearing the outcome does not.
    const changed = await saveDecision(
      carla,
      w.ids.halos,
      decisionBody('declined', (await storedDecision(w.ids.halos))!.version),
    );
    expect(changed.json()).toMatchObject({ outcome: 'declined', letterDue: true });
    const cleared = await saveDecision(
      carla,
      w.ids.halos,
      decisionBody(null, (await storedDecision(w.ids.halos))!.version),
    );
    expect(cleared.json()).toMatchObject({ outcome: null, letterDue: false });
  });
});
