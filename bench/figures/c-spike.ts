/**
 * (c) The deadline spike, (g) the server's memory during it, and the scale-out run. (The
 * pending-reviews read as an admin is part of figure (i) now: i-pending-reviews.ts.)
 *
 * (c) 2,000 open editors (`--editors`), each on their own Draft in the open call, each a
 * browser of its own with one tab (own loopback address, own kept-alive connections, the
 * tab in X-Merit-Tab): `GET /lock/{id}/` every 5 s (take or renew the lock for the tab),
 * and the first 200 of them also save a form (`POST /proposal_responses/`, as the editor's
 * Save sends it, with checks on and the entry's `entryId` and `version`) every 2 s, for
 * 60 s (15 s with --quick), against the compiled server in production mode. The lock
 * poll and the save are reported apart, each beside its own timer's baseline, and on
 * PostgreSQL what one poll costs the database (its statistics views, polls alone). The web editor restarts its 5 s lock wait after
 * each save, so an editor saving every 2 s sends fewer lock requests than this: the
 * load here is the issue's, a little more than the editor's. Every save writes a new
 * title; afterwards SQL checks that what the database holds for each form is the last
 * acknowledged save and that every acknowledged save's hash is recorded. Goal: p99
 * under 100 ms, 0 errors, no acknowledged save lost. Baseline: the same browsers on the
 * same timers asking `GET /live` (the liveness route) instead. Issue 31's budgets: save
 * p99 under 100 ms, lock poll p99 under 20 ms, 0 errors, 0 lost saves, and the server's
 * RSS (every 500 ms during the spike) under 400 MB, beside its RSS at idle after start.
 *
 * Scale-out (PostgreSQL only): three app processes behind bench/lib/proxy.ts (round
 * robin, TRUST_PROXY=loopback), one PostgreSQL and one S3 bucket (an s3rver the figure
 * starts, apps/server/test/s3-server.ts), as README.md's "Running several app processes"
 * has them. During the spike one resumable upload sends each chunk to the next process
 * in turn, and the file read back through the proxy must be the exact bytes: uploads in
 * progress live in the bucket, so no process needs the one that took the chunk before.
 * The spike again, but 20 of the proposals each have two editors
 * (the author and a collaborator) who open and leave the editor over and over, racing
 * for the lock, and both try to save whether or not they hold it. Checked: no one is
 * granted the lock or a save while another certainly holds it, and no acknowledged save
 * is lost. Throughput: the 200 editors saving and renewing back to back, no pauses, for
 * 15 s (5 s), through the proxy to one process and then to three.
 *
 *   npx tsx bench/figures/c-spike.ts [--quick] [--small] [--manifest path] [--editors 2000]
 */
import { createHash, randomBytes, randomInt } from 'node:crypto';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { TAB_HEADER } from '@merit/contract';
import { UPLOAD_CHUNK_BYTES } from '@merit/domain';
import { startS3Server } from '../../apps/server/test/s3-server.js';
import { startServer } from '../../scripts/lib/server.mjs';
import {
  BENCH_SESSIONS,
  databaseName,
  OPEN_EDITORS,
  runAlone,
  startBenchServer,
  type BenchServer,
} from '../lib/bench-server.js';
import {
  Browser,
  cpuMeter,
  every,
  loopbackAddress,
  rssMbOf,
  rssSampler,
  sleep,
  type Timed,
} from '../lib/load.js';
import { databaseEnv, readManifest, type Editor, type Manifest } from '../lib/manifest.js';
import { startProxy } from '../lib/proxy.js';
import { percentile, type FigureOptions, type FigureResult } from '../lib/result.js';

/** Editors who save in the spike (the first of the open editors) and in the scale-out run. */
const EDITORS = 200;
const LOCK_EVERY_MS = 5_000;
const SAVE_EVERY_MS = 2_000;
const CONTESTED = 20;
/** App processes behind the proxy in the scale-out run. */
const PROCESSES = 3;
/** The scale-out run's upload: two whole S3 parts (5 MiB) and a pending one. */
const UPLOAD_BYTES = 11 * 1024 * 1024 + 4321;
const API = '/api/v1';

/** One save the server acknowledged (or refused), with the title it wrote. */
interface Save {
  proposalId: number;
  formId: number;
  hash: number;
  title: string;
  by: number;
  sentAt: number;
  doneAt: number;
  ok: boolean;
}

interface Run {
  timed: Timed[];
  saves: Save[];
  /** Answers that were not what the product promises: errors, whatever their cause. */
  errors: string[];
  seconds: number;
}

/** Unique within the run and below 2^31, as the spec's save hashes are. */
let nextHash = randomInt(2 ** 30);
const newHash = () => nextHash++ % 2 ** 31;
const runTag = Date.now().toString(36);

/**
 * Each editor's one browser tab for the whole run (X-Merit-Tab), as an editor who keeps the
 * proposal open: a new tab would find the last phase's lease, its own other tab's, still live.
 */
const tabs = new Map<number, string>();
const tabOf = (editor: Editor) => {
  if (!tabs.has(editor.userId)) tabs.set(editor.userId, randomBytes(16).toString('hex'));
  return tabs.get(editor.userId)!;
};
const browserOf = (base: URL, address: number, editor: Editor) =>
  new Browser(base, loopbackAddress(address), editor.token, tabOf(editor));

