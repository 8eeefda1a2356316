/**
 * `npm run demo [-- --reset]`: Merit as `npm start` runs it, on a data folder of its own
 * (DATA_DIR, default ./demo-data, never ./data) holding the demo world (issue 30). An
 * empty database gets the world, built through the services (demo/world.ts) before the
 * server listens; a later start serves what is there. DATA_DIR/demo.json (0600) keeps the
 * password and the day it was built, so each start prints the accounts again.
 *
 * DEMO_PASSWORD sets the accounts' password (random otherwise; given on a later start, it
 * replaces theirs). `--reset` empties the demo's DATA_DIR first, and refuses a folder that
 * is not a demo's. PORT, HOST, PUBLIC_URL and DATABASE_URL mean what they mean to `npm start`.
 */
import { existsSync } from 'node:fs';
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { MIN_PASSWORD_LENGTH } from '@merit/domain';
import { count, inArray } from 'drizzle-orm';
import type { App } from '../app.js';
import { users } from '../db/schema.js';
import { DEMO_ACCOUNTS, DEMO_ROLE_LABELS } from '../demo/accounts.js';
import { DEMO_CALLS } from '../demo/content.js';
import { buildDemoWorld, demoAccountIds } from '../demo/world.js';
import { dataDirInUse } from '../platform/io/online-backup.js';
import { hashPassword } from '../platform/security/passwords.js';
import { newPassword } from '../platform/security/secrets.js';
import { fail, printBoxed, runMerit } from '../start.js';

/** What a demo's DATA_DIR keeps besides Merit's own files; its presence marks a demo folder. */
const DEMO_FILE = 'demo.json';

interface DemoFile {
  password: string;
  /** When the world was written; absent while it is being written (a start that failed). */
  builtAt?: string;
}

let reset = false;
try {
  reset =
    parseArgs({ options: { reset: { type: 'boolean' } }, strict: true }).values.reset ?? false;
} catch (error) {
  console.error(`${(error as Error).message}\nUsage: npm run demo [-- --reset]`);
  process.exit(2);
}

const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: process.env.DATA_DIR || './demo-data' };
const dataDir = path.resolve(env.DATA_DIR!);
const demoFile = path.join(dataDir, DEMO_FILE);
const given = process.env.DEMO_PASSWORD || undefined;
if (given !== undefined && given.length < MIN_PASSWORD_LENGTH)
  fail(`DEMO_PASSWORD must be at least ${MIN_PASSWORD_LENGTH} characters long.`);

/** Anything in the folder but what an empty start leaves? */
const holdsData = async () =>
  existsSync(dataDir) && (await readdir(dataDir)).some((name) => name !== DEMO_FILE);

// Only ever a demo's folder is emptied, or served as a demo: a real installation's data
// (./data, or any DATA_DIR without demo.json) is never touched.
if ((await holdsData()) && !existsSync(demoFile))
  fail(
    `DATA_DIR ${dataDir} holds data that is not a demo's (it has no ${DEMO_FILE}). The demo uses a folder of its own: leave DATA_DIR unset for ./demo-data, or name an empty folder.`,
  );
if (reset) {
  if (env.DATABASE_URL)
    fail(
      '--reset empties the embedded database in DATA_DIR; with DATABASE_URL, drop and create that database yourself, then run the demo.',
    );
  if (await dataDirInUse(dataDir))
    fail(`Another Merit process is using DATA_DIR ${dataDir}. Stop it first, then reset.`);
  await rm(dataDir, { recursive: true, force: true });
  console.warn(`Emptied ${dataDir}: the demo starts afresh.`);
}

// The demo's clock: moved through the past while the world is written, the real one after.
let pinned: Date | null = null;
const now = () => (pinned ? new Date(pinned) : new Date());

let password = '';
let builtAt = '';

/** Builds the world on an empty database; on a later start, keeps it (and sets DEMO_PASSWORD). */
async function prepare(app: App): Promise<void> {
  const [{ value: accounts } = { value: 0 }] = await app.db.select({ value: count() }).from(users);
  if (accounts === 0) {
    password = given ?? newPassword();
    await writeDemoFile({ password });
    app.log.info('writing the demo world');
    const startedAt = new Date();
    await buildDemoWorld(app, { now: startedAt, password, clock: { set: (at) => (pinned = at) } });
    pinned = null;
    builtAt = startedAt.toISOString();
    await writeDemoFile({ password, builtAt });
    return;
  }
  const kept = existsSync(demoFile)
    ? (JSON.parse(await readFile(demoFile, 'utf8')) as DemoFile)
    : undefined;
  if (!kept?.builtAt)
    fail(
      'This demo database was never finished (or is not a demo). Start it afresh with: npm run demo -- --reset',
    );
  password = kept.password;
  builtAt = kept.builtAt;
  if (given !== undefined && given !== kept.password) {
    const hash = await hashPassword(given, app.keys.passwordPepper);
    await app.db
      .update(users)
      .set({ passwordHash: hash, updatedAt: new Date() })
      .where(inArray(users.id, await demoAccountIds(app)));
    password = given;
    await writeDemoFile({ ...kept, password });
  }
}

async function writeDemoFile(contents: DemoFile): Promise<void> {
  await writeFile(demoFile, `${JSON.stringify(contents, null, 2)}\n`, { mode: 0o600 });
}

function announce(_app: App, config: { publicUrl: string }): void {
  const width = Math.max(...DEMO_ACCOUNTS.map((a) => a.username.length));
  printBoxed([
    `The Merit demo is running at ${config.publicUrl}`,
    `Its data: ${dataDir}, written on ${builtAt.slice(0, 10)}`,
    'Its dates count from that day: npm run demo -- --reset starts afresh today.',
    '',
    'Log in as any of these, each with the same password:',
    ...DEMO_ACCOUNTS.map(
      (a) =>
        `  ${a.username.padEnd(width)}  ${DEMO_ROLE_LABELS[a.role]}, ${a.firstName} ${a.lastName}`,
    ),
    '',
    `  password: ${password}`,
    '',
    `Open for proposals: ${DEMO_CALLS.open.name}`,
    `In review:          ${DEMO_CALLS.review.name}`,
    `Review overdue:     ${DEMO_CALLS.late.name}`,
    `Closed, decided:    ${DEMO_CALLS.closed.name}`,
  ]);
}

runMerit({ env, now, firstAdmin: false, prepare, announce });
