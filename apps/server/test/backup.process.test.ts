import { spawnSync } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';
import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { assignReviewers, makeProposal, makeReview } from './call-fixtures.js';
import {
  api,
  ensureServerBuilt,
  freshPlace,
  runEntry,
  seedAuthors,
  startServer,
  type Place,
  type Seeded,
  type StartedServer,
} from './crash-fixtures.js';
import { makeUser, TEST_PASSWORD, testDatabaseKind } from './helpers.js';

/**
 * Backup and restore (issue 16 item 8), as README.md's operations section tells an
 * administrator to do them: on PGlite `npm run backup` while the server runs and
 * `npm run restore` into a fresh DATA_DIR; on PostgreSQL pg_dump and pg_restore, with
 * DATA_DIR/files copied by tar. Then a server on the restored data finds every proposal,
 * review and file, and the saves made while the backup ran left each proposal whole.
 */
const kind = testDatabaseKind();

beforeAll(() => ensureServerBuilt());

const AUTHORS = 4;
const REVIEWED = 3;

interface Made {
  seeded: Seeded;
  /** Submitted proposals with reviews: proposal id -> number of reviews. */
  reviewed: Map<number, number>;
}

async function seed(place: Place): Promise<Made> {
  const reviewed = new Map<number, number>();
  const seeded = await seedAuthors(place, AUTHORS, async (app, seeded) => {
    const author = await makeUser(app);
    const reviewers = [await makeUser(app), await makeUser(app)];
    for (let i = 0; i < REVIEWED; i += 1) {
      const proposal = await makeProposal(app, {
        callId: seeded.callId,
        proposalTypeId: seeded.typeId,
        authorId: author.id,
        stateVal: 1,
      });
      const count = 1 + (i % reviewers.length);
      await assignReviewers(
        app,
        proposal.id,
        reviewers.slice(0, count).map((r) => r.id),
      );
      for (const reviewer of reviewers.slice(0, count))
        await makeReview(app, proposal.id, reviewer.id);
      reviewed.set(proposal.id, count);
    }
  });
  return { seeded, reviewed };
}

/** Attaches a file through the spec's multipart endpoint; its id. */
async function attach(url: string, key: string, proposalId: number, bytes: Buffer) {
  const form = new FormData();
  form.append('proposal', String(proposalId));
  form.append('token', key);
  form.append('file', new Blob([new Uint8Array(bytes)]), `notes-${proposalId}.bin`);
  const res = await fetch(`${url}/api/v1/proposal_file/`, { method: 'POST', body: form });
  const body = (await res.json()) as { id: number };
  expect(res.status, JSON.stringify(body)).toBe(201);
  return body.id;
}

async function download(url: string, key: string, fileId: number): Promise<Buffer> {
  const ticket = await api(url, key, 'POST', '/download_tickets/', { fileId });
  expect(ticket.status, JSON.stringify(ticket.json)).toBe(200);
  const res = await fetch(`${url}${(ticket.json as { url: string }).url}`);
  expect(res.status).toBe(200);
  return Buffer.from(await res.arrayBuffer());
}

/** Saves entries in order for every author until `stop` resolves; what was acknowledged. */
function keepSaving(server: StartedServer, seeded: Seeded, stop: Promise<unknown>) {
  const acknowledged = seeded.authors.map(() => [] as string[]);
  let stopped = false;
  void stop.finally(() => (stopped = true));
  const done = Promise.all(
    seeded.authors.map(async (author, n) => {
      while (!stopped) {
        const index = acknowledged[n]!.length;
        const value = `author ${n} entry ${index}`;
        const res = await api(server.url, author.key, 'POST', '/proposal_responses/', {
          call: seeded.callId,
          proposalTypeId: seeded.typeId,
          proposal: author.proposalId,
          new: false,
          hash: randomInt(2 ** 31 - 1),
          formId: seeded.teamForm,
          index,
          data: { name: value },
        });
        expect(res.status, JSON.stringify(res.json)).toBe(200);
        acknowledged[n]!.push(value);
      }
    }),
  );
  return { acknowledged, done };
}

/** Runs a command to completion; its output, failing the test on a non-zero exit. */
function run(command: string, args: string[], env: Record<string, string> = {}) {
  const result = spawnSync(command, args, { encoding: 'utf8', env: { ...process.env, ...env } });
  expect(result.status, `${command} ${args.join(' ')}:\n${result.stdout}${result.stderr}`).toBe(0);
  return result.stdout;
}

