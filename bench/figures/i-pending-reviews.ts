/**
 * (i) Pending reviews as an admin (issue 31: "pending reviews as an admin: first content
 * under 1 s, server under 100 ms, baseline the list page"; issue 25 before it). An admin
 * is a member of every committee, so their pending reviews can be every submitted
 * proposal of every call in review; the dashboard counts them and My Pending Reviews
 * shows them a page at a time. For the run the call is opened to every member's review
 * (`is_review_open`), the most an admin can have pending (as generated, only assigned
 * reviewers review it, and the admin is assigned none); it is put back after.
 *
 *   1. The server: `GET /pending_reviews/` (the first page, 100 rows) and
 *      `GET /pending_reviews/count/` as the admin, p50 of 20 runs after 3 to warm up
 *      (8 with --quick), each a fresh request timed to the last byte. Budget: under
 *      100 ms each. Baseline: the answer the chair's list page asks for first (100 rows),
 *      the same way. Printed beside them: the same page, and the same count, by one
 *      hand-written SQL query each through `pg` (PGlite's own client on the embedded
 *      database), and the whole list by SQL, which the route read before it paged.
 *   2. The page: /pending_reviews opened in Chromium's headless shell signed in as the
 *      admin in a fresh context, from navigation to the first row of My Pending Reviews
 *      painted, median of 5 (3 with --quick). Budget: under 1 s. Baseline: the chair's
 *      list page of the generated call ((e)'s page) to its first row.
 *
 *   npx tsx bench/figures/i-pending-reviews.ts [--quick] [--size N] [--manifest path]
 */
import { digestKey, newTokenKey } from '../../apps/server/src/platform/security/secrets.js';
import { databaseName, listAnswerTimes, runAlone, startBenchServer } from '../lib/bench-server.js';
import { launchBrowser, openListPage, openTimed, signedInPage } from '../lib/browser.js';
import { timed, withDatabase } from '../lib/database.js';
import { readManifest } from '../lib/manifest.js';
import { median, percentile, type FigureOptions, type FigureResult } from '../lib/result.js';

const PAGE = 100;
/** My Pending Reviews' table (PendingReviewsPage.tsx). */
const PENDING_ROWS = 'table[aria-label="My Pending Reviews"] tbody tr';

/** What the admin may review now and has not ($1 the admin, $2 now): pending.queries.ts's rule. */
const PENDING_WHERE = `
  p.state_val >= 1 and p.author_id <> $1
  and not exists (select 1 from reviews r where r.proposal_id = p.id and r.reviewer_id = $1)
  and not exists (select 1 from proposal_collaborators pc
                  where pc.proposal_id = p.id and pc.user_id = $1)
  and (c.is_review_open or exists (select 1 from proposal_reviewers pr
                                   where pr.proposal_id = p.id and pr.user_id = $1))
  and not (c.commencement <= $2 and c.termination > $2)
  and not exists (select 1 from extensions e where e.call_id = c.id and e.user_id = p.author_id
                  and e.commencement <= $2 and e.termination > $2)
  and not c.closed and c.review_commencement <= $2 and c.review_termination > $2`;

export const PAGE_SQL = `
select cm.name as committee_name, c.id as call_id, c.name as call_name,
       p.id as proposal_id, p.name as proposal_name, c.review_termination
from proposals p join calls c on c.id = p.call_id join committees cm on cm.id = c.committee_id
where ${PENDING_WHERE}
order by c.review_termination, c.id, p.name, p.id
limit ${PAGE}`;

/** The whole list, unpaged: what the route read (and more) before it paged. */
const ALL_SQL = PAGE_SQL.replace(`limit ${PAGE}`, '');

export const COUNT_SQL = `
select count(*)::int as total from proposals p join calls c on c.id = p.call_id
where ${PENDING_WHERE}`;

