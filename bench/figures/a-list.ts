/**
 * (a) The chair's proposal list: `GET /api/v1/calls/{id}/proposals/` as a chair, the
 * largest page the app asks for (100 rows) with every chair's column (reviewers, scores,
 * each review's scores and comments, resources) and the call's resource totals, in two
 * sorts: by name, and by a resource column (the first facility's hours, most first,
 * `sort=-resource`). p50 and p95 of 20 runs after 3 to warm up, each a fresh request
 * over a kept-alive connection, timed to the last byte.
 *
 * Baseline, in the same run: the same rows in the same order with the same columns and
 * the totals by one hand-written SQL query, sent through `pg` (PGlite's own client on
 * the embedded database), timed the same way. Budget (issue 31): p50 under 100 ms and
 * at most 1.5x the SQL, in every sort.
 *
 *   npx tsx bench/figures/a-list.ts [--quick] [--size N] [--manifest path]
 */
import { databaseName, runAlone, startBenchServer } from '../lib/bench-server.js';
import { timed, withDatabase } from '../lib/database.js';
import { readManifest, type Manifest } from '../lib/manifest.js';
import { percentile, type FigureOptions, type FigureResult } from '../lib/result.js';

const PAGE_SIZE = 100;
const BUDGET = { below: 100, timesBaseline: 1.5 };
/** The resource column (a) sorts by: a data field of every generated resource form. */
const SORT_FIELD = 'hours';

/** The sorts measured: the API's query and the SQL's order (over `page`'s join of `amounts`). */
const SORTS = {
  name: { api: 'sort=name', key: 'lower(p.name)', order: 'sort_key, id' },
  resource: {
    api: `sort=-resource&sortField=${SORT_FIELD}`,
    key: 'amounts.amount',
    order: 'sort_key desc nulls last, id',
  },
} as const;
type Sort = keyof typeof SORTS;

/**
 * The entries a resource column adds up: a FILTER, not a WHERE, so that PostgreSQL
 * estimates the amounts as many as the call's proposals (of JSON conditions it guesses a
 * few rows, and joins by a nested loop: 17 s at 30,000).
 */
const COUNTS = `jsonb_typeof(e.data -> '${SORT_FIELD}') = 'number' and e.data ->> 'facility' = $2`;

/**
 * One page of the chair's list as one query: the rows in the API's order (`sort`, then
 * id; a resource column's amount is the sum of the proposal's entries of facility $2 in
 * the field, as resource-totals.queries.ts adds them, none last), the total, the
 * Reviewed flag, each row's reviewers, reviews with their scores and answers, resource
 * entries, its conflicts of interest counted by state, and the call's resource totals
 * over submitted proposals.
 */
export const listSql = (sort: Sort) => `
with resource_forms as (
  select f.id from forms f join form_names n on n.id = f.form_name_id where n.type in (4, 5)
),
amounts as (
  select e.proposal_id, sum((e.data ->> '${SORT_FIELD}')::float8) filter (where ${COUNTS}) as amount
  from proposal_responses e
  join proposals p on p.id = e.proposal_id
  where p.call_id = $1 and e.form_id in (select id from resource_forms)
  group by 1
  having bool_or(${COUNTS})
),
page as (
  select p.id, p.name, p.proposal_type_id, pt.name as type_name, p.author_id,
         trim(u.first_name || ' ' || u.last_name) as author, p.state_val, p.updated_at,
         p.state_val >= 1
           and exists (select 1 from reviews r where r.proposal_id = p.id)
           and not exists (
             select 1 from proposal_reviewers a
             where a.proposal_id = p.id and not exists (
               select 1 from reviews r where r.proposal_id = p.id and r.reviewer_id = a.user_id))
           as reviewed,
         count(*) over () as total,
         ${SORTS[sort].key} as sort_key
  from proposals p
  join proposal_types pt on pt.id = p.proposal_type_id
  join users u on u.id = p.author_id
  ${sort === 'resource' ? 'left join amounts on amounts.proposal_id = p.id' : ''}
  where p.call_id = $1
  order by ${SORTS[sort].order}
  limit ${PAGE_SIZE}
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
select page.id, page.name, page.proposal_type_id, page.type_name, page.author_id, page.author,
  page.state_val, page.updated_at, page.reviewed, page.total,
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
order by ${SORTS[sort].order}`;

