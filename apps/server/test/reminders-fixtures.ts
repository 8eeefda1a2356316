import { randomBytes } from 'node:crypto';
import { reminderDeadline, REMINDER_SWEEP_MS } from '@merit/domain';
import { eq } from 'drizzle-orm';
import { extensions, proposalCollaborators, proposals } from '../src/db/schema.js';
import { saveCall } from '../src/modules/calls/calls.service.js';
import { caller } from './admin-fixtures.js';
import { recordConflict } from './assignment-fixtures.js';
import { assignReviewers, callPayload, makeCallForms, makeReview } from './call-fixtures.js';
import { auth, giveRole, login, makeCommittee, makeUser, type TestContext } from './helpers.js';
import { outbox, type ReadMail } from './mail.js';
import { proposalTypeOf } from './proposal-fixtures.js';

export const HOUR = 60 * 60 * 1000;
export const DAY = 24 * HOUR;

/** A person of the world: their account and a caller with their token. */
async function person(ctx: TestContext, firstName: string, lastName: string, isAdmin = false) {
  const user = await makeUser(ctx.app, { firstName, lastName, isAdmin });
  return { user, call: caller(ctx.app, auth(await login(ctx.app, user.username))) };
}
export type Person = Awaited<ReturnType<typeof person>>;

/**
 * A call for reminders (issue 28), made through the call service so it gets the default
 * rules, at the clock's time C: submission open since C - 1 day until C + 10 days, review
 * until C + 20 days. So the default rules are due: applicants at C + 3 d (7 days before)
 * and C + 9 d (1 day before), reviewers at C + 13 d, C + 18 d, and C + 21 d (the chairs
 * in copy).
 *
 * Chairs Carla and Cleo; members Rita, Ben and Mia; Adam an admin with no role; applicants
 * Ada (two drafts, Col her collaborator on one), Eve (a draft, an extension to C + 12 d)
 * and Zed (a draft), and Col, who wrote two submitted proposals.
 *
 * Submitted: "Pulsar timing" (Ada's, Col her collaborator; Rita and Ben assigned, and Col,
 * whom its team keeps from reviewing it), "Galaxy rotation" (Col's;
 * Rita assigned; Cleo has a confirmed conflict with it), "Dark matter halos" (Col's; Rita
 * and Ben assigned, Ben has saved his review), "Exoplanet transits" (Col's; Mia assigned,
 * with a confirmed conflict: never reminded of it). So Rita has 3 reviews to write and Ben 1.
 */
