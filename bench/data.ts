/**
 * `npm run bench:data`: generates one large, realistic call for the benchmarks (issue 15)
 * and writes the manifest they read.
 *
 *   npm run bench:data                                   # 10,000 proposals, 40,000 reviews, 3 facilities
 *   npm run bench:data -- --small                        # 1,000 and 4,000
 *   npm run bench:data -- --proposals 30000 --reviews 120000 --members 1000 --facilities 5
 *   npm run bench:data -- --proposals 500 --reviews 2000 --facilities 2 --editors 200
 *   DATABASE_URL=postgres://... npm run bench:data -- --reset
 *
 * On PostgreSQL when DATABASE_URL is set, else on PGlite in DATA_DIR (default
 * bench/.data/pglite beside the default manifest, `<manifest>-pglite` beside another;
 * made afresh each time). A database that already holds calls is
 * refused unless `--reset`, which empties it first.
 *
 * The set-up an admin does by hand (committee, roles, forms, calls, k, reminders) goes
 * through the product's services (bench/lib/setup.ts); the volume (users, proposals,
 * answers, conflicts, bids, assignments, reviews) through bulk SQL (bench/lib/bulk.ts),
 * which apps/server/test/bench-data.api.test.ts proves equivalent to the services. Then
 * the closed copy of the call with its outcomes and awards (bench/lib/decisions-call.ts),
 * which figure (i) would otherwise make on its first run.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { buildApp, loadConfig, type App } from '../apps/server/src/app.js';
import { authTokens } from '../apps/server/src/db/schema.js';
import { hashPassword } from '../apps/server/src/platform/security/passwords.js';
import { digestKey, newTokenKey } from '../apps/server/src/platform/security/secrets.js';
import { insertUsers, insertVolume, rawQuery } from './lib/bulk.js';
import type { Query } from './lib/database.js';
import { ensureDecisionsCall } from './lib/decisions-call.js';
import {
  DEFAULT_DATA_DIR,
  DEFAULT_MANIFEST,
  type Account,
  type Editor,
  type Manifest,
} from './lib/manifest.js';
import { makePlan, OPEN_TYPES, type Plan } from './lib/plan.js';
import { setUpCalls } from './lib/setup.js';

/** Every generated user's password. */
export const BENCH_PASSWORD = 'Bench-Passw0rd-2026!';

export interface GenerateOptions {
  proposals: number;
  reviews: number;
  /** Committee members who review; absent: one per 200 reviews (at least 8). */
  members?: number;
  facilities: number;
  editors: number;
  /** PostgreSQL; when absent, PGlite in `dataDir`. */
  databaseUrl?: string;
  dataDir: string;
  /** The data directory is the generator's own (not DATA_DIR's): made afresh each run. */
  ownDataDir: boolean;
  manifestPath: string;
  reset: boolean;
  log?: (line: string) => void;
}

export interface Size {
  proposals: number;
  reviews: number;
  members: number;
  facilities: number;
  editors: number;
}

/**
 * The sizes `npm run bench -- --size N` asks for, by proposal count: 1,000 (`--small`),
 * 10,000 (the default) and the conference scale of issue 31.
 */
export const SIZE_PRESETS = {
  1000: { proposals: 1_000, reviews: 4_000, members: 20, facilities: 3, editors: 200 },
  10000: { proposals: 10_000, reviews: 40_000, members: 200, facilities: 3, editors: 200 },
  30000: { proposals: 30_000, reviews: 120_000, members: 1_000, facilities: 5, editors: 200 },
} as const satisfies Record<number, Size>;

export const FULL_SIZE: Size = SIZE_PRESETS[10000];
export const SMALL_SIZE: Size = SIZE_PRESETS[1000];

/** The members a plan of `reviews` has when `--members` is not given. */
export const defaultMembers = (reviews: number) => Math.max(8, Math.round(reviews / 200));

/** Empties a PostgreSQL database that holds calls, with `--reset`; refuses without it. */
async function prepareDatabase(options: GenerateOptions): Promise<void> {
  if (!options.databaseUrl) {
    if (options.reset || options.ownDataDir)
      await rm(options.dataDir, { recursive: true, force: true });
    return;
  }
  const client = new pg.Client({ connectionString: options.databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ exists: boolean }>(
      `select to_regclass('public.calls') is not null as exists`,
    );
    const hasCalls =
      rows[0]?.exists && (await client.query('select 1 from calls limit 1')).rowCount! > 0;
    if (hasCalls && !options.reset)
      throw new Error(
        'The database at DATABASE_URL already holds calls. Give --reset to empty it first ' +
          '(every table of the public schema goes), or point DATABASE_URL at a new database.',
      );
    if (options.reset) {
      await client.query('drop schema if exists drizzle cascade');
      await client.query('drop schema public cascade');
      await client.query('create schema public');
    }
  } finally {
    await client.end();
  }
}

