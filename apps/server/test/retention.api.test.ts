import { randomBytes, randomUUID } from 'node:crypto';
import { inArray, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, RETENTION_CLASSES } from '../src/app.js';
import { ConfigError, loadConfig } from '../src/config/config.js';
import { openDatabase, type Database } from '../src/db/client.js';
import {
  alertCounts,
  alertsRaised,
  assignmentRuns,
  auditLog,
  authTokens,
  captchaUses,
  downloadTickets,
  emailConfirmations,
  jobs,
  loginCodes,
  loginThrottle,
  oidcStates,
  passwordResets,
  proposalSaves,
  rateLimitHits,
  securityEvents,
  securityKeyChallenges,
  twoFactorRecoveryCodes,
  twoFactorTickets,
  userTwoFactor,
} from '../src/db/schema.js';
import { loggerOptions } from '../src/platform/http/log-options.js';
import { createRetention, RETENTION_BATCH, type Retention } from '../src/ops/retention.js';
import { captureLog } from './log-capture.js';
import { makeProposal } from './call-fixtures.js';
import { makeProposalCall, makeProposalForms } from './proposal-fixtures.js';
import {
  auth,
  createTestApp,
  login,
  makeCommittee,
  makeUser,
  testDatabaseKind,
  type TestContext,
} from './helpers.js';

/**
 * Data retention (OWASP ASVS V8.3.8, ops/retention.ts): each kind of data the job deletes
 * goes once its period has passed and stays until then, by the app's clock; the audit log
 * stays unless AUDIT_RETENTION_DAYS is set; a live session is never touched.
 */
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const { stream: logStream, entries: logEntries } = captureLog<{
  level: number;
  msg: string;
  deleted?: Record<string, number>;
}>();

let ctx: TestContext;
let userId: number;
/** A draft whose Save All records (proposal_saves) the job prunes. */
let proposalId: number;
/** The call of that draft, whose proposed assignments (assignment_runs) the job prunes. */
let callId: number;
const uniq = () => randomBytes(8).toString('hex');

beforeAll(async () => {
  // The server's own session lengths (2 hours idle, 12 at most), which the sessions' rule
  // counts from; the tests move no clock, so no other session runs out.
  ctx = await createTestApp({
    sessions: 'server',
    logger: { ...loggerOptions('info'), stream: logStream },
  });
  // The sweep the app starts with finishes before any test puts rows in: on a slow
  // machine it could otherwise take a test's rows before the test's own run counts them.
  await ctx.app.retention.run();
  userId = (await makeUser(ctx.app)).id;
  const admin = { id: (await makeUser(ctx.app, { isAdmin: true })).id, isAdmin: true };
  const made = await makeProposalCall(ctx.app, {
    committeeId: (await makeCommittee(ctx.app)).id,
    forms: await makeProposalForms(ctx.app),
    admin,
  });
  callId = made.callId;
  const draft = await makeProposal(ctx.app, {
    callId,
    proposalTypeId: made.typeId,
    authorId: userId,
  });
  proposalId = draft.id;
});
afterAll(() => ctx?.close());

const ago = (ms: number) => new Date(ctx.clock.now().getTime() - ms);

/** One kind's rows: those past the period (`gone`) and those within it (`stay`). */
interface Case {
  kind: string;
  table: PgTable;
  key: PgColumn;
  gone: () => Promise<unknown[]>;
  stay: () => Promise<unknown[]>;
}

/** Inserts rows and returns their keys. */
async function insert<T extends PgTable>(
  table: T,
  key: PgColumn,
  rows: T['$inferInsert'][],
): Promise<unknown[]> {
  const inserted = (await ctx.app.db.insert(table).values(rows).returning({ key })) as Array<{
    key: unknown;
  }>;
  return inserted.map((row) => row.key);
}

