import { reminderRecipients, submissionCloseFor, type ReminderAudience } from '@merit/domain';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  calls,
  conflicts,
  extensions,
  proposalCollaborators,
  proposalReviewers,
  proposals,
  reviews,
} from '../src/db/schema.js';
import { reminderItemsSql, rowsOf } from '../src/modules/reminders/reminders.queries.js';
import { createTestApp, type TestContext } from './helpers.js';
import { reminderWorld, type ReminderWorld } from './reminders-fixtures.js';

/**
 * Whom a rule reminds is one rule written twice: the domain's `reminderRecipients` for one
 * proposal, and `reminderItemsSql` for whole calls, which the sweep, "Remind selected"
 * and My Account run. Here both read the same call (drafts with collaborators and an
 * extension, reviews saved and not, a reviewer on the team, conflicts confirmed) and must
 * name the same people for every proposal and audience, counting from the same deadline.
 */

let ctx: TestContext;
let w: ReminderWorld;
beforeAll(async () => {
  ctx = await createTestApp();
  w = await reminderWorld(ctx);
});
afterAll(() => ctx.close());

/** What the SQL says: audience -> proposal -> the people it reminds, and their deadline. */
async function bySql() {
  const rows = rowsOf<{
    audience: ReminderAudience;
    anchor: string;
    proposal_id: number;
    user_id: number;
    anchor_ms: number;
  }>(
    await ctx.app.db.execute(sql`
      select i."audience", i."anchor", i."proposal_id", i."user_id",
        (extract(epoch from i."anchor_at") * 1000)::float8 as "anchor_ms"
      from (${reminderItemsSql(sql`r."call_id" = ${w.callId}::int and r."enabled"`)}) i`),
  );
  const found = new Map<string, { users: Set<number>; anchorMs: Set<number> }>();
  for (const row of rows) {
    // The default rules count applicants from submission's close, reviewers from review's.
    const key = `${row.audience} ${row.proposal_id}`;
    const entry = found.get(key) ?? { users: new Set(), anchorMs: new Set() };
    entry.users.add(Number(row.user_id));
    if (row.anchor === 'submission_close') entry.anchorMs.add(Number(row.anchor_ms));
    found.set(key, entry);
  }
  return found;
}

describe('whom a rule reminds, in SQL and in the domain', () => {
  it('names the same people for every proposal and audience of the call', async () => {
    const [call] = await ctx.app.db.select().from(calls).where(eq(calls.id, w.callId));
    const list = await ctx.app.db.select().from(proposals).where(eq(proposals.callId, w.callId));
    const found = await bySql();
    let compared = 0;
    for (const proposal of list) {
      const collaboratorIds = (
        await ctx.app.db
          .select({ userId: proposalCollaborators.userId })
          .from(proposalCollaborators)
          .where(eq(proposalCollaborators.proposalId, proposal.id))
      ).map((row) => row.userId);
      const assigned = await ctx.app.db
        .select({ userId: proposalReviewers.userId, reason: proposalReviewers.overrideReason })
        .from(proposalReviewers)
        .where(eq(proposalReviewers.proposalId, proposal.id));
      const saved = new Set(
        (
          await ctx.app.db
            .select({ userId: reviews.reviewerId })
            .from(reviews)
            .where(eq(reviews.proposalId, proposal.id))
        ).map((row) => row.userId),
      );
      const confirmed = new Set(
        (
          await ctx.app.db
            .select({ userId: conflicts.userId, state: conflicts.state })
            .from(conflicts)
            .where(eq(conflicts.proposalId, proposal.id))
        )
          .filter((row) => row.state === 'confirmed')
          .map((row) => row.userId),
      );
      const facts = {
        submitted: proposal.stateVal >= 1,
        authorId: proposal.authorId,
        collaboratorIds,
        reviewers: assigned.map((r) => ({
          userId: r.userId,
          saved: saved.has(r.userId),
          conflicted: call!.conflictsEnabled && confirmed.has(r.userId) && r.reason === null,
        })),
      };
      const authorExtensions = await ctx.app.db
        .select()
        .from(extensions)
        .where(eq(extensions.userId, proposal.authorId));
      for (const audience of ['authors_with_draft', 'reviewers_pending'] as const) {
        const expected = reminderRecipients(audience, facts).sort((a, b) => a - b);
        const sqlSide = found.get(`${audience} ${proposal.id}`);
        expect(
          [...(sqlSide?.users ?? [])].sort((a, b) => a - b),
          `${audience} ${proposal.name}`,
        ).toEqual([...new Set(expected)]);
        if (audience === 'authors_with_draft' && sqlSide) {
          const close = submissionCloseFor(
            call!,
            authorExtensions.filter((e) => e.callId === w.callId),
          );
          expect([...sqlSide.anchorMs]).toEqual([close.getTime()]);
        }
        compared += expected.length;
      }
    }
    // The world holds every case: drafts with their teams, reviewers to remind or not.
    expect(compared).toBeGreaterThan(8);
    expect(list.some((p) => p.stateVal === 0)).toBe(true);
    expect(list.some((p) => p.stateVal === 1)).toBe(true);
  });
});
