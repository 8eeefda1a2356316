/**
 * (i) The decision meeting at scale: the Ranking page (issue 31: "ranking page ... first
 * content under 1 s, server under 100 ms, baseline the list page"), and one award edit
 * and releasing the letters (issue 29's budgets).
 *
 * On a closed copy of the generated call with its submitted proposals, their resource
 * requests and scores, capacities and every proposal's outcome and awards
 * (bench/lib/decisions-call.ts), against the compiled server in production mode:
 *
 *   1. Ranking, the server: `GET /calls/{id}/ranking/` as the chair (the answer the page
 *      waits for), median of 5 after 2. Budget: under 100 ms. Baseline: the answer the
 *      chair's list page asks for first (100 rows), the same way.
 *   2. Ranking, the page: /calls/{id}/ranking opened in Chromium's headless shell
 *      (bench/lib/browser.ts `openTimed`) signed in as the chair in a fresh context, from
 *      navigation to the Ranking table's first row painted, median of 5. Budget: under
 *      1 s. Baseline: the chair's list page of the generated call ((e)'s page) to its
 *      first row.
 *   3. One award edit: `POST /proposals/{id}/decision/` of an approved proposal, its award
 *      one lower and back again, each from the version the last answered: wall time on
 *      this machine's loopback to the answer read, which carries the call's awarded totals
 *      (`awarded`) the page updates its totals from, median of 9 after 2. Budget (issue
 *      29): under 100 ms. Baseline: what the page did before the answer carried them, and
 *      still does after a move or a capacity change: `GET /calls/{id}/ranking/` (the
 *      whole ranking again), median of 5.
 *   4. Release: `POST /calls/{id}/release_decisions/` until its answer (each letter written
 *      and its job queued in the transaction), every proposal's letter. Budget (issue 29):
 *      under 10 s. Baseline: one INSERT ... SELECT of the same letter rows, copied, rolled
 *      back. On PostgreSQL 3 rounds (1 with --quick or on PGlite), each from nothing
 *      released. After the last one, the letter job's pace (PDFs made and letters sent per
 *      second, for DRAIN_SECONDS) and the event loop as a request feels it meanwhile: the
 *      time of `GET /api/v1/health`, asked every 100 ms.
 *
 *   npx tsx bench/figures/i-ranking.ts [--quick] [--size N] [--manifest path]
 */
import { loadavg } from 'node:os';
import type { Page } from 'playwright-core';
import type { CallRanking, ProposalDecision } from '@merit/contract';
import { databaseName, listAnswerTimes, runAlone, startBenchServer } from '../lib/bench-server.js';
import { launchBrowser, openListPage, openTimed, signedInPage } from '../lib/browser.js';
import { numberOf, timed, withDatabase, type Query } from '../lib/database.js';
import {
  ensureDecisionsCall,
  lastJobId,
  settleDecisionsCall,
  type DecisionsCall,
} from '../lib/decisions-call.js';
import { readManifest } from '../lib/manifest.js';
import { median, percentile, type FigureOptions, type FigureResult } from '../lib/result.js';

const PAGE_RUNS = 5;
const RANKING_RUNS = 5;
const EDIT_RUNS = 9;
/** How long the letter job's pace is watched after the last release. */
const DRAIN_SECONDS = 20;

const load = () =>
  `load ${loadavg()
    .map((n) => n.toFixed(1))
    .join(' ')}`;
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const list = (times: number[]) => times.map((t) => t.toFixed(0)).join(' ');

