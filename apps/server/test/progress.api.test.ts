import type {
  AssignmentOverview,
  CallProgress,
  CallProposal,
  MemberProgress,
  PendingReview,
  ProposalProgress,
} from '@merit/contract';
import { scoreSpread } from '@merit/domain';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  calls,
  conflicts,
  proposalReviewers,
  proposals,
  reminderDispatches,
  reminderRules,
  reviews,
} from '../src/db/schema.js';
import { scoreSpreadSql } from '../src/modules/progress/progress.queries.js';
import {
  assignmentWorld,
  recordConflict,
  type AssignmentWorld,
  type Person,
} from './assignment-fixtures.js';
import { assignReviewers } from './call-fixtures.js';
import { createTestApp, type TestContext } from './helpers.js';

/**
 * The chair's review progress (issue 28, GET /calls/{id}/progress/) on a real database:
 * the numbers on a small call before and after its review closes, what a chair with a
 * conflict of interest is not shown, who may read it, and its counts held equal to the
 * chair's proposal list and to each member's pending reviews. The score spread, the one
 * rule the server writes again in SQL, is held to the domain's `scoreSpread`.
 *
 * The world is assignment-fixtures.ts's: submission open until day 7, review from day 7
 * to day 14, k = 3; chairs Carla and Cleo (Cleo conflicted with "Galaxy rotation
 * curves", as is Ben), members Rita, Ben, Mia (a collaborator on "Pulsar timing array")
 * and Sam, whose role ends on day 10.
 */
let ctx: TestContext;
let w: AssignmentWorld;

const DAY = 24 * 60 * 60 * 1000;

beforeAll(async () => {
  ctx = await createTestApp();
  await ctx.app.jobs.stop();
  w = await assignmentWorld(ctx);
});
afterAll(() => ctx.close());

