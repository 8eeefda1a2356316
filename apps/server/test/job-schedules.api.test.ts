import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { jobSchedules } from '../src/db/schema.js';
import { every, type ScheduledRun } from '../src/platform/data/jobs.js';
import { createTestApp, type TestContext } from './helpers.js';

/**
 * Scheduled jobs (platform/data/jobs.ts `schedule`): each due time runs once, when the
 * clock reaches it, and due times missed while nothing ran are run once when the runner
 * comes back. Across processes: job-schedules.postgres.test.ts.
 */
const HOUR = 60 * 60 * 1000;

let ctx: TestContext;
const runs: string[] = [];
beforeAll(async () => {
  ctx = await createTestApp();
  ctx.app.jobs.schedule('test.hourly', every(HOUR), async (run: ScheduledRun) => {
    runs.push(run.dueAt);
  });
});
afterAll(() => ctx.close());

describe('a job scheduled every hour', () => {
  it('runs at each due time once, and not before the first', async () => {
    // The clock starts on the hour (2026-06-01T00:00Z): the first due time is the next one.
    await ctx.app.jobs.drain();
    expect(runs).toEqual([]);
    const [row] = await ctx.app.db
      .select()
      .from(jobSchedules)
      .where(eq(jobSchedules.kind, 'test.hourly'));
    expect(row?.nextDueAt.toISOString()).toBe('2026-06-01T01:00:00.000Z');

    ctx.clock.advance(HOUR - 1);
    await ctx.app.jobs.drain();
    expect(runs).toEqual([]);

    ctx.clock.advance(1);
    await ctx.app.jobs.drain();
    await ctx.app.jobs.drain();
    expect(runs).toEqual(['2026-06-01T01:00:00.000Z']);

    ctx.clock.advance(HOUR / 2);
    await ctx.app.jobs.drain();
    expect(runs).toHaveLength(1);
  });

  it('runs due times missed while nothing ran once, for the earliest, then goes on from now', async () => {
    runs.length = 0;
    ctx.clock.advance(5 * HOUR); // 06:30: due times 02:00 to 06:00 passed unseen
    await ctx.app.jobs.drain();
    expect(runs).toEqual(['2026-06-01T02:00:00.000Z']);
    const [row] = await ctx.app.db
      .select()
      .from(jobSchedules)
      .where(eq(jobSchedules.kind, 'test.hourly'));
    expect(row?.nextDueAt.toISOString()).toBe('2026-06-01T07:00:00.000Z');

    ctx.clock.advance(HOUR / 2);
    await ctx.app.jobs.drain();
    expect(runs).toEqual(['2026-06-01T02:00:00.000Z', '2026-06-01T07:00:00.000Z']);
  });

  it('tries a run that failed again, as any job, and keeps the schedule going', async () => {
    let failures = 1;
    const seen: string[] = [];
    ctx.app.jobs.schedule('test.flaky', every(HOUR), async (run: ScheduledRun) => {
      if (failures-- > 0) throw new Error('the mail server said no');
      seen.push(run.dueAt);
    });
    await ctx.app.jobs.drain(); // registers it: due at 08:00
    ctx.clock.advance(HOUR);
    await ctx.app.jobs.drain();
    expect(seen).toEqual([]);
    ctx.clock.advance(60_000); // the first retry waits 30 s
    await ctx.app.jobs.drain();
    expect(seen).toEqual(['2026-06-01T08:00:00.000Z']);
  });
});

describe('every', () => {
  it.each([
    ['2026-06-01T00:00:00.000Z', '2026-06-01T01:00:00.000Z'],
    ['2026-06-01T00:59:59.999Z', '2026-06-01T01:00:00.000Z'],
    ['2026-06-01T01:00:00.000Z', '2026-06-01T02:00:00.000Z'],
  ])('gives the hour after %s as %s', (after, next) => {
    expect(every(HOUR)(new Date(after)).toISOString()).toBe(next);
  });
});