export async function reminderWorld(ctx: TestContext) {
  const { app } = ctx;
  // On a due time of the sweep, so each reminder's due time (whole days on) is one too.
  const tick = ctx.clock.now().getTime() % REMINDER_SWEEP_MS;
  if (tick) ctx.clock.advance(REMINDER_SWEEP_MS - tick);
  const start = ctx.clock.now();
  const tag = randomBytes(3).toString('hex');
  const committeeId = (await makeCommittee(app)).id;
  const people = {
    carla: await person(ctx, 'Carla', 'Chair'),
    cleo: await person(ctx, 'Cleo', 'Cochair'),
    rita: await person(ctx, 'Rita', 'Reviewer'),
    ben: await person(ctx, 'Ben', 'Second'),
    mia: await person(ctx, 'Mia', 'Member'),
    sam: await person(ctx, 'Sam', 'Late'),
    adam: await person(ctx, 'Adam', 'Admin', true),
    ada: await person(ctx, 'Ada', 'Author'),
    col: await person(ctx, 'Col', 'Laborator'),
    eve: await person(ctx, 'Eve', 'Extended'),
    zed: await person(ctx, 'Zed', 'Submitter'),
  };
  await giveRole(app, people.carla.user.id, committeeId, 'CHAIR', start);
  await giveRole(app, people.cleo.user.id, committeeId, 'CHAIR', start);
  for (const member of [people.rita, people.ben, people.mia, people.sam])
    await giveRole(app, member.user.id, committeeId, 'MEMBER', start);

  const forms = await makeCallForms(app);
  const callName = `Telescope time ${tag}`;
  const at = (days: number) => new Date(start.getTime() + days * DAY).toISOString();
  const callId = await app.writeAs({ id: people.adam.user.id, isAdmin: true }, (work) =>
    saveCall(
      work,
      callPayload(committeeId, forms, start, {
        name: callName,
        closeDateTime: at(10),
        reviewOpenDateTime: at(10),
        reviewCloseDateTime: at(20),
      }),
    ),
  );
  const typeId = await proposalTypeOf(app, callId);
  const proposal = async (name: string, authorId: number, stateVal: number) => {
    const [row] = await app.db
      .insert(proposals)
      .values({
        callId,
        proposalTypeId: typeId,
        authorId,
        name,
        stateVal,
        createdAt: start,
        updatedAt: start,
      })
      .returning();
    return row!.id;
  };
  const { ada, col, eve, zed, rita, ben, mia, cleo } = people;
  const ids = {
    unfinished: await proposal('Unfinished idea', ada.user.id, 0),
    second: await proposal('Second draft', ada.user.id, 0),
    eves: await proposal('Extended essay', eve.user.id, 0),
    zeds: await proposal('Zed’s plan', zed.user.id, 0),
    pulsar: await proposal('Pulsar timing', ada.user.id, 1),
    galaxy: await proposal('Galaxy rotation', col.user.id, 1),
    halos: await proposal('Dark matter halos', col.user.id, 1),
    exoplanet: await proposal('Exoplanet transits', col.user.id, 1),
  };
  await app.db.insert(proposalCollaborators).values([
    { proposalId: ids.unfinished, userId: col.user.id },
    { proposalId: ids.pulsar, userId: col.user.id },
  ]);
  await app.db.insert(extensions).values({
    callId,
    userId: eve.user.id,
    commencement: start,
    termination: new Date(start.getTime() + 12 * DAY),
    reason: 'Fieldwork',
    createdAt: start,
  });
  // Col on its team too: an assignment the rules never remind him of.
  await assignReviewers(app, ids.pulsar, [rita.user.id, ben.user.id, col.user.id]);
  await assignReviewers(app, ids.galaxy, [rita.user.id]);
  await assignReviewers(app, ids.halos, [rita.user.id, ben.user.id]);
  await assignReviewers(app, ids.exoplanet, [mia.user.id]);
  await makeReview(app, ids.halos, ben.user.id);
  await recordConflict(ctx, ids.galaxy, cleo.user.id);
  await recordConflict(ctx, ids.exoplanet, mia.user.id);
  return { start, callId, callName, committeeId, ids, people };
}
export type ReminderWorld = Awaited<ReturnType<typeof reminderWorld>>;

/** The instant `days` (and `ms`) after the world's start. */
export const dayOf = (w: ReminderWorld, days: number, ms = 0) =>
  new Date(w.start.getTime() + days * DAY + ms);

/** `{{ deadline }}` for the instant `days` after the world's start. */
export const deadlineOf = (w: ReminderWorld, days: number) => reminderDeadline(dayOf(w, days));

/** Submits a proposal straight in the table, as the author's Submit would. */
export const submit = (ctx: TestContext, proposalId: number) =>
  ctx.app.db.update(proposals).set({ stateVal: 1 }).where(eq(proposals.id, proposalId));

/**
 * Reads the outbox as it grows: `next()` gives the mails written since the last call, of
 * the world's people only (other worlds of the same database mail their own).
 */
export function mailWatcher(ctx: TestContext, w: ReminderWorld) {
  const addresses = new Set(Object.values(w.people).map((p) => p.user.email.toLowerCase()));
  let seen = 0;
  return {
    async next(): Promise<ReadMail[]> {
      const all = await outbox(ctx);
      const fresh = all.slice(seen);
      seen = all.length;
      return fresh.filter((mail) => addresses.has(mail.to.toLowerCase()));
    },
  };
}

/** Mails as `[recipient's first name, subject]`, sorted: who got what. */
export function whoGotWhat(w: ReminderWorld, mails: readonly ReadMail[]) {
  const byEmail = new Map(
    Object.entries(w.people).map(([name, p]) => [p.user.email.toLowerCase(), name]),
  );
  return mails.map((mail) => [byEmail.get(mail.to.toLowerCase()), mail.subject]).sort();
}