const progressOf = async (who: Person = w.people.carla) => {
  const res = await who.call('GET', `/calls/${w.callId}/progress/`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as CallProgress;
};
const memberOf = (progress: CallProgress, who: Person): MemberProgress | undefined =>
  progress.members.find((m) => m.userId === who.user.id);
const proposalOf = (progress: CallProgress, id: number): ProposalProgress | undefined =>
  progress.proposals.find((p) => p.proposalId === id);
/** A member's numbers, without their name. */
const numbersOf = (progress: CallProgress, who: Person) => {
  const member = memberOf(progress, who);
  return (
    member && {
      assigned: member.assigned,
      saved: member.saved,
      notStarted: member.notStarted,
      overdue: member.overdue,
    }
  );
};

/** A review saved now, with its score (as saving one works it out). */
async function saveReview(proposalId: number, who: Person, score: number | null) {
  const now = ctx.clock.now();
  await ctx.app.db.insert(reviews).values({
    proposalId,
    reviewerId: who.user.id,
    score,
    scores: [{ name: 'score', value: score }],
    createdAt: now,
    updatedAt: now,
  });
}

describe('a call in review', () => {
  beforeAll(async () => {
    const { rita, ben, mia, sam } = w.people;
    // "Dark matter halos" wants four reviews; the others the call's three.
    await ctx.app.db
      .update(proposals)
      .set({ reviewsWanted: 4 })
      .where(eq(proposals.id, w.ids.halos));
    await assignReviewers(ctx.app, w.ids.pulsar, [rita.user.id, ben.user.id, sam.user.id]);
    await assignReviewers(ctx.app, w.ids.galaxy, [rita.user.id, mia.user.id]);
    await assignReviewers(ctx.app, w.ids.halos, [
      rita.user.id,
      ben.user.id,
      mia.user.id,
      sam.user.id,
    ]);
    await assignReviewers(ctx.app, w.ids.transits, [ben.user.id, mia.user.id]);
    // Into the review window: submission closed on day 7.
    ctx.clock.advance(8 * DAY);
    await saveReview(w.ids.pulsar, rita, 4);
    await saveReview(w.ids.galaxy, rita, 3);
    await saveReview(w.ids.halos, rita, 1);
    ctx.clock.advance(DAY);
    await saveReview(w.ids.pulsar, ben, 2);
    await saveReview(w.ids.halos, ben, 5);
    await saveReview(w.ids.galaxy, mia, 5);
    await saveReview(w.ids.halos, mia, 3);
  });

  it('counts each member’s reviews and each proposal’s, with the totals and saves per day', async () => {
    const progress = await progressOf();
    const { rita, ben, mia, sam, carla, cleo } = w.people;
    expect(numbersOf(progress, rita)).toEqual({ assigned: 3, saved: 3, notStarted: 0, overdue: 0 });
    expect(numbersOf(progress, ben)).toEqual({ assigned: 3, saved: 2, notStarted: 1, overdue: 0 });
    expect(numbersOf(progress, mia)).toEqual({ assigned: 3, saved: 2, notStarted: 1, overdue: 0 });
    expect(numbersOf(progress, sam)).toEqual({ assigned: 2, saved: 0, notStarted: 2, overdue: 0 });
    // The chairs are members too, with nothing to review.
    expect(numbersOf(progress, carla)).toEqual({
      assigned: 0,
      saved: 0,
      notStarted: 0,
      overdue: 0,
    });
    expect(memberOf(progress, cleo)).toMatchObject({ name: 'Cleo Cochair', assigned: 0 });
    // Nobody else: not the applicants, not Otto.
    expect(progress.members.map((m) => m.name)).toEqual([
      'Ben Second',
      'Carla Chair',
      'Cleo Cochair',
      'Mia Member',
      'Rita Reviewer',
      'Sam Short',
    ]);
    expect(progress.members.every((m) => m.lastReminded === null)).toBe(true);

    expect(progress.proposals).toEqual([
      {
        proposalId: w.ids.halos,
        name: 'Dark matter halos',
        proposalTypeName: 'Radio',
        reviewsSaved: 3,
        reviewsWanted: 4,
        scoreMin: 1,
        scoreMax: 5,
        scoreSd: expect.closeTo(Math.sqrt(8 / 3), 9),
        lateConflict: false,
      },
      {
        proposalId: w.ids.transits,
        name: 'Exoplanet transits',
        proposalTypeName: 'Optical',
        reviewsSaved: 0,
        reviewsWanted: 3,
        scoreMin: null,
        scoreMax: null,
        scoreSd: null,
        lateConflict: false,
      },
      expect.objectContaining({
        proposalId: w.ids.galaxy,
        reviewsSaved: 2,
        reviewsWanted: 3,
        scoreMin: 3,
        scoreMax: 5,
        scoreSd: 1,
      }),
      expect.objectContaining({
        proposalId: w.ids.pulsar,
        reviewsSaved: 2,
        scoreMin: 2,
        scoreMax: 4,
        scoreSd: 1,
      }),
    ]);
    // Not the draft.
    expect(proposalOf(progress, w.ids.draft)).toBeUndefined();
    // Spreads of 1, 1 and 1.63: twice the median, 1.
    expect(progress.totals).toEqual({ saved: 7, wanted: 13, withoutReview: 1, wideSpread: 2 });
    expect(progress.savesPerDay).toEqual([
      { day: '2026-06-09', saves: 3 },
      { day: '2026-06-10', saves: 4 },
    ]);
    const call = (await ctx.app.db.select().from(calls).where(eq(calls.id, w.callId)))[0]!;
    expect(progress).toMatchObject({
      reviewCommencement: call.reviewCommencement.toISOString(),
      reviewTermination: call.reviewTermination.toISOString(),
      closed: false,
    });
  });

  it('leaves out of a conflicted chair’s view the proposal, and its reviewers’ counts for it', async () => {
    const { rita, ben, mia, sam } = w.people;
    const progress = await progressOf(w.people.cleo);
    expect(proposalOf(progress, w.ids.galaxy)).toBeUndefined();
    expect(progress.proposals.map((p) => p.proposalId).sort()).toEqual(
      [w.ids.pulsar, w.ids.halos, w.ids.transits].sort(),
    );
    // Rita and Mia each reviewed it: their counts leave it out. Ben's and Sam's are whole.
    expect(numbersOf(progress, rita)).toEqual({ assigned: 2, saved: 2, notStarted: 0, overdue: 0 });
    expect(numbersOf(progress, mia)).toEqual({ assigned: 2, saved: 1, notStarted: 1, overdue: 0 });
    expect(numbersOf(progress, ben)).toEqual({ assigned: 3, saved: 2, notStarted: 1, overdue: 0 });
    expect(numbersOf(progress, sam)).toEqual({ assigned: 2, saved: 0, notStarted: 2, overdue: 0 });
    // Nor its scores or saves: five reviews, not seven; Mia's save of it is not counted.
    // Spreads of 1 and 1.63: twice their median.
    expect(progress.totals).toEqual({
      saved: 5,
      wanted: 10,
      withoutReview: 1,
      wideSpread: expect.closeTo(1 + Math.sqrt(8 / 3), 9),
    });
    expect(progress.savesPerDay).toEqual([
      { day: '2026-06-09', saves: 2 },
      { day: '2026-06-10', saves: 3 },
    ]);
    expect(JSON.stringify(progress)).not.toContain('Galaxy');
  });

  it('shows the last reminder of their reviews each member got, by a reviewers’ rule or by hand', async () => {
    const { ben, carla } = w.people;
    const at = (days: number) => new Date(ctx.clock.now().getTime() - days * DAY);
    // The call's default rules: the first is the applicants' (drafts), the third the reviewers'.
    const rules = await ctx.app.db
      .select({ id: reminderRules.id, audience: reminderRules.audience })
      .from(reminderRules)
      .where(eq(reminderRules.callId, w.callId))
      .orderBy(reminderRules.position);
    const ruleFor = (audience: string) => rules.find((rule) => rule.audience === audience)!.id;
    const sent = (
      userId: number,
      kind: 'rule' | 'copy' | 'manual',
      days: number,
      ruleId: number | null = null,
    ) => ({ callId: w.callId, ruleId, userId, kind, dueAt: at(days), sentAt: at(days), items: 1 });
    await ctx.app.db.insert(reminderDispatches).values([
      sent(ben.user.id, 'manual', 3),
      sent(ben.user.id, 'rule', 2, ruleFor('reviewers_pending')),
      // A reminder of a draft of his own is not about his reviews.
      sent(ben.user.id, 'rule', 1, ruleFor('authors_with_draft')),
      sent(carla.user.id, 'copy', 0, ruleFor('reviewers_pending')),
    ]);
    const progress = await progressOf();
    expect(memberOf(progress, ben)?.lastReminded).toBe(at(2).toISOString());
    // A chair's copy of an overdue reminder is not a reminder to them.
    expect(memberOf(progress, carla)?.lastReminded).toBeNull();
  });

  it('marks a conflict declared by a reviewer already assigned, and not one declared before', async () => {
    const { ben, rita } = w.people;
    // Rita declares on "Exoplanet transits" though nobody assigned her: not late.
    const early = await rita.call('POST', `/proposals/${w.ids.transits}/conflict_declaration/`, {
      conflict: true,
      type: 'personal',
    });
    expect(early.statusCode, early.body).toBe(200);
    expect(proposalOf(await progressOf(), w.ids.transits)?.lateConflict).toBe(false);
    // Ben was assigned to it: declaring takes him off its reviewers, and is late.
    const late = await ben.call('POST', `/proposals/${w.ids.transits}/conflict_declaration/`, {
      conflict: true,
      type: 'personal',
    });
    expect(late.statusCode, late.body).toBe(200);
    const progress = await progressOf();
    expect(proposalOf(progress, w.ids.transits)?.lateConflict).toBe(true);
    expect(numbersOf(progress, ben)).toEqual({ assigned: 2, saved: 2, notStarted: 0, overdue: 0 });
    // Mia saved her review of "Dark matter halos", then declared a conflict with it.
    const afterSaving = await w.people.mia.call(
      'POST',
      `/proposals/${w.ids.halos}/conflict_declaration/`,
      { conflict: true, type: 'financial' },
    );
    expect(afterSaving.statusCode, afterSaving.body).toBe(200);
    const again = await progressOf();
    expect(proposalOf(again, w.ids.halos)).toMatchObject({ lateConflict: true, reviewsSaved: 3 });
    expect(proposalOf(again, w.ids.pulsar)?.lateConflict).toBe(false);
  });

  it('counts no assignment its member may not review: an enforced conflict recorded after it', async () => {
    const { sam } = w.people;
    await recordConflict(ctx, w.ids.pulsar, sam.user.id);
    // Sam stays assigned to "Pulsar timing array", but may not review it, nor be reminded.
    expect(numbersOf(await progressOf(), sam)).toEqual({
      assigned: 1,
      saved: 0,
      notStarted: 1,
      overdue: 0,
    });
  });
});

describe('the counts are what the proposal list and pending reviews say', () => {
  /** The chair's list of the call (one page holds it), with each review's scores. */
  const listOf = async (who: Person) => {
    const res = await who.call(
      'GET',
      `/calls/${w.callId}/proposals/export/?include=allReviewScores`,
    );
    expect(res.statusCode, res.body).toBe(200);
    const page = await who.call('GET', `/calls/${w.callId}/proposals/`);
    expect(page.statusCode, page.body).toBe(200);
    const items = (res.json() as { items: CallProposal[] }).items;
    // The export's rows are the list's submitted ones (a download leaves drafts out),
    // with the same reviewers.
    const submitted = (page.json() as { items: CallProposal[] }).items.filter(
      (row) => row.stateVal >= 1,
    );
    expect(submitted.map((row) => [row.id, row.reviewers])).toEqual(
      items.map((row) => [row.id, row.reviewers]),
    );
    return items;
  };

  /** The pairs a member may not review though assigned: an enforced conflict of theirs. */
  const enforcedPairs = async () =>
    new Set(
      (
        await ctx.app.db
          .select({ proposalId: conflicts.proposalId, userId: conflicts.userId })
          .from(conflicts)
          .where(eq(conflicts.state, 'confirmed'))
      ).map((c) => `${c.proposalId}:${c.userId}`),
    );

  const holdsTo = async (reader: Person) => {
    const progress = await progressOf(reader);
    const list = (await listOf(reader)).filter((row) => row.stateVal >= 1);
    const enforced = await enforcedPairs();
    // Proposals: the rows of the list that show reviews to the reader.
    const shown = list.filter((row) => row.myConflict === undefined && row.reviewers);
    expect(progress.proposals.map((p) => p.proposalId).sort()).toEqual(
      shown.map((row) => row.id).sort(),
    );
    const { body } = await reader.call('GET', `/calls/${w.callId}/assignment/settings/`);
    const settings = JSON.parse(body) as AssignmentOverview;
    for (const row of shown) {
      const mine = proposalOf(progress, row.id)!;
      const scores = row.allReviewScores!.map((r) => r.score);
      expect(mine.reviewsSaved, row.proposalName).toBe(row.allReviewScores!.length);
      expect(mine.reviewsWanted).toBe(
        settings.perProposal[String(row.id)] ?? settings.reviewsPerProposal,
      );
      const spread = scoreSpread(scores);
      expect([mine.scoreMin, mine.scoreMax]).toEqual([spread.min, spread.max]);
      if (spread.sd === null) expect(mine.scoreSd).toBeNull();
      else expect(mine.scoreSd).toBeCloseTo(spread.sd, 9);
    }
    expect(progress.totals.saved).toBe(
      shown.reduce((sum, row) => sum + row.allReviewScores!.length, 0),
    );
    expect(progress.totals.withoutReview).toBe(
      shown.filter((row) => row.allReviewScores!.length === 0).length,
    );
    // Members: each one's assignments in the list (but those they may not review), and
    // among them those with a review of theirs.
    for (const member of progress.members) {
      const assigned = shown.filter(
        (row) =>
          row.reviewers!.some((r) => r.id === member.userId) &&
          !enforced.has(`${row.id}:${member.userId}`),
      );
      const saved = assigned.filter((row) =>
        row.allReviewScores!.some((r) => r.reviewer.id === member.userId),
      );
      expect([member.name, member.assigned, member.saved]).toEqual([
        member.name,
        assigned.length,
        saved.length,
      ]);
    }
    return progress;
  };

  it('holds for a chair, and for a chair with a conflict of interest', async () => {
    const carla = await holdsTo(w.people.carla);
    const cleo = await holdsTo(w.people.cleo);
    expect(cleo.proposals.length).toBe(carla.proposals.length - 1);
  });

  it('gives each member, while review is open, their pending reviews of the call assigned to them', async () => {
    const progress = await progressOf();
    const { rita, ben, mia, sam, carla, cleo } = w.people;
    for (const member of [rita, ben, mia, sam, carla, cleo]) {
      const res = await member.call('GET', '/pending_reviews/?limit=50');
      expect(res.statusCode, res.body).toBe(200);
      const assigned = new Set(
        (
          await ctx.app.db
            .select({ proposalId: proposalReviewers.proposalId })
            .from(proposalReviewers)
            .where(eq(proposalReviewers.userId, member.user.id))
        ).map((row) => row.proposalId),
      );
      const pending = (res.json() as PendingReview[]).filter(
        (p) => p.callId === w.callId && assigned.has(p.proposalId),
      );
      expect([member.user.username, memberOf(progress, member)?.notStarted]).toEqual([
        member.user.username,
        pending.length,
      ]);
    }
    // Something was pending, or the comparison says little.
    expect(progress.members.reduce((sum, m) => sum + m.notStarted, 0)).toBeGreaterThan(0);
  });
});

describe('after review closes', () => {
  it('makes what is not saved overdue, and keeps a reviewer whose role has ended', async () => {
    // Day 15: review closed on day 14; Sam's role ended on day 10.
    ctx.clock.advance(6 * DAY);
    const progress = await progressOf();
    expect(numbersOf(progress, w.people.sam)).toEqual({
      assigned: 1,
      saved: 0,
      notStarted: 1,
      overdue: 1,
    });
    expect(numbersOf(progress, w.people.rita)).toMatchObject({ notStarted: 0, overdue: 0 });
  });

  it('still reads once the call is closed, with nothing overdue', async () => {
    await ctx.app.db.update(calls).set({ closed: true }).where(eq(calls.id, w.callId));
    const progress = await progressOf();
    expect(progress.closed).toBe(true);
    expect(progress.members.every((m) => m.overdue === 0)).toBe(true);
    expect(numbersOf(progress, w.people.sam)?.notStarted).toBe(1);
    expect((await progressOf(w.people.adam)).proposals.length).toBe(progress.proposals.length);
  });
});

describe('who may read it', () => {
  it.each([
    ['a chair', 'carla', 200],
    ['a chair with a conflict of interest', 'cleo', 200],
    ['an admin with no role', 'adam', 200],
    ['a member', 'rita', 403],
    ['a chair of another committee', 'otto', 403],
    ['an applicant', 'ada', 403],
  ] as const)('%s -> %s', async (_name, who, status) => {
    const res = await w.people[who].call('GET', `/calls/${w.callId}/progress/`);
    expect(res.statusCode, res.body).toBe(status);
  });

  it('asks for a login, and answers 404 for a call that does not exist', async () => {
    const anonymous = await ctx.app.inject({
      method: 'GET',
      url: `/api/v1/calls/${w.callId}/progress/`,
    });
    expect(anonymous.statusCode).toBe(401);
    const missing = await w.people.carla.call('GET', '/calls/999999/progress/');
    expect(missing.statusCode).toBe(404);
  });
});

describe('the score spread in SQL', () => {
  it.each([
    ['no review', []],
    ['reviews without a score', [null, null]],
    ['one score', [3.5]],
    ['a score and a review without one', [2, null]],
    ['two apart', [1, 5]],
    ['many, unevenly', [1.25, 4.75, 3, 3, 2.125, 4.999]],
    ['large and close together', [1e6 + 0.1, 1e6 + 0.2, 1e6 + 0.3]],
  ] as const)('is scoreSpread: %s', async (_name, scores) => {
    const values =
      scores.length === 0
        ? sql`(select null::double precision as "score" where false)`
        : sql`(values ${sql.join(
            scores.map((s) => sql`(${s}::double precision)`),
            sql`, `,
          )})`;
    const result = (await ctx.app.db.execute(
      sql`select ${scoreSpreadSql} from ${values} as r("score")`,
    )) as unknown as {
      rows: { score_min: number | null; score_max: number | null; score_sd: number | null }[];
    };
    const row = result.rows[0]!;
    const expected = scoreSpread(scores);
    expect(row.score_min === null ? null : Number(row.score_min)).toBe(expected.min);
    expect(row.score_max === null ? null : Number(row.score_max)).toBe(expected.max);
    if (expected.sd === null) expect(row.score_sd).toBeNull();
    else expect(Number(row.score_sd)).toBeCloseTo(expected.sd, 9);
  });
});