/**
 * The saved answers an editor's form started from, as the editor keeps them: the entry's
 * id and version its next save names (none before the form's first answer). Each save
 * answers the new version; a save someone else's came before is 409 `stale` with theirs.
 */
interface Base {
  entryId?: string;
  version?: number;
}

function saveBody(editor: Editor, proposalId: number, hash: number, title: string, base: Base) {
  return {
    call: editor.callId,
    proposalTypeId: editor.proposalTypeId,
    proposal: proposalId,
    new: false,
    hash,
    formId: editor.formId,
    index: 0,
    singleSave: true,
    validate: true,
    data: { title, summary: `Saved by the deadline spike benchmark, ${title}.`, keywords: '' },
    ...base,
  };
}

/** The entry an editor opening the proposal reads (GET /proposals/{id}/), not timed. */
async function openForm(browser: Browser, editor: Editor, proposalId: number): Promise<Base> {
  const answer = await browser.send('open', 'GET', `${API}/proposals/${proposalId}/`);
  const entries = json<{ entries: Record<string, Base[]> }>(answer.body).entries;
  const entry = entries?.[String(editor.formId)]?.[0];
  return entry ? { entryId: entry.entryId, version: entry.version } : {};
}

/**
 * Sends one save from `base` and records it; the answer too. `base` moves on to what the
 * answer says is saved now: the save's new version, or on a 409 `stale` the version saved
 * meanwhile (the editor's "keep mine", saved again by its next save).
 */
async function save(
  browser: Browser,
  editor: Editor,
  proposalId: number,
  by: number,
  run: Run,
  base: Base,
): Promise<{ answer: Timed; record: Save }> {
  const hash = newHash();
  const title = `spike ${runTag} ${proposalId} ${hash}`;
  const answer = await browser.send(
    'save',
    'POST',
    `${API}/proposal_responses/`,
    saveBody(editor, proposalId, hash, title, base),
  );
  run.timed.push(answer);
  const moved =
    answer.status === 200
      ? json<Base>(answer.body)
      : answer.status === 409
        ? (json<{ code: string; current: Base | null }>(answer.body).current ?? undefined)
        : undefined;
  if (moved) Object.assign(base, { entryId: moved.entryId, version: moved.version });
  const record: Save = {
    proposalId,
    formId: editor.formId,
    hash,
    title,
    by,
    sentAt: answer.sentAt,
    doneAt: answer.doneAt,
    ok: answer.status === 200,
  };
  run.saves.push(record);
  return { answer, record };
}

/** The answer's JSON, or {} when it is not JSON (a proxy's 502, say). */
function json<T>(body: string): Partial<T> {
  try {
    return JSON.parse(body) as Partial<T>;
  } catch {
    return {};
  }
}

const describe = (t: Timed) =>
  `${t.kind} ${t.status || t.error}${t.body ? `: ${t.body.slice(0, 160)}` : ''}`;

/**
 * The spike's editors on `base` for `seconds`: each takes its lock at once and renews it
 * every 5 s, and the first `savers` of them also save every 2 s, their timers started at
 * a random point of the first period. With `health`, the same browsers and timers ask
 * GET /live instead (kinds `health lock` and `health save`, each timer's baseline).
 */
async function editorsLoad(
  base: URL,
  editors: readonly Editor[],
  savers: number,
  seconds: number,
  health: boolean,
  run: Run,
  firstAddress = 0,
): Promise<void> {
  const t0 = performance.now() + 200;
  const endAt = t0 + seconds * 1000;
  await Promise.all(
    editors.map(async (editor, i) => {
      const browser = browserOf(base, firstAddress + i, editor);
      const saves = i < savers;
      const form = health || !saves ? {} : await openForm(browser, editor, editor.proposalId);
      const lock = async () => {
        const answer = health
          ? await browser.send('health lock', 'GET', `${API}/live`)
          : await browser.send('lock', 'GET', `${API}/lock/${editor.proposalId}/`);
        run.timed.push(answer);
        if (answer.status !== 200) return void run.errors.push(describe(answer));
        if (!health && json<{ mine: boolean }>(answer.body).mine !== true)
          run.errors.push(`editor ${editor.userId}'s tab does not hold its lock: ${answer.body}`);
      };
      const write = async () => {
        if (health) {
          const answer = await browser.send('health save', 'GET', `${API}/live`);
          run.timed.push(answer);
          if (answer.status !== 200) run.errors.push(describe(answer));
          return;
        }
        const { answer } = await save(browser, editor, editor.proposalId, editor.userId, run, form);
        if (answer.status !== 200) run.errors.push(describe(answer));
      };
      const lockStart = t0 + Math.random() * LOCK_EVERY_MS;
      await sleep(lockStart - performance.now());
      await lock();
      await Promise.all([
        every(LOCK_EVERY_MS, lockStart + LOCK_EVERY_MS, endAt, lock),
        saves && every(SAVE_EVERY_MS, t0 + Math.random() * SAVE_EVERY_MS, endAt, write),
      ]);
      browser.close();
    }),
  );
}

/** What happened on one contested proposal, in the order the answers arrived. */
interface LockEvent {
  client: number;
  type: 'grant' | 'other' | 'save-ok' | 'save-refused' | 'save-stale' | 'release';
  sentAt: number;
  doneAt: number;
  holderId?: number | null;
}

/**
 * Two editors (the author and a collaborator) of one proposal, each opening the editor
 * for 4 to 10 s, leaving it (giving the lock back if held), and coming back after up to
 * 1.5 s. While open: the lock every 5 s, a save every 2 s, held or not (a stale tab's
 * save, which the server must refuse while the other holds the lock). A save from a
 * version the other saved over is refused as `stale`, as the product promises.
 */
