import { utcTime } from '@merit/domain';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../src/app.js';
import { loadConfig } from '../src/config/config.js';
import { openDatabase } from '../src/db/client.js';
import { alertCounts, alertsRaised } from '../src/db/schema.js';
import { loggerOptions } from '../src/platform/http/log-options.js';
import { issueToken } from '../src/modules/auth/tokens.queries.js';
import { captureLog } from './log-capture.js';
import { auth, createTestApp, makeUser, testDatabaseKind, type TestContext } from './helpers.js';
import { outbox, type ReadMail } from './mail.js';

/**
 * Abnormal request rates are counted and mailed to the administrators (OWASP ASVS
 * V8.1.4, ops/alerts.ts). Thresholds are low here so a test can pass them; the counts
 * are flushed by calling `app.alerts.flush()`, which the server does every 5 seconds.
 */
const { stream: logStream, lines: logLines } = captureLog();

const HOUR = 60 * 60 * 1000;
const THRESHOLDS = {
  ALERT_FAILED_LOGINS: '5',
  ALERT_REFUSED_REQUESTS: '5',
  ALERT_RATE_LIMITED: '3',
  ALERT_SERVER_ERRORS: '2',
};
const env = {
  ...THRESHOLDS,
  ALERT_EMAILS: 'security@example.org',
  // Low, so a test can reach it; every other request here comes from its own address.
  AUTH_RATE_LIMIT_PER_IP: '2',
  PUBLIC_URL: 'https://merit.example.org',
};

let ctx: TestContext;
let admins: Array<{ email: string }>;
let inactiveAdmin: { email: string };
let userKey: string;
let addressCount = 0;
/** A client address of its own, so the per-address rate limit counts nothing else. */
const newAddress = () => {
  addressCount += 1;
  return `10.1.${Math.floor(addressCount / 250)}.${(addressCount % 250) + 1}`;
};

beforeAll(async () => {
  ctx = await createTestApp({ env, logger: { ...loggerOptions('info'), stream: logStream } });
  admins = [await makeUser(ctx.app, { isAdmin: true }), await makeUser(ctx.app, { isAdmin: true })];
  inactiveAdmin = await makeUser(ctx.app, { isAdmin: true, isActive: false });
  const user = await makeUser(ctx.app);
  userKey = await issueToken(ctx.app.db, user.id, ctx.clock.now());
});
afterAll(() => ctx?.close());

let mailsBefore = 0;
let logBefore = 0;
beforeEach(async () => {
  // Each test starts in an hour of its own, so the alerts of one do not hold back another's.
  const next = Math.floor(ctx.clock.current.getTime() / HOUR + 1) * HOUR;
  ctx.clock.current = new Date(next + 60_000);
  await ctx.app.alerts.flush();
  mailsBefore = (await outbox(ctx)).length;
  logBefore = logLines.length;
});

const alertMails = async (): Promise<ReadMail[]> =>
  (await outbox(ctx)).slice(mailsBefore).filter((m) => m.subject.startsWith('Merit alert:'));
const raisedEvents = () =>
  logLines
    .slice(logBefore)
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((entry) => entry.securityEvent === 'alert.raised');
const recipients = () => [...admins.map((a) => a.email), 'security@example.org'].sort();

async function failLogins(app: App, count: number) {
  for (let i = 0; i < count; i += 1) {
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/auth/login/',
      remoteAddress: newAddress(),
      payload: { username: `nobody${addressCount}`, password: 'wrong password here' },
    });
    expect(res.statusCode).toBe(400);
  }
}

async function refuse(app: App, count: number) {
  for (let i = 0; i < count; i += 1) {
    const res = await app.inject({ method: 'GET', url: '/api/v1/user_details/' });
    expect(res.statusCode).toBe(401);
  }
}