/** One sort's times, through the server and by SQL, and the p50s and p95s. */
interface Measured {
  sort: Sort;
  api: number[];
  sql: number[];
}

/**
 * The baseline's times for each sort, on the manifest's database (before the server
 * holds PGlite's files), and the ids of each sort's page, to hold the API's page to.
 */
async function sqlTimes(manifest: Manifest, facility: string, runs: number) {
  return withDatabase(manifest, async (query) => {
    const times = new Map<Sort, { ids: number[]; times: number[] }>();
    for (const sort of Object.keys(SORTS) as Sort[]) {
      const params = [manifest.callId, facility];
      const { rows } = await query(listSql(sort), params);
      if (rows.length !== Math.min(PAGE_SIZE, manifest.proposalIds.length))
        throw new Error(`The baseline query by ${sort} returned ${rows.length} rows.`);
      times.set(sort, {
        ids: rows.map((row) => Number((row as { id: number }).id)),
        times: await timed(runs, () => query(listSql(sort), params)),
      });
    }
    return times;
  });
}

export async function run(options: FigureOptions): Promise<FigureResult[]> {
  const manifest = await readManifest(options.manifestPath);
  const runs = options.quick ? 8 : 20;
  const db = databaseName(manifest);
  const facility = manifest.facilities[0]!;
  options.log(`\n## (a) The chair's list of ${manifest.proposalIds.length} proposals, ${db}\n`);

  const baseline = await sqlTimes(manifest, facility, runs);
  const measured: Measured[] = [];
  const server = await startBenchServer(manifest);
  try {
    const headers = { authorization: `Token ${manifest.chair.token}` };
    for (const sort of Object.keys(SORTS) as Sort[]) {
      // sortFacility goes only with a resource sort.
      const column = sort === 'resource' ? `&sortFacility=${encodeURIComponent(facility)}` : '';
      const url =
        `${server.url}/api/v1/calls/${manifest.callId}/proposals/?pageSize=${PAGE_SIZE}` +
        `&${SORTS[sort].api}${column}`;
      const first = await fetch(url, { headers });
      const body = (await first.json()) as { total: number; items: { id: number }[] };
      if (first.status !== 200 || body.total !== manifest.proposalIds.length)
        throw new Error(`The list answered ${first.status}: ${JSON.stringify(body).slice(0, 300)}`);
      // The baseline must be the same rows in the same order, or it measures something else.
      const ids = body.items.map((item) => item.id);
      const expected = baseline.get(sort)!.ids;
      if (ids.join() !== expected.join())
        throw new Error(
          `By ${sort}, the API's page (${ids.slice(0, 5).join(', ')}, ...) is not the SQL's ` +
            `(${expected.slice(0, 5).join(', ')}, ...).`,
        );
      const api = await timed(runs, async () => {
        const res = await fetch(url, { headers });
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`The list answered ${res.status}.`);
      });
      measured.push({ sort, api, sql: baseline.get(sort)!.times });
    }
  } finally {
    await server.stop();
  }

  return measured.flatMap(({ sort, api, sql }) => {
    options.log(`by ${sort}: API ms: ${api.map((t) => t.toFixed(0)).join(' ')}`);
    options.log(`by ${sort}: SQL ms: ${sql.map((t) => t.toFixed(0)).join(' ')}`);
    const by = sort === 'resource' ? `${facility} ${SORT_FIELD}, most first` : 'name';
    const name = `chair's list, ${PAGE_SIZE} of ${manifest.proposalIds.length} by ${by}, ${db}`;
    return [
      {
        figure: 'a',
        name: `${name}, p50`,
        value: percentile(api, 50),
        unit: 'ms',
        budget: BUDGET,
        baseline: { name: 'one SQL query, p50', value: percentile(sql, 50) },
      },
      {
        figure: 'a',
        name: `${name}, p95`,
        value: percentile(api, 95),
        unit: 'ms',
        baseline: { name: 'one SQL query, p95', value: percentile(sql, 95) },
      },
    ];
  });
}

await runAlone(run, import.meta.url);