export async function run(options: FigureOptions): Promise<FigureResult[]> {
  const manifest = await readManifest(options.manifestPath);
  const runs = options.quick ? 8 : 20;
  const loads = options.quick ? 3 : 5;
  const db = databaseName(manifest);
  options.log(
    `\n## (i) Pending reviews as an admin, call of ${manifest.proposalIds.length}, ${db}\n`,
  );

  // The admin's API token (as a login stores it) and the call open to every member's
  // review, before the server holds an embedded database's files; put back at the end.
  const key = newTokenKey();
  const now = new Date();
  const { adminId, wasOpen } = await withDatabase(manifest, async (query) => {
    const [admin] = (await query('select id from users where is_admin order by id limit 1', []))
      .rows as { id: number }[];
    if (!admin) throw new Error('The benchmark data has no admin.');
    const [call] = (
      await query('select is_review_open from calls where id = $1', [manifest.callId])
    ).rows as { is_review_open: boolean }[];
    await query(
      'insert into auth_tokens (user_id, key_hash, created_at, last_used_at) values ($1, $2, $3, $3)',
      [admin.id, digestKey(key), now],
    );
    await query('update calls set is_review_open = true where id = $1', [manifest.callId]);
    return { adminId: admin.id, wasOpen: call!.is_review_open };
  });

  let setUp: { total: number; pageTimes: number[]; countTimes: number[]; allTimes: number[] };
  let page: number[];
  let count: number[];
  let list: number[];
  const pageLoads: number[] = [];
  const listPageLoads: number[] = [];
  try {
    setUp = await withDatabase(manifest, async (query) => {
      const params = [adminId, now];
      const { total } = (await query(COUNT_SQL, params)).rows[0] as { total: number };
      const pageTimes = await timed(runs, () => query(PAGE_SQL, params));
      const countTimes = await timed(runs, () => query(COUNT_SQL, params));
      const allTimes = await timed(runs, () => query(ALL_SQL, params));
      return { total, pageTimes, countTimes, allTimes };
    });
    const server = await startBenchServer(manifest);
    try {
      const headers = { authorization: `Token ${key}` };
      const url = (path: string) => `${server.url}/api/v1${path}`;
      const first = await fetch(url('/pending_reviews/'), { headers });
      const rows = (await first.json()) as unknown[];
      const counted = await fetch(url('/pending_reviews/count/'), { headers });
      const { total } = (await counted.json()) as { total: number };
      if (
        first.status !== 200 ||
        rows.length !== Math.min(PAGE, setUp.total) ||
        total !== setUp.total
      )
        throw new Error(
          `The admin's pending reviews answered ${first.status} with ${rows.length} rows and a count of ${total}; the SQL counts ${setUp.total}.`,
        );
      const read = (path: string) => async () => {
        const res = await fetch(url(path), { headers });
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`${path} answered ${res.status}.`);
      };
      page = await timed(runs, read('/pending_reviews/'));
      count = await timed(runs, read('/pending_reviews/count/'));
      list = await listAnswerTimes(server.url, manifest, runs);

      const browser = await launchBrowser();
      try {
        for (let load = 0; load < loads; load++) {
          const tab = await signedInPage(browser, key);
          try {
            pageLoads.push(await openTimed(tab, `${server.url}/pending_reviews`, PENDING_ROWS));
          } finally {
            await tab.context().close();
          }
          listPageLoads.push(
            await openListPage(browser, server.url, manifest.callId, manifest.chair.token),
          );
        }
      } finally {
        await browser.close();
      }
    } finally {
      await server.stop();
    }
  } finally {
    await withDatabase(manifest, async (query) => {
      await query('update calls set is_review_open = $2 where id = $1', [manifest.callId, wasOpen]);
      await query('delete from auth_tokens where key_hash = $1', [digestKey(key)]);
    });
  }

  options.log(`pending reviews of the admin: ${setUp.total}`);
  options.log(`API page ms: ${page.map((t) => t.toFixed(0)).join(' ')}`);
  options.log(`SQL page ms: ${setUp.pageTimes.map((t) => t.toFixed(0)).join(' ')}`);
  options.log(`API count ms: ${count.map((t) => t.toFixed(0)).join(' ')}`);
  options.log(`SQL count ms: ${setUp.countTimes.map((t) => t.toFixed(0)).join(' ')}`);
  options.log(
    `p50: API page ${percentile(page, 50).toFixed(1)} ms, SQL page ` +
      `${percentile(setUp.pageTimes, 50).toFixed(1)} ms; API count ` +
      `${percentile(count, 50).toFixed(1)} ms, SQL count ${percentile(setUp.countTimes, 50).toFixed(1)} ms`,
  );
  options.log(
    `SQL of the whole list (${setUp.total} rows, what the route read before it paged), p50: ` +
      `${percentile(setUp.allTimes, 50).toFixed(1)} ms`,
  );
  options.log(`the list's answer ms: ${list.map((t) => t.toFixed(0)).join(' ')}`);
  options.log(
    `My Pending Reviews page ms: ${pageLoads.map((t) => t.toFixed(0)).join(' ')}; ` +
      `list page ms: ${listPageLoads.map((t) => t.toFixed(0)).join(' ')}`,
  );
  const listBaseline = {
    name: 'the list page’s answer, 100 rows, p50',
    value: percentile(list, 50),
  };
  return [
    {
      figure: 'i',
      name: `pending reviews as an admin (server), first ${PAGE} of ${setUp.total}, ${db}, p50`,
      value: percentile(page, 50),
      unit: 'ms',
      budget: { below: 100 },
      baseline: listBaseline,
    },
    {
      figure: 'i',
      name: `pending reviews count as an admin (server), ${setUp.total}, ${db}, p50`,
      value: percentile(count, 50),
      unit: 'ms',
      budget: { below: 100 },
      baseline: listBaseline,
    },
    {
      figure: 'i',
      name: `My Pending Reviews page in Chromium as an admin, to the first row, median of ${loads}`,
      value: median(pageLoads),
      unit: 'ms',
      budget: { below: 1_000 },
      baseline: { name: 'the chair’s list page to its first row', value: median(listPageLoads) },
    },
  ];
}

await runAlone(run, import.meta.url);
