import type { AssignmentRun } from '@merit/contract';
import { and, asc, eq, inArray } from 'drizzle-orm';
import { expect } from 'vitest';
import {
  committeeRoles,
  conflicts,
  proposalCollaborators,
  proposalResponses,
  proposalReviewers,
  proposalTypes,
  proposals,
} from '../src/db/schema.js';
import { saveCall } from '../src/modules/calls/calls.service.js';
import { caller, makeForm, makeFormName } from './admin-fixtures.js';
import { callPayload, makeCallForms } from './call-fixtures.js';
import { auth, giveRole, login, makeCommittee, makeUser, type TestContext } from './helpers.js';

const DAY = 24 * 60 * 60 * 1000;

/** A person of the world: their account and a caller with their token. */
async function person(ctx: TestContext, overrides: Parameters<typeof makeUser>[1] = {}) {
  const user = await makeUser(ctx.app, overrides);
  return { user, call: caller(ctx.app, auth(await login(ctx.app, user.username))) };
}
export type Person = Awaited<ReturnType<typeof person>>;

/**
 * A committee and a call of it for reviewer assignment (issue 27): submission open since
 * yesterday for a week, review the week after, k = 3, conflicts on.
 *
 * The committee: chairs Carla and Cleo, members Rita, Ben, Mia and Sam, whose role ends
 * halfway through review (a current member, not eligible for new work). Also Otto, a chair
 * of another committee; Adam, an admin with no role; Ada and Col, applicants.
 *
 * Four submitted proposals and a draft, of two types, two of them asking for telescope
 * time at a facility (a resource form): "Pulsar timing array" (Radio, Parkes; Mia is its
 * collaborator), "Galaxy rotation curves" (Optical; Ben and Cleo have a confirmed conflict
 * of interest with it), "Dark matter halos" (Radio, ATCA), "Exoplanet transits" (Optical),
 * and the draft "Unfinished idea". Six members and twelve slots: a default cap of 3.
 */
