import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../src/db/client.js';
import { createJobRunner, every, type JobRunner } from '../src/platform/data/jobs.js';
import { createTestApp, type TestContext } from './helpers.js';

// PostgreSQL only (the server:postgres project; `*.postgres.test.ts` is left out of the
// PGlite run): several runners on their own connections, as several app processes have.
const HOUR = 60 * 60 * 1000;
const PROCESSES = 4;

let ctx: TestContext;
const databases: Database[] = [];
beforeAll(async () => {
  ctx = await createTestApp();
  // The app's own runner knows no test schedule: only the runners below take these jobs.
  await ctx.app.jobs.stop();
  for (let i = 0; i < PROCESSES; i += 1)
    databases.push(await openDatabase({ kind: 'postgres', url: ctx.databaseUrl! }));
});
afterAll(async () => {
  for (const database of databases) await database.close();
  await ctx?.close();
});

describe('a scheduled job beside other processes', () => {
  it('runs each due time once, whichever process polls first', async () => {
    const runs: string[] = [];
    const runners: JobRunner[] = databases.map((database) => {
      const runner = createJobRunner({
        db: database.db,
        now: ctx.clock.now,
        log: ctx.app.log,
        pollMs: 60_000,
      });
      runner.schedule('test.shared', every(HOUR), async ({ dueAt }) => {
        runs.push(dueAt);
      });
      return runner;
    });
    // Each process sees the schedule first: one row, due at the next hour.
    await Promise.all(runners.map((runner) => runner.drain()));
    expect(runs).toEqual([]);
    for (let hour = 1; hour <= 3; hour += 1) {
      ctx.clock.advance(HOUR);
      // All at once, each a few times: only one of them may queue the due time.
      await Promise.all(runners.flatMap((runner) => [runner.drain(), runner.drain()]));
      await Promise.all(runners.map((runner) => runner.drain()));
    }
    expect(runs.sort()).toEqual([
      '2026-06-01T01:00:00.000Z',
      '2026-06-01T02:00:00.000Z',
      '2026-06-01T03:00:00.000Z',
    ]);
    await Promise.all(runners.map((runner) => runner.stop()));
  });
});
