/**
 * (h) Automatic reviewer assignment at scale (issue 31: "30,000 x 1,000, k = 4, under
 * 60 s, loads within 1 of the mean"; issue 27 before it). The generated call's proposals,
 * copied (submitted) into a call of their own whose committee has the current members
 * bench/lib/assignment-call.ts gives it, no reviewer assigned, neutral preferences and
 * default caps (made once and settled before each run). As the chair, against the
 * compiled server in production mode:
 *
 *   1. Propose: `PATCH .../assignment/settings/` to k = 4, then `POST
 *      .../assignment/proposals/` and `GET .../proposals/{id}/` every 200 ms until it is
 *      ready; wall time to the ready answer. Budget (issue 31): under 60 s, every
 *      member's load within 1 of the mean, no proposal unfilled.
 *      Baseline: `proposeAssignment` alone in this process on 10,000 x 300 (issue 27's
 *      size): the first 10,000 proposals and 300 members of the same problem (read by the
 *      server's own `loadProblem`), with the default cap of that size. Printed beside it:
 *      the solver alone on the whole problem, and whether its answer is the server's.
 *   2. Apply: `POST .../proposals/{id}/apply/`, wall time. Budget (issue 27): under 5 s.
 *      Baseline: one INSERT ... SELECT of the same rows into proposal_reviewers, rolled back.
 *   3. The matrix's first screen: `GET .../assignment/matrix/?page=1&page_size=200` once
 *      applied, median of 5 after 2 to warm up. Budget (issue 27): under 1.5 s.
 *      Baseline: one hand-written SQL query of the same page (its first 200 proposals by
 *      name, with their assignments), median of 5.
 *
 * On PostgreSQL Propose and Apply run 3 times (1 with --quick, or on PGlite, whose files
 * the server holds while it runs), each from no assignment and once the last Apply's
 * digest mails have gone (the server runs its jobs one at a time, so a Propose queued
 * behind 300 mails waits for them; the wait is logged); the figure is the median.
 * Every line the figure logs carries the load average, since a busy machine moves them all.
 *
 *   npx tsx bench/figures/h-assignment.ts [--quick] [--size N] [--manifest path]
 */
import { loadavg } from 'node:os';
import type { AssignmentOverview, AssignmentRun, MatrixResponse } from '@merit/contract';
import { defaultCap, proposeAssignment, type AssignmentProblem } from '@merit/domain';
import {
  ASSIGNMENT_K,
  ensureAssignmentCall,
  loadAssignmentProblem,
  resetAssignments,
  settleAssignmentCall,
  type AssignmentCall,
} from '../lib/assignment-call.js';
import { databaseName, runAlone, startBenchServer } from '../lib/bench-server.js';
import { timed, withDatabase, type Query } from '../lib/database.js';
import { readManifest } from '../lib/manifest.js';
import { median, type FigureOptions, type FigureResult } from '../lib/result.js';

/** The same seed for the server's runs and the baseline: the same answer. */
const SEED = 27;
const POLL_MS = 200;
const MATRIX_PAGE = 200;
const MATRIX_RUNS = 5;
/** Issue 27's problem, the baseline's size: proposals x members. */
const BASELINE_SHAPE = { proposals: 10_000, members: 300 };

/** The first page of the matrix by one query: the rows in the API's order with their assignments. */
export const MATRIX_SQL = `
with page as (
  select p.id, p.name, pt.name as type_name,
         coalesce(p.reviews_wanted, c.reviews_per_proposal) as wanted
  from proposals p
  join proposal_types pt on pt.id = p.proposal_type_id
  join calls c on c.id = p.call_id
  where p.call_id = $1 and p.state_val >= 1
  order by lower(p.name), p.id
  limit ${MATRIX_PAGE}
)
select page.*,
  (select coalesce(json_agg(json_build_object('userId', pr.user_id, 'locked', pr.locked)
            order by pr.user_id), '[]')
     from proposal_reviewers pr where pr.proposal_id = page.id) as cells
from page
order by lower(page.name), page.id`;

/** Apply's write alone: the pairs as one JSON parameter, as the server sends them. */
const INSERT_SQL = `
insert into proposal_reviewers (proposal_id, user_id)
select r.proposal_id, r.user_id
from jsonb_to_recordset($1::jsonb) as r(proposal_id int, user_id int)
on conflict do nothing`;