async function contestedLoad(
  base: URL,
  pairs: readonly { proposalId: number; people: [Editor, Editor] }[],
  seconds: number,
  run: Run,
  firstAddress: number,
): Promise<Map<number, LockEvent[]>> {
  const events = new Map<number, LockEvent[]>();
  const endAt = performance.now() + seconds * 1000;
  await Promise.all(
    pairs.flatMap(({ proposalId, people }, p) =>
      people.map(async (editor, side) => {
        const log = events.get(proposalId) ?? [];
        events.set(proposalId, log);
        const browser = browserOf(base, firstAddress + 2 * p + side, editor);
        const me = editor.userId;
        while (performance.now() < endAt - 1_000) {
          const leaveAt = Math.min(endAt, performance.now() + 4_000 + Math.random() * 6_000);
          const form = await openForm(browser, editor, proposalId);
          let held = false;
          const lock = async () => {
            const answer = await browser.send('lock', 'GET', `${API}/lock/${proposalId}/`);
            run.timed.push(answer);
            if (answer.status !== 200) return void run.errors.push(describe(answer));
            const state = json<{ holderId: number | null; mine: boolean }>(answer.body);
            const holderId = state.holderId ?? null;
            // Held by this tab only when the server says so: its holder may be another tab.
            held = state.mine === true;
            log.push({ client: me, type: held ? 'grant' : 'other', holderId, ...answer });
          };
          const write = async () => {
            const { answer } = await save(browser, editor, proposalId, me, run, form);
            const code = answer.status === 409 ? json<{ code: string }>(answer.body).code : null;
            if (answer.status !== 200 && code !== 'locked' && code !== 'stale')
              run.errors.push(describe(answer));
            const type =
              code === 'locked' ? 'save-refused' : code === 'stale' ? 'save-stale' : 'save-ok';
            log.push({ client: me, type, ...answer });
          };
          const now = performance.now();
          await lock();
          await Promise.all([
            every(LOCK_EVERY_MS, now + LOCK_EVERY_MS, leaveAt, lock),
            every(SAVE_EVERY_MS, now + Math.random() * SAVE_EVERY_MS, leaveAt, write),
          ]);
          if (held) {
            const answer = await browser.send('release', 'DELETE', `${API}/lock/${proposalId}/`);
            run.timed.push(answer);
            if (answer.status !== 204) run.errors.push(describe(answer));
            log.push({ client: me, type: 'release', ...answer });
          }
          await sleep(300 + Math.random() * 1_200);
        }
        browser.close();
      }),
    ),
  );
  return events;
}

/**
 * One holder at a time, as far as the answers can prove it: a client certainly holds the
 * lock from the arrival of a grant to the sending of its release. Any grant or save to
 * the other client sent and answered wholly inside that span is a violation, and so is
 * the holder being told someone else holds it, or its own save refused, inside it.
 */
function lockViolations(events: Map<number, LockEvent[]>) {
  const violations: string[] = [];
  let handovers = 0;
  for (const [proposalId, log] of events) {
    const spans: { client: number; from: number; to: number }[] = [];
    const clients = new Set(log.map((e) => e.client));
    for (const client of clients) {
      let from: number | null = null;
      for (const e of log.filter((x) => x.client === client).sort((a, b) => a.sentAt - b.sentAt)) {
        // Only what was sent after the grant arrived tells of the span; a save sent
        // before may rightly have been refused while the other still held the lock.
        if (e.type === 'grant' && from === null) from = e.doneAt;
        else if (from === null || e.sentAt < from) continue;
        else if (e.type === 'release' || e.type === 'other') {
          spans.push({ client, from, to: e.sentAt });
          if (e.type === 'other')
            violations.push(`proposal ${proposalId}: ${client} lost the lock it kept renewing`);
          from = null;
        } else if (e.type === 'save-refused')
          violations.push(
            `proposal ${proposalId}: ${client}'s save refused while it held the lock`,
          );
      }
      if (from !== null) spans.push({ client, from, to: Infinity });
    }
    for (const span of spans) {
      for (const e of log) {
        if (e.client === span.client || (e.type !== 'grant' && e.type !== 'save-ok')) continue;
        if (e.sentAt >= span.from && e.doneAt <= span.to)
          violations.push(
            `proposal ${proposalId}: ${e.client} got ${e.type} while ${span.client} held the lock`,
          );
      }
    }
    const grants = log.filter((e) => e.type === 'grant').sort((a, b) => a.doneAt - b.doneAt);
    grants.forEach((g, i) => {
      if (i > 0 && grants[i - 1]!.client !== g.client) handovers++;
    });
  }
  return { violations, handovers };
}

type Query = <T>(text: string, params: unknown[]) => Promise<T[]>;

/** Runs `fn` with a connection to the manifest's database (PGlite once the server is gone). */
async function withDatabase<T>(manifest: Manifest, fn: (query: Query) => Promise<T>): Promise<T> {
  if ('url' in manifest.database) {
    const client = new pg.Client({ connectionString: manifest.database.url });
    await client.connect();
    try {
      return await fn(async (text, params) => (await client.query(text, params)).rows);
    } finally {
      await client.end();
    }
  }
  const client = new PGlite(join(manifest.database.dataDir, 'db'));
  await client.waitReady;
  try {
    return await fn(async (text, params) => (await client.query(text, params)).rows as never);
  } finally {
    await client.close();
  }
}

