import { spawnSync } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';
import { mkdtempSync, renameSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { testDatabaseKind } from './helpers.js';
import {
  api,
  ensureServerBuilt,
  freshPlace,
  named,
  seedAuthors,
  seededRandom,
  startServer,
  type Author,
  type Seeded,
  type StartedServer,
} from './crash-fixtures.js';

/**
 * Crash safety (issue 16 item 3): concurrent authors save entries of a multi-entry form
 * through the compiled server, the server is killed with SIGKILL at a random moment,
 * restarted on the same data, and every save it acknowledged with a 2xx must be there,
 * on whichever database this project runs (PGlite in DATA_DIR, or PostgreSQL).
 *
 * CRASH_SEED=n repeats a run; the seed is printed either way.
 */
const SEED = process.env.CRASH_SEED ? Number(process.env.CRASH_SEED) : randomInt(2 ** 31);
const SAVES_TO_CHECK = 1_000;
const MIN_KILLS = 4;
const CLIENTS = 12;

beforeAll(() => {
  ensureServerBuilt();
  console.warn(`crash test on ${testDatabaseKind()}: seed ${SEED} (CRASH_SEED=${SEED} repeats it)`);
});

/** What one author has been told was saved, and the one save still unanswered. */
interface Client {
  author: Author;
  /** Entry index -> the value the server acknowledged saving there. */
  acknowledged: Map<number, string>;
  /** The save in flight when the server died: it may or may not have been kept. */
  unanswered: { index: number; value: string } | null;
  /** The next entry index to write (entries are written in order, 0, 1, 2...). */
  next: number;
}

type Entries = Array<{ name?: unknown }>;

async function entriesOf(url: string, seeded: Seeded, client: Client): Promise<Entries> {
  const res = await api(url, client.author.key, 'GET', `/proposals/${client.author.proposalId}/`);
  expect(res.status, JSON.stringify(res.json)).toBe(200);
  const responses = (res.json as { responses: Record<string, unknown> }).responses;
  return (responses[String(seeded.teamForm)] as Entries | undefined) ?? [];
}

/**
 * After a restart: every acknowledged entry holds its value, the one unanswered save is
 * either absent or complete, and nothing else is there. Returns how many saves it checked.
 */
async function checkClient(url: string, seeded: Seeded, client: Client): Promise<number> {
  const entries = await entriesOf(url, seeded, client);
  const names = entries.map((e) => e.name);
  const who = `author ${client.author.username} (seed ${SEED})`;
  for (const [index, value] of client.acknowledged) {
    expect(names[index], `${who}: acknowledged save ${index} lost`).toBe(value);
  }
  const pending = client.unanswered;
  const expectedLength =
    pending && names.length === pending.index + 1 ? pending.index + 1 : client.acknowledged.size;
  expect(names.length, `${who}: entries ${JSON.stringify(names)}`).toBe(expectedLength);
  if (pending && names.length === pending.index + 1) {
    expect(names[pending.index], `${who}: half a save`).toBe(pending.value);
    client.acknowledged.set(pending.index, pending.value);
  }
  client.unanswered = null;
  client.next = names.length;
  return client.acknowledged.size;
}

/**
 * Saves from every client at once until `killAfter` saves have been acknowledged in this
 * round, then SIGKILL while the others are in flight. Any answer other than 2xx before
 * the kill fails the test.
 */
async function saveUntilKilled(
  server: StartedServer,
  seeded: Seeded,
  clients: Client[],
  killAfter: number,
  round: number,
): Promise<number> {
  let acknowledged = 0;
  let killed: Promise<void> | null = null;
  const refusals: string[] = [];
  const work = clients.map(async (client, n) => {
    while (!killed) {
      const index = client.next;
      const value = `seed ${SEED} round ${round} client ${n} entry ${index}`;
      client.unanswered = { index, value };
      let res;
      try {
        res = await api(server.url, client.author.key, 'POST', '/proposal_responses/', {
          call: seeded.callId,
          proposalTypeId: seeded.typeId,
          proposal: client.author.proposalId,
          new: false,
          hash: randomInt(2 ** 31 - 1),
          formId: seeded.teamForm,
          index,
          data: { name: value, hours: index },
        });
      } catch {
        // The connection died with the server: this save was never acknowledged.
        return;
      }
      if (res.status !== 200) {
        if (!killed) refusals.push(`${res.status} ${JSON.stringify(res.json)}`);
        return;
      }
      client.acknowledged.set(index, value);
      client.unanswered = null;
      client.next = index + 1;
      acknowledged += 1;
      if (acknowledged >= killAfter && !killed) killed = server.kill();
    }
  });
  await Promise.all(work);
  await killed;
  expect(refusals, `saves refused before the kill (seed ${SEED})`).toEqual([]);
  expect(server.child.signalCode).toBe('SIGKILL');
  return acknowledged;
}

describe(`SIGKILL while ${CLIENTS} authors save (${testDatabaseKind()})`, () => {
  it(
    `keeps every acknowledged save of ${SAVES_TO_CHECK} across ${MIN_KILLS} or more kills, and the database opens cleanly`,
    // About a minute on an idle 2-core machine; far longer when other suites share it.
    { timeout: 480_000 },
    async () => {
      const random = seededRandom(SEED);
      const place = await freshPlace();
      const seeded = await seedAuthors(place, CLIENTS);
      const clients: Client[] = seeded.authors.map((author) => ({
        author,
        acknowledged: new Map(),
        unanswered: null,
        next: 0,
      }));

      let server = await startServer(place);
      let kills = 0;
      let checked = 0;
      const rounds: string[] = [];
      while (kills < MIN_KILLS || checked < SAVES_TO_CHECK) {
        // A random point in each round: after 120 to 330 acknowledged saves (about
        // 1,000 over four rounds), with 12 saves in flight when the signal lands.
        const killAfter = 120 + Math.floor(random() * 210);
        const startedAt = performance.now();
        const saved = await saveUntilKilled(server, seeded, clients, killAfter, kills);
        const savingMs = performance.now() - startedAt;
        kills += 1;

        const restartedAt = performance.now();
        server = await startServer(place);
        const restartMs = performance.now() - restartedAt;
        // Opens cleanly: health answered 200 (startServer waited for it), and every
        // proposal reads back.
        checked = 0;
        for (const client of clients) checked += await checkClient(server.url, seeded, client);
        rounds.push(
          `kill ${kills}: ${saved} saves acknowledged in ${Math.round(savingMs)} ms, restart ${Math.round(restartMs)} ms, ${checked} checked`,
        );
        // As it goes, so that a run cut short by its timeout still shows how far it got.
        console.warn(`crash test on ${testDatabaseKind()} (seed ${SEED}): ${rounds.at(-1)}`);
      }
      const health = await fetch(`${server.url}/api/v1/health`);
      expect(health.status).toBe(200);
      await server.stop();
      console.warn(
        `crash test on ${testDatabaseKind()} (seed ${SEED}): ${kills} kills survived, ${checked} acknowledged saves checked\n  ${rounds.join('\n  ')}`,
      );
      expect(checked).toBeGreaterThanOrEqual(SAVES_TO_CHECK);
    },
  );
});

/**
 * Mounts a tmpfs of `megabytes` at a new folder, or null where this process may not mount
 * (not root, or CRASH_NO_MOUNT=1 to try the other way here).
 */
function smallDisk(megabytes: number): string | null {
  if (process.getuid?.() !== 0 || process.env.CRASH_NO_MOUNT === '1') return null;
  const mountPoint = mkdtempSync(path.join(os.tmpdir(), 'merit-small-disk-'));
  const mounted = spawnSync('mount', [
    '-t',
    'tmpfs',
    '-o',
    `size=${megabytes}m`,
    'tmpfs',
    mountPoint,
  ]);
  if (mounted.status !== 0) {
    rmSync(mountPoint, { recursive: true, force: true });
    return null;
  }
  onTestFinished(() => {
    spawnSync('umount', ['-l', mountPoint]);
    rmSync(mountPoint, { recursive: true, force: true });
  });
  return mountPoint;
}

function freeBytes(folder: string): number {
  const info = statfsSync(folder);
  return info.bavail * info.bsize;
}

async function attachFile(url: string, key: string, proposalId: number, bytes: Buffer) {
  const form = new FormData();
  form.append('proposal', String(proposalId));
  form.append('token', key);
  form.append('file', new Blob([new Uint8Array(bytes)]), 'data.bin');
  return named('POST /proposal_file/', async () => {
    const res = await fetch(`${url}/api/v1/proposal_file/`, { method: 'POST', body: form });
    return { status: res.status, json: (await res.json()) as Record<string, unknown> };
  });
}

async function downloadFile(url: string, key: string, fileId: number): Promise<Buffer> {
  const ticket = await api(url, key, 'POST', '/download_tickets/', { fileId });
  expect(ticket.status, JSON.stringify(ticket.json)).toBe(200);
  const { status, bytes } = await named('GET the download', async () => {
    const res = await fetch(`${url}${(ticket.json as { url: string }).url}`);
    return { status: res.status, bytes: Buffer.from(await res.arrayBuffer()) };
  });
  expect(status).toBe(200);
  return bytes;
}

/** The error envelope: a detail a person can read, and a code. */
function expectEnvelope(json: unknown) {
  expect(json).toEqual(
    expect.objectContaining({ detail: expect.any(String), code: expect.any(String) }),
  );
  expect(JSON.stringify(json)).not.toMatch(/ENOSPC|ENOTDIR|stack|\/tmp\//);
}

describe(`a full disk (${testDatabaseKind()})`, () => {
  it(
    'refuses saves and uploads it cannot store with a clear error, keeps serving, and loses nothing it acknowledged',
    { timeout: 180_000 },
    async () => {
      const disk = smallDisk(testDatabaseKind() === 'pglite' ? 160 : 16);
      const place = await freshPlace(disk ?? undefined);
      const seeded = await seedAuthors(place, 2);
      const [author, other] = seeded.authors as [Author, Author];
      let server = await startServer(place);

      const saved: string[] = [];
      const save = (value: string, padding = 0) =>
        api(server.url, author.key, 'POST', '/proposal_responses/', {
          call: seeded.callId,
          proposalTypeId: seeded.typeId,
          proposal: author.proposalId,
          new: false,
          hash: randomInt(2 ** 31 - 1),
          formId: seeded.teamForm,
          index: saved.length,
          // Random text: PostgreSQL would compress repeated letters to nothing.
          data: { name: value, skills: padding ? [randomBytes(padding).toString('base64')] : [] },
        });
      for (let i = 0; i < 10; i += 1) {
        const res = await save(`before ${i}`);
        expect(res.status, JSON.stringify(res.json)).toBe(200);
        saved.push(`before ${i}`);
      }
      const stored = randomBytes(200_000);
      const first = await attachFile(server.url, author.key, author.proposalId, stored);
      expect(first.status, JSON.stringify(first.json)).toBe(201);
      const storedId = first.json.id as number;

      // The disk fills up: a real one where a small tmpfs can be mounted (as root), else
      // the file storage's folder turns into something no file can be written in.
      let refill: () => void;
      if (disk) {
        const filler = path.join(disk, 'filler');
        writeFileSync(filler, Buffer.alloc(Math.max(0, freeBytes(disk) - 256 * 1024)));
        refill = () => rmSync(filler);
      } else {
        const files = path.join(place.dataDir, 'files');
        renameSync(files, `${files}.away`);
        writeFileSync(files, 'not a folder');
        refill = () => {
          rmSync(files);
          renameSync(`${files}.away`, files);
        };
      }

      const upload = await attachFile(
        server.url,
        other.key,
        other.proposalId,
        randomBytes(1_000_000),
      );
      expect(upload.status, JSON.stringify(upload.json)).toBeGreaterThanOrEqual(500);
      expectEnvelope(upload.json);
      if (disk) {
        expect(upload.status).toBe(507);
        expect(upload.json.detail).toBe(
          'The server has run out of disk space, so this was not saved. Please try again later, and tell the administrator.',
        );
      }
      // Saves of 100 KB each until the database's disk says no (PGlite, whose database is
      // on the small disk) or 30 went through (PostgreSQL, whose is not).
      const refusals: number[] = [];
      for (let i = 0; i < 30 && refusals.length < 3; i += 1) {
        const value = `while full ${i}`;
        const res = await save(value, 75_000);
        if (res.status === 200) saved.push(value);
        else {
          expect(res.status, JSON.stringify(res.json)).toBe(507);
          expectEnvelope(res.json);
          refusals.push(res.status);
        }
      }
      if (disk && testDatabaseKind() === 'pglite') expect(refusals.length).toBeGreaterThan(0);
      // Still serving: health, and reads of what was saved.
      expect((await fetch(`${server.url}/api/v1/health`)).status).toBe(200);
      expect(
        (await api(server.url, author.key, 'GET', `/proposals/${author.proposalId}/`)).status,
      ).toBe(200);

      // Space again: the same server saves and stores, without a restart.
      refill();
      const later = await save('after');
      expect(later.status, JSON.stringify(later.json)).toBe(200);
      saved.push('after');
      const retried = await attachFile(server.url, other.key, other.proposalId, randomBytes(1_000));
      expect(retried.status, JSON.stringify(retried.json)).toBe(201);

      // And after a hard stop, everything acknowledged is there, byte for byte.
      await server.kill();
      server = await startServer(place);
      const res = await api(server.url, author.key, 'GET', `/proposals/${author.proposalId}/`);
      expect(res.status).toBe(200);
      const entries = (res.json as { responses: Record<string, Array<{ name: string }>> })
        .responses[String(seeded.teamForm)]!;
      expect(entries.map((e) => e.name)).toEqual(saved);
      expect((await downloadFile(server.url, author.key, storedId)).equals(stored)).toBe(true);
      await server.stop();
      console.warn(
        `full disk on ${testDatabaseKind()} (${disk ? 'a tmpfs filled to 256 KB free' : 'the file folder made unwritable'}): upload refused with ${upload.status}, ${refusals.length} saves refused with 507, ${saved.length} acknowledged saves intact after SIGKILL`,
      );
    },
  );
});
