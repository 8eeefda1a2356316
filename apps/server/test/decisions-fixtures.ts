import { and, eq } from 'drizzle-orm';
import { proposalResponses, proposals, reviews } from '../src/db/schema.js';
import { assignmentWorld, type AssignmentWorld, type Person } from './assignment-fixtures.js';
import type { TestContext } from './helpers.js';

/*
 * The decision meeting's world (issue 29): assignment-fixtures.ts's call (submission open
 * until day 7, chairs Carla and Cleo, Cleo and Ben conflicted with "Galaxy rotation
 * curves", members Rita, Ben, Mia, Sam; applicants Ada and Col, Mia collaborating on
 * "Pulsar timing array"), each submitted proposal given a review score and telescope time:
 *
 *   proposal                  score  asks for
 *   Pulsar timing array       4.5    Parkes 100 h
 *   Dark matter halos         4      Parkes 80 h, ATCA 12 h
 *   Galaxy rotation curves    4      Parkes 30 h
 *   Exoplanet transits        3      Parkes 50 h
 *
 * "Dark matter halos" and "Galaxy rotation curves" tie on score: by name, halos first.
 */

export const DAY = 24 * 60 * 60 * 1000;

/** A review's score saved now by `who`, as saving one works it out. */
export async function saveScore(
  ctx: TestContext,
  proposalId: number,
  who: Person,
  score: number | null,
) {
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

/** One resource entry of the proposal's telescope form (entry `index`), written over. */
export async function askFor(
  ctx: TestContext,
  telescopeForm: number,
  proposalId: number,
  entries: { facility: string; hours: number | null }[],
) {
  const { db } = ctx.app;
  await db.delete(proposalResponses).where(eq(proposalResponses.proposalId, proposalId));
  if (entries.length === 0) return;
  await db.insert(proposalResponses).values(
    entries.map((data, entryIndex) => ({
      proposalId,
      formId: telescopeForm,
      entryIndex,
      data: data.hours === null ? { facility: data.facility } : data,
      updatedAt: ctx.clock.now(),
    })),
  );
}

export async function decisionWorld(ctx: TestContext) {
  const w = await assignmentWorld(ctx);
  const { db } = ctx.app;
  const [entry] = await db
    .select({ formId: proposalResponses.formId })
    .from(proposalResponses)
    .where(and(eq(proposalResponses.proposalId, w.ids.pulsar)));
  const telescope = entry!.formId;
  const { ids, people } = w;
  await askFor(ctx, telescope, ids.pulsar, [{ facility: 'Parkes', hours: 100 }]);
  await askFor(ctx, telescope, ids.halos, [
    { facility: 'Parkes', hours: 80 },
    { facility: 'ATCA', hours: 12 },
  ]);
  await askFor(ctx, telescope, ids.galaxy, [{ facility: 'Parkes', hours: 30 }]);
  await askFor(ctx, telescope, ids.transits, [{ facility: 'Parkes', hours: 50 }]);
  await saveScore(ctx, ids.pulsar, people.rita, 4.5);
  await saveScore(ctx, ids.halos, people.rita, 5);
  await saveScore(ctx, ids.halos, people.ben, 3);
  await saveScore(ctx, ids.galaxy, people.rita, 4);
  await saveScore(ctx, ids.transits, people.rita, 3);
  return { ...w, telescope };
}
export type DecisionWorld = AssignmentWorld & { telescope: number };

/** A proposal straight in the table, submitted unless told (for one test's own case). */
export async function extraProposal(
  ctx: TestContext,
  w: DecisionWorld,
  name: string,
  authorId: number,
  stateVal = 1,
) {
  const now = ctx.clock.now();
  const [row] = await ctx.app.db
    .insert(proposals)
    .values({
      callId: w.callId,
      proposalTypeId: w.types.radio,
      authorId,
      name,
      stateVal,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  return row!.id;
}