/**
 * Acknowledged saves the database does not hold: per proposal and form, what it holds
 * must be one of the saves that may have been applied last (answered after the last
 * acknowledged one was sent), and every acknowledged save's hash must be recorded.
 */
async function lostSaves(manifest: Manifest, saves: readonly Save[]): Promise<string[]> {
  const acked = saves.filter((s) => s.ok);
  const byForm = new Map<string, Save[]>();
  for (const s of acked) {
    const key = `${s.proposalId}/${s.formId}`;
    byForm.set(key, [...(byForm.get(key) ?? []), s]);
  }
  const proposalIds = [...new Set(acked.map((s) => s.proposalId))];
  return withDatabase(manifest, async (query) => {
    const held = await query<{ proposal_id: number; form_id: number; title: string }>(
      `select proposal_id, form_id, data ->> 'title' as title from proposal_responses
        where proposal_id = any($1) and entry_index = 0`,
      [proposalIds],
    );
    // A form's first answer is recorded by its index (0), each later save by its entry (-1).
    const recorded = await query<{ proposal_id: number; form_id: number; hash: number }>(
      `select proposal_id, form_id, hash from proposal_saves
        where proposal_id = any($1) and entry_index in (0, -1)`,
      [proposalIds],
    );
    const hashes = new Set(recorded.map((r) => `${r.proposal_id}/${r.form_id}/${r.hash}`));
    const titles = new Map(held.map((r) => [`${r.proposal_id}/${r.form_id}`, r.title]));
    const lost: string[] = [];
    for (const [key, list] of byForm) {
      const lastSent = Math.max(...list.map((s) => s.sentAt));
      const candidates = list.filter((s) => s.doneAt >= lastSent).map((s) => s.title);
      if (!candidates.includes(titles.get(key) ?? ''))
        lost.push(
          `${key}: holds "${titles.get(key)}", last acknowledged "${candidates.join('" or "')}"`,
        );
    }
    for (const s of acked)
      if (!hashes.has(`${s.proposalId}/${s.formId}/${s.hash}`))
        lost.push(`${s.proposalId}/${s.formId}: acknowledged save ${s.hash} not recorded`);
    return lost;
  });
}

/** The 200 editors saving and renewing back to back for `seconds`: answers a second. */
async function saturate(base: URL, editors: readonly Editor[], seconds: number, run: Run) {
  const endAt = performance.now() + seconds * 1000;
  let done = 0;
  await Promise.all(
    editors.map(async (editor, i) => {
      const browser = browserOf(base, i, editor);
      const form = await openForm(browser, editor, editor.proposalId);
      while (performance.now() < endAt) {
        const { answer } = await save(browser, editor, editor.proposalId, editor.userId, run, form);
        const lock = await browser.send('lock', 'GET', `${API}/lock/${editor.proposalId}/`);
        run.timed.push(lock);
        for (const a of [answer, lock])
          if (a.status === 200) done++;
          else run.errors.push(describe(a));
      }
      browser.close();
    }),
  );
  return done / seconds;
}

const newRun = (): Run => ({ timed: [], saves: [], errors: [], seconds: 0 });

const percentileOf = (run: Run, kinds: string[] | undefined, p: number) =>
  percentile(
    run.timed.filter((t) => !kinds || kinds.includes(t.kind)).map((t) => t.doneAt - t.sentAt),
    p,
  );
const p99Of = (run: Run, kinds?: string[]) => percentileOf(run, kinds, 99);

/** What one lock poll costs the database, per poll (PostgreSQL's statistics views). */
interface PollCost {
  polls: number;
  errors: number;
  transactions: number;
  /** Sequential and index scans started, over every table. */
  scans: number;
  /** Rows inserted, updated or deleted, over every table; of them, rows of `proposals`. */
  written: number;
  proposalsWritten: number;
  /** Rows fetched by those scans. */
  read: number;
  /** Per table touched: scans, rows read and rows written a poll. */
  tables: string;
}

/**
 * Every open editor polls the lock once more, nothing else running, and the database's
 * counters (pg_stat_database, pg_stat_user_tables) before and after say what the polls
 * cost. Each backend reports its counters within 10 s of going idle, hence the wait.
 */