const digest = () => randomBytes(32).toString('hex');
/** A Save All hash (below 2^31), random so rows of other runs never clash. */
const saveHash = () => randomBytes(4).readUInt32BE() % 2 ** 31;
/** A Save All record as a save leaves it: the entry it wrote and that entry's version. */
const savedEntry = <T extends object>(row: T) => ({ ...row, entryId: randomUUID(), version: 1 });
const token = (times: { createdAt: Date; lastUsedAt: Date; revokedAt?: Date }) => ({
  userId,
  keyHash: digest(),
  userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Firefox/130.0',
  ...times,
});
const link = (times: { expiresAt: Date; usedAt?: Date }) => ({
  userId,
  createdAt: new Date(times.expiresAt.getTime() - 3 * DAY),
  ...times,
});

/** The idle and absolute limits of sessions under the server's defaults, and the 30 days after. */
const IDLE = 2 * HOUR;
const ABSOLUTE = 12 * HOUR;
const SESSION_KEPT = 30 * DAY;

/**
 * Three sessions that ended `endedAgo`, each its own way: logged out (revoked), idled out,
 * and reached its maximum age though used until then. Nothing else ended them earlier.
 */
const sessionsEnded = (endedAgo: number) => [
  token({ createdAt: ago(endedAgo + HOUR), lastUsedAt: ago(endedAgo), revokedAt: ago(endedAgo) }),
  token({ createdAt: ago(endedAgo + IDLE + HOUR), lastUsedAt: ago(endedAgo + IDLE) }),
  token({ createdAt: ago(endedAgo + ABSOLUTE), lastUsedAt: ago(endedAgo + MINUTE) }),
];