/** A new, empty PostgreSQL database (no migrations: pg_restore brings the tables), dropped at the end. */
async function emptyPostgresDatabase(): Promise<string> {
  const adminUrl = process.env.TEST_DATABASE_URL!;
  const name = `merit_restore_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  onTestFinished(async () => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    await client.query(`drop database if exists ${name} with (force)`);
    await client.end();
  });
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * The backup, taken while `server` runs, restored into a new place, as README.md says.
 * Returns the new place and what the backup measured.
 */
async function backupAndRestore(place: Place, work: string) {
  const restored: Place = {
    dataDir: path.join(work, 'restored-data'),
    databaseUrl: undefined,
  };
  if (kind === 'pglite') {
    const archive = path.join(work, 'merit-backup.tar.gz');
    const started = performance.now();
    const backup = runEntry('backup.js', ['--output', archive], place);
    expect((await backup.exited).code, backup.output()).toBe(0);
    const ms = performance.now() - started;
    expect(backup.output()).toContain('taken from the running server');
    const restore = runEntry('restore.js', [archive], restored);
    expect((await restore.exited).code, restore.output()).toBe(0);
    return { restored, bytes: (await stat(archive)).size, ms, report: backup.output().trim() };
  }
  // PostgreSQL: pg_dump takes one consistent snapshot while the server runs.
  const dump = path.join(work, 'merit.dump');
  const files = path.join(work, 'merit-files.tar.gz');
  const started = performance.now();
  run('pg_dump', ['--format=custom', '--file', dump, place.databaseUrl!]);
  // The server's secret beside the files (README.md, "Backups"): without it no password
  // or two-step key in the dump works. Here it is DATA_DIR/secret.key; SECRET_KEY, when set,
  // is kept with the deployment's settings instead.
  run('tar', ['-czf', files, '-C', place.dataDir, 'files', 'secret.key']);
  const ms = performance.now() - started;
  restored.databaseUrl = await emptyPostgresDatabase();
  run('pg_restore', ['--no-owner', '--dbname', restored.databaseUrl, dump]);
  await mkdir(restored.dataDir);
  run('tar', ['-xzf', files, '-C', restored.dataDir]);
  const bytes = (await stat(dump)).size + (await stat(files)).size;
  return { restored, bytes, ms, report: `pg_dump ${dump} and tar ${files}` };
}

describe(`backup and restore (${kind})`, () => {
  it(
    'a backup taken while authors save restores into a fresh DATA_DIR with every proposal, review and file',
    { timeout: 180_000 },
    async () => {
      const place = await freshPlace();
      const work = await mkdtemp(path.join(os.tmpdir(), 'merit-backup-test-'));
      onTestFinished(() => rm(work, { recursive: true, force: true }));
      const { seeded, reviewed } = await seed(place);
      const server = await startServer(place);

      const files = new Map<number, { author: string; bytes: Buffer }>();
      for (const author of seeded.authors) {
        // Random bytes, up to a few hundred KB: nothing compresses them away.
        const bytes = randomBytes(1024 + randomInt(300_000));
        files.set(await attach(server.url, author.key, author.proposalId, bytes), {
          author: author.key,
          bytes,
        });
      }

      // Saves before the backup, then more while it runs.
      let release!: () => void;
      const saving = keepSaving(server, seeded, new Promise<void>((r) => (release = r)));
      while (saving.acknowledged.some((a) => a.length < 5))
        await new Promise((r) => setTimeout(r, 20));
      const before = saving.acknowledged.map((a) => a.length);
      const { restored, bytes, ms, report } = await backupAndRestore(place, work);
      release();
      await saving.done;
      const after = saving.acknowledged.map((a) => a.length);
      await server.stop();

      const again = await startServer(restored);
      for (const [n, author] of seeded.authors.entries()) {
        const res = await api(again.url, author.key, 'GET', `/proposals/${author.proposalId}/`);
        expect(res.status).toBe(200);
        const entries = (
          (res.json as { responses: Record<string, Array<{ name: string }>> }).responses[
            String(seeded.teamForm)
          ] ?? []
        ).map((e) => e.name);
        // A consistent copy: each proposal as it was at one moment, every save
        // acknowledged before the backup began, and no half of a later one.
        expect(entries.length).toBeGreaterThanOrEqual(before[n]!);
        expect(entries.length).toBeLessThanOrEqual(after[n]! + 1);
        expect(entries).toEqual(
          Array.from({ length: entries.length }, (_, i) => `author ${n} entry ${i}`),
        );
      }
      for (const [proposalId, count] of reviewed) {
        const res = await api(
          again.url,
          seeded.admin.key,
          'GET',
          `/calls/${seeded.callId}/proposals/${proposalId}/reviews/`,
        );
        expect(res.status, JSON.stringify(res.json)).toBe(200);
        expect((res.json as { reviews: unknown[] }).reviews).toHaveLength(count);
      }
      for (const [fileId, { author, bytes: content }] of files) {
        expect((await download(again.url, author, fileId)).equals(content)).toBe(true);
      }
      // The passwords work: the server's secret (DATA_DIR/secret.key) came back too.
      for (const author of seeded.authors) {
        const res = await fetch(`${again.url}/api/v1/auth/login/`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ username: author.username, password: TEST_PASSWORD }),
        });
        expect(res.status, await res.text()).toBe(200);
      }
      await again.stop();
      console.warn(
        `backup on ${kind}: ${(bytes / 1024 / 1024).toFixed(1)} MB in ${Math.round(ms)} ms while ${AUTHORS} authors saved (${before.reduce((a, b) => a + b)} saves before, ${after.reduce((a, b) => a + b)} by the end); restored ${AUTHORS + REVIEWED} proposals, ${[...reviewed.values()].reduce((a, b) => a + b)} reviews, ${files.size} files. ${report}`,
      );
    },
  );

  it(
    'refuses what it must not do, with a message that says why',
    { timeout: 120_000 },
    async () => {
      const place = await freshPlace();
      if (kind === 'postgres') {
        const backup = runEntry('backup.js', [], place);
        expect((await backup.exited).code).toBe(2);
        expect(backup.output()).toContain('back it up with pg_dump');
        return;
      }
      await seedAuthors(place, 1);
      const work = await mkdtemp(path.join(os.tmpdir(), 'merit-backup-test-'));
      onTestFinished(() => rm(work, { recursive: true, force: true }));
      const archive = path.join(work, 'backup.tar.gz');
      // No server running: the backup opens the database itself.
      const offline = runEntry('backup.js', ['--output', archive], place);
      expect((await offline.exited).code, offline.output()).toBe(0);
      expect(offline.output()).toContain('taken from DATA_DIR');

      // Into a DATA_DIR that holds data: only with --force.
      const target: Place = { dataDir: path.join(work, 'target'), databaseUrl: undefined };
      await mkdir(target.dataDir);
      await writeFile(path.join(target.dataDir, 'keep.txt'), 'mine');
      const refused = runEntry('restore.js', [archive], target);
      expect((await refused.exited).code).toBe(1);
      expect(refused.output()).toContain(
        'is not empty. Restore into a new, empty DATA_DIR, or add --force',
      );
      expect(await readdir(target.dataDir)).toEqual(['keep.txt']);

      // Something that is not a backup leaves DATA_DIR as it was.
      const junk = path.join(work, 'junk.tar.gz');
      await writeFile(junk, 'not a backup');
      const damaged = runEntry('restore.js', [junk, '--force'], target);
      expect((await damaged.exited).code).toBe(1);
      expect(damaged.output()).toContain('is not a backup made by npm run backup');
      expect(await readdir(target.dataDir)).toEqual(['keep.txt']);

      const forced = runEntry('restore.js', [archive, '--force'], target);
      expect((await forced.exited).code, forced.output()).toBe(0);
      const replaced = await readdir(target.dataDir);
      expect(replaced).toContain('db');
      expect(replaced).not.toContain('keep.txt');

      // While a server has the folder open, no restore, second server or create-admin touches it.
      const server = await startServer(target);
      const busy = runEntry('restore.js', [archive, '--force'], target);
      expect((await busy.exited).code).toBe(1);
      expect(busy.output()).toContain('is using DATA_DIR');
      const second = runEntry('main.js', [], target, { PORT: '45678' });
      expect((await second.exited).code).toBe(1);
      expect(second.output()).toContain('Another Merit process');
      const admin = runEntry(
        'create-admin.js',
        ['--username', 'root', '--email', 'root@example.org', '--password', 'a long passphrase'],
        target,
      );
      expect((await admin.exited).code).toBe(1);
      expect(admin.output()).toContain('two processes must not open its database at once');
      expect((await fetch(`${server.url}/api/v1/health`)).status).toBe(200);
      await server.stop();
    },
  );
});