async function pollCost(manifest: Manifest, base: URL, editors: readonly Editor[]) {
  const counters = () =>
    withDatabase(manifest, async (query) => {
      const [db] = await query<{ xacts: string }>(
        `select xact_commit + xact_rollback as xacts from pg_stat_database
          where datname = current_database()`,
        [],
      );
      const [tables] = await query<Record<'scans' | 'written' | 'proposals' | 'read', string>>(
        `select sum(coalesce(seq_scan, 0) + coalesce(idx_scan, 0)) as scans,
                sum(n_tup_ins + n_tup_upd + n_tup_del) as written,
                sum(n_tup_ins + n_tup_upd + n_tup_del) filter (where relname = 'proposals') as proposals,
                sum(coalesce(seq_tup_read, 0) + coalesce(idx_tup_fetch, 0)) as read
           from pg_stat_user_tables`,
        [],
      );
      const each = await query<Record<'relname' | 'scans' | 'written' | 'read', string>>(
        `select relname, coalesce(seq_scan, 0) + coalesce(idx_scan, 0) as scans,
                n_tup_ins + n_tup_upd + n_tup_del as written,
                coalesce(seq_tup_read, 0) + coalesce(idx_tup_fetch, 0) as read
           from pg_stat_user_tables`,
        [],
      );
      return {
        totals: [db!.xacts, tables!.scans, tables!.written, tables!.proposals, tables!.read].map(
          Number,
        ),
        each: new Map(each.map((t) => [t.relname, [t.scans, t.read, t.written].map(Number)])),
      };
    });
  await sleep(11_000);
  const before = await counters();
  let errors = 0;
  // In 200s at once, as the 5 s timers spread them; each editor's own tab, which holds it.
  for (let i = 0; i < editors.length; i += EDITORS)
    await Promise.all(
      editors.slice(i, i + EDITORS).map(async (editor, j) => {
        const browser = browserOf(base, i + j, editor);
        const answer = await browser.send('lock', 'GET', `${API}/lock/${editor.proposalId}/`);
        if (answer.status !== 200 || json<{ mine: boolean }>(answer.body).mine !== true) errors++;
        browser.close();
      }),
    );
  await sleep(11_000);
  const after = await counters();
  // The two reads of the counters are transactions of their own, and read the views.
  const [xacts, scans, written, proposals, read] = after.totals.map(
    (a, k) => a - before.totals[k]!,
  );
  const polls = editors.length;
  const tables = [...after.each]
    .map(([name, a]) => [name, a.map((v, k) => (v - (before.each.get(name)?.[k] ?? 0)) / polls)])
    .filter(([, d]) => (d as number[]).some((v) => v > 0))
    .map(([name, d]) => {
      const [s, r, w] = (d as number[]).map((v) => v.toFixed(2));
      return `${name as string} ${s} scans, ${r} read, ${w} written`;
    })
    .join('; ');
  return {
    polls,
    errors,
    transactions: (xacts! - 2) / polls,
    scans: scans! / polls,
    written: written! / polls,
    proposalsWritten: proposals! / polls,
    read: read! / polls,
    tables,
  } satisfies PollCost;
}

const pct = (value: number) => `${value.toFixed(0)}%`;

/** Runs `load` while measuring the load generator's and the given processes' CPU. */
async function measured<T>(pids: Record<string, number>, load: () => Promise<T>) {
  const lag = monitorEventLoopDelay({ resolution: 10 });
  lag.enable();
  const cpu = cpuMeter(pids);
  const value = await load();
  const shares = cpu.stop();
  lag.disable();
  return { value, cpu: shares, lagP99: lag.percentile(99) / 1e6 };
}

function summary(label: string, run: Run, cpu: Record<string, number>, lagP99: number): string {
  const kinds = [...new Set(run.timed.map((t) => t.kind))];
  const perKind = kinds
    .map(
      (k) =>
        `${k} p99 ${p99Of(run, [k]).toFixed(1)} ms (${run.timed.filter((t) => t.kind === k).length})`,
    )
    .join(', ');
  const cpuText = Object.entries(cpu)
    .map(([name, value]) => `${name} ${pct(value)}`)
    .join(', ');
  return (
    `${label}: ${run.timed.length} requests, p99 ${p99Of(run).toFixed(1)} ms [${perKind}], ` +
    `${run.errors.length} errors; CPU of one core: ${cpuText}; ` +
    `load generator's event-loop delay p99 ${lagP99.toFixed(1)} ms`
  );
}

function startProduction(manifest: Manifest, url: string, s3Url?: string) {
  return startServer({
    env: {
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      ...BENCH_SESSIONS,
      // Both processes hash and check passwords with the data's own server secret.
      ...databaseEnv(manifest),
      DATABASE_URL: url,
      TRUST_PROXY: 'loopback',
      // Uploaded files and uploads in progress in one bucket for every process.
      ...(s3Url ? { S3_URL: s3Url } : {}),
    },
  });
}

/** Adds each pair's second editor as a collaborator of the first's proposal, as its author does. */
async function contestedPairs(server: BenchServer, editors: readonly Editor[]) {
  const pairs: { proposalId: number; people: [Editor, Editor] }[] = [];
  for (let i = 0; i < CONTESTED; i++) {
    const author = editors[i]!;
    const other = editors[i + editors.length / 2]!;
    const as = (editor: Editor) => ({ authorization: `Token ${editor.token}` });
    const proposal = (await (
      await fetch(`${server.url}${API}/proposals/${author.proposalId}/`, { headers: as(author) })
    ).json()) as { collaboratorIds: number[] };
    if (!proposal.collaboratorIds.includes(other.userId)) {
      const { hash } = (await (
        await fetch(`${server.url}${API}/user_details/`, { headers: as(other) })
      ).json()) as { hash: string };
      const added = await fetch(`${server.url}${API}/collaborators/`, {
        method: 'POST',
        headers: { ...as(author), 'content-type': 'application/json' },
        body: JSON.stringify({ proposalId: author.proposalId, hash }),
      });
      if (added.status !== 201)
        throw new Error(`Adding a collaborator answered ${added.status}: ${await added.text()}`);
    }
    pairs.push({ proposalId: author.proposalId, people: [author, other] });
  }
  return pairs;
}

