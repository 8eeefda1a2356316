import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase } from './helpers.js';

/**
 * The server as a person runs it: `tsx src/main.ts` in its own process, on the test
 * run's database (PGlite in DATA_DIR, or a fresh PostgreSQL database).
 */
const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const tsx = path.resolve(serverDir, '../../node_modules/.bin/tsx');

let dataDir: string;
let databaseUrl: string | undefined;
let dropDatabase: () => Promise<void>;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'merit-process-'));
  const fresh = await freshDatabase();
  databaseUrl = fresh.url;
  // The processes open the database themselves; this handle only creates and drops it.
  await fresh.database.close();
  dropDatabase = fresh.drop;
});
afterAll(async () => {
  await dropDatabase();
  await rm(dataDir, { recursive: true, force: true });
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

interface Running {
  child: ChildProcessWithoutNullStreams;
  output: () => string;
  exited: Promise<number | null>;
}

function run(script: string, args: string[], env: Record<string, string>): Running {
  const child = spawn(tsx, [script, ...args], {
    cwd: serverDir,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? os.tmpdir(),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      ...env,
    },
  });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

async function waitForHealth(port: number, running: Running): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/v1/health`);
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    if (running.child.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`the server did not become healthy:\n${running.output()}`);
}

describe('starting with bad configuration', () => {
  it('stops with one clear line naming a bad PORT', async () => {
    const running = run('src/main.ts', [], { PORT: 'abc' });
    expect(await running.exited).toBe(1);
    expect(running.output().trim()).toBe(
      'Merit cannot start: PORT must be a whole number from 1 to 65535, but is "abc".',
    );
  });

  it('stops with a clear message when DATABASE_URL cannot be reached', async () => {
    const port = await freePort();
    const running = run('src/main.ts', [], {
      PORT: String(port),
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
    'prints the first admin password once, accepts it, and finishes requests in flight on SIGTERM',
    { timeout: 60_000 },
    async () => {
      const port = await freePort();
      const running = run('src/main.ts', [], {
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'info',
      });
      await waitForHealth(port, running);
      const password = /password: (\S+)/.exec(running.output())?.[1];
      expect(password).toMatch(/^[A-Za-z0-9]{20}$/);

      const login = () =>
        fetch(`http://127.0.0.1:${port}/api/v1/auth/login/`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ username: 'admin', password }),
        });
      expect((await login()).status).toBe(200);

      // Each login hashes a password, so 24 of them keep the server busy for a while. The
      // signal is sent once the server has logged receiving every one of them, while most
      // are still being answered.
      const received = () => running.output().split('"url":"/api/v1/auth/login/"').length - 1;
      const before = received();
      let answered = 0;
      const inFlight = Array.from({ length: 24 }, () => login().finally(() => (answered += 1)));
      while (received() < before + 24) await new Promise((r) => setTimeout(r, 5));
      running.child.kill('SIGTERM');
      expect(answered, 'requests already answered when the signal was sent').toBeLessThan(24);
      const statuses = await Promise.all(inFlight.map((p) => p.then((r) => r.status)));
      expect(statuses).toEqual(Array(24).fill(200));
      expect(await running.exited, running.output().slice(-3000)).toBe(0);
      await expect(fetch(`http://127.0.0.1:${port}/api/v1/health`)).rejects.toThrow();
    },
  );

  it('does not create another admin on the next start', { timeout: 60_000 }, async () => {
    const port = await freePort();
    const running = run('src/main.ts', [], { PORT: String(port), HOST: '127.0.0.1' });
    await waitForHealth(port, running);
    running.child.kill('SIGTERM');
    expect(await running.exited, running.output().slice(-3000)).toBe(0);
    expect(running.output()).not.toContain('password:');
  });
});

describe('npm run create-admin', () => {
  // Three processes in a row: generous time on a busy two-core machine.
  it('creates an admin, then resets its password', { timeout: 90_000 }, async () => {
    const args = (password: string) => [
      '--username',
      'root',
      '--email',
      'root@example.org',
      '--password',
      password,
    ];
    const created = run('src/cli/create-admin.ts', args('first password'), {});
    expect(await created.exited).toBe(0);
    expect(created.output()).toContain('Created administrator "root".');
    const reset = run('src/cli/create-admin.ts', args('second password'), {});
    expect(await reset.exited).toBe(0);
    expect(reset.output()).toContain('Reset administrator "root"');

    const port = await freePort();
    const server = run('src/main.ts', [], { PORT: String(port), HOST: '127.0.0.1' });
    await waitForHealth(port, server);
    const attempt = (password: string) =>
      fetch(`http://127.0.0.1:${port}/api/v1/auth/login/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'root', password }),
      }).then((r) => r.status);
    expect(await attempt('first password')).toBe(400);
    expect(await attempt('second password')).toBe(200);
    server.child.kill('SIGTERM');
    expect(await server.exited, server.output().slice(-3000)).toBe(0);
  });

  it('explains what is missing', async () => {
    const running = run('src/cli/create-admin.ts', ['--username', 'root'], {});
    expect(await running.exited).toBe(2);
    expect(running.output()).toContain('--email is required; --password is required.');
  });
});
