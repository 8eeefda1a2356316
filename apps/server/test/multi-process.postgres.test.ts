import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ProposalDetail } from '@merit/contract';
import type { Challenge } from 'altcha-lib/types';
import { proposalMessages, validationMessages } from '@merit/domain';
import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginThrottle, proposalLocks, proposals, rateLimitHits, users } from '../src/db/schema.js';
import { LOGIN_LIMITS, loginThrottleMessages } from '../src/platform/security/login-throttle.js';
import { AUTH_WINDOW_MS } from '../src/platform/security/rate-limit.js';
import { issueToken } from '../src/modules/auth/tokens.queries.js';
import { caller } from './admin-fixtures.js';
import {
  auth,
  createTestApp,
  giveRole,
  makeCommittee,
  makeUser,
  TEST_PASSWORD,
  type TestContext,
} from './helpers.js';
import { makeProposalCall, makeProposalForms } from './proposal-fixtures.js';

/**
 * Several app processes on one PostgreSQL database, as ARCHITECTURE.md's scale-out
 * promises: two compiled servers (`node apps/server/dist/main.js`, as `npm start` runs
 * it) share everything that must agree through the database, so the editing lock has
 * one holder, the rate limits, the login limits and used captchas count once, and the
 * migrations run once when both start together on an empty database.
 */

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const SERVER_ENTRY = 'apps/server/dist/main.js';
/** The proposals sent to each server alternate, so both get half of every burst. */
const PROCESSES = 2;
const LOCK_REQUESTS = 100;
const LOCK_ROUNDS = 3;
/** Low enough to reach in a test, high enough that no other test here meets it. */
const AUTH_LIMIT = 20;
/**
 * One server secret for every process, as README.md tells a deployment of several to set:
 * each hashes passwords with its pepper, so a password set through one works on all.
 */
const SECRET_KEY = randomBytes(32).toString('hex');

beforeAll(() => {
  // As `npm start` does: build dist/ when it is missing or older than its sources, so
  // the processes run the code as it is now.
  const build = spawnSync(process.execPath, ['scripts/ensure-built.mjs', 'server'], {
    cwd: repoRoot,
    encoding: 'utf8',
  });
  if (build.status !== 0) {
    throw new Error(`building the server failed:\n${build.stdout}${build.stderr}`);
  }
});

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

interface Server {
  url: string;
  dataDir: string;
  output: () => string;
  stop: () => Promise<void>;
}

/** Starts one compiled server on `databaseUrl` (its own DATA_DIR) and waits until it is ready. */
async function startServer(databaseUrl: string, env: Record<string, string> = {}): Promise<Server> {
  const port = await freePort();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'merit-multi-'));
  const child: ChildProcess = spawn(process.execPath, ['--enable-source-maps', SERVER_ENTRY], {
    cwd: repoRoot,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? os.tmpdir(),
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      SECRET_KEY,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      PUBLIC_URL: 'http://merit.test',
      ...env,
    },
  });
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
    await rm(dataDir, { recursive: true, force: true });
  };
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`${url}/api/v1/health`)).status === 200) {
        return { url, dataDir, output: () => output, stop };
      }
    } catch {
      // not listening yet
    }
    if (child.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  await stop();
  throw new Error(`the server did not become ready:\n${output}`);
}

/** `count` requests made by `request(i)` at once, request i to server i mod 2. */
function burst<T>(
  servers: Server[],
  count: number,
  request: (server: Server, i: number) => Promise<T>,
) {
  return Promise.all(
    Array.from({ length: count }, (_, i) => request(servers[i % servers.length]!, i)),
  );
}

const json = async (res: Response) => ({
  status: res.status,
  headers: res.headers,
  body: (await res.json()) as Record<string, unknown>,
});