/** A request as a browser sends it (Brotli asked for), failing on any status but `ok`. */
async function api<T>(
  baseUrl: string,
  token: string,
  path: string,
  init: { method?: string; body?: unknown; ok?: number } = {},
): Promise<{ body: T; bytes: number }> {
  const res = await fetch(`${baseUrl}/api/v1${path}`, {
    method: init.method ?? 'GET',
    headers: {
      authorization: `Token ${token}`,
      'accept-encoding': 'gzip, deflate, br',
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  const text = await res.text();
  if (res.status !== (init.ok ?? 200))
    throw new Error(
      `${init.method ?? 'GET'} ${path} answered ${res.status}: ${text.slice(0, 400)}`,
    );
  return { body: JSON.parse(text) as T, bytes: text.length };
}

/** The release's letters copied by one INSERT ... SELECT, rolled back: ms and rows. */
async function insertLettersOnce(query: Query, callId: number) {
  await query('begin', []);
  try {
    const started = performance.now();
    const n = await numberOf(
      query,
      `with copied as (
         insert into decision_letters (proposal_id, decision_version, letters_version, outcome,
                                       subject, body_text, body_html, state, created_at,
                                       created_by)
         select l.proposal_id, l.decision_version, l.letters_version + 1000, l.outcome,
                l.subject, l.body_text, l.body_html, 'queued', l.created_at, l.created_by
         from decision_letters l join proposals p on p.id = l.proposal_id
         where p.call_id = $1
         returning 1)
       select count(*) from copied`,
      [callId],
    );
    return { ms: performance.now() - started, rows: n };
  } finally {
    await query('rollback', []);
  }
}

export async function run(options: FigureOptions): Promise<FigureResult[]> {
  const manifest = await readManifest(options.manifestPath);
  const db = databaseName(manifest);
  const postgres = 'url' in manifest.database;
  const rounds = options.quick || !postgres ? 1 : 3;
  const log = options.log;
  const token = manifest.chair.token;
  log(
    `\n## (i) The decision meeting: ranking, an award edit, releasing letters, ${db}, ${load()}\n`,
  );

  /** Jobs with a larger id are the releases' (the letters' jobs and their mails). */
  let sinceJob = 0;
  const making = performance.now();
  const call: DecisionsCall = await withDatabase(manifest, async (query) => {
    const made = await ensureDecisionsCall(query, manifest, new Date());
    await settleDecisionsCall(query, made);
    sinceJob = await lastJobId(query);
    return made;
  });
  log(
    `decisions call ${call.callId}: ${call.proposals} submitted proposals, ${call.decided} with ` +
      `an outcome, ${call.capacities} capacities; ${call.made ? 'made' : 'found'} in ` +
      `${seconds(performance.now() - making)}`,
  );

  const rankingTimes: number[] = [];
  const pageTimes: number[] = [];
  const listPageTimes: number[] = [];
  let listTimes: number[] = [];
  const editTimes: number[] = [];
  const releaseTimes: number[] = [];
  const queuedCounts: number[] = [];
  let shape = '';
  let drain = '';
  /** The answers of the edits carried the call's awarded totals. */
  let carried = false;
  const server = await startBenchServer(manifest);
  try {
    // 1. The ranking: the answer, then the page.
    const getRanking = () => api<CallRanking>(server.url, token, `/calls/${call.callId}/ranking/`);
    const coldStarted = performance.now();
    const first = await getRanking();
    const coldMs = performance.now() - coldStarted;
    shape =
      `${first.body.rows.length} rows x ${first.body.lines.length} fields, ` +
      `${(first.bytes / 1e6).toFixed(2)} MB`;
    if (first.body.rows.length < call.proposals - 20)
      throw new Error(`The ranking is short: ${shape}.`);
    const below = first.body.lines.filter((line) => line.firstBelow !== null).length;
    log(
      `ranking: ${shape}; ${below} lines inside the list; the first request (a fresh server) ` +
        `${coldMs.toFixed(0)} ms`,
    );
    rankingTimes.push(...(await timed(RANKING_RUNS, getRanking, 2)));
    listTimes = await listAnswerTimes(server.url, manifest, RANKING_RUNS);
    log(
      `ranking GET ms: ${list(rankingTimes)}; the list's answer ms: ${list(listTimes)}; ${load()}`,
    );

    const browser = await launchBrowser();
    try {
      const opened = async (url: string, selector: string) => {
        const page: Page = await signedInPage(browser, token);
        try {
          return await openTimed(page, url, selector);
        } finally {
          await page.context().close();
        }
      };
      for (let run = 0; run < PAGE_RUNS; run++) {
        pageTimes.push(
          await opened(
            `${server.url}/calls/${call.callId}/ranking`,
            'table[aria-label="Ranking"] tbody tr',
          ),
        );
        listPageTimes.push(await openListPage(browser, server.url, manifest.callId, token));
      }
    } finally {
      await browser.close();
    }
    log(`ranking page ms: ${list(pageTimes)}; list page ms: ${list(listPageTimes)}; ${load()}`);

    // 2. One award edit: an approved proposal's first award one lower, then back.
    const row = first.body.rows.find(
      (r) =>
        r.decide &&
        r.outcome === 'approved' &&
        Object.values(r.awards).some((fields) => Object.values(fields).some((a) => a >= 2)),
    );
    if (!row) throw new Error('No approved proposal with an award to edit.');
    const [facility, fields] = Object.entries(row.awards).find(([, f]) =>
      Object.values(f).some((a) => a >= 2),
    )!;
    const field = Object.keys(fields).find((f) => fields[f]! >= 2)!;
    const full = fields[field]!;
    let version = row.version;
    let lower = true;
    let awarded: unknown;
    const edit = async () => {
      const awards = structuredClone(row.awards);
      awards[facility]![field] = lower ? full - 1 : full;
      lower = !lower;
      const { body } = await api<ProposalDecision & { awarded?: unknown }>(
        server.url,
        token,
        `/proposals/${row.proposalId}/decision/`,
        {
          method: 'POST',
          body: { outcome: 'approved', awards, awardNotes: {}, version },
        },
      );
      version = body.version;
      awarded = body.awarded;
      carried = awarded !== undefined;
    };
    editTimes.push(...(await timed(EDIT_RUNS, edit, 2)));
    // An even number of edits leaves it as it was (2 warm-up + 9 runs: one more).
    if (!lower) await edit();
    log(
      `award edit (${facility || 'unnamed'}: ${field} ${full} and ${full - 1}) ms: ` +
        `${list(editTimes)}; awarded totals in the answer: ` +
        `${awarded === undefined ? 'none' : JSON.stringify(awarded)}; ${load()}`,
    );

    // 3. Releases, each from nothing released.
    for (let round = 0; round < rounds; round++) {
      const started = performance.now();
      const { body } = await api<{ queued: number; withoutOutcome: number }>(
        server.url,
        token,
        `/calls/${call.callId}/release_decisions/`,
        { method: 'POST', body: {} },
      );
      releaseTimes.push(performance.now() - started);
      queuedCounts.push(body.queued);
      log(
        `release ${round + 1}: ${body.queued} letters queued, ${body.withoutOutcome} without an ` +
          `outcome, ${seconds(releaseTimes.at(-1)!)}; ${load()}`,
      );
      if (round < rounds - 1)
        await withDatabase(manifest, (query) => settleDecisionsCall(query, call, sinceJob));
    }

    // The letter job after the last release: its pace, and a request's wait meanwhile.
    const health: number[] = [];
    const drainStarted = performance.now();
    // PGlite's files are the server's while it runs: counted on PostgreSQL only.
    const counts = await (postgres ? withDatabase : noDatabase)(manifest, async (query) => {
      const stop = performance.now() + DRAIN_SECONDS * 1000;
      const pings = (async () => {
        while (performance.now() < stop) {
          const at = performance.now();
          await fetch(`${server.url}/api/v1/health`).then((res) => res.arrayBuffer());
          health.push(performance.now() - at);
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      })();
      await pings;
      return {
        pdfs: await numberOf(
          query,
          `select count(*) from decision_letters l join proposals p on p.id = l.proposal_id
           where p.call_id = $1 and l.storage_key is not null`,
          [call.callId],
        ),
        sent: await numberOf(
          query,
          `select count(*) from decision_letters l join proposals p on p.id = l.proposal_id
           where p.call_id = $1 and l.state = 'sent'`,
          [call.callId],
        ),
      };
    });
    const drainS = (performance.now() - drainStarted) / 1000;
    drain =
      `${counts.pdfs} PDFs made and ${counts.sent} letters sent in ${drainS.toFixed(1)} s ` +
      `(${(counts.sent / drainS).toFixed(1)} letters/s); GET /health meanwhile p50 ` +
      `${median(health).toFixed(0)} ms, p95 ${percentile(health, 95).toFixed(0)} ms, max ` +
      `${Math.max(...health).toFixed(0)} ms over ${health.length} requests`;
    log(`letter job: ${drain}; ${load()}`);
  } finally {
    await server.stop();
  }

  const baseline = await withDatabase(manifest, async (query) => {
    const copied = await insertLettersOnce(query, call.callId);
    // What the stopped server left of the last release: its letters, their jobs and mails.
    await settleDecisionsCall(query, call, sinceJob);
    return copied;
  });
  log(`letters copied by SQL: ${baseline.rows} in ${baseline.ms.toFixed(0)} ms`);

  const shortRounds = queuedCounts.filter((n) => n !== call.decided).length;
  return [
    {
      figure: 'i',
      name: `Ranking answer (server), ${shape}, median of ${RANKING_RUNS}`,
      value: median(rankingTimes),
      unit: 'ms',
      budget: { below: 100 },
      baseline: { name: 'the list page’s answer, 100 rows, median', value: median(listTimes) },
    },
    {
      figure: 'i',
      name: `Ranking page in Chromium, to the first row, median of ${PAGE_RUNS}`,
      value: median(pageTimes),
      unit: 'ms',
      budget: { below: 1_000 },
      baseline: { name: 'the chair’s list page to its first row', value: median(listPageTimes) },
    },
    {
      figure: 'i',
      name: `One award edit: POST decision answering the awarded totals, median of ${EDIT_RUNS}`,
      value: median(editTimes),
      unit: 'ms',
      budget: {
        below: 100,
        checks: [{ text: 'totals in the answer', value: carried ? 0 : 1, atMost: 0 }],
        source: 'issue 29',
      },
      baseline: {
        name: 'the whole ranking again (GET ranking), median',
        value: median(rankingTimes),
      },
    },
    {
      figure: 'i',
      name: `Release: ${queuedCounts.at(-1)} letters written and queued, ${db}, median of ${rounds}`,
      value: median(releaseTimes),
      unit: 'ms',
      budget: {
        below: 10_000,
        checks: [{ text: `every round ${call.decided} queued`, value: shortRounds, atMost: 0 }],
        source: 'issue 29',
      },
      baseline: {
        name: 'one INSERT ... SELECT of the same letters, rolled back',
        value: baseline.ms,
      },
    },
  ];
}

/** In place of withDatabase where the database cannot be read: nothing is counted. */
const noDatabase = async <T>(_manifest: unknown, use: (query: Query) => Promise<T>) =>
  use(async () => ({ rows: [] }));

await runAlone(run, import.meta.url);