export async function run(options: FigureOptions): Promise<FigureResult[]> {
  const manifest = await readManifest(options.manifestPath);
  const seconds = options.quick ? 15 : 60;
  const saturateSeconds = options.quick ? 5 : 15;
  const db = databaseName(manifest);
  const open = Math.max(options.editors ?? OPEN_EDITORS, EDITORS);
  const openEditors = manifest.editors.slice(0, open);
  const editors = openEditors.slice(0, EDITORS);
  if (openEditors.length < open)
    throw new Error(
      `The manifest has ${openEditors.length} editors; (c) needs ${open} (npm run bench:data -- --editors ${open}).`,
    );
  options.log(
    `\n## (c) Deadline spike: ${open} open editors polling the lock every 5 s, ${EDITORS} of them ` +
      `saving every 2 s, ${seconds} s, ${db}; (g) the server's RSS\n`,
  );
  options.log(
    `load average before: ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );

  // The spike and its baseline against one server, then its memory.
  const server = await startBenchServer(manifest);
  const base = new URL(server.url);
  let spike: Run;
  let health: Run;
  let idleRss: number;
  let rss: number[];
  let pairs: Awaited<ReturnType<typeof contestedPairs>> = [];
  let cost: PollCost | null = null;
  try {
    await sleep(2_000);
    idleRss = rssMbOf(server.pid);
    if ('url' in manifest.database) pairs = await contestedPairs(server, editors);

    health = newRun();
    const h = await measured({ server: server.pid }, () =>
      editorsLoad(base, openEditors, EDITORS, seconds, true, health),
    );
    options.log(summary('baseline, GET /live', health, h.cpu, h.lagP99));

    spike = newRun();
    const sampler = rssSampler(server.pid);
    const s = await measured({ server: server.pid }, () =>
      editorsLoad(base, openEditors, EDITORS, seconds, false, spike),
    );
    rss = sampler.stop();
    options.log(summary('spike, lock and save', spike, s.cpu, s.lagP99));
    for (const e of spike.errors.slice(0, 5)) options.log(`  error: ${e}`);
    if ('url' in manifest.database) {
      cost = await pollCost(manifest, base, openEditors);
      options.log(
        `one lock poll alone (${cost.polls} polls, nothing else running): ` +
          `${cost.transactions.toFixed(2)} transactions, ${cost.scans.toFixed(2)} table or index scans, ` +
          `${cost.written.toFixed(2)} rows written (${cost.proposalsWritten.toFixed(2)} of proposals), ` +
          `${cost.read.toFixed(1)} rows read; ${cost.errors} errors`,
      );
      options.log(`  by table, a poll: ${cost.tables}`);
    }
  } finally {
    await server.stop();
  }
  const lost = await lostSaves(manifest, spike.saves);
  const acked = spike.saves.filter((s) => s.ok).length;
  options.log(`acknowledged saves: ${acked}; lost: ${lost.length}`);
  for (const l of lost.slice(0, 5)) options.log(`  lost: ${l}`);
  const maxRss = Math.max(...rss);
  options.log(
    `server RSS: idle ${idleRss.toFixed(0)} MB, during the spike max ${maxRss.toFixed(0)} MB`,
  );

  const lockP99 = p99Of(spike, ['lock']);
  const lockBase = p99Of(health, ['health lock']);
  const saveP99 = p99Of(spike, ['save']);
  const saveBase = p99Of(health, ['health save']);
  const perPoll = cost
    ? `; alone ${cost.transactions.toFixed(1)} transaction, ${cost.scans.toFixed(1)} scans, ` +
      `${cost.written.toFixed(1)} rows written (${cost.proposalsWritten.toFixed(1)} of proposals) a poll`
    : '';
  const results: FigureResult[] = [
    {
      figure: 'c',
      name: `deadline spike, ${open} open editors, ${EDITORS} saving, every request, p99, ${db}`,
      value: p99Of(spike),
      unit: 'ms',
      baseline: { name: 'same load on GET /live, p99', value: p99Of(health) },
      ratio: p99Of(spike) / Math.max(p99Of(health), 0.1),
    },
    {
      figure: 'c',
      name:
        `lock poll, ${open} open editors every 5 s (X-Merit-Tab), p99 (p50 ` +
        `${percentileOf(spike, ['lock'], 50).toFixed(1)} ms)${perPoll}`,
      value: lockP99,
      unit: 'ms',
      budget: { below: 20 },
      baseline: {
        name: `GET /live on the same timers, p99 (p50 ${percentileOf(health, ['health lock'], 50).toFixed(1)} ms)`,
        value: lockBase,
      },
      ratio: lockP99 / Math.max(lockBase, 0.1),
    },
    {
      figure: 'c',
      name: `save with versions (entryId, version), ${EDITORS} editors every 2 s, p99`,
      value: saveP99,
      unit: 'ms',
      budget: { below: 100 },
      baseline: { name: 'GET /live on the same timers, p99', value: saveBase },
      ratio: saveP99 / Math.max(saveBase, 0.1),
    },
    {
      figure: 'c',
      name: `deadline spike, errors and lost saves (of ${acked} acknowledged)`,
      value: spike.errors.length + lost.length,
      unit: '',
      budget: {
        checks: [
          { text: '0 errors', value: spike.errors.length, atMost: 0 },
          { text: '0 lost saves', value: lost.length, atMost: 0 },
        ],
      },
      baseline: { name: 'GET /live errors', value: health.errors.length },
      ratio: NaN,
    },
    {
      figure: 'c',
      name: 'server RSS during the spike, max',
      value: maxRss,
      unit: 'MB',
      budget: { below: 400 },
      baseline: { name: 'RSS at idle after start', value: idleRss },
      ratio: maxRss / idleRss,
    },
  ];
  if (!('url' in manifest.database)) {
    options.log('Scale-out needs PostgreSQL (one process per embedded database): skipped.');
    return results;
  }
  results.push(
    ...(await scaleOut(
      manifest,
      manifest.database.url,
      editors,
      pairs, // Outside the run's load when the manifest has one more editor; else the last
      // saver, not contested, whose tab the upload uses while it holds the lock.
      manifest.editors[open] ?? editors[EDITORS - 1]!,
      {
        seconds,
        saturateSeconds,
        singleP99: p99Of(spike),
        singleName: `1 process, no proxy, ${open} open editors, p99`,
        options,
      },
    )),
  );
  return results;
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const base64 = (text: string) => Buffer.from(text).toString('base64');

/**
 * One resumable upload as the web client sends it (tus, UPLOAD_CHUNK_BYTES a chunk) by
 * `editor` to their own draft, each chunk to the next of `servers` in turn (the first
 * chunk to the second process, after the first made the upload), then the file read
 * back through the proxy and compared byte for byte, and deleted again.
 */
async function uploadAcross(servers: readonly { url: string }[], proxyUrl: string, editor: Editor) {
  const bytes = randomBytes(UPLOAD_BYTES);
  const headers = {
    authorization: `Token ${editor.token}`,
    [TAB_HEADER]: tabOf(editor),
    'tus-resumable': '1.0.0',
  };
  const errors: string[] = [];
  const used = new Set<number>();
  const started = performance.now();
  const created = await fetch(`${servers[0]!.url}${API}/uploads/`, {
    method: 'POST',
    headers: {
      ...headers,
      'upload-length': String(bytes.length),
      'upload-metadata': `proposal ${base64(String(editor.proposalId))},filename ${base64('scale-out.bin')}`,
    },
  });
  const location = created.headers.get('location');
  let chunks = 0;
  if (created.status !== 201 || !location) {
    errors.push(`creating the upload answered ${created.status}: ${await created.text()}`);
  } else {
    used.add(0);
    for (let offset = 0; offset < bytes.length; offset += UPLOAD_CHUNK_BYTES, chunks += 1) {
      const to = (chunks + 1) % servers.length;
      const sent = await fetch(`${servers[to]!.url}${location}`, {
        method: 'PATCH',
        headers: {
          ...headers,
          'upload-offset': String(offset),
          'content-type': 'application/offset+octet-stream',
        },
        body: bytes.subarray(offset, offset + UPLOAD_CHUNK_BYTES),
      });
      if (sent.status !== 204) {
        errors.push(
          `chunk ${chunks} to process ${to + 1} answered ${sent.status}: ${await sent.text()}`,
        );
        break;
      }
      used.add(to);
    }
  }
  const seconds = (performance.now() - started) / 1000;
  let same = false;
  if (errors.length === 0) {
    const listed = (await (
      await fetch(`${proxyUrl}${API}/proposal_files/${editor.proposalId}/`, { headers })
    ).json()) as { id: number; uploadId: string | null }[];
    const file = listed.find((f) => f.uploadId === location!.split('/').pop());
    if (!file) errors.push('the finished upload made no file');
    else {
      const query = `proposal=${editor.proposalId}&file=${file.id}`;
      const got = await fetch(`${proxyUrl}${API}/proposal_file/?${query}`, { headers });
      same =
        got.status === 200 && sha256(new Uint8Array(await got.arrayBuffer())) === sha256(bytes);
      // The bench's data stays as generated for the next figure and run.
      const deleted = await fetch(`${proxyUrl}${API}/proposal_file/`, {
        method: 'DELETE',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ proposal: editor.proposalId, file: file.id }),
      });
      if (deleted.status !== 204) errors.push(`deleting the file answered ${deleted.status}`);
    }
  }
  return { bytes: bytes.length, chunks, processes: used.size, seconds, same, errors };
}

async function scaleOut(
  manifest: Manifest,
  url: string,
  editors: readonly Editor[],
  pairs: { proposalId: number; people: [Editor, Editor] }[],
  /** The upload's author (sent with the tab that holds the author's lock, if any). */
  uploader: Editor,
  run: {
    seconds: number;
    saturateSeconds: number;
    singleP99: number;
    /** What the one-process spike was: it had every open editor polling, this run 200. */
    singleName: string;
    options: FigureOptions;
  },
): Promise<FigureResult[]> {
  const { seconds, saturateSeconds, options } = run;
  options.log(
    `\n### Scale-out: ${PROCESSES} app processes behind bench/lib/proxy.ts, one PostgreSQL, one S3 bucket\n`,
  );
  const s3 = await startS3Server();
  const servers = await Promise.all(
    Array.from({ length: PROCESSES }, () => startProduction(manifest, url, s3.url)),
  );
  const throughput: number[] = [];
  const saturation: Run[] = [];
  let spike: Run;
  let events: Map<number, LockEvent[]>;
  let upload: Awaited<ReturnType<typeof uploadAcross>>;
  try {
    // Throughput through the proxy, to one process and then to all.
    for (const count of [1, PROCESSES]) {
      const proxy = await startProxy(servers.slice(0, count).map((s) => s.url));
      try {
        const runNow = newRun();
        const pids = Object.fromEntries([
          ['proxy', proxy.pid],
          ...servers.slice(0, count).map((s, i) => [`server ${i + 1}`, s.pid]),
        ]) as Record<string, number>;
        const m = await measured(pids, () =>
          saturate(new URL(proxy.url), editors, saturateSeconds, runNow),
        );
        throughput.push(m.value);
        saturation.push(runNow);
        for (const e of runNow.errors.slice(0, 3)) options.log(`  error: ${e}`);
        options.log(
          `${summary(`back to back, ${count} process${count > 1 ? 'es' : ''}`, runNow, m.cpu, m.lagP99)}; ` +
            `${m.value.toFixed(0)} answers/s`,
        );
      } finally {
        await proxy.stop();
      }
    }

    // The spike through the proxy to all, with the contested proposals and the upload.
    const proxy = await startProxy(servers.map((s) => s.url));
    try {
      const contested = new Set(pairs.map((p) => p.proposalId));
      spike = newRun();
      const base = new URL(proxy.url);
      const pids = Object.fromEntries([
        ['proxy', proxy.pid],
        ...servers.map((s, i) => [`server ${i + 1}`, s.pid]),
      ]) as Record<string, number>;
      const m = await measured(pids, async () => {
        const [, found, uploaded] = await Promise.all([
          editorsLoad(
            base,
            editors.filter((e) => !contested.has(e.proposalId)),
            EDITORS,
            seconds,
            false,
            spike,
          ),
          contestedLoad(base, pairs, seconds, spike, EDITORS),
          // A few seconds in, so that it runs beside the spike's load.
          sleep(2_000).then(() => uploadAcross(servers, proxy.url, uploader)),
        ]);
        return { found, uploaded };
      });
      events = m.value.found;
      upload = m.value.uploaded;
      options.log(
        summary(`spike, ${PROCESSES} processes, 20 proposals contested`, spike, m.cpu, m.lagP99),
      );
      options.log(
        `upload: ${(upload.bytes / 2 ** 20).toFixed(1)} MiB in ${upload.chunks} chunks to ` +
          `${upload.processes} processes in turn, ${upload.seconds.toFixed(1)} s, ` +
          `${upload.same ? 'the exact bytes back' : 'NOT the bytes sent'}`,
      );
      for (const e of upload.errors) options.log(`  upload: ${e}`);
      for (const e of spike.errors.slice(0, 5)) options.log(`  error: ${e}`);
      // A 500 is logged by the server that answered it: its errors, for whoever reads the run.
      if (spike.errors.some((e) => / 500: /.test(e)))
        for (const [i, s] of servers.entries())
          for (const line of s.logTail().split('\n'))
            if (/"level":50/.test(line)) options.log(`  server ${i + 1}: ${line.slice(0, 2_000)}`);
    } finally {
      await proxy.stop();
    }
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
    await s3.close();
  }
  const lost = await lostSaves(manifest, [...saturation.flatMap((r) => r.saves), ...spike.saves]);
  const { violations, handovers } = lockViolations(events);
  const refused = spike.saves.filter((s) => !s.ok).length;
  options.log(
    `lock: ${handovers} handovers between the two editors, ${violations.length} violations; ` +
      `saves refused as locked: ${refused}; acknowledged saves lost: ${lost.length}`,
  );
  for (const v of [...violations, ...lost].slice(0, 5)) options.log(`  ${v}`);
  const saturationErrors = saturation.reduce((n, r) => n + r.errors.length, 0);
  const source = 'issue 31, "Several machines"';
  return [
    {
      figure: 'c',
      name: `scale-out throughput, ${PROCESSES} processes, back to back, ${EDITORS} editors`,
      value: throughput[1]!,
      unit: 'req/s',
      budget: {
        atLeast: throughput[0]!,
        checks: [{ text: '0 errors', value: saturationErrors, atMost: 0 }],
        source,
      },
      baseline: { name: '1 process, same proxy', value: throughput[0]! },
      ratio: throughput[1]! / throughput[0]!,
    },
    {
      figure: 'c',
      name: `scale-out spike, ${PROCESSES} processes, p99`,
      value: p99Of(spike),
      unit: 'ms',
      budget: { below: 100, source },
      baseline: { name: run.singleName, value: run.singleP99 },
      ratio: p99Of(spike) / run.singleP99,
    },
    {
      figure: 'c',
      name: `scale-out, lock overlaps + lost saves + errors (${handovers} handovers, ${refused} refused saves)`,
      value: violations.length + lost.length + spike.errors.length,
      unit: '',
      budget: {
        checks: [
          { text: '0 lock overlaps', value: violations.length, atMost: 0 },
          { text: '0 lost saves', value: lost.length, atMost: 0 },
          { text: '0 errors', value: spike.errors.length, atMost: 0 },
          { text: 'the lock changed hands', value: handovers > 0 ? 0 : 1, atMost: 0 },
        ],
        source,
      },
      baseline: { name: 'lock handovers seen', value: handovers },
      ratio: NaN,
    },
    {
      figure: 'c',
      name:
        `scale-out upload, ${(upload.bytes / 2 ** 20).toFixed(1)} MiB in ${upload.chunks} chunks, ` +
        `each to the next process, read back through the proxy`,
      value: upload.processes,
      unit: 'processes',
      budget: {
        atLeast: 2,
        checks: [
          { text: 'the exact bytes', value: upload.same ? 0 : 1, atMost: 0 },
          { text: '0 errors', value: upload.errors.length, atMost: 0 },
        ],
        source,
      },
      baseline: { name: 'processes behind the proxy', value: PROCESSES },
    },
  ];
}

await runAlone(run, import.meta.url);
