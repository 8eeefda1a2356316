import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { UNPACKING } from '../src/db/template.js';
import { freshDatabase, testDatabaseKind } from './helpers.js';

/**
 * The server as a person runs it: the compiled server that `npm start`,
 * `npm run db:migrate` and `npm run create-admin` run (`node dist/...` from the
 * repository root), each test on its own database (PGlite in a new DATA_DIR, or a
 * new PostgreSQL database).
 */
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const entry = {
  server: 'apps/server/dist/main.js',
  migrate: 'apps/server/dist/migrate.js',
  createAdmin: 'apps/server/dist/create-admin.js',
};

beforeAll(() => {
  // As `npm start` does: build dist/ when it is missing or older than its sources, so
  // these tests run the code as it is now.
  const build = spawnSync(process.execPath, ['scripts/ensure-built.mjs', 'server'], {
    cwd: repoRoot,
    encoding: 'utf8',
  });
  if (build.status !== 0) {
    throw new Error(`building the server failed:\n${build.stdout}${build.stderr}`);
  }
});

interface Place {
  dataDir: string;
  databaseUrl: string | undefined;
}

/** A new DATA_DIR, and on PostgreSQL a new database, removed when the test ends. */
async function freshPlace(): Promise<Place> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'merit-process-'));
  // On PGlite the processes keep their database in DATA_DIR; on PostgreSQL this makes
  // the database, which the processes open themselves.
  const fresh = testDatabaseKind() === 'postgres' ? await freshDatabase() : undefined;
  await fresh?.database.close();
  onTestFinished(async () => {
    await fresh?.drop();
    await rm(dataDir, { recursive: true, force: true });
  });
  return { dataDir, databaseUrl: fresh?.url };
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

interface Running {
  child: ChildProcessWithoutNullStreams;
  output: () => string;
  exited: Promise<number | null>;
}

function run(script: string, args: string[], place: Place, env: Record<string, string>): Running {
  const child = spawn(process.execPath, ['--enable-source-maps', script, ...args], {
    cwd: repoRoot,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? os.tmpdir(),
      DATA_DIR: place.dataDir,
      LOG_LEVEL: 'warn',
      ...(place.databaseUrl ? { DATABASE_URL: place.databaseUrl } : {}),
      ...env,
    },
  });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

/** Starts the server on a free port of 127.0.0.1 and waits until it is ready. */
async function startServer(place: Place, env: Record<string, string> = {}) {
  const port = await freePort();
  const running = run(entry.server, [], place, { PORT: String(port), HOST: '127.0.0.1', ...env });
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/v1/health`);
      if (res.status === 200) return { ...running, url: `http://127.0.0.1:${port}` };
    } catch {
      // not listening yet
    }
    if (running.child.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  running.child.kill('SIGKILL');
  throw new Error(`the server did not become ready:\n${running.output()}`);
}

async function stop(running: Running): Promise<void> {
  running.child.kill('SIGTERM');
  expect(await running.exited, running.output().slice(-3000)).toBe(0);
}

const countOf = (text: string, part: string) => text.split(part).length - 1;