/** Issues API tokens as a login does (auth/tokens.queries.ts): only the key's digest is stored. */
async function issueTokens(app: App, userIds: number[], now: Date): Promise<string[]> {
  const keys = userIds.map(() => newTokenKey());
  if (userIds.length > 0)
    await app.db.insert(authTokens).values(
      userIds.map((userId, i) => ({
        userId,
        keyHash: digestKey(keys[i]!),
        createdAt: now,
        lastUsedAt: now,
      })),
    );
  return keys;
}

/** The submitted proposal with the most reviews: the one (b) reads. */
function busiestProposal(plan: Plan): number {
  let best = 0;
  plan.proposals.forEach((p, i) => {
    if (p.call === 'main' && p.reviews.length > plan.proposals[best]!.reviews.length) best = i;
  });
  return best;
}

/** One connection of the app's database, for statements that span a transaction. */
async function withOneConnection<T>(
  app: App,
  databaseUrl: string | undefined,
  use: (query: Query) => Promise<T>,
): Promise<T> {
  // PGlite is one connection already; a pool would hand each statement to another.
  if (!databaseUrl) return use(rawQuery(app.db));
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return await use((text, params) => client.query(text, params));
  } finally {
    await client.end();
  }
}

/** `load average 1.2 1.4 1.5`: what else the machine was doing while a phase ran. */
const loadAverage = () =>
  `load ${loadavg()
    .map((n) => n.toFixed(1))
    .join(' ')}`;

export async function generate(options: GenerateOptions): Promise<Manifest> {
  const log = options.log ?? ((line: string) => console.log(line));
  const started = performance.now();
  let phaseStarted = started;
  // Each phase's own time, the total so far and the load average, so a slow phase shows
  // whether it was slow or the machine was busy.
  const lap = (what: string) => {
    const at = performance.now();
    log(
      `  ${what}: ${((at - phaseStarted) / 1000).toFixed(1)} s ` +
        `(total ${((at - started) / 1000).toFixed(1)} s, ${loadAverage()})`,
    );
    phaseStarted = at;
  };
  await prepareDatabase(options);
  const scratch = await mkdtemp(join(tmpdir(), 'merit-bench-gen-'));
  // The data's own server secret, kept in the manifest for the servers the benchmarks start.
  const secretKey = randomBytes(32).toString('hex');
  // The services run at the times the plan gives (the admin's set-up weeks ago); the rest now.
  let clock: Date | undefined;
  const app = await buildApp(
    loadConfig({
      LOG_LEVEL: 'warn',
      SECRET_KEY: secretKey,
      DATA_DIR: options.dataDir,
      ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}),
      WEB_DIR: join(scratch, 'web'),
      MANUAL_PATH: join(scratch, 'manual.pdf'),
    }),
    { logger: false, now: () => (clock ? new Date(clock) : new Date()) },
  );
  try {
    lap('database open and migrated');
    const now = new Date();
    const members = options.members ?? defaultMembers(options.reviews);
    const plan = makePlan({ ...options, members, now });
    lap(`plan (${plan.users.length} people, ${plan.proposals.length} proposals)`);
    const userIds = await insertUsers(
      app.db,
      plan,
      await hashPassword(BENCH_PASSWORD, app.keys.passwordPepper),
    );
    lap(`${plan.users.length} users (bulk)`);
    const stamp = now.toISOString().replace(/[-:.TZ]/g, '');
    const setUp = await setUpCalls(app, plan, userIds, stamp, (at) => (clock = at));
    clock = undefined;
    lap('committee, roles, forms, calls, k and reminders (services)');
    const written = await insertVolume(app.db, plan, setUp, userIds, lap);
    const { proposalIds } = written;
    const reviews = plan.proposals.reduce((n, p) => n + p.reviews.length, 0);
    const chairIndex = plan.chairs[0]!;
    const memberIndex = plan.members[0]!;
    const accounts = [chairIndex, memberIndex, ...plan.editors];
    const keys = await issueTokens(
      app,
      accounts.map((i) => userIds[i]!),
      now,
    );
    const account = (index: number, key: string): Account => ({
      userId: userIds[index]!,
      username: plan.users[index]!.username,
      password: BENCH_PASSWORD,
      token: key,
    });
    const editorProposals = new Map(
      plan.proposals.flatMap((p, i) => (p.call === 'open' ? [[p.author, proposalIds[i]!]] : [])),
    );
    const editors: Editor[] = plan.editors.map((index, i) => ({
      ...account(index, keys[i + 2]!),
      proposalId: editorProposals.get(index)!,
      formId: setUp.formIds[OPEN_TYPES[0]!.forms[0]!],
      callId: setUp.openCallId,
      proposalTypeId: setUp.openTypeIds[0]!,
    }));
    const manifest: Manifest = {
      database: options.databaseUrl
        ? { url: options.databaseUrl }
        : { dataDir: resolve(options.dataDir) },
      generatedAt: now.toISOString(),
      size: {
        proposals: options.proposals,
        reviews,
        members,
        facilities: options.facilities,
        editors: options.editors,
      },
      contents: {
        conflicts: written.conflicts,
        bids: written.bids,
        assignments: plan.proposals.reduce((n, p) => n + p.reviewers.length, 0),
      },
      seconds: 0,
      callId: setUp.mainCallId,
      proposalTypeIds: setUp.mainTypeIds,
      openCallId: setUp.openCallId,
      facilities: plan.facilities,
      chair: account(chairIndex, keys[0]!),
      member: account(memberIndex, keys[1]!),
      proposalIds: proposalIds.filter((_, i) => plan.proposals[i]!.call === 'main'),
      proposalWithReviewsId: proposalIds[busiestProposal(plan)]!,
      editors,
      secretKey,
    };
    // The closed copy figure (i) decides on, made now rather than in the figure's first run.
    const decisions = await withOneConnection(app, options.databaseUrl, (query) =>
      ensureDecisionsCall(query, manifest, now),
    );
    manifest.contents!.decisionsCallId = decisions.callId;
    lap(
      `closed copy: ${decisions.proposals} proposals, ${decisions.decided} outcomes, ` +
        `${decisions.capacities} capacities`,
    );
    const seconds = (performance.now() - started) / 1000;
    manifest.seconds = Math.round(seconds * 10) / 10;
    await mkdir(dirname(options.manifestPath), { recursive: true });
    await writeFile(options.manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
    log(
      `Generated ${proposalIds.length} proposals, ${reviews} reviews, ${members} members, ` +
        `${written.conflicts} conflicts and ${written.bids} bids on ` +
        `${options.databaseUrl ? 'PostgreSQL' : 'PGlite'} in ${seconds.toFixed(1)} s; ` +
        `manifest: ${options.manifestPath}`,
    );
    return manifest;
  } finally {
    await app.close();
    await rm(scratch, { recursive: true, force: true });
  }
}

