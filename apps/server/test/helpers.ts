import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { FastifyServerOptions } from 'fastify';
import pg from 'pg';
import { inject } from 'vitest';
import { buildApp, type App } from '../src/app.js';
import { loadConfig } from '../src/config/config.js';
import { openDatabase, type Database } from '../src/db/client.js';
import { committeeRoles, committees } from '../src/db/schema.js';
import { createUser, type NewUser } from '../src/modules/users/users.queries.js';

export const TEST_PASSWORD = 'correct horse battery staple';

/** Which database this run's API tests use: PGlite, or PostgreSQL from TEST_DATABASE_URL. */
export function testDatabaseKind(): 'pglite' | 'postgres' {
  return process.env.TEST_DB === 'postgres' ? 'postgres' : 'pglite';
}

/**
 * A fresh, migrated database for one test file: an in-memory PGlite, or a new database
 * on the PostgreSQL server of TEST_DATABASE_URL, dropped again by `drop`. Each is a copy
 * of the template test/global-setup.ts migrated for this run; without that setup (a
 * config that leaves it out) the database is migrated here.
 */
export async function freshDatabase(): Promise<{
  database: Database;
  /** The PostgreSQL URL of the new database; undefined for PGlite. */
  url?: string;
  drop: () => Promise<void>;
}> {
  if (testDatabaseKind() === 'pglite') {
    const templateTar = inject('pgliteTemplateTar');
    const database = await openDatabase({
      kind: 'pglite',
      loadDataDir: templateTar ? new Blob([await readFile(templateTar)]) : undefined,
    });
    if (!templateTar) await database.migrate();
    return { database, drop: () => database.close() };
  }
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl)
    throw new Error('TEST_DB=postgres needs TEST_DATABASE_URL to point at a PostgreSQL server.');
  const template = inject('postgresTemplate');
  const name = `merit_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}${template ? ` template ${template}` : ''}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ kind: 'postgres', url: url.toString() });
  if (!template) await database.migrate();
  return {
    database,
    url: url.toString(),
    drop: async () => {
      await database.close();
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

/** A clock tests can move; rules read it through `app.now()`. */
export class TestClock {
  constructor(public current = new Date('2026-06-01T00:00:00Z')) {}
  now = () => new Date(this.current);
  advance(ms: number) {
    this.current = new Date(this.current.getTime() + ms);
  }
}

export interface TestContext {
  app: App;
  database: Database;
  /** The PostgreSQL URL of the test's database; undefined on PGlite. */
  databaseUrl: string | undefined;
  clock: TestClock;
  dataDir: string;
  close: () => Promise<void>;
}

/** Sessions as long as the settings allow: 30 days, never idle before that. */
const LONG_SESSIONS = { SESSION_MAX_AGE_HOURS: '720', SESSION_IDLE_MINUTES: '43200' };

export interface TestAppOptions {
  env?: Record<string, string>;
  /**
   * 'long' (the default): sessions as long as the settings allow, since most tests move the
   * clock days ahead to open and close calls and review windows and are not about sessions.
   * 'server': the server's own defaults, for the tests of session lifetimes.
   */
  sessions?: 'long' | 'server';
  logger?: FastifyServerOptions['logger'];
}

/** Builds the app on a fresh database, for `app.inject` tests. Call `close` in `afterAll`. */
export async function createTestApp(options: TestAppOptions = {}): Promise<TestContext> {
  const { database, url: databaseUrl, drop } = await freshDatabase();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'merit-test-'));
  const clock = new TestClock();
  const config = loadConfig({
    ...(options.sessions === 'server' ? {} : LONG_SESSIONS),
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    WEB_DIR: path.join(dataDir, 'web'),
    MANUAL_PATH: path.join(dataDir, 'manual.pdf'),
    ...options.env,
  });
  const app = await buildApp(config, {
    database,
    now: clock.now,
    logger: options.logger ?? false,
    validateResponses: true,
    // The alert counts are written when a test flushes them (alerts.api.test.ts), never in
    // the middle of another test, whose "nothing changed" checks would see them.
    alertFlushMs: 0,
  });
  return {
    app,
    database,
    databaseUrl,
    clock,
    dataDir,
    close: async () => {
      await app.close();
      await drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A second app on the test's PostgreSQL database, as a second app process is: its own
 * connections and job runner, the same settings and data folder (one outbox, one file
 * storage) and the same clock. Close it before the context.
 */
export async function secondProcess(
  ctx: TestContext,
): Promise<{ app: App; close: () => Promise<void> }> {
  if (!ctx.databaseUrl) throw new Error('A second app process needs PostgreSQL.');
  const database = await openDatabase({ kind: 'postgres', url: ctx.databaseUrl });
  const app = await buildApp(ctx.app.config, {
    database,
    now: ctx.clock.now,
    logger: false,
    validateResponses: true,
    alertFlushMs: 0,
  });
  return {
    app,
    close: async () => {
      await app.close();
      await database.close();
    },
  };
}

let counter = 0;

/** A verified, active user with TEST_PASSWORD unless told otherwise. */
export async function makeUser(app: App, overrides: Partial<NewUser> = {}) {
  counter += 1;
  const username = overrides.username ?? `user${counter}_${randomBytes(3).toString('hex')}`;
  return createUser(
    app.db,
    {
      username,
      email: `${username}@example.org`,
      firstName: 'Test',
      lastName: `User${counter}`,
      institution: 'Example University',
      gender: 'OTHER',
      emailVerified: true,
      password: TEST_PASSWORD,
      ...overrides,
    },
    app.keys.passwordPepper,
  );
}

export async function login(app: App, username: string, password = TEST_PASSWORD): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/v1/auth/login/',
    payload: { username, password },
  });
  if (res.statusCode !== 200)
    throw new Error(`login as ${username} failed: ${res.statusCode} ${res.body}`);
  return (res.json() as { key: string }).key;
}

export const auth = (key: string) => ({ authorization: `Token ${key}` });

export async function makeCommittee(
  app: App,
  name = `Committee ${randomBytes(3).toString('hex')}`,
) {
  const [row] = await app.db.insert(committees).values({ name }).returning();
  return row!;
}

export async function giveRole(
  app: App,
  userId: number,
  committeeId: number,
  role: 'CHAIR' | 'MEMBER',
  now: Date,
) {
  const day = 24 * 60 * 60 * 1000;
  const [row] = await app.db
    .insert(committeeRoles)
    .values({
      userId,
      committeeId,
      role,
      commencement: new Date(now.getTime() - 30 * day),
      termination: new Date(now.getTime() + 365 * day),
    })
    .returning();
  return row!;
}

/** The kinds of caller the authorization table distinguishes. */
export const ACTOR_KINDS = ['anonymous', 'user', 'member', 'chair', 'admin'] as const;
export type ActorKind = (typeof ACTOR_KINDS)[number];

/** One logged-in user of each kind, sharing one committee; `anonymous` has no headers. */
export async function makeActors(ctx: TestContext) {
  const { app, clock } = ctx;
  const committee = await makeCommittee(app);
  const plain = await makeUser(app);
  const member = await makeUser(app);
  const chair = await makeUser(app);
  const admin = await makeUser(app, { isAdmin: true });
  await giveRole(app, member.id, committee.id, 'MEMBER', clock.now());
  await giveRole(app, chair.id, committee.id, 'CHAIR', clock.now());
  const headers: Record<ActorKind, Record<string, string>> = {
    anonymous: {},
    user: auth(await login(app, plain.username)),
    member: auth(await login(app, member.username)),
    chair: auth(await login(app, chair.username)),
    admin: auth(await login(app, admin.username)),
  };
  return { committee, users: { plain, member, chair, admin }, headers };
}

/** Solves a captcha as the widget does in a browser, and returns the payload the form sends. */
export async function solveCaptcha(app: App): Promise<string> {
  const { solveChallenge } = await import('altcha-lib');
  const { deriveKey } = await import('altcha-lib/algorithms/sha');
  const res = await app.inject({ method: 'GET', url: '/api/v1/auth/captcha/' });
  const challenge = res.json();
  const solution = await solveChallenge({ challenge, deriveKey });
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
}