describe('two app processes on one PostgreSQL database', () => {
  let ctx: TestContext;
  let servers: Server[];

  beforeAll(async () => {
    // The in-process app only sets the data up, on the same database; the servers run on
    // the wall clock, so the data is made on it too.
    ctx = await createTestApp({ env: { SECRET_KEY } });
    ctx.clock.current = new Date();
    servers = await Promise.all(
      Array.from({ length: PROCESSES }, () =>
        startServer(ctx.databaseUrl!, {
          // The tests below speak for several client addresses through X-Forwarded-For, so
          // that each scenario has limits of its own.
          TRUST_PROXY: 'loopback',
          AUTH_RATE_LIMIT_PER_IP: String(AUTH_LIMIT),
          INITIAL_ADMIN_USERNAME: 'root',
          INITIAL_ADMIN_EMAIL: 'root@example.org',
          INITIAL_ADMIN_PASSWORD: 'a long admin passphrase',
        }),
      ),
    );
  }, 120_000);

  afterAll(async () => {
    await Promise.all((servers ?? []).map((server) => server.stop()));
    await ctx?.close();
  });

  /**
   * A draft in an open call with `count` people who may edit it (its author first, then
   * collaborators), each with a key issued as a login would issue it (no password, so no
   * hashing), and a committee chair who may look but not edit.
   */
  async function sharedDraft(count: number) {
    const { app } = ctx;
    const forms = await makeProposalForms(app);
    const committee = await makeCommittee(app);
    const admin = await makeUser(app, { isAdmin: true, password: null });
    const { callId, typeId } = await makeProposalCall(app, {
      committeeId: committee.id,
      forms,
      admin: { id: admin.id, isAdmin: true },
    });
    const editors = await Promise.all(
      Array.from({ length: count }, () => makeUser(app, { password: null })),
    );
    const keys = await Promise.all(
      editors.map((editor) => issueToken(app.db, editor.id, new Date())),
    );
    const author = caller(app, auth(keys[0]!));
    const created = await author('POST', '/update_proposal_name/', {
      callId,
      isNew: true,
      name: 'Shared instrument time',
      type: typeId,
    });
    expect(created.statusCode, created.body).toBe(201);
    const proposalId = (created.json() as ProposalDetail).id;
    for (const collaborator of editors.slice(1)) {
      const added = await author('POST', '/collaborators/', {
        proposalId,
        hash: collaborator.hash,
      });
      expect(added.statusCode, added.body).toBe(201);
    }
    const chair = await makeUser(app, { password: null });
    await giveRole(app, chair.id, committee.id, 'CHAIR', new Date());
    const chairKey = await issueToken(app.db, chair.id, new Date());
    return { callId, proposalId, editors, keys, chairKey };
  }

  it(
    `gives the editing lock to exactly one of ${LOCK_REQUESTS} editors asking at once, ${LOCK_ROUNDS} times over; the others are told who holds it`,
    { timeout: 120_000 },
    async () => {
      const { app } = ctx;
      const { callId, proposalId, editors, keys, chairKey } = await sharedDraft(LOCK_REQUESTS);

      const holders: number[] = [];
      for (let round = 0; round < LOCK_ROUNDS; round += 1) {
        const answers = await burst(servers, LOCK_REQUESTS, async (server, i) =>
          json(
            await fetch(`${server.url}/api/v1/lock/${proposalId}/`, {
              headers: auth(keys[i]!),
            }),
          ),
        );
        expect(answers.map((a) => a.status)).toEqual(Array(LOCK_REQUESTS).fill(200));
        const named = new Set(answers.map((a) => a.body.holderId));
        expect(named.size, 'every answer names the same holder').toBe(1);
        const holderId = [...named][0] as number;
        const winners = editors.flatMap((editor, i) =>
          answers[i]!.body.holderId === editor.id ? [i] : [],
        );
        expect(winners, 'exactly one caller is told the lock is theirs').toHaveLength(1);
        expect(answers.filter((a) => a.body.mine).map((a) => a.body.holderId)).toEqual([holderId]);
        const [row] = await app.db
          .select({ holder: proposalLocks.holderId })
          .from(proposalLocks)
          .where(eq(proposalLocks.proposalId, proposalId));
        expect(row!.holder).toBe(holderId);
        const holderName = answers[0]!.body.holder as string;

        // Each of the others, on either server, is refused a write with the spec's message.
        const winner = winners[0]!;
        const renames = await burst(servers, LOCK_REQUESTS, async (server, i) =>
          json(
            await fetch(`${server.url}/api/v1/update_proposal_name/`, {
              method: 'POST',
              headers: { ...auth(keys[i]!), 'content-type': 'application/json' },
              body: JSON.stringify({
                callId,
                isNew: false,
                proposalId,
                name: `Renamed by editor ${i} in round ${round}`,
              }),
            }),
          ),
        );
        renames.forEach((answer, i) => {
          if (i === winner) {
            expect(answer.status, JSON.stringify(answer.body)).toBe(200);
          } else {
            expect(answer.status).toBe(409);
            expect(answer.body).toEqual({
              detail: proposalMessages.locked(holderName),
              code: 'locked',
            });
          }
        });
        const [renamed] = await app.db
          .select({ name: proposals.name })
          .from(proposals)
          .where(eq(proposals.id, proposalId));
        expect(renamed!.name).toBe(`Renamed by editor ${winner} in round ${round}`);

        const looked = await fetch(`${servers[1]!.url}/api/v1/lock/${proposalId}/`, {
          headers: auth(chairKey),
        });
        expect(await looked.json()).toEqual({
          holderId,
          holder: holderName,
          mine: false,
          reason: 'noEdit',
          message: proposalMessages.editorsOnly,
        });
        holders.push(holderId);

        // The holder lets go on the other server, for the next round's race.
        const released = await fetch(
          `${servers[(winner + 1) % PROCESSES]!.url}/api/v1/lock/${proposalId}/`,
          {
            method: 'DELETE',
            headers: auth(keys[winner]!),
          },
        );
        expect(released.status).toBe(204);
      }
      expect(holders).toHaveLength(LOCK_ROUNDS);
    },
  );

  it('redeems a download ticket once, of 10 tries at once on both servers', async () => {
    // Processes behind one address share their stored files (S3, or one files folder:
    // README.md); here every server's folder is the first one's, so whichever server
    // redeems the ticket has the bytes to send.
    const shared = path.join(servers[0]!.dataDir, 'files');
    await mkdir(shared, { recursive: true });
    for (const server of servers.slice(1)) {
      const own = path.join(server.dataDir, 'files');
      await rm(own, { recursive: true, force: true });
      await symlink(shared, own);
    }
    const { proposalId, keys } = await sharedDraft(1);
    const form = new FormData();
    form.append('proposal', String(proposalId));
    form.append('file', new Blob(['budget,amount\ntravel,1200\n']), 'budget.csv');
    const uploaded = await fetch(`${servers[0]!.url}/api/v1/proposal_file/`, {
      method: 'POST',
      headers: auth(keys[0]!),
      body: form,
    });
    expect(uploaded.status, await uploaded.clone().text()).toBe(201);
    const fileId = ((await uploaded.json()) as { id: number }).id;
    const ticket = await fetch(`${servers[1]!.url}/api/v1/download_tickets/`, {
      method: 'POST',
      headers: { ...auth(keys[0]!), 'content-type': 'application/json' },
      body: JSON.stringify({ fileId }),
    });
    const { url } = (await ticket.json()) as { url: string };
    const tries = await burst(servers, 10, async (server) => {
      const res = await fetch(`${server.url}${url}`);
      return { status: res.status, body: await res.text() };
    });
    expect(tries.filter((t) => t.status === 200).map((t) => t.body)).toEqual([
      'budget,amount\ntravel,1200\n',
    ]);
    expect(tries.filter((t) => t.status !== 200).map((t) => t.status)).toEqual(Array(9).fill(404));
  });

  it(
    `counts the address rate limit once across both: ${AUTH_LIMIT} of ${2 * AUTH_LIMIT} requests pass`,
    { timeout: 60_000 },
    async () => {
      // The limit counts in fixed windows of the wall clock; a burst that straddled the
      // edge of one would rightly be counted in two. Start well inside a window.
      const intoWindow = Date.now() % AUTH_WINDOW_MS;
      if (AUTH_WINDOW_MS - intoWindow < 15_000) {
        await new Promise((r) => setTimeout(r, AUTH_WINDOW_MS - intoWindow + 100));
      }
      const address = '203.0.113.10';
      const answers = await burst(servers, 2 * AUTH_LIMIT, async (server) =>
        fetch(`${server.url}/api/v1/auth/captcha/`, { headers: { 'x-forwarded-for': address } }),
      );
      const statuses = answers.map((a) => a.status);
      expect(statuses.filter((s) => s === 200)).toHaveLength(AUTH_LIMIT);
      expect(statuses.filter((s) => s === 429)).toHaveLength(AUTH_LIMIT);
      // Both servers refused some: each saw the other's requests in the shared count.
      for (let p = 0; p < PROCESSES; p += 1) {
        expect(statuses.filter((s, i) => i % PROCESSES === p)).toContain(429);
      }
      for (const refused of answers.filter((a) => a.status === 429)) {
        expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
        expect(((await refused.json()) as { code: string }).code).toBe('rate_limited');
      }
      const [row] = await ctx.app.db
        .select({ count: rateLimitHits.count })
        .from(rateLimitHits)
        .where(eq(rateLimitHits.bucket, `auth-ip:${address}`));
      expect(row!.count).toBe(2 * AUTH_LIMIT);
    },
  );

  it('counts login attempts for one username once across both: the captcha is asked for after the same 3', async () => {
    const attempts = 4 * LOGIN_LIMITS.attemptsWithoutCaptcha;
    const answers = await burst(servers, attempts, async (server) =>
      json(
        await fetch(`${server.url}/api/v1/auth/login/`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.20' },
          body: JSON.stringify({ username: 'root', password: 'a wrong guess' }),
        }),
      ),
    );
    const codes = answers.map((a) => a.body.code);
    // Only as many password checks as the limit allows, whichever server each went to.
    expect(codes.filter((c) => c === 'invalid_credentials')).toHaveLength(
      LOGIN_LIMITS.attemptsWithoutCaptcha,
    );
    const refused = answers.filter((a) => a.body.code === 'captcha_required');
    expect(refused).toHaveLength(attempts - LOGIN_LIMITS.attemptsWithoutCaptcha);
    for (const answer of refused) {
      expect(answer.status).toBe(400);
      expect(answer.body.detail).toBe(loginThrottleMessages.captchaRequired);
    }
    const [row] = await ctx.app.db
      .select({ count: loginThrottle.count })
      .from(loginThrottle)
      .where(eq(loginThrottle.bucket, 'user:root'));
    expect(row!.count).toBe(attempts);
  });

  it('share the server secret: a password set through one server logs in on the other', async () => {
    const user = await makeUser(ctx.app);
    const post = (server: Server, url: string, body: unknown, key?: string) =>
      fetch(`${server.url}/api/v1${url}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-forwarded-for': '203.0.113.21',
          ...(key ? { authorization: `Token ${key}` } : {}),
        },
        body: JSON.stringify(body),
      }).then(json);
    const first = await post(servers[0]!, '/auth/login/', {
      username: user.username,
      password: TEST_PASSWORD,
    });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const newPassword = 'set through the first server';
    const changed = await post(
      servers[0]!,
      '/auth/password/change/',
      { oldPassword: TEST_PASSWORD, newPassword1: newPassword, newPassword2: newPassword },
      first.body.key as string,
    );
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    const second = await post(servers[1]!, '/auth/login/', {
      username: user.username,
      password: newPassword,
    });
    expect(second.status, JSON.stringify(second.body)).toBe(200);
  });

  it('accepts a solved captcha once: of 10 registrations replaying it on both servers, one goes through', async () => {
    const { solveChallenge } = await import('altcha-lib');
    const { deriveKey } = await import('altcha-lib/algorithms/sha');
    const headers = { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.30' };
    const challenge = (await (
      await fetch(`${servers[0]!.url}/api/v1/auth/captcha/`, { headers })
    ).json()) as Challenge;
    const solution = await solveChallenge({ challenge, deriveKey });
    const captcha = Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');

    const replays = 10;
    const tag = randomBytes(3).toString('hex');
    const answers = await burst(servers, replays, async (server, i) =>
      json(
        await fetch(`${server.url}/api/v1/auth/registration/`, {
          method: 'POST',
          headers,
          body: JSON.stringify({
            username: `replay_${tag}_${i}`,
            email: `replay_${tag}_${i}@example.org`,
            first_name: 'Grace',
            last_name: 'Hopper',
            institution: 'Harvard',
            gender: 'FEMALE',
            phone_number: '+1 555 0100',
            password1: 'a long and unusual passphrase',
            password2: 'a long and unusual passphrase',
            is_student: false,
            captcha,
          }),
        }),
      ),
    );
    const accepted = answers.filter((a) => a.status === 201);
    expect(accepted).toHaveLength(1);
    const refused = answers.filter((a) => a.status !== 201);
    expect(refused).toHaveLength(replays - 1);
    for (const answer of refused) {
      expect(answer.status).toBe(400);
      expect(answer.body.fields).toEqual({ captcha: [validationMessages.captcha] });
    }
    const registered = await ctx.app.db
      .select({ id: users.id })
      .from(users)
      .where(sql`${users.username} like ${`replay_${tag}_%`}`);
    expect(registered).toHaveLength(1);
  });
});

describe('two app processes starting together on an empty database', () => {
  const adminUrl = process.env.TEST_DATABASE_URL!;
  const journal = JSON.parse(
    readFileSync(path.join(repoRoot, 'apps/server/src/db/migrations/meta/_journal.json'), 'utf8'),
  ) as { entries: unknown[] };

  async function admin<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      return await run(client);
    } finally {
      await client.end();
    }
  }

  it.each([1, 2, 3])(
    'migrates once and creates one first admin (start %i)',
    { timeout: 120_000 },
    async () => {
      const name = `merit_test_${randomBytes(6).toString('hex')}`;
      await admin((client) => client.query(`create database ${name}`));
      const url = new URL(adminUrl);
      url.pathname = `/${name}`;
      let started: Server[] = [];
      try {
        // Both spawned at the same moment, each migrating as it starts.
        const starts = await Promise.allSettled(
          Array.from({ length: PROCESSES }, () => startServer(url.toString())),
        );
        started = starts.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
        const failures = starts.flatMap((s) => (s.status === 'rejected' ? [String(s.reason)] : []));
        expect(failures, failures.join('\n')).toEqual([]);

        for (const server of started) {
          expect((await fetch(`${server.url}/api/v1/health`)).status).toBe(200);
          expect(server.output()).not.toMatch(/error|already exists/i);
        }
        // One first admin, announced by one of the two; its password works on both.
        const announced = started.filter((s) => s.output().includes('password:'));
        expect(announced).toHaveLength(1);
        const password = /password: (\S+)/.exec(announced[0]!.output())![1]!;
        for (const server of started) {
          const res = await fetch(`${server.url}/api/v1/auth/login/`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ username: 'admin', password }),
          });
          expect(res.status, await res.text()).toBe(200);
        }
        const check = new pg.Client({ connectionString: url.toString() });
        await check.connect();
        try {
          const applied = await check.query<{ n: number }>(
            'select count(*)::int as n from drizzle.__drizzle_migrations',
          );
          expect(applied.rows[0]!.n).toBe(journal.entries.length);
          const admins = await check.query<{ n: number }>(
            'select count(*)::int as n from users where is_admin',
          );
          expect(admins.rows[0]!.n).toBe(1);
        } finally {
          await check.end();
        }
      } finally {
        await Promise.all(started.map((server) => server.stop()));
        await admin((client) => client.query(`drop database if exists ${name} with (force)`));
      }
    },
  );
});
