import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../src/db/client.js';
import { loginThrottle } from '../src/db/schema.js';
import { RETENTION_CLASSES } from '../src/app.js';
import { createRetention } from '../src/ops/retention.js';
import { createTestApp, type TestContext } from './helpers.js';

// PostgreSQL only (the server:postgres project; `*.postgres.test.ts` is left out of the
// PGlite run): on PGlite's one connection a second transaction cannot hold a lock
// meanwhile. The rest of the retention job's tests are in retention.api.test.ts.
const DAY = 24 * 60 * 60_000;

let ctx: TestContext;
let other: Database;
beforeAll(async () => {
  ctx = await createTestApp({ sessions: 'server' });
  // The app's own job sweeps once as the app starts; on a slow machine that sweep could
  // still be going when the test's row goes in and take it first. This test's job is
  // the only one.
  await ctx.app.retention.stop();
  // Its own connection, as another app process would have.
  other = await openDatabase({ kind: 'postgres', url: ctx.databaseUrl! });
});
afterAll(async () => {
  await other?.close();
  await ctx?.close();
});

describe('the retention job beside another process', () => {
  it('passes over a row another process holds, without waiting, and takes it next time', async () => {
    const bucket = `user:${randomBytes(8).toString('hex')}`;
    await ctx.app.db
      .insert(loginThrottle)
      .values({ bucket, windowStart: new Date(ctx.clock.now().getTime() - 3 * DAY), count: 1 });
    const job = createRetention({
      db: ctx.database.db,
      now: ctx.clock.now,
      log: ctx.app.log,
      settings: ctx.app.config.retention,
      session: ctx.app.config.session,
      everyMs: 0,
      classes: RETENTION_CLASSES,
    });
    await other.db.transaction(async (tx) => {
      // A login counting an attempt on this bucket in another process, say.
      await tx.select().from(loginThrottle).where(eq(loginThrottle.bucket, bucket)).for('update');
      expect(await job.run()).toEqual({});
    });
    expect(await job.run()).toEqual({ login_throttle: 1 });
  });
});
