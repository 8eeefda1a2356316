/**
 * (a) The chair's proposal list of the 10,000-proposal call: `GET
 * /api/v1/calls/{id}/proposals/` as a chair, the largest page the app asks for (100
 * rows, by name) with every chair's column (reviewers, scores, each review's scores and
 * comments, resources) and the call's resource totals. p50 and p95 of 20 runs after 3
 * to warm up, each a fresh request over a kept-alive connection, timed to the last byte.
 *
 * Baseline, in the same run: the same rows with the same columns and the totals by one
 * hand-written SQL query, sent through `pg` (PGlite's own client on the embedded
 * database), timed the same way. Goal: p50 under 200 ms and at most 2x the SQL.
 *
 *   npx tsx bench/figures/a-list.ts [--quick] [--small] [--manifest path]
 */
import { databaseName, runAlone, startBenchServer } from '../lib/bench-server.js';
import { timed, withDatabase } from '../lib/database.js';
import { readManifest, type Manifest } from '../lib/manifest.js';
import { percentile, type FigureOptions, type FigureResult } from '../lib/result.js';

const PAGE_SIZE = 100;

/**
 * One page of the chair's list as one query: the rows in the API's order (by lower(name),
 * then id), the total, the Reviewed flag, each row's reviewers, reviews with their scores
 * and answers, resource entries, its conflicts of interest counted by state, and the
 * call's resource totals over submitted proposals.
 */
export const LIST_SQL = `
with page as (
  select p.id, p.name, p.proposal_type_id, pt.name as type_name, p.author_id,
         trim(u.first_name || ' ' || u.last_name) as author, p.state_val, p.updated_at,
         p.state_val >= 1
           and exists (select 1 from reviews r where r.proposal_id = p.id)
           and not exists (
             select 1 from proposal_reviewers a
             where a.proposal_id = p.id and not exists (
               select 1 from reviews r where r.proposal_id = p.id and r.reviewer_id = a.user_id))
           as reviewed,
         count(*) over () as total
  from proposals p
  join proposal_types pt on pt.id = p.proposal_type_id
  join users u on u.id = p.author_id
  where p.call_id = $1
  order by lower(p.name), p.id
  limit ${PAGE_SIZE}
),
resource_forms as (
  select f.id from forms f join form_names n on n.id = f.form_name_id where n.type in (4, 5)
),
totals as (
  select e.data ->> 'facility' as facility,
         sum((e.data ->> 'hours')::float8) as hours,
         sum((e.data ->> 'nights')::float8) as nights
  from proposal_responses e
  join proposals p on p.id = e.proposal_id
  where p.call_id = $1 and p.state_val >= 1 and e.form_id in (select id from resource_forms)
  group by 1
)
select page.*,
  (select coalesce(json_agg(json_build_object('id', a.user_id,
            'name', trim(ru.first_name || ' ' || ru.last_name)) order by ru.last_name), '[]')
     from proposal_reviewers a join users ru on ru.id = a.user_id
     where a.proposal_id = page.id) as reviewers,
  (select coalesce(json_agg(json_build_object('reviewer', r.reviewer_id, 'score', r.score,
            'scores', r.scores,
            'answers', (select json_object_agg(rr.form_id, rr.data)
                          from review_responses rr where rr.review_id = r.id))
            order by r.created_at, r.id), '[]')
     from reviews r where r.proposal_id = page.id) as reviews,
  (select coalesce(json_agg(json_build_object('form', e.form_id, 'data', e.data)
            order by e.form_id, e.entry_index), '[]')
     from proposal_responses e
     where e.proposal_id = page.id and e.form_id in (select id from resource_forms)) as resources,
  (select json_build_object('confirmed', count(*) filter (where c.state = 'confirmed'),
       'suggested', count(*) filter (where c.state = 'suggested'),
       'declared', coalesce(bool_or(c.source = 'applicant'), false))
     from conflicts c where c.proposal_id = page.id) as conflicts,
  (select json_agg(totals) from totals) as resource_totals
from page
order by lower(page.name), page.id`;

/** The baseline's times, on the manifest's database (before the server holds PGlite's files). */
async function sqlTimes(manifest: Manifest, runs: number): Promise<number[]> {
  return withDatabase(manifest, async (query) => {
    const { rows } = await query(LIST_SQL, [manifest.callId]);
    if (rows.length !== Math.min(PAGE_SIZE, manifest.proposalIds.length))
      throw new Error(`The baseline query returned ${rows.length} rows.`);
    return timed(runs, () => query(LIST_SQL, [manifest.callId]));
  });
}

export async function run(options: FigureOptions): Promise<FigureResult[]> {
  const manifest = await readManifest(options.manifestPath);
  const runs = options.quick ? 8 : 20;
  const db = databaseName(manifest);
  options.log(`\n## (a) The chair's list of ${manifest.proposalIds.length} proposals, ${db}\n`);

  const baseline = await sqlTimes(manifest, runs);
  const server = await startBenchServer(manifest);
  let api: number[];
  try {
    const url = `${server.url}/api/v1/calls/${manifest.callId}/proposals/?pageSize=${PAGE_SIZE}&sort=name`;
    const headers = { authorization: `Token ${manifest.chair.token}` };
    const first = await fetch(url, { headers });
    const body = (await first.json()) as { total: number; items: unknown[] };
    if (first.status !== 200 || body.total !== manifest.proposalIds.length)
      throw new Error(`The list answered ${first.status}: ${JSON.stringify(body).slice(0, 300)}`);
    api = await timed(runs, async () => {
      const res = await fetch(url, { headers });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`The list answered ${res.status}.`);
    });
  } finally {
    await server.stop();
  }

  const p50 = percentile(api, 50);
  const p95 = percentile(api, 95);
  const sql50 = percentile(baseline, 50);
  const sql95 = percentile(baseline, 95);
  options.log(`API ms: ${api.map((t) => t.toFixed(0)).join(' ')}`);
  options.log(`SQL ms: ${baseline.map((t) => t.toFixed(0)).join(' ')}`);
  const name = `chair's list, ${PAGE_SIZE} of ${manifest.proposalIds.length}, ${db}`;
  return [
    {
      figure: 'a',
      name: `${name}, p50`,
      value: p50,
      unit: 'ms',
      goal: '< 200 ms and <= 2x SQL',
      baseline: { name: 'one SQL query, p50', value: sql50 },
      ratio: p50 / sql50,
      met: p50 < 200 && p50 <= 2 * sql50,
    },
    {
      figure: 'a',
      name: `${name}, p95`,
      value: p95,
      unit: 'ms',
      goal: 'none (p50 is the goal)',
      baseline: { name: 'one SQL query, p95', value: sql95 },
      ratio: p95 / sql95,
      met: true,
    },
  ];
}

await runAlone(run, import.meta.url);
