import { randomInt } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from './helpers.js';
import {
  api,
  ensureServerBuilt,
  freshPlace,
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
  console.log(`crash test on ${testDatabaseKind()}: seed ${SEED} (CRASH_SEED=${SEED} repeats it)`);
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
    { timeout: 180_000 },
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
      }
      const health = await fetch(`${server.url}/api/v1/health`);
      expect(health.status).toBe(200);
      await server.stop();
      console.log(
        `crash test on ${testDatabaseKind()} (seed ${SEED}): ${kills} kills survived, ${checked} acknowledged saves checked\n  ${rounds.join('\n  ')}`,
      );
      expect(checked).toBeGreaterThanOrEqual(SAVES_TO_CHECK);
    },
  );
});