const cases: Case[] = [
  {
    kind: 'sessions',
    table: authTokens,
    key: authTokens.id,
    gone: () => insert(authTokens, authTokens.id, sessionsEnded(SESSION_KEPT + MINUTE)),
    stay: () => insert(authTokens, authTokens.id, sessionsEnded(SESSION_KEPT - MINUTE)),
  },
  {
    kind: 'email_confirmations',
    table: emailConfirmations,
    key: emailConfirmations.id,
    gone: () =>
      insert(emailConfirmations, emailConfirmations.id, [
        { ...link({ expiresAt: ago(DAY + MINUTE) }), keyHash: digest(), email: 'old@example.org' },
        {
          ...link({ expiresAt: ago(-DAY), usedAt: ago(DAY + MINUTE) }),
          keyHash: digest(),
          email: 'used@example.org',
        },
      ]),
    stay: () =>
      insert(emailConfirmations, emailConfirmations.id, [
        { ...link({ expiresAt: ago(DAY - MINUTE) }), keyHash: digest(), email: 'late@example.org' },
        {
          ...link({ expiresAt: ago(-DAY), usedAt: ago(DAY - MINUTE) }),
          keyHash: digest(),
          email: 'just-used@example.org',
        },
        { ...link({ expiresAt: ago(-2 * DAY) }), keyHash: digest(), email: 'open@example.org' },
      ]),
  },
  {
    kind: 'password_resets',
    table: passwordResets,
    key: passwordResets.id,
    gone: () =>
      insert(passwordResets, passwordResets.id, [
        { ...link({ expiresAt: ago(DAY + MINUTE) }), tokenHash: digest() },
        { ...link({ expiresAt: ago(-HOUR), usedAt: ago(DAY + MINUTE) }), tokenHash: digest() },
      ]),
    stay: () =>
      insert(passwordResets, passwordResets.id, [
        { ...link({ expiresAt: ago(DAY - MINUTE) }), tokenHash: digest() },
        { ...link({ expiresAt: ago(-HOUR), usedAt: ago(DAY - MINUTE) }), tokenHash: digest() },
        { ...link({ expiresAt: ago(-HOUR) }), tokenHash: digest() },
      ]),
  },
  {
    kind: 'two_factor_tickets',
    table: twoFactorTickets,
    key: twoFactorTickets.ticketHash,
    gone: () =>
      insert(twoFactorTickets, twoFactorTickets.ticketHash, [
        { ticketHash: digest(), userId, expiresAt: ago(DAY + MINUTE) },
      ]),
    stay: () =>
      insert(twoFactorTickets, twoFactorTickets.ticketHash, [
        { ticketHash: digest(), userId, expiresAt: ago(DAY - MINUTE) },
        { ticketHash: digest(), userId, expiresAt: ago(-MINUTE) },
      ]),
  },
  {
    kind: 'two_factor_setups',
    table: userTwoFactor,
    key: userTwoFactor.userId,
    gone: async () =>
      insert(userTwoFactor, userTwoFactor.userId, [
        // A setup never confirmed: its 30 minutes ran out a day and a minute ago.
        {
          userId: (await makeUser(ctx.app)).id,
          secretEncrypted: 'x',
          createdAt: ago(DAY + 31 * MINUTE),
        },
      ]),
    stay: async () =>
      insert(userTwoFactor, userTwoFactor.userId, [
        {
          userId: (await makeUser(ctx.app)).id,
          secretEncrypted: 'x',
          createdAt: ago(DAY + 29 * MINUTE),
        },
        // Turned on long ago: it is the account's, whatever its age.
        {
          userId: (await makeUser(ctx.app)).id,
          secretEncrypted: 'x',
          createdAt: ago(400 * DAY),
          enabledAt: ago(400 * DAY),
        },
      ]),
  },
  {
    kind: 'used_recovery_codes',
    table: twoFactorRecoveryCodes,
    key: twoFactorRecoveryCodes.id,
    gone: () =>
      insert(twoFactorRecoveryCodes, twoFactorRecoveryCodes.id, [
        { userId, codeHash: digest(), usedAt: ago(DAY + MINUTE) },
      ]),
    stay: () =>
      insert(twoFactorRecoveryCodes, twoFactorRecoveryCodes.id, [
        { userId, codeHash: digest(), usedAt: ago(DAY - MINUTE) },
        { userId, codeHash: digest() },
      ]),
  },
  {
    kind: 'security_key_challenges',
    table: securityKeyChallenges,
    key: securityKeyChallenges.id,
    // One request to add a key per user at a time: each row here has its own user.
    gone: async () =>
      insert(securityKeyChallenges, securityKeyChallenges.id, [
        {
          userId: (await makeUser(ctx.app)).id,
          purpose: 'register',
          challenge: uniq(),
          expiresAt: ago(DAY + MINUTE),
        },
      ]),
    stay: async () => {
      const ticketHash = digest();
      await ctx.app.db
        .insert(twoFactorTickets)
        .values({ ticketHash, userId, expiresAt: ago(-MINUTE) });
      return insert(securityKeyChallenges, securityKeyChallenges.id, [
        {
          userId: (await makeUser(ctx.app)).id,
          purpose: 'register',
          challenge: uniq(),
          expiresAt: ago(DAY - MINUTE),
        },
        { userId, purpose: 'login', ticketHash, challenge: uniq(), expiresAt: ago(-MINUTE) },
      ]);
    },
  },
  {
    kind: 'oidc_states',
    table: oidcStates,
    key: oidcStates.state,
    gone: () =>
      insert(oidcStates, oidcStates.state, [
        {
          state: uniq(),
          nonce: 'n',
          codeVerifier: 'v',
          next: '/',
          linkUserId: userId,
          expiresAt: ago(DAY + MINUTE),
        },
      ]),
    stay: () =>
      insert(oidcStates, oidcStates.state, [
        { state: uniq(), nonce: 'n', codeVerifier: 'v', next: '/', expiresAt: ago(DAY - MINUTE) },
      ]),
  },
  {
    kind: 'login_codes',
    table: loginCodes,
    key: loginCodes.codeHash,
    gone: () =>
      insert(loginCodes, loginCodes.codeHash, [
        { codeHash: digest(), userId, expiresAt: ago(DAY + MINUTE) },
      ]),
    stay: () =>
      insert(loginCodes, loginCodes.codeHash, [
        { codeHash: digest(), userId, expiresAt: ago(DAY - MINUTE) },
      ]),
  },
  {
    kind: 'download_tickets',
    table: downloadTickets,
    key: downloadTickets.ticketHash,
    gone: () =>
      insert(downloadTickets, downloadTickets.ticketHash, [
        { ticketHash: digest(), userId, kind: 'file', targetId: 1, expiresAt: ago(DAY + MINUTE) },
      ]),
    stay: () =>
      insert(downloadTickets, downloadTickets.ticketHash, [
        {
          ticketHash: digest(),
          userId,
          kind: 'extract',
          targetId: 1,
          expiresAt: ago(DAY - MINUTE),
        },
      ]),
  },
  {
    kind: 'proposal_saves',
    table: proposalSaves,
    key: proposalSaves.hash,
    // Save All records older than the retry window (a day); the hash is each row's key here.
    gone: () =>
      insert(
        proposalSaves,
        proposalSaves.hash,
        [
          {
            proposalId,
            formId: 1,
            entryIndex: 0,
            hash: saveHash(),
            savedAt: ago(DAY + MINUTE),
          },
          {
            proposalId,
            formId: 1,
            entryIndex: 1,
            hash: saveHash(),
            savedAt: ago(30 * DAY),
          },
        ].map(savedEntry),
      ),
    stay: () =>
      insert(
        proposalSaves,
        proposalSaves.hash,
        [
          {
            proposalId,
            formId: 1,
            entryIndex: 0,
            hash: saveHash(),
            savedAt: ago(DAY - MINUTE),
          },
          { proposalId, formId: 2, entryIndex: 0, hash: saveHash(), savedAt: ago(0) },
        ].map(savedEntry),
      ),
  },
  {
    kind: 'assignment_runs',
    table: assignmentRuns,
    key: assignmentRuns.id,
    // Proposed assignments of reviewers left neither applied nor discarded for a week.
    gone: () =>
      insert(assignmentRuns, assignmentRuns.id, [
        { callId, state: 'ready', redo: false, seed: 1, createdAt: ago(7 * DAY + MINUTE) },
        { callId, state: 'running', redo: true, seed: 2, createdAt: ago(30 * DAY) },
      ]),
    stay: () =>
      insert(assignmentRuns, assignmentRuns.id, [
        { callId, state: 'ready', redo: false, seed: 3, createdAt: ago(7 * DAY - MINUTE) },
      ]),
  },
  {
    kind: 'captcha_uses',
    table: captchaUses,
    key: captchaUses.challengeId,
    gone: () =>
      insert(captchaUses, captchaUses.challengeId, [
        { challengeId: uniq(), expiresAt: ago(DAY + MINUTE) },
      ]),
    stay: () =>
      insert(captchaUses, captchaUses.challengeId, [
        { challengeId: uniq(), expiresAt: ago(DAY - MINUTE) },
      ]),
  },
  {
    kind: 'login_throttle',
    table: loginThrottle,
    key: loginThrottle.bucket,
    // Its 15-minute window ended a day and a minute ago.
    gone: () =>
      insert(loginThrottle, loginThrottle.bucket, [
        { bucket: `pair:${uniq()} 192.0.2.1`, windowStart: ago(DAY + 16 * MINUTE), count: 5 },
      ]),
    stay: () =>
      insert(loginThrottle, loginThrottle.bucket, [
        { bucket: `pair:${uniq()} 192.0.2.1`, windowStart: ago(DAY + 14 * MINUTE), count: 5 },
      ]),
  },
  {
    kind: 'rate_limit_hits',
    table: rateLimitHits,
    key: rateLimitHits.bucket,
    gone: () =>
      insert(rateLimitHits, rateLimitHits.bucket, [
        { bucket: `auth-ip:${uniq()}`, windowStart: ago(DAY + 16 * MINUTE), count: 9 },
      ]),
    stay: () =>
      insert(rateLimitHits, rateLimitHits.bucket, [
        { bucket: `auth-ip:${uniq()}`, windowStart: ago(DAY + 14 * MINUTE), count: 9 },
      ]),
  },
  {
    kind: 'alert_counts',
    table: alertCounts,
    key: alertCounts.kind,
    gone: () =>
      insert(alertCounts, alertCounts.kind, [
        { kind: `t_${uniq()}`, windowStart: ago(DAY + 6 * MINUTE), count: 1 },
      ]),
    stay: () =>
      insert(alertCounts, alertCounts.kind, [
        { kind: `t_${uniq()}`, windowStart: ago(DAY + 4 * MINUTE), count: 1 },
      ]),
  },
  {
    kind: 'alerts_raised',
    table: alertsRaised,
    key: alertsRaised.kind,
    gone: () =>
      insert(alertsRaised, alertsRaised.kind, [
        {
          kind: `t_${uniq()}`,
          hourStart: ago(90 * DAY + MINUTE),
          windowStart: ago(90 * DAY),
          count: 9,
          raisedAt: ago(90 * DAY),
        },
      ]),
    stay: () =>
      insert(alertsRaised, alertsRaised.kind, [
        {
          kind: `t_${uniq()}`,
          hourStart: ago(90 * DAY - MINUTE),
          windowStart: ago(90 * DAY),
          count: 9,
          raisedAt: ago(90 * DAY),
        },
      ]),
  },
  {
    // Kept a year (issue 28), for the administrators' Activity page.
    kind: 'security_events',
    table: securityEvents,
    key: securityEvents.id,
    gone: () =>
      insert(securityEvents, securityEvents.id, [
        { at: ago(365 * DAY + MINUTE), event: 'login.failed', userId, details: { reason: 'x' } },
      ]),
    stay: () =>
      insert(securityEvents, securityEvents.id, [
        { at: ago(365 * DAY - MINUTE), event: 'login.failed', userId, details: { reason: 'x' } },
      ]),
  },
  {
    kind: 'failed_jobs',
    table: jobs,
    key: jobs.id,
    gone: () =>
      insert(jobs, jobs.id, [
        {
          kind: 'mail.send',
          payload: { to: 'someone@example.org' },
          runAt: ago(40 * DAY),
          createdAt: ago(40 * DAY),
          attempts: 10,
          failedAt: ago(30 * DAY + MINUTE),
        },
      ]),
    stay: () =>
      insert(jobs, jobs.id, [
        {
          kind: 'mail.send',
          payload: { to: 'someone@example.org' },
          runAt: ago(40 * DAY),
          createdAt: ago(40 * DAY),
          attempts: 10,
          failedAt: ago(30 * DAY - MINUTE),
        },
        // Still to run (later than the runner would look): never the job's to delete.
        {
          kind: 'test.later',
          payload: {},
          runAt: ago(-365 * DAY),
          createdAt: ago(400 * DAY),
        },
      ]),
  },
];