const load = () =>
  `load ${loadavg()
    .map((n) => n.toFixed(1))
    .join(' ')}`;
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The chair's requests to the server, failing on any answer but `status`. */
function chairApi(baseUrl: string, token: string) {
  return async <T>(method: string, path: string, status: number, body?: unknown) => {
    const res = await fetch(`${baseUrl}/api/v1${path}`, {
      method,
      headers: {
        authorization: `Token ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status !== status)
      throw new Error(`${method} ${path} answered ${res.status}: ${text.slice(0, 400)}`);
    return { body: (text ? JSON.parse(text) : null) as T, bytes: text.length };
  };
}
type ChairApi = ReturnType<typeof chairApi>;

interface Proposed {
  ms: number;
  run: AssignmentRun;
  /** From the POST to the first poll that saw progress (the job has loaded the problem). */
  firstProgressMs: number | undefined;
  /** The last poll alone: the preview read and sent. */
  readyReadMs: number;
  readyBytes: number;
  polls: number;
}

async function propose(api: ChairApi, callId: number): Promise<Proposed> {
  const base = `/calls/${callId}/assignment/proposals/`;
  const started = performance.now();
  const { body: started202 } = await api<{ id: number }>('POST', base, 202, { seed: SEED });
  let firstProgressMs: number | undefined;
  for (let polls = 1; ; polls++) {
    await sleep(POLL_MS);
    const asked = performance.now();
    const { body: run, bytes } = await api<AssignmentRun>('GET', `${base}${started202.id}/`, 200);
    const now = performance.now();
    if (run.state === 'failed')
      throw new Error(`Propose failed: ${run.error ?? 'no reason given'}`);
    if (run.state === 'ready')
      return {
        ms: now - started,
        run,
        firstProgressMs,
        readyReadMs: now - asked,
        readyBytes: bytes,
        polls,
      };
    if (firstProgressMs === undefined && run.progress > 0) firstProgressMs = now - started;
  }
}

/**
 * Waits until no job is due (the server's runner takes them one at a time, in order, so a
 * Propose queued behind 300 digest mails waits for them); how long that took, in ms.
 */
async function jobsDrained(query: Query): Promise<number> {
  const started = performance.now();
  for (;;) {
    const { rows } = await query(
      'select count(*)::int as due from jobs where failed_at is null and run_at <= now()',
      [],
    );
    if ((rows[0] as { due: number }).due === 0) return performance.now() - started;
    if (performance.now() - started > 120_000)
      throw new Error('The job queue did not drain in two minutes.');
    await sleep(POLL_MS);
  }
}

/**
 * How long after the POST's transaction began the propose job began: the run's
 * `created_at` is the POST's clock and its `finished_at` the job's (`JobContext.now`).
 */
async function jobStartedAfter(query: Query, runId: number): Promise<number> {
  const { rows } = await query(
    `select extract(epoch from finished_at - created_at) * 1000 as ms
     from assignment_runs where id = $1`,
    [runId],
  );
  return Number((rows[0] as { ms: number }).ms);
}

/** Every member's load after the run against the mean: within 1 of it, and the spread. */
function balance(run: AssignmentRun) {
  const after = run.loads.map((member) => member.after);
  const mean = after.reduce((sum, n) => sum + n, 0) / Math.max(1, after.length);
  const max = Math.max(...after);
  const min = Math.min(...after);
  return {
    mean,
    min,
    max,
    /** The farthest any member's load lies from the mean. */
    distance: Math.max(...after.map((n) => Math.abs(n - mean))),
  };
}

/**
 * The first `proposals` proposals and `members` members of `problem`, with the pairs,
 * bids and assignments among them, and every member at the default cap of that size (the
 * whole problem's caps are sized for its own slots): a call of that size as made.
 */
function firstOf(problem: AssignmentProblem, proposals: number, members: number) {
  const kept = problem.proposals.slice(0, proposals);
  const people = problem.members.slice(0, members);
  const ids = new Set(kept.map((p) => p.id));
  const userIds = new Set(people.map((m) => m.id));
  const slots = kept.reduce((sum, p) => sum + p.wanted, 0);
  const cap = defaultCap(slots, people.length);
  const among = (proposalId: number, userId: number) => ids.has(proposalId) && userIds.has(userId);
  return {
    ...problem,
    proposals: kept,
    members: people.map((member) => ({ ...member, cap })),
    excluded: problem.excluded.filter(([proposalId, userId]) => among(proposalId, userId)),
    preferences: problem.preferences.filter((bid) => among(bid.proposalId, bid.userId)),
    existing: problem.existing.filter((pair) => among(pair.proposalId, pair.userId)),
  } satisfies AssignmentProblem;
}

export async function run(options: FigureOptions): Promise<FigureResult[]> {
  const manifest = await readManifest(options.manifestPath);
  const db = databaseName(manifest);
  const postgres = 'url' in manifest.database;
  const rounds = options.quick || !postgres ? 1 : 3;
  const log = options.log;
  log(`\n## (h) Reviewer assignment at scale, ${db}, ${rounds} run(s), ${load()}\n`);

  // The call, made once, settled: no assignments, no runs, k at its default.
  const making = performance.now();
  const call: AssignmentCall = await withDatabase(manifest, async (query) => {
    const found = await ensureAssignmentCall(query, manifest, new Date());
    await settleAssignmentCall(query, found, new Date());
    return found;
  });
  log(
    `call ${call.callId}: ${call.proposals} submitted proposals, ${call.members} members, ` +
      `${call.conflicts} declared conflicts; ${call.made ? 'made' : 'found'} and settled in ` +
      `${seconds(performance.now() - making)}`,
  );

  const proposed: Proposed[] = [];
  const applied: number[] = [];
  const matrix: number[] = [];
  let pairs: { proposal_id: number; user_id: number }[] = [];
  try {
    const server = await startBenchServer(manifest);
    try {
      const api = chairApi(server.url, manifest.chair.token);
      const { body: overview } = await api<AssignmentOverview>(
        'PATCH',
        `/calls/${call.callId}/assignment/settings/`,
        200,
        { reviewsPerProposal: ASSIGNMENT_K },
      );
      const { counts } = overview;
      log(
        `k ${overview.reviewsPerProposal}: ${counts.proposals} proposals, ${counts.slots} slots, ` +
          `${counts.members} members, default cap ${overview.defaultCap}, capacity ` +
          `${counts.capacity} (short ${counts.short})`,
      );

      for (let round = 1; round <= rounds; round++) {
        // PostgreSQL only (the bench's connection beside the server's): the next run starts
        // from no assignment, with the last Apply's digest mails sent.
        if (round > 1) {
          const waited = await withDatabase(manifest, async (query) => {
            await resetAssignments(query, call.callId);
            return jobsDrained(query);
          });
          log(`the job queue (the last Apply's digest mails) drained in ${seconds(waited)}`);
        }
        const result = await propose(api, call.callId);
        proposed.push(result);
        const even = balance(result.run);
        const pickup = postgres
          ? await withDatabase(manifest, (query) => jobStartedAfter(query, result.run.id))
          : undefined;
        log(
          `propose ${round}: ${seconds(result.ms)} (${result.polls} polls; ` +
            (pickup === undefined ? '' : `the job began ${pickup.toFixed(0)} ms after the POST; `) +
            `progress first seen at ` +
            `${result.firstProgressMs === undefined ? 'never' : seconds(result.firstProgressMs)}; ` +
            `the ready answer ${(result.readyBytes / 1e6).toFixed(1)} MB in ` +
            `${result.readyReadMs.toFixed(0)} ms); added ${result.run.added.length}, unfilled ` +
            `${result.run.unfilled.length}; loads ${even.min}-${even.max} (max-min ` +
            `${even.max - even.min}), mean ${even.mean.toFixed(2)}, farthest from it ` +
            `${even.distance.toFixed(2)}; ${load()}`,
        );
        pairs = result.run.added.map((pair) => ({
          proposal_id: pair.proposalId,
          user_id: pair.userId,
        }));
        const started = performance.now();
        const { body: saved } = await api<{ added: number; removed: number; mailed: number }>(
          'POST',
          `/calls/${call.callId}/assignment/proposals/${result.run.id}/apply/`,
          200,
        );
        applied.push(performance.now() - started);
        log(
          `apply ${round}: ${seconds(applied.at(-1)!)}; added ${saved.added}, removed ` +
            `${saved.removed}, mailed ${saved.mailed}; ${load()}`,
        );
      }

      const path = `/calls/${call.callId}/assignment/matrix/?page=1&page_size=${MATRIX_PAGE}`;
      const { body: first, bytes } = await api<MatrixResponse>('GET', path, 200);
      const cells = first.rows.reduce((sum, row) => sum + row.cells.length, 0);
      matrix.push(...(await timed(MATRIX_RUNS, () => api('GET', path, 200), 2)));
      log(
        `matrix: ${first.rows.length} rows of ${first.count}, ${first.members.length} columns, ` +
          `${cells} cells, ${(bytes / 1e3).toFixed(0)} KB; ms ${matrix
            .map((t) => t.toFixed(0))
            .join(' ')}; ${load()}`,
      );
    } finally {
      await server.stop();
    }

    // The baselines, with the server stopped (an embedded database is the bench's again).
    const sql = await withDatabase(manifest, async (query) => {
      const { rows } = await query(MATRIX_SQL, [call.callId]);
      if (rows.length !== Math.min(MATRIX_PAGE, call.proposals))
        throw new Error(`The matrix's baseline query returned ${rows.length} rows.`);
      const matrixTimes = await timed(MATRIX_RUNS, () => query(MATRIX_SQL, [call.callId]), 2);
      // What Propose started from: no assignment.
      await resetAssignments(query, call.callId);
      return { matrixTimes };
    });
    log(`matrix SQL ms: ${sql.matrixTimes.map((t) => t.toFixed(0)).join(' ')}; ${load()}`);

    const { problem, loadMs, digestMs } = await loadAssignmentProblem(manifest, call.callId, SEED);
    log(
      `the problem as Propose's job reads it: ${problem.proposals.length} proposals, ` +
        `${problem.members.length} members, ${problem.excluded.length} excluded pairs; ` +
        `loadProblem ${loadMs.toFixed(0)} ms, problemDigest ${digestMs.toFixed(0)} ms; ${load()}`,
    );
    const cloneStarted = performance.now();
    structuredClone(problem);
    log(
      `the problem copied to a worker (structuredClone): ${(performance.now() - cloneStarted).toFixed(0)} ms`,
    );
    const solverTimes: number[] = [];
    let same = true;
    for (let round = 1; round <= rounds; round++) {
      const started = performance.now();
      const result = proposeAssignment(problem);
      solverTimes.push(performance.now() - started);
      const served = proposed[round - 1]!.run.added;
      same &&=
        result.added.length === served.length &&
        result.added.every(
          (pair, i) =>
            pair.proposalId === served[i]!.proposalId && pair.userId === served[i]!.userId,
        );
      log(
        `proposeAssignment ${round}: ${seconds(solverTimes.at(-1)!)}, added ` +
          `${result.added.length}, cost ${result.cost}, result ${(JSON.stringify(result).length / 1e6).toFixed(1)} MB ` +
          `as JSON; ${load()}`,
      );
    }
    log(`the server's answer is the solver's alone, pair for pair: ${same ? 'yes' : 'NO'}`);

    // The baseline: the same solver on issue 27's size, cut from the same problem.
    const small = firstOf(problem, BASELINE_SHAPE.proposals, BASELINE_SHAPE.members);
    const smallShape = `${small.proposals.length} x ${small.members.length}`;
    const smallTimes: number[] = [];
    for (let round = 1; round <= rounds; round++) {
      const started = performance.now();
      const result = proposeAssignment(small);
      smallTimes.push(performance.now() - started);
      log(
        `proposeAssignment on ${smallShape} (cap ${small.members[0]?.cap}) ${round}: ` +
          `${seconds(smallTimes.at(-1)!)}, added ${result.added.length}, unfilled ` +
          `${result.unfilled.length}; ${load()}`,
      );
    }

    const insertTimes = await withDatabase(manifest, async (query) => {
      const param = JSON.stringify(pairs);
      const times: number[] = [];
      for (let round = 1; round <= rounds; round++) {
        await query('begin', []);
        try {
          const started = performance.now();
          await query(INSERT_SQL, [param]);
          times.push(performance.now() - started);
        } finally {
          await query('rollback', []);
        }
      }
      return times;
    });
    log(
      `INSERT ... SELECT of the ${pairs.length} pairs, rolled back, ms: ` +
        `${insertTimes.map((t) => t.toFixed(0)).join(' ')}; ${load()}`,
    );

    const proposeMs = median(proposed.map((p) => p.ms));
    const even = proposed.map((p) => balance(p.run));
    const distance = Math.max(...even.map((b) => b.distance));
    const unfilled = Math.max(...proposed.map((p) => p.run.unfilled.length));
    const shape = `${call.proposals} x ${call.members}, k ${ASSIGNMENT_K}`;
    const spread = Math.max(...even.map((b) => b.max - b.min));
    return [
      {
        figure: 'h',
        name: `Propose, ${shape}, POST to ready, ${db}, median of ${rounds} (loads max-min ${spread})`,
        value: proposeMs / 1000,
        unit: 's',
        budget: {
          below: 60,
          checks: [
            { text: 'loads within 1 of the mean', value: distance, atMost: 1 },
            { text: 'none unfilled', value: unfilled, atMost: 0 },
          ],
        },
        baseline: {
          name: `proposeAssignment alone on ${smallShape}`,
          value: median(smallTimes) / 1000,
        },
      },
      {
        figure: 'h',
        name: `matrix first screen, ${MATRIX_PAGE} rows x ${call.members} members, ${db}, median of ${MATRIX_RUNS}`,
        value: median(matrix),
        unit: 'ms',
        budget: { below: 1_500, source: 'issue 27' },
        baseline: {
          name: 'one SQL query (page, assignments), median',
          value: median(sql.matrixTimes),
        },
      },
      {
        figure: 'h',
        name: `Apply, ${pairs.length} assignments, ${db}, median of ${rounds}`,
        value: median(applied),
        unit: 'ms',
        budget: { below: 5_000, source: 'issue 27' },
        baseline: { name: 'one INSERT ... SELECT, rolled back', value: median(insertTimes) },
      },
    ];
  } finally {
    // As made: the next run, and the other figures, find it settled.
    await withDatabase(manifest, (query) => settleAssignmentCall(query, call, new Date()));
  }
}

await runAlone(run, import.meta.url);