describe('V8.1.4 alerts on abnormal request rates', () => {
  it('writes nothing for normal answers', async () => {
    for (let i = 0; i < 20; i += 1) {
      const res = await ctx.app.inject({
        method: 'GET',
        url: '/api/v1/calls/',
        headers: auth(userKey),
      });
      expect(res.statusCode).toBe(200);
    }
    await ctx.app.alerts.flush();
    const counts = await ctx.app.db
      .select()
      .from(alertCounts)
      .where(sql`${alertCounts.windowStart} >= ${new Date(ctx.clock.current.getTime() - 60_000)}`);
    expect(counts).toEqual([]);
  });

  it('mails each active admin and ALERT_EMAILS once when failed logins pass the threshold, not below it', async () => {
    await failLogins(ctx.app, 4);
    await ctx.app.alerts.flush();
    expect(await alertMails()).toEqual([]);
    expect(raisedEvents()).toEqual([]);

    await failLogins(ctx.app, 1);
    await ctx.app.alerts.flush();
    const mails = await alertMails();
    expect(mails.map((m) => m.to).sort()).toEqual(recipients());
    expect(mails.map((m) => m.to)).not.toContain(inactiveAdmin.email);
    const windowStart = new Date(Math.floor(ctx.clock.current.getTime() / 300_000) * 300_000);
    const since = utcTime(windowStart);
    for (const mail of mails) {
      expect(mail.subject).toBe('Merit alert: 5 failed logins in 5 minutes');
      expect(mail.text).toContain(`Merit counted 5 failed logins since ${since},`);
      expect(mail.text).toContain('login.failed');
      expect(mail.links).toContain('https://merit.example.org');
    }
    const events = raisedEvents();
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      level: 50,
      securityEvent: 'alert.raised',
      kind: 'login_failed',
      count: 5,
      window: `${windowStart.toISOString()}/${new Date(windowStart.getTime() + 300_000).toISOString()}`,
    });
  });

  it('alerts once per kind and hour: more in the same hour mail nobody, the next hour alerts again', async () => {
    await refuse(ctx.app, 5);
    await ctx.app.alerts.flush();
    expect(await alertMails()).toHaveLength(recipients().length);

    await refuse(ctx.app, 10);
    await ctx.app.alerts.flush();
    // A later window of the same hour passes the threshold again: still no second mail.
    ctx.clock.advance(10 * 60_000);
    await refuse(ctx.app, 10);
    await ctx.app.alerts.flush();
    expect(await alertMails()).toHaveLength(recipients().length);
    expect(raisedEvents()).toHaveLength(1);

    ctx.clock.advance(HOUR);
    await refuse(ctx.app, 5);
    await ctx.app.alerts.flush();
    const mails = await alertMails();
    expect(mails).toHaveLength(2 * recipients().length);
    expect(mails.at(-1)!.subject).toBe('Merit alert: 5 refused requests (401 or 403) in 5 minutes');
    expect(raisedEvents().map((e) => e.kind)).toEqual(['access_refused', 'access_refused']);
  });

  it('counts rate-limited answers (429)', async () => {
    const remoteAddress = newAddress();
    const statuses: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/v1/auth/login/',
        remoteAddress,
        payload: { username: `guess${i}`, password: 'wrong password here' },
      });
      statuses.push(res.statusCode);
    }
    expect(statuses).toEqual([400, 400, 429, 429, 429]);
    await ctx.app.alerts.flush();
    const mails = await alertMails();
    expect(mails.map((m) => m.subject)).toEqual(
      recipients().map(() => 'Merit alert: 3 requests refused as too many (429) in 5 minutes'),
    );
    expect(mails[0]!.text).toContain('TRUST_PROXY');
  });

  it('counts server errors (5xx): a table the calls list reads is missing', async () => {
    // A real fault under the running app, put right again afterwards: the query fails
    // with "relation does not exist", which no handler expects.
    await ctx.app.db.execute(sql`alter table calls rename to calls_away`);
    try {
      for (let i = 0; i < 2; i += 1) {
        const res = await ctx.app.inject({
          method: 'GET',
          url: '/api/v1/calls/',
          headers: auth(userKey),
        });
        expect(res.statusCode).toBe(500);
      }
    } finally {
      await ctx.app.db.execute(sql`alter table calls_away rename to calls`);
    }
    await ctx.app.alerts.flush();
    const mails = await alertMails();
    expect(mails.map((m) => m.subject)).toEqual(
      recipients().map(() => 'Merit alert: 2 server errors (5xx) in 5 minutes'),
    );
    expect(raisedEvents()).toMatchObject([{ kind: 'server_error', count: 2 }]);
  });

  it('two app instances on one database count together and raise one alert, not two', async () => {
    // A second app process: its own counter and pool, on the same database (PGlite has
    // one connection, so there the two share it).
    const database =
      testDatabaseKind() === 'postgres'
        ? await openDatabase({ kind: 'postgres', url: ctx.databaseUrl! })
        : ctx.database;
    const other = await buildApp(
      loadConfig({
        ...env,
        LOG_LEVEL: 'silent',
        DATA_DIR: ctx.dataDir,
        WEB_DIR: path.join(ctx.dataDir, 'web'),
        MANUAL_PATH: path.join(ctx.dataDir, 'manual.pdf'),
      }),
      { database, now: ctx.clock.now, logger: false, alertFlushMs: 0 },
    );
    try {
      await failLogins(ctx.app, 3);
      await failLogins(other, 3);
      await Promise.all([ctx.app.alerts.flush(), other.alerts.flush()]);
      await failLogins(other, 5);
      await failLogins(ctx.app, 5);
      await Promise.all([ctx.app.alerts.flush(), other.alerts.flush()]);
      await other.jobs.drain();

      const mails = await alertMails();
      expect(mails.map((m) => m.to).sort()).toEqual(recipients());
      // Counted once each, whichever process saw them: 6 when the first flush passed 5.
      expect(mails[0]!.subject).toBe('Merit alert: 6 failed logins in 5 minutes');
      const windowStart = new Date(Math.floor(ctx.clock.current.getTime() / 300_000) * 300_000);
      const [row] = await ctx.app.db
        .select()
        .from(alertCounts)
        .where(
          sql`${alertCounts.kind} = 'login_failed' and ${alertCounts.windowStart} = ${windowStart}`,
        );
      expect(row!.count).toBe(16);
      const hourStart = new Date(Math.floor(windowStart.getTime() / HOUR) * HOUR);
      const raised = await ctx.app.db
        .select()
        .from(alertsRaised)
        .where(eq(alertsRaised.hourStart, hourStart));
      expect(raised.map((r) => [r.kind, r.count])).toEqual([['login_failed', 6]]);
    } finally {
      await other.close();
      if (database !== ctx.database) await database.close();
    }
  });
});
