/**
 * (i) The chair's review progress (issue 31: "progress page ... first content under 1 s,
 * server under 100 ms, baseline the list page"; issue 28 before it), and the reminders'
 * sweep at scale (issue 28).
 *
 *   1. Progress, the server: `GET /calls/{id}/progress/` as the chair, against the
 *      compiled server in production mode, on the generated proposals and the members
 *      bench/lib/progress-call.ts gives a call of their own with k = 4 assigned and 6 in
 *      10 reviews saved, the chair conflicted with 10 proposals; wall time to the whole
 *      answer read and parsed, median of 5 after 2 to warm up. Budget: under 100 ms.
 *      Baseline: the answer the chair's list page asks for first (100 rows), the same way.
 *      Printed beside it: the same numbers by hand-written SQL through `pg` (three
 *      queries, one after another on one connection: the proposals, the members, the
 *      saves per day), median of 5.
 *   2. Progress, the page: /calls/{id}/progress opened in Chromium's headless shell
 *      (bench/lib/browser.ts `openTimed`) signed in as the chair in a fresh context, from
 *      navigation to the Members table's first row painted, median of 5. Budget: under
 *      1 s. Baseline: the chair's list page of the generated call ((e)'s page) to its
 *      first row. Printed too: the same page in the full Chromium the e2e suite drives.
 *   3. Sweep: one call of the server's `sweepReminders(db, now, log)` (the schedule's job,
 *      reminders.sweep.ts) in this process with the server stopped, on a call with 10,000
 *      Drafts by 10,000 applicants whose "submission closes tomorrow" reminder is due
 *      (bench/lib/sweep-call.ts): it must find 10,000 reminders and queue 10,000 mails.
 *      Every other call's rules are off for it, and what it queued is taken away after.
 *      Budget (issue 28): under 10 s. Baseline: one INSERT ... SELECT of the 10,000 mail
 *      jobs it queued (the same rows, copied, rolled back).
 *
 * On PostgreSQL the sweep runs 3 times (1 with --quick, or on PGlite), each from nothing
 * sent; the figure is the median. Every line the figure logs carries the load average.
 *
 *   npx tsx bench/figures/i-progress.ts [--quick] [--size N] [--manifest path]
 */
import { loadavg } from 'node:os';
import type { Page } from 'playwright-core';
import type { CallProgress } from '@merit/contract';
import { openDatabase } from '../../apps/server/src/db/client.js';
import { embeddedDatabaseDir } from '../../apps/server/src/db/template.js';
import { sweepReminders } from '../../apps/server/src/modules/reminders/reminders.sweep.js';
import { SEND_MAIL_JOB } from '../../apps/server/src/platform/io/mail-job.js';
import { databaseName, listAnswerTimes, runAlone, startBenchServer } from '../lib/bench-server.js';
import { timed, withDatabase, type Query } from '../lib/database.js';
import { readManifest, type Manifest } from '../lib/manifest.js';
import { ensureProgressCall, PROGRESS_K, settleProgressCall } from '../lib/progress-call.js';
import {
  launchBrowser,
  launchFullChromium,
  openListPage,
  openTimed,
  signedInPage,
} from '../lib/browser.js';
import { median, type FigureOptions, type FigureResult } from '../lib/result.js';
import {
  armSweepCall,
  disarmSweepCall,
  ensureSweepCall,
  SWEEP_RECIPIENTS,
} from '../lib/sweep-call.js';

const PROGRESS_RUNS = 5;
/** Loads of the Progress page (and of its baseline) in Chromium. */
const PAGE_RUNS = 5;

/**
 * The proposals the reader follows ($1 the call, $2 the reader): submitted, not theirs,
 * no enforced conflict of theirs (confirmed, not overridden).
 */
const VISIBLE = `visible as materialized (
  select p.id, p.name, p.proposal_type_id, p.author_id,
         coalesce(p.reviews_wanted, k.reviews_per_proposal) as wanted
  from proposals p join calls k on k.id = p.call_id
  where p.call_id = $1 and p.state_val >= 1 and p.author_id <> $2
    and not exists (select 1 from proposal_collaborators pc
                    where pc.proposal_id = p.id and pc.user_id = $2)
    and not (k.conflicts_enabled and exists (select 1 from conflicts x
      where x.proposal_id = p.id and x.user_id = $2 and x.state = 'confirmed'
        and not exists (select 1 from proposal_reviewers o where o.proposal_id = x.proposal_id
                        and o.user_id = x.user_id and o.override_reason is not null))))`;