describe('starting with bad configuration', () => {
  it.each([
    [{ PORT: 'abc' }, 'PORT must be a whole number from 1 to 65535, but is "abc".'],
    [
      { TRUST_PROXY: 'true' },
      'TRUST_PROXY cannot be "true": that would trust any X-Forwarded-For header',
    ],
    [
      { SECRET_KEY: 'c2hvcnQ-a2V5' },
      'SECRET_KEY must be at least 32 random bytes written as hex or base64 (make one with: openssl rand -hex 32), but it holds 9 bytes.',
    ],
  ])('stops with one clear line for %o', async (env, message) => {
    const running = run(entry.server, [], await freshPlace(), env);
    expect(await running.exited).toBe(1);
    const lines = running.output().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`Merit cannot start: ${message}`);
    // A secret, even a wrong one, is never repeated.
    if ('SECRET_KEY' in env) expect(running.output()).not.toContain(env.SECRET_KEY);
  });

  // Two processes in a row, each opening the database: generous time on a busy machine.
  it(
    'stops with one clear line, never the key, when SECRET_KEY is not the one the database was used with; so does create-admin',
    { timeout: 90_000 },
    async () => {
      const place = await freshPlace();
      const usedWith = randomBytes(32).toString('hex');
      const other = randomBytes(32).toString('hex');
      const admin = (key: string) =>
        run(
          entry.createAdmin,
          ['--username', 'root', '--email', 'root@example.org', '--password', 'a long password'],
          place,
          { SECRET_KEY: key },
        );
      // The first use of the database with a key stores its check value.
      const created = admin(usedWith);
      expect(await created.exited, created.output()).toBe(0);

      const message =
        "SECRET_KEY is not the key this database was used with, so no password or two-step verification code stored in it could be checked. Set SECRET_KEY to the key this database was used with (if it ran without SECRET_KEY, the key in the secret.key of its DATA_DIR or of the backup of DATA_DIR); Merit cannot change a database's key.";
      const running = run(entry.server, [], place, {
        SECRET_KEY: other,
        PORT: String(await freePort()),
      });
      expect(await running.exited, running.output()).toBe(1);
      expect(running.output().trim().split('\n')).toEqual([`Merit cannot start: ${message}`]);
      const reset = admin(other);
      expect(await reset.exited, reset.output()).toBe(1);
      expect(reset.output().trim()).toBe(`Error: ${message}`);
      for (const output of [running.output(), reset.output()]) {
        for (const key of [other, usedWith]) {
          expect(output).not.toContain(key);
          expect(output).not.toContain(Buffer.from(key, 'hex').toString('base64'));
        }
      }
    },
  );

  it('stops with a clear message when DATABASE_URL cannot be reached', async () => {
    const place = await freshPlace();
    const running = run(entry.server, [], place, {
      PORT: String(await freePort()),
      DATABASE_URL: `postgres://merit:secret@127.0.0.1:${await freePort()}/merit`,
    });
    expect(await running.exited).toBe(1);
    const out = running.output();
    expect(out).toMatch(
      /^Merit cannot start: Cannot connect to the database at DATABASE_URL \(postgres:\/\/merit:\*\*\*@127\.0\.0\.1:\d+\/merit\)/,
    );
    expect(out).not.toContain('secret');
  });
});

describe('a running server', () => {
  it(
    'prints the first admin password and the PUBLIC_URL warning once, accepts the password, and finishes requests in flight on SIGTERM',
    { timeout: 90_000 },
    async () => {
      const server = await startServer(await freshPlace(), { LOG_LEVEL: 'info' });
      const password = /password: (\S+)/.exec(server.output())?.[1];
      expect(password).toMatch(/^[A-Za-z0-9]{20}$/);
      expect(countOf(server.output(), 'PUBLIC_URL is not set.')).toBe(1);
      expect(server.output()).toContain(
        `Links in the mail Merit sends point at ${server.url.replace('127.0.0.1', 'localhost')},`,
      );

      const login = (username: string, password: string) =>
        fetch(`${server.url}/api/v1/auth/login/`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ username, password }),
        });
      expect((await login('admin', password!)).status).toBe(200);

      // Requests in flight when the signal comes, whatever the machine's speed: each is
      // sent but for the last bytes of its body, so none can be answered before the signal
      // (a race of 64 quick logins against the signal was lost on a loaded machine). The
      // signal goes once the server has logged receiving every one; then the bodies are
      // finished, and each must be answered in full (a wrong login), none cut off.
      const held = 16;
      const received = () => countOf(server.output(), '"url":"/api/v1/auth/login/"');
      const before = received();
      let answered = 0;
      const finishers: (() => void)[] = [];
      const inFlight = Array.from({ length: held }, (_, i) => {
        const body = JSON.stringify({ username: `nobody-${i}`, password: 'wrong password' });
        return new Promise<number>((resolve, reject) => {
          const request = httpRequest(
            `${server.url}/api/v1/auth/login/`,
            {
              method: 'POST',
              headers: {
                'content-type': 'application/json',
                'content-length': Buffer.byteLength(body),
              },
            },
            (response) => {
              response.resume();
              response.on('end', () => {
                answered += 1;
                resolve(response.statusCode!);
              });
            },
          );
          request.on('error', reject);
          request.write(body.slice(0, -2));
          finishers.push(() => request.end(body.slice(-2)));
        });
      });
      while (received() < before + held) await new Promise((r) => setTimeout(r, 5));
      server.child.kill('SIGTERM');
      expect(answered, 'requests already answered when the signal was sent').toBe(0);
      // The bodies arrive once the server is shutting down, on the connections it has.
      while (!server.output().includes('shutting down: finishing requests in flight'))
        await new Promise((r) => setTimeout(r, 5));
      for (const finish of finishers) finish();
      const statuses = await Promise.all(inFlight);
      expect(statuses).toEqual(Array(held).fill(400));
      expect(await server.exited, server.output().slice(-3000)).toBe(0);
      await expect(fetch(`${server.url}/api/v1/health`)).rejects.toThrow();
      expect(countOf(server.output(), 'PUBLIC_URL is not set.')).toBe(1);
    },
  );

  it(
    'creates no second admin on the next start, and no PUBLIC_URL warning once it is set',
    { timeout: 90_000 },
    async () => {
      const place = await freshPlace();
      const first = await startServer(place);
      expect(first.output()).toContain('password:');
      await stop(first);

      const second = await startServer(place, { PUBLIC_URL: 'https://merit.example.org' });
      expect((await fetch(`${second.url}/api/v1/live`)).status).toBe(200);
      await stop(second);
      expect(second.output()).not.toContain('password:');
      expect(second.output()).not.toContain('PUBLIC_URL');
      expect(second.output()).toContain('Merit is running at https://merit.example.org');
    },
  );
});