/** Which of `keys` are still in the case's table. */
async function present(c: Case, keys: unknown[]): Promise<unknown[]> {
  if (keys.length === 0) return [];
  const rows = (await ctx.app.db
    .select({ key: c.key })
    .from(c.table)
    .where(inArray(c.key, keys))) as Array<{ key: unknown }>;
  return rows.map((row) => row.key);
}

describe('the retention job', () => {
  it('has a test case for every kind it deletes but the audit log (tested below)', () => {
    const deleted = RETENTION_CLASSES.filter((c) => c.deletes).map((c) => c.kind);
    expect(cases.map((c) => c.kind).sort()).toEqual(
      deleted.filter((kind) => kind !== 'audit_log').sort(),
    );
  });

  describe('deletes each kind past its period and keeps what is within it', () => {
    const inserted = new Map<string, { gone: unknown[]; stay: unknown[] }>();
    let deleted: Record<string, number>;
    let liveKey: string;
    let auditIds: number[];

    beforeAll(async () => {
      // A session logged in now, through the API. First: a login clears out the login
      // counters whose windows ended, which would take the rows below before the job could.
      liveKey = await login(ctx.app, (await makeUser(ctx.app)).username);
      for (const c of cases) inserted.set(c.kind, { gone: await c.gone(), stay: await c.stay() });
      // The audit log is kept by default, however old.
      auditIds = (
        await ctx.app.db
          .insert(auditLog)
          .values({
            actorId: userId,
            at: ago(3650 * DAY),
            action: 'user.update',
            entityType: 'user',
            entityId: userId,
            changes: { email: { before: 'a@example.org', after: 'b@example.org' } },
          })
          .returning({ id: auditLog.id })
      ).map((row) => row.id);
      logEntries.length = 0;
      deleted = await ctx.app.retention.run();
    });

    it.each(cases.map((c) => [c.kind, c] as const))('%s', async (kind, c) => {
      const rows = inserted.get(kind)!;
      expect(await present(c, rows.gone)).toEqual([]);
      expect((await present(c, rows.stay)).sort()).toEqual([...rows.stay].sort());
      expect(deleted[kind]).toBe(rows.gone.length);
    });

    it('deletes nothing else, and logs one line with the counts', () => {
      const expected = Object.fromEntries(
        [...inserted].map(([kind, rows]) => [kind, rows.gone.length]),
      );
      expect(deleted).toEqual(expected);
      const lines = logEntries.filter((entry) => entry.msg.includes('retention'));
      expect(lines).toEqual([
        expect.objectContaining({
          level: 30,
          msg: 'deleted data past its retention period',
          deleted: expected,
        }),
      ]);
    });

    it('keeps the audit log by default', async () => {
      const rows = await ctx.app.db
        .select({ id: auditLog.id })
        .from(auditLog)
        .where(inArray(auditLog.id, auditIds));
      expect(rows.map((row) => row.id)).toEqual(auditIds);
      expect(deleted.audit_log).toBeUndefined();
    });

    it('never touches a live session: it still logs in, and lists itself', async () => {
      const res = await ctx.app.inject({
        method: 'GET',
        url: '/api/v1/auth/sessions/',
        headers: auth(liveKey),
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toHaveLength(1);
    });

    it('finds nothing more to delete when it runs again, and logs nothing', async () => {
      logEntries.length = 0;
      expect(await ctx.app.retention.run()).toEqual({});
      expect(logEntries.filter((entry) => entry.msg.includes('retention'))).toEqual([]);
    });
  });

  it(`deletes a backlog larger than one batch (${RETENTION_BATCH} rows) in one run`, async () => {
    const count = RETENTION_BATCH * 2 + 500;
    await ctx.app.db
      .insert(captchaUses)
      .values(
        Array.from({ length: count }, () => ({ challengeId: uniq(), expiresAt: ago(2 * DAY) })),
      );
    const kept = await insert(captchaUses, captchaUses.challengeId, [
      { challengeId: uniq(), expiresAt: ago(-MINUTE) },
    ]);
    expect(await ctx.app.retention.run()).toEqual({ captcha_uses: count });
    const [left] = await ctx.app.db
      .select({ n: sql<number>`count(*)::int` })
      .from(captchaUses)
      .where(sql`${captchaUses.expiresAt} <= ${ago(DAY)}`);
    expect(left!.n).toBe(0);
    expect(
      await present(
        cases.find((c) => c.kind === 'captcha_uses')!,
        kept,
      ),
    ).toEqual(kept);
  });
});

describe('two processes running the job at once', () => {
  let second: Database;
  beforeAll(async () => {
    // Its own connection on PostgreSQL, as another app process would have.
    second =
      testDatabaseKind() === 'postgres'
        ? await openDatabase({ kind: 'postgres', url: ctx.databaseUrl! })
        : ctx.database;
  });
  afterAll(async () => {
    if (second !== ctx.database) await second.close();
  });

  it('share the backlog between them, each row deleted once, and neither fails', async () => {
    const count = RETENTION_BATCH * 4;
    const rows = Array.from({ length: count }, () => ({
      bucket: `auth-ip:${uniq()}`,
      windowStart: ago(3 * DAY),
      count: 1,
    }));
    for (let i = 0; i < rows.length; i += 1000)
      await ctx.app.db.insert(rateLimitHits).values(rows.slice(i, i + 1000));
    logEntries.length = 0;
    const make = (database: Database): Retention =>
      createRetention({
        db: database.db,
        now: ctx.clock.now,
        log: ctx.app.log,
        settings: ctx.app.config.retention,
        session: ctx.app.config.session,
        everyMs: 0,
        classes: RETENTION_CLASSES,
      });
    const [a, b] = await Promise.all([make(ctx.database).run(), make(second).run()]);
    expect((a.rate_limit_hits ?? 0) + (b.rate_limit_hits ?? 0)).toBe(count);
    // A failed delete would be a warning (the job logs and goes on), not a rejection.
    expect(logEntries.filter((entry) => entry.level >= 40)).toEqual([]);
    const [left] = await ctx.app.db
      .select({ n: sql<number>`count(*)::int` })
      .from(rateLimitHits)
      .where(sql`${rateLimitHits.windowStart} <= ${ago(2 * DAY)}`);
    expect(left!.n).toBe(0);
  });
});

describe('AUDIT_RETENTION_DAYS', () => {
  it('prunes the audit log to its period, at the start of a process', async () => {
    const entry = (at: Date) => ({
      actorId: userId,
      at,
      action: 'committee.create',
      entityType: 'committee',
      entityId: 1,
      changes: { name: { after: 'Telescope Time Allocation' } },
    });
    const [old, recent] = await Promise.all(
      [ago(365 * DAY + MINUTE), ago(365 * DAY - MINUTE)].map(async (at) => {
        const [row] = await ctx.app.db
          .insert(auditLog)
          .values(entry(at))
          .returning({ id: auditLog.id });
        return row!.id;
      }),
    );
    const config = {
      ...ctx.app.config,
      retention: loadConfig({ AUDIT_RETENTION_DAYS: '365' }).retention,
    };
    const app = await buildApp(config, {
      database: ctx.database,
      now: ctx.clock.now,
      logger: false,
      retentionEveryMs: 0,
    });
    try {
      // Waits for the run the start began.
      await app.retention.stop();
      const left = await ctx.app.db
        .select({ id: auditLog.id })
        .from(auditLog)
        .where(inArray(auditLog.id, [old!, recent!]));
      expect(left.map((row) => row.id)).toEqual([recent]);
    } finally {
      await app.close();
    }
  });
});

describe('the retention settings', () => {
  it('keep ended sessions 30 days and the audit log unless told otherwise', () => {
    expect(loadConfig({}).retention).toEqual({ sessionDays: 30, auditDays: null });
    expect(
      loadConfig({ SESSION_RETENTION_DAYS: '0', AUDIT_RETENTION_DAYS: '2555' }).retention,
    ).toEqual({ sessionDays: 0, auditDays: 2555 });
  });

  it.each([
    ['SESSION_RETENTION_DAYS', '-1', 0],
    ['SESSION_RETENTION_DAYS', 'a month', 0],
    ['SESSION_RETENTION_DAYS', '36501', 0],
    ['AUDIT_RETENTION_DAYS', '0', 1],
    ['AUDIT_RETENTION_DAYS', '7.5', 1],
  ])('refuses %s=%s, naming it and saying what it takes', (name, value, min) => {
    let error: unknown;
    try {
      loadConfig({ [name]: value });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message).toMatch(
      new RegExp(
        `^${name} must be a whole number of days from ${min} to 36500, but is "${value}"\\. `,
      ),
    );
  });
});