/** Each proposal: reviews, k, spread, and a reviewer's late conflict. */
export const PROPOSALS_SQL = `
with ${VISIBLE}
select v.id, v.name, pt.name as type_name, v.wanted, s.saved, s.score_min, s.score_max,
       s.score_sd,
       exists (select 1 from conflict_declarations d
               join conflicts c on c.proposal_id = d.proposal_id and c.user_id = d.user_id
               where d.proposal_id = v.id and d.conflict and c.state = 'confirmed'
                 and (exists (select 1 from reviews rr
                              where rr.proposal_id = d.proposal_id and rr.reviewer_id = d.user_id)
                   or exists (select 1 from audit_log a
                              where a.entity_type = 'proposal' and a.entity_id = d.proposal_id
                                and a.action = 'proposal.remove_reviewer'
                                and a.actor_id = d.user_id and a.at = d.at))) as late
from visible v
join proposal_types pt on pt.id = v.proposal_type_id
cross join lateral (
  select count(*)::int as saved, min(r.score) as score_min, max(r.score) as score_max,
         stddev_pop(r.score) as score_sd
  from reviews r where r.proposal_id = v.id) s
order by lower(v.name), v.id`;

/** Each member ($3 now, $4 the committee): assigned and saved, and their last reminder. */
export const MEMBERS_SQL = `
with ${VISIBLE},
pairs as materialized (
  select a.proposal_id, a.user_id, v.author_id
  from visible v join proposal_reviewers a on a.proposal_id = v.id),
counted as (
  select x.user_id, count(*)::int as assigned, count(r.id)::int as saved
  from pairs x
  left join reviews r on r.proposal_id = x.proposal_id and r.reviewer_id = x.user_id
  where x.user_id <> x.author_id
    and not exists (select 1 from proposal_collaborators pc
                    where pc.proposal_id = x.proposal_id and pc.user_id = x.user_id)
    and not exists (select 1 from conflicts c
      where c.proposal_id = x.proposal_id and c.user_id = x.user_id and c.state = 'confirmed'
        and not exists (select 1 from proposal_reviewers o where o.proposal_id = c.proposal_id
                        and o.user_id = c.user_id and o.override_reason is not null))
  group by x.user_id),
people as (
  select user_id from counted
  union
  select cr.user_id from committee_roles cr join users u on u.id = cr.user_id
  where cr.committee_id = $4 and u.is_active and cr.commencement <= $3 and cr.termination >= $3)
select u.id, coalesce(nullif(trim(u.first_name || ' ' || u.last_name), ''), u.username) as name,
       u.username, coalesce(counted.assigned, 0) as assigned, coalesce(counted.saved, 0) as saved,
       (select max(d.sent_at) from reminder_dispatches d
        where d.call_id = $1 and d.user_id = u.id and d.kind in ('rule', 'manual')) as last
from people join users u on u.id = people.user_id
left join counted on counted.user_id = people.user_id
order by 2, 1`;

/** Reviews saved per UTC day. */
export const DAYS_SQL = `
with ${VISIBLE}
select to_char(r.created_at at time zone 'UTC', 'YYYY-MM-DD') as day, count(*)::int as saves
from visible v cross join lateral (select created_at from reviews where proposal_id = v.id) r
group by 1 order by 1`;

const load = () =>
  `load ${loadavg()
    .map((n) => n.toFixed(1))
    .join(' ')}`;
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const list = (times: number[]) => times.map((t) => t.toFixed(0)).join(' ');

/**
 * The chair's GET as a browser sends it (compressed as a browser asks: Brotli), failing
 * on any answer but 200: the body parsed, and its size.
 */
async function getProgress(baseUrl: string, token: string, callId: number) {
  const res = await fetch(`${baseUrl}/api/v1/calls/${callId}/progress/`, {
    headers: { authorization: `Token ${token}`, 'accept-encoding': 'gzip, deflate, br' },
  });
  const text = await res.text();
  if (res.status !== 200)
    throw new Error(`GET progress answered ${res.status}: ${text.slice(0, 400)}`);
  return {
    body: JSON.parse(text) as CallProgress,
    bytes: text.length,
    encoding: res.headers.get('content-encoding') ?? 'none',
  };
}

/** The server's database through drizzle, as its sweep job has it, for `use`. */
async function withServerDb<T>(
  manifest: Manifest,
  use: (db: Awaited<ReturnType<typeof openDatabase>>['db']) => Promise<T>,
): Promise<T> {
  const database = await openDatabase(
    'url' in manifest.database
      ? { kind: 'postgres', url: manifest.database.url }
      : { kind: 'pglite', dataDir: embeddedDatabaseDir(manifest.database.dataDir) },
  );
  try {
    return await use(database.db);
  } finally {
    await database.close();
  }
}