describe('a first start on the embedded database', () => {
  it(
    'puts the database in DATA_DIR/db, owner-only, and clears what a start killed while unpacking left',
    { timeout: 90_000 },
    async () => {
      // The embedded database whichever database this run's other tests use.
      const place: Place = { ...(await freshPlace()), databaseUrl: undefined };
      const left = path.join(place.dataDir, `${UNPACKING}killed`);
      await mkdir(path.join(left, 'base'), { recursive: true });
      await writeFile(path.join(left, 'base', 'half'), 'half a database');
      const server = await startServer(place);
      expect((await stat(path.join(place.dataDir, 'db', 'PG_VERSION'))).mode & 0o777).toBe(0o600);
      expect((await stat(path.join(place.dataDir, 'db', 'base'))).mode & 0o777).toBe(0o700);
      expect((await readdir(place.dataDir)).filter((name) => name.startsWith(UNPACKING))).toEqual(
        [],
      );
      await stop(server);
    },
  );
});

describe('npm run db:migrate', () => {
  it('applies the migrations shipped beside the compiled server', async () => {
    const running = run(entry.migrate, [], await freshPlace(), {});
    expect(await running.exited, running.output()).toBe(0);
    expect(running.output().trim()).toBe(`Migrations applied (${testDatabaseKind()}).`);
  });
});

describe('npm run create-admin', () => {
  // Three processes in a row: generous time on a busy two-core machine.
  it('creates an admin, then resets its password', { timeout: 90_000 }, async () => {
    const place = await freshPlace();
    const args = (password: string) => [
      '--username',
      'root',
      '--email',
      'root@example.org',
      '--password',
      password,
    ];
    const created = run(entry.createAdmin, args('first password'), place, {});
    expect(await created.exited).toBe(0);
    expect(created.output()).toContain('Created administrator "root".');
    const reset = run(entry.createAdmin, args('second password'), place, {});
    expect(await reset.exited).toBe(0);
    expect(reset.output()).toContain('Reset administrator "root"');

    const server = await startServer(place);
    const attempt = (password: string) =>
      fetch(`${server.url}/api/v1/auth/login/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'root', password }),
      }).then((r) => r.status);
    expect(await attempt('first password')).toBe(400);
    expect(await attempt('second password')).toBe(200);
    await stop(server);
  });

  it('explains what is missing', async () => {
    const running = run(entry.createAdmin, ['--username', 'root'], await freshPlace(), {});
    expect(await running.exited).toBe(2);
    expect(running.output()).toContain('--email is required; --password is required.');
  });

  it('refuses a password of 11 characters (ASVS V2.1.1)', async () => {
    const args = ['--username', 'root', '--email', 'root@example.org', '--password'];
    const running = run(entry.createAdmin, [...args, 'x'.repeat(11)], await freshPlace(), {});
    expect(await running.exited).toBe(2);
    expect(running.output()).toContain('--password must be at least 12 characters long.');
  });
});