/** The command line's options, for `npm run bench:data` and for `bench/run.ts`. */
export function generateOptionsFrom(argv: string[]): GenerateOptions {
  const { values } = parseArgs({
    args: argv,
    strict: false,
    options: {
      proposals: { type: 'string' },
      reviews: { type: 'string' },
      members: { type: 'string' },
      facilities: { type: 'string' },
      editors: { type: 'string' },
      small: { type: 'boolean', default: false },
      manifest: { type: 'string' },
      reset: { type: 'boolean', default: false },
    },
  });
  const size = values.small ? SMALL_SIZE : FULL_SIZE;
  const count = (name: keyof Size, min: number) => {
    const raw = values[name];
    if (raw === undefined) return size[name];
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min)
      throw new Error(`--${name} must be a whole number from ${min}, not "${String(raw)}".`);
    return n;
  };
  // npm runs workspace scripts in bench/; paths on the command line mean where it was typed.
  const cwd = process.env.INIT_CWD ?? process.cwd();
  const manifestPath =
    typeof values.manifest === 'string' ? resolve(cwd, values.manifest) : DEFAULT_MANIFEST;
  // Each manifest its own embedded database, so generating one never breaks another's tokens.
  const ownDataDir =
    manifestPath === DEFAULT_MANIFEST
      ? DEFAULT_DATA_DIR
      : `${manifestPath.replace(/\.json$/, '')}-pglite`;
  const reviews = count('reviews', 0);
  return {
    proposals: count('proposals', 1),
    reviews,
    // A preset's members go with its reviews; other reviews get one member per 200.
    members:
      values.members !== undefined || values.reviews === undefined
        ? count('members', 1)
        : defaultMembers(reviews),
    facilities: count('facilities', 1),
    editors: count('editors', 0),
    databaseUrl: process.env.DATABASE_URL || undefined,
    dataDir: process.env.DATA_DIR ? resolve(cwd, process.env.DATA_DIR) : ownDataDir,
    ownDataDir: !process.env.DATA_DIR,
    manifestPath,
    reset: Boolean(values.reset),
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await generate(generateOptionsFrom(process.argv.slice(2)));
}