/** The 10,000 mail jobs a sweep queued, copied by one INSERT ... SELECT, rolled back: ms. */
async function insertJobsOnce(query: Query, sweptAt: Date): Promise<{ ms: number; rows: number }> {
  await query('begin', []);
  try {
    const started = performance.now();
    const { rows } = await query(
      `with copied as (
         insert into jobs (kind, payload, run_at, created_at)
         select kind, payload, run_at, created_at from jobs
         where kind = $1 and created_at = $2
         returning 1)
       select count(*)::int as n from copied`,
      [SEND_MAIL_JOB, sweptAt],
    );
    return { ms: performance.now() - started, rows: Number((rows[0] as { n: number }).n) };
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
  log(`\n## (i) Review progress and the reminders' sweep, ${db}, ${load()}\n`);

  const making = performance.now();
  const { call, sweep } = await withDatabase(manifest, async (query) => {
    const made = await ensureProgressCall(query, manifest, new Date());
    await settleProgressCall(query, made, new Date());
    return { call: made, sweep: await ensureSweepCall(query, manifest, new Date()) };
  });
  log(
    `progress call ${call.callId}: ${call.proposals} submitted proposals, ${call.members} ` +
      `members, ${call.assignments} assignments (k ${PROGRESS_K}), ${call.reviews} reviews; ` +
      `sweep call ${sweep.callId}: ${sweep.drafts} drafts by as many applicants; ` +
      `${call.made || sweep.made ? 'made' : 'found'} in ${seconds(performance.now() - making)}`,
  );

  // 1. Progress, through the server.
  const progressTimes: number[] = [];
  const pageTimes: number[] = [];
  const listPageTimes: number[] = [];
  let listTimes: number[] = [];
  let shape = '';
  const server = await startBenchServer(manifest);
  try {
    const coldStarted = performance.now();
    const first = await getProgress(server.url, manifest.chair.token, call.callId);
    const coldMs = performance.now() - coldStarted;
    const { body } = first;
    shape =
      `${body.proposals.length} proposals x ${body.members.length} members, ` +
      `${(first.bytes / 1e6).toFixed(2)} MB (sent ${first.encoding})`;
    // The chair's own conflicts are left out, as they must be: about 0.1 % of the call.
    if (body.members.length < 300 || body.proposals.length < call.proposals * 0.99)
      throw new Error(`The progress answer is short: ${shape}.`);
    log(
      `progress: ${shape}; totals ${JSON.stringify(body.totals)}; ` +
        `${body.savesPerDay.length} days; ` +
        `${body.proposals.filter((p) => p.lateConflict).length} late conflicts; ` +
        `${body.members.filter((m) => m.lastReminded !== null).length} members reminded; ` +
        `the first request (a fresh server) ${coldMs.toFixed(0)} ms`,
    );
    progressTimes.push(
      ...(await timed(
        PROGRESS_RUNS,
        () => getProgress(server.url, manifest.chair.token, call.callId),
        2,
      )),
    );
    listTimes = await listAnswerTimes(server.url, manifest, PROGRESS_RUNS);
    log(`progress ms: ${list(progressTimes)}; the list's answer ms: ${list(listTimes)}; ${load()}`);

    // The page in the browser: from navigation to the members' first row painted, in a fresh
    // context each load (nothing cached), beside the chair's list page to its first row.
    const openProgress = (page: Page) =>
      openTimed(
        page,
        `${server.url}/calls/${call.callId}/progress`,
        'table[aria-label="Members"] tbody tr',
      );
    const browser = await launchBrowser();
    try {
      for (let run = 0; run < PAGE_RUNS; run++) {
        const page = await signedInPage(browser, manifest.chair.token);
        try {
          pageTimes.push(await openProgress(page));
        } finally {
          await page.context().close();
        }
        listPageTimes.push(
          await openListPage(browser, server.url, manifest.callId, manifest.chair.token),
        );
      }
    } finally {
      await browser.close();
    }
    log(`progress page ms: ${list(pageTimes)}; list page ms: ${list(listPageTimes)}; ${load()}`);
    // Printed, not the figure: the same page in the full Chromium the e2e suite drives.
    const full = await launchFullChromium();
    const fullTimes: number[] = [];
    try {
      for (let run = 0; run < PAGE_RUNS; run++) {
        const page = await signedInPage(full, manifest.chair.token);
        try {
          fullTimes.push(await openProgress(page));
        } finally {
          await page.context().close();
        }
      }
    } finally {
      await full.close();
    }
    log(`progress page in full Chromium (headless) ms: ${list(fullTimes)}; ${load()}`);
  } finally {
    await server.stop();
  }

  // Its baseline, with the server stopped (an embedded database is the bench's again).
  const sqlTimes = await withDatabase(manifest, async (query) => {
    const [committee] = (await query('select committee_id from calls where id = $1', [call.callId]))
      .rows as { committee_id: number }[];
    const reader = manifest.chair.userId;
    const all = async () => {
      const now = new Date();
      const proposals = await query(PROPOSALS_SQL, [call.callId, reader]);
      const members = await query(MEMBERS_SQL, [call.callId, reader, now, committee!.committee_id]);
      const days = await query(DAYS_SQL, [call.callId, reader]);
      return { proposals: proposals.rows.length, members: members.rows.length, days: days.rows };
    };
    const counted = await all();
    log(
      `progress SQL: ${counted.proposals} proposals, ${counted.members} members, ` +
        `${counted.days.length} days`,
    );
    return timed(PROGRESS_RUNS, all, 2);
  });
  log(`progress SQL ms: ${list(sqlTimes)}; ${load()}`);

  // 2. The sweep, in this process, the server stopped.
  const sweepTimes: number[] = [];
  const insertTimes: number[] = [];
  const results: { found: number; queued: number }[] = [];
  for (let round = 1; round <= rounds; round++) {
    const now = new Date();
    const turnedOff = await withDatabase(manifest, (query) => armSweepCall(query, sweep, now));
    let swept: Date | undefined;
    try {
      const lines: string[] = [];
      const logger = {
        info: (details: object, message: string) =>
          lines.push(`${message} ${JSON.stringify(details)}`),
      };
      const started = performance.now();
      const result = await withServerDb(manifest, async (db) => {
        const begun = performance.now();
        const answer = await sweepReminders(db, now, logger);
        return { ...answer, ms: performance.now() - begun };
      });
      swept = now;
      sweepTimes.push(result.ms);
      results.push(result);
      const baseline = await withDatabase(manifest, (query) => insertJobsOnce(query, now));
      insertTimes.push(baseline.ms);
      log(
        `sweep ${round}: ${seconds(result.ms)} (${seconds(performance.now() - started)} with ` +
          `opening the database); found ${result.found}, queued ${result.queued}; ` +
          `${lines.join('; ')}; INSERT ... SELECT of its ${baseline.rows} jobs ` +
          `${baseline.ms.toFixed(0)} ms; ${turnedOff.length} other rules off; ${load()}`,
      );
    } finally {
      await withDatabase(manifest, (query) =>
        disarmSweepCall(query, sweep, turnedOff, swept, SEND_MAIL_JOB),
      );
    }
  }

  // Rounds that did not find and queue every due reminder.
  const incomplete = results.filter(
    (r) => r.found !== SWEEP_RECIPIENTS || r.queued !== SWEEP_RECIPIENTS,
  ).length;
  const last = results.at(-1)!;
  log(`progress SQL, median: ${median(sqlTimes).toFixed(0)} ms`);
  return [
    {
      figure: 'i',
      name: `Progress answer (server), ${shape}, ${db}, median of ${PROGRESS_RUNS}`,
      value: median(progressTimes),
      unit: 'ms',
      budget: { below: 100 },
      baseline: { name: 'the list page’s answer, 100 rows, median', value: median(listTimes) },
    },
    {
      figure: 'i',
      name: `Progress page in Chromium, to the members' first row, median of ${PAGE_RUNS}`,
      value: median(pageTimes),
      unit: 'ms',
      budget: { below: 1_000 },
      baseline: { name: 'the chair’s list page to its first row', value: median(listPageTimes) },
    },
    {
      figure: 'i',
      name: `Sweep: ${last.found} due reminders found, ${last.queued} digests queued, ${db}, median of ${rounds}`,
      value: median(sweepTimes),
      unit: 'ms',
      budget: {
        below: 10_000,
        checks: [
          {
            text: `every round ${SWEEP_RECIPIENTS} found and queued`,
            value: incomplete,
            atMost: 0,
          },
        ],
        source: 'issue 28',
      },
      baseline: {
        name: 'one INSERT ... SELECT of the same jobs, rolled back',
        value: median(insertTimes),
      },
    },
  ];
}

await runAlone(run, import.meta.url);
