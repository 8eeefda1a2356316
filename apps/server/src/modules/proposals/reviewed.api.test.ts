import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  assignReviewers,
  callPayload,
  makeCallForms,
  makeProposal,
  makeReview,
} from '../../../test/call-fixtures.js';
import { createTestApp, makeCommittee, makeUser, type TestContext } from '../../../test/helpers.js';
import { proposals } from '../../db/schema.js';
import { saveCall } from '../calls/calls.service.js';
import { isReviewed, reviewedSql } from './reviewed.queries.js';

/**
 * "Reviewed" is one rule written twice: in the domain for one proposal at a time, and
 * in SQL for lists and counts over thousands. Every combination of state, reviews and
 * assignments below must get the same answer from both.
 */
let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

describe('Reviewed, in SQL and in the domain', () => {
  it('agrees on every combination of state, reviews and assigned reviewers', async () => {
    const admin = await makeUser(ctx.app, { isAdmin: true });
    const committee = await makeCommittee(ctx.app);
    const forms = await makeCallForms(ctx.app);
    const callId = await ctx.app.writeAs(admin, (work) =>
      saveCall(work, callPayload(committee.id, forms, ctx.clock.now())),
    );
    const [type] = await ctx.app.db.query.proposalTypes.findMany({
      where: (t, { eq: is }) => is(t.callId, callId),
    });
    const author = await makeUser(ctx.app);
    const [a, b, c] = [await makeUser(ctx.app), await makeUser(ctx.app), await makeUser(ctx.app)];
    const people = { a: a.id, b: b.id, c: c.id };
    type Who = keyof typeof people;
    const cases: { stateVal: number; reviewed: Who[]; assigned: Who[] }[] = [];
    const subsets: Who[][] = [[], ['a'], ['b'], ['a', 'b'], ['a', 'b', 'c']];
    for (const stateVal of [0, 1])
      for (const reviewed of subsets)
        for (const assigned of subsets) cases.push({ stateVal, reviewed, assigned });

    const ids = new Map<number, (typeof cases)[number]>();
    for (const item of cases) {
      const proposal = await makeProposal(ctx.app, {
        callId,
        proposalTypeId: type!.id,
        authorId: author.id,
        stateVal: item.stateVal,
      });
      for (const who of item.reviewed) await makeReview(ctx.app, proposal.id, people[who]);
      await assignReviewers(
        ctx.app,
        proposal.id,
        item.assigned.map((who) => people[who]),
      );
      ids.set(proposal.id, item);
    }

    const rows = await ctx.app.db
      .select({ id: proposals.id, reviewed: reviewedSql })
      .from(proposals)
      .where(eq(proposals.callId, callId));
    expect(rows).toHaveLength(cases.length);
    let reviewedCount = 0;
    for (const row of rows) {
      const item = ids.get(row.id)!;
      const expected = isReviewed({
        stateVal: item.stateVal,
        reviewerIds: item.reviewed.map((who) => people[who]),
        assignedReviewerIds: item.assigned.map((who) => people[who]),
      });
      expect(row.reviewed, JSON.stringify(item)).toBe(expected);
      if (expected) reviewedCount += 1;
    }
    // Both answers occur, so the comparison means something.
    expect(reviewedCount).toBeGreaterThan(0);
    expect(reviewedCount).toBeLessThan(cases.length);
  });
});
