import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reminderDispatches } from '../src/db/schema.js';
import { sweepReminders } from '../src/modules/reminders/reminders.sweep.js';
import { createTestApp, secondProcess, type TestContext } from './helpers.js';
import { outbox } from './mail.js';
import { dayOf, mailWatcher, reminderWorld, whoGotWhat } from './reminders-fixtures.js';

// PostgreSQL only (the server:postgres project; `*.postgres.test.ts` is left out of the
// PGlite run): two apps, each on its own connections to one database and with its own job
// runner, as two app processes are, reaching the same due times together.

let ctx: TestContext;
let second: Awaited<ReturnType<typeof secondProcess>>;
beforeAll(async () => {
  ctx = await createTestApp();
  second = await secondProcess(ctx);
});
afterAll(async () => {
  await second?.close();
  await ctx?.close();
});

describe('reminders with two app processes', () => {
  it('sends one mail per person and due time, whichever process sweeps, however many at once', async () => {
    const w = await reminderWorld(ctx);
    const mails = mailWatcher(ctx, w);
    await mails.next();
    const bothSweep = async () => {
      // Both runners reach the due time at once, each a few times over.
      await Promise.all([
        ctx.app.jobs.drain(),
        second.app.jobs.drain(),
        ctx.app.jobs.drain(),
        second.app.jobs.drain(),
      ]);
      await Promise.all([ctx.app.jobs.drain(), second.app.jobs.drain()]);
    };
    // Day 3: the applicants' 7-day reminder, once each.
    ctx.clock.current = dayOf(w, 3);
    await bothSweep();
    expect(whoGotWhat(w, await mails.next()).map(([who]) => who)).toEqual(['ada', 'col', 'zed']);
    // Day 9: their 1-day one, and Eve's 7-day one (day 5: her own close is day 12), once each.
    ctx.clock.current = dayOf(w, 9);
    await bothSweep();
    const subjects = whoGotWhat(w, await mails.next());
    expect(subjects.map(([who]) => who)).toEqual(['ada', 'col', 'eve', 'zed']);
    // And the next due time, reached by both again: the reviewers', once each.
    ctx.clock.current = dayOf(w, 13);
    await Promise.all([ctx.app.jobs.drain(), second.app.jobs.drain(), ctx.app.jobs.drain()]);
    await Promise.all([ctx.app.jobs.drain(), second.app.jobs.drain()]);
    expect(whoGotWhat(w, await mails.next()).map(([who]) => who)).toEqual(['ben', 'rita']);
  });

  it('inserts each dispatch once when two processes sweep the same due time at the same moment', async () => {
    const w = await reminderWorld(ctx);
    const mails = mailWatcher(ctx, w);
    await mails.next();
    const now = dayOf(w, 9);
    const log = { info: () => {} };
    // Straight at the sweep, on both connections, four at once: the unique key decides.
    const runs = await Promise.all([
      sweepReminders(ctx.app.db, now, log),
      sweepReminders(second.app.db, now, log),
      sweepReminders(ctx.app.db, now, log),
      sweepReminders(second.app.db, now, log),
    ]);
    const found = runs[0]!.found;
    expect(runs.map((run) => run.found)).toEqual([found, found, found, found]);
    const rows = await ctx.app.db
      .select()
      .from(reminderDispatches)
      .where(eq(reminderDispatches.callId, w.callId));
    // Of each applicant's 7-day and 1-day reminders, both due by day 9, the latest: one each.
    expect(rows).toHaveLength(4);
    // The mails wait for their run time: the clock reaches it, and either process sends them.
    ctx.clock.current = now;
    await outbox({ app: second.app, dataDir: ctx.dataDir });
    const sent = await mails.next();
    expect(sent).toHaveLength(4);
    // Everything the four queued together is exactly what was found once.
    expect(runs.reduce((sum, run) => sum + run.queued, 0)).toBe(found);
  });
});