export async function assignmentWorld(ctx: TestContext) {
  const { app } = ctx;
  const now = ctx.clock.now();
  const committeeId = (await makeCommittee(app)).id;
  const otherCommitteeId = (await makeCommittee(app)).id;
  const people = {
    carla: await person(ctx, { firstName: 'Carla', lastName: 'Chair' }),
    cleo: await person(ctx, { firstName: 'Cleo', lastName: 'Cochair' }),
    rita: await person(ctx, { firstName: 'Rita', lastName: 'Reviewer' }),
    ben: await person(ctx, { firstName: 'Ben', lastName: 'Second' }),
    mia: await person(ctx, { firstName: 'Mia', lastName: 'Member', institution: 'Mia Institute' }),
    sam: await person(ctx, { firstName: 'Sam', lastName: 'Short' }),
    otto: await person(ctx, { firstName: 'Otto', lastName: 'Other' }),
    adam: await person(ctx, { firstName: 'Adam', lastName: 'Admin', isAdmin: true }),
    ada: await person(ctx, { firstName: 'Ada', lastName: 'Author', institution: 'Ada University' }),
    col: await person(ctx, { firstName: 'Col', lastName: 'Laborator', institution: 'Col College' }),
  };
  await giveRole(app, people.carla.user.id, committeeId, 'CHAIR', now);
  await giveRole(app, people.cleo.user.id, committeeId, 'CHAIR', now);
  for (const member of [people.rita, people.ben, people.mia])
    await giveRole(app, member.user.id, committeeId, 'MEMBER', now);
  await app.db.insert(committeeRoles).values({
    userId: people.sam.user.id,
    committeeId,
    role: 'MEMBER',
    commencement: new Date(now.getTime() - 30 * DAY),
    termination: new Date(now.getTime() + 10 * DAY),
  });
  await giveRole(app, people.otto.user.id, otherCommitteeId, 'CHAIR', now);

  const forms = await makeCallForms(app);
  const telescope = (
    await makeForm(app, (await makeFormName(app, { type: 4 })).id, {
      jsonSchema: {
        type: 'object',
        properties: { facility: { type: 'string' }, hours: { type: 'number' } },
      },
      options: { institution_field: 'facility', data_fields: ['hours'] },
    })
  ).id;
  const admin = { id: people.adam.user.id, isAdmin: true };
  const type = (typeName: string) => ({
    typeName,
    typeId: null,
    proposalForms: [forms.proposal, telescope],
    reviewForms: [forms.review, forms.score],
  });
  const callName = `Telescope time ${committeeId}`;
  const callId = await app.writeAs(admin, (work) =>
    saveCall(
      work,
      callPayload(committeeId, forms, now, {
        name: callName,
        proposalTypes: [type('Radio'), type('Optical')],
      }),
    ),
  );
  const types = await app.db
    .select({ id: proposalTypes.id })
    .from(proposalTypes)
    .where(eq(proposalTypes.callId, callId))
    .orderBy(asc(proposalTypes.position));
  const [radio, optical] = types.map((t) => t.id) as [number, number];

  const proposal = async (name: string, typeId: number, authorId: number, stateVal = 1) => {
    const [row] = await app.db
      .insert(proposals)
      .values({
        callId,
        proposalTypeId: typeId,
        authorId,
        name,
        stateVal,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    return row!.id;
  };
  const ids = {
    pulsar: await proposal('Pulsar timing array', radio, people.ada.user.id),
    galaxy: await proposal('Galaxy rotation curves', optical, people.ada.user.id),
    halos: await proposal('Dark matter halos', radio, people.col.user.id),
    transits: await proposal('Exoplanet transits', optical, people.col.user.id),
    draft: await proposal('Unfinished idea', radio, people.ada.user.id, 0),
  };
  await app.db
    .insert(proposalCollaborators)
    .values({ proposalId: ids.pulsar, userId: people.mia.user.id });
  for (const [proposalId, facility] of [
    [ids.pulsar, 'Parkes'],
    [ids.halos, 'ATCA'],
  ] as const)
    await app.db.insert(proposalResponses).values({
      proposalId,
      formId: telescope,
      entryIndex: 0,
      data: { facility, hours: 12 },
      updatedAt: now,
    });
  await recordConflict(ctx, ids.galaxy, people.ben.user.id);
  await recordConflict(ctx, ids.galaxy, people.cleo.user.id);
  return {
    committeeId,
    otherCommitteeId,
    callId,
    callName,
    types: { radio, optical },
    ids,
    people,
  };
}
export type AssignmentWorld = Awaited<ReturnType<typeof assignmentWorld>>;

/** A confirmed conflict of interest, straight in the table (declaring one is conflicts.api's). */
export async function recordConflict(ctx: TestContext, proposalId: number, userId: number) {
  await ctx.app.db.insert(conflicts).values({
    proposalId,
    userId,
    type: 'personal',
    source: 'chair',
    state: 'confirmed',
    changedAt: ctx.clock.now(),
  });
}

/** The call's assignments as `proposalId:userId`, sorted. */
export async function assignmentsOf(ctx: TestContext, proposalIds: number[]) {
  const rows = await ctx.app.db
    .select()
    .from(proposalReviewers)
    .where(inArray(proposalReviewers.proposalId, proposalIds));
  return rows.map((row) => `${row.proposalId}:${row.userId}`).sort();
}

/** Whether the pair is assigned, and locked. */
export async function assignmentOf(ctx: TestContext, proposalId: number, userId: number) {
  const [row] = await ctx.app.db
    .select()
    .from(proposalReviewers)
    .where(and(eq(proposalReviewers.proposalId, proposalId), eq(proposalReviewers.userId, userId)));
  return row;
}

/**
 * Starts a proposed assignment as `who` and waits until it is worked out: the job runner
 * is drained (the job and its worker thread run to the end) until the run says it is no
 * longer running. Never a fixed sleep.
 */
export async function proposeAndWait(
  ctx: TestContext,
  w: AssignmentWorld,
  body: { redo?: boolean; seed?: number } = {},
  who: Person = w.people.carla,
): Promise<AssignmentRun> {
  const started = await who.call('POST', `/calls/${w.callId}/assignment/proposals/`, {
    seed: 7,
    ...body,
  });
  expect(started.statusCode, started.body).toBe(202);
  const { id } = started.json() as { id: number };
  return waitForRun(ctx, w, id, who);
}

/** Drains the job runner and reads the run until it is ready or failed (at most 20 tries). */
export async function waitForRun(
  ctx: TestContext,
  w: AssignmentWorld,
  id: number,
  who: Person = w.people.carla,
): Promise<AssignmentRun> {
  for (let attempt = 0; attempt < 20; attempt += 1) {
    await ctx.app.jobs.drain();
    const res = await who.call('GET', `/calls/${w.callId}/assignment/proposals/${id}/`);
    expect(res.statusCode, res.body).toBe(200);
    const run = res.json() as AssignmentRun;
    if (run.state !== 'running') return run;
  }
  throw new Error(`proposal ${id} was still running after 20 passes of the job runner`);
}
