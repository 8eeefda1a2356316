import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { onTestFinished } from 'vitest';
import { buildApp, type App } from '../src/app.js';
import { loadConfig } from '../src/config/config.js';
import { configuredDatabase, openDatabase } from '../src/db/client.js';
import { issueToken } from '../src/modules/auth/tokens.queries.js';
import { makeProposal } from './call-fixtures.js';
import { freshDatabase, makeCommittee, makeUser, testDatabaseKind } from './helpers.js';
import { makeProposalCall, makeProposalForms } from './proposal-fixtures.js';

/**
 * The compiled server as `npm start` runs it, for the tests that kill it, fill its disk,
 * or back it up while it runs (crash.process.test.ts, backup.process.test.ts): its data
 * made in this process first, then the server started on that same DATA_DIR (and
 * PostgreSQL database, on server:postgres).
 */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** Builds dist/ when it is missing or older than its sources, as `npm start` does. */
export function ensureServerBuilt(): void {
  const build = spawnSync(process.execPath, ['scripts/ensure-built.mjs', 'server'], {
    cwd: repoRoot,
    encoding: 'utf8',
  });
  if (build.status !== 0)
    throw new Error(`building the server failed:\n${build.stdout}${build.stderr}`);
}

export interface Place {
  dataDir: string;
  databaseUrl: string | undefined;
}

/** A new DATA_DIR (under `parent` when given), and on PostgreSQL a new database; removed when the test ends. */
export async function freshPlace(parent = os.tmpdir()): Promise<Place> {
  const dataDir = await mkdtemp(path.join(parent, 'merit-crash-'));
  const fresh = testDatabaseKind() === 'postgres' ? await freshDatabase() : undefined;
  await fresh?.database.close();
  onTestFinished(async () => {
    await fresh?.drop();
    await rm(dataDir, { recursive: true, force: true });
  });
  return { dataDir, databaseUrl: fresh?.url };
}

export function placeEnv(place: Place): Record<string, string> {
  return {
    DATA_DIR: place.dataDir,
    ...(place.databaseUrl ? { DATABASE_URL: place.databaseUrl } : {}),
  };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

export interface Running {
  child: ChildProcess;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Runs one of the compiled entries (dist/main.js, dist/backup.js...) on `place`. */
export function runEntry(
  entry: string,
  args: string[],
  place: Place,
  env: Record<string, string> = {},
): Running {
  const child = spawn(
    process.execPath,
    ['--enable-source-maps', `apps/server/dist/${entry}`, ...args],
    {
      cwd: repoRoot,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? os.tmpdir(),
        LOG_LEVEL: 'warn',
        ...placeEnv(place),
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  // A failed test must not leave a server behind.
  onTestFinished(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  return { child, output: () => output, exited };
}

export interface StartedServer extends Running {
  url: string;
  /** SIGKILL, and wait until the process is gone. */
  kill: () => Promise<void>;
  /** SIGTERM, and wait for a clean exit. */
  stop: () => Promise<void>;
}

/** Starts the compiled server on a free port and waits for health 200. */
export async function startServer(
  place: Place,
  env: Record<string, string> = {},
): Promise<StartedServer> {
  const port = await freePort();
  const running = runEntry('main.js', [], place, {
    PORT: String(port),
    HOST: '127.0.0.1',
    ...env,
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (running.child.exitCode !== null) break;
    const status = await fetch(`${url}/api/v1/health`).then(
      (res) => res.status,
      () => 0,
    );
    if (status === 200) {
      return {
        ...running,
        url,
        kill: async () => {
          running.child.kill('SIGKILL');
          await running.exited;
        },
        stop: async () => {
          running.child.kill('SIGTERM');
          const { code } = await running.exited;
          if (code !== 0) throw new Error(`the server exited with ${code}:\n${running.output()}`);
        },
      };
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  running.child.kill('SIGKILL');
  throw new Error(`the server did not become ready:\n${running.output()}`);
}

export interface Author {
  userId: number;
  username: string;
  key: string;
  proposalId: number;
}

export interface Seeded {
  callId: number;
  typeId: number;
  /** The project form (one entry) and the team form (multi-entry) of the proposal type. */
  projectForm: number;
  teamForm: number;
  admin: { id: number; username: string; key: string };
  authors: Author[];
}

/**
 * An open call whose proposal type has a one-entry and a multi-entry form, and `count`
 * authors each with a draft and an API token, written straight into `place`'s database
 * (which no server has open yet).
 */
export async function seedAuthors(
  place: Place,
  count: number,
  /** More data, made with the app before it closes. */
  extra?: (app: App, seeded: Seeded) => Promise<void>,
): Promise<Seeded> {
  const config = loadConfig({ LOG_LEVEL: 'silent', ...placeEnv(place) });
  const database = await openDatabase(configuredDatabase(config));
  await database.migrate();
  const app = await buildApp(config, { database, logger: false });
  try {
    const forms = await makeProposalForms(app);
    const committee = await makeCommittee(app);
    const adminUser = await makeUser(app, { isAdmin: true });
    const admin = { id: adminUser.id, isAdmin: true };
    const { callId, typeId } = await makeProposalCall(app, {
      committeeId: committee.id,
      forms,
      admin,
    });
    const now = new Date();
    const authors: Author[] = [];
    for (let i = 0; i < count; i += 1) {
      const user = await makeUser(app);
      const proposal = await makeProposal(app, {
        callId,
        proposalTypeId: typeId,
        authorId: user.id,
      });
      authors.push({
        userId: user.id,
        username: user.username,
        key: await issueToken(app.db, user.id, now),
        proposalId: proposal.id,
      });
    }
    const seeded: Seeded = {
      callId,
      typeId,
      projectForm: forms.project,
      teamForm: forms.team,
      admin: {
        id: adminUser.id,
        username: adminUser.username,
        key: await issueToken(app.db, adminUser.id, now),
      },
      authors,
    };
    await extra?.(app, seeded);
    return seeded;
  } finally {
    await app.close();
    await database.close();
  }
}

/** A JSON request with an author's token; rejects when the connection fails. */
/**
 * Runs one request, and names it when it fails without an answer (a connection cut, a body
 * that does not decode): fetch's own error says only "terminated" or "fetch failed".
 */
export async function named<T>(request: string, send: () => Promise<T>): Promise<T> {
  try {
    return await send();
  } catch (error) {
    throw new Error(`${request}: ${String(error)}`, { cause: error });
  }
}

export async function api(
  url: string,
  key: string,
  method: string,
  route: string,
  body?: unknown,
): Promise<{ status: number; json: unknown }> {
  const { res, text } = await named(`${method} ${route}`, async () => {
    const res = await fetch(`${url}/api/v1${route}`, {
      method,
      headers: {
        authorization: `Token ${key}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { res, text: await res.text() };
  });
  let json: unknown = text;
  try {
    json = JSON.parse(text);
  } catch {
    // not JSON: kept as text, which the envelope checks then refuse
  }
  return { status: res.status, json };
}

/** A small deterministic random number generator (mulberry32), so a failing run can be repeated. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
