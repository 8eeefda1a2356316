/**
 * The volume of the plan written by bulk SQL: users, proposals with their answers and
 * collaborators, reviewer assignments, reviews with their answers and scores. One
 * `INSERT ... SELECT FROM unnest($1::type[], ...)` per table and chunk, so a few
 * parameters carry thousands of rows, on PGlite and on PostgreSQL alike.
 *
 * What it writes is what the services write for the same plan (bench/lib/service-writer.ts;
 * apps/server/test/bench-data.api.test.ts holds the two to the same rows and the same API
 * answers): the same columns, the review scores worked out by the domain's `reviewScore`
 * as saving a review does, the same timestamps. What it leaves out on purpose: audit rows,
 * save-batch records and the mails the services would queue (50,000 of them).
 */
import { reviewScore } from '@merit/domain';
import type { Db } from '../../apps/server/src/db/client.js';
import { detectForScope } from '../../apps/server/src/modules/conflicts/conflicts.jobs.js';
import { newUserHash } from '../../apps/server/src/platform/security/secrets.js';
import { SCORE_OPTIONS, type Plan } from './plan.js';
import type { SetUp } from './setup.js';

type Query = (text: string, params: unknown[]) => Promise<{ rows: Record<string, unknown>[] }>;

/** The driver under drizzle (a pg Pool or a PGlite), for statements drizzle cannot build. */
export function rawQuery(db: Db): Query {
  const client = (db as unknown as { $client: { query: Query } }).$client;
  return (text, params) => client.query(text, params);
}

const CHUNK = 5_000;

/**
 * Inserts `rows` into `table` by columns given as `[name, sqlType, value(row)]`, in
 * chunks, in the rows' order (ids follow it, as they would one insert at a time).
 * Returns the `returning` columns of every row, in order.
 */
async function insertMany<T>(
  query: Query,
  table: string,
  rows: readonly T[],
  columns: [string, string, (row: T) => unknown][],
  returning?: string,
): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  for (let start = 0; start < rows.length; start += CHUNK) {
    const chunk = rows.slice(start, start + CHUNK);
    const params = columns.map(([, , value]) => chunk.map(value));
    const unnest = columns.map(([, type], i) => `$${i + 1}::${type}[]`).join(', ');
    const names = columns.map(([name]) => name);
    const select = names.map((name) => `c.${name}`).join(', ');
    const text =
      `insert into ${table} (${names.join(', ')}) ` +
      `select ${select} from unnest(${unnest}) with ordinality as c(${names.join(', ')}, ord) ` +
      `order by c.ord` +
      (returning ? ` returning ${returning}` : '');
    const result = await query(text, params);
    out.push(...result.rows);
  }
  return out;
}

/** A JSON value as the text that `::jsonb[]` reads element by element. */
const json = (value: unknown) => JSON.stringify(value);
const iso = (date: Date) => date.toISOString();

/**
 * The plan's users, every one with the same password hash (made once: Argon2id takes a
 * tenth of a second, 6,000 of them ten minutes). Returns their ids, in the plan's order.
 */
export async function insertUsers(db: Db, plan: Plan, passwordHash: string): Promise<number[]> {
  const query = rawQuery(db);
  const hashes = new Set<string>();
  const hashOf = () => {
    for (;;) {
      const hash = newUserHash();
      if (!hashes.has(hash)) {
        hashes.add(hash);
        return hash;
      }
    }
  };
  const rows = await insertMany(
    query,
    'users',
    plan.users.map((user) => ({ ...user, hash: hashOf() })),
    [
      ['username', 'text', (u) => u.username],
      ['email', 'text', (u) => u.email],
      ['first_name', 'text', (u) => u.firstName],
      ['last_name', 'text', (u) => u.lastName],
      ['institution', 'text', (u) => u.institution],
      ['is_admin', 'boolean', (u) => u.isAdmin],
      ['email_verified', 'boolean', () => true],
      ['hash', 'text', (u) => u.hash],
      ['password_hash', 'text', () => passwordHash],
    ],
    'id, username',
  );
  const byName = new Map(rows.map((r) => [r.username as string, r.id as number]));
  return plan.users.map((u) => byName.get(u.username)!);
}

export interface Written {
  /** Ids of the plan's proposals, in its order. */
  proposalIds: number[];
}

/** Everything of the plan below the calls: proposals, answers, people, reviews. */
export async function insertVolume(
  db: Db,
  plan: Plan,
  setUp: SetUp,
  userIds: number[],
): Promise<Written> {
  const query = rawQuery(db);
  const callOf = (call: 'main' | 'open') => (call === 'main' ? setUp.mainCallId : setUp.openCallId);
  const typeOf = (call: 'main' | 'open', type: number) =>
    (call === 'main' ? setUp.mainTypeIds : setUp.openTypeIds)[type]!;

  const proposalRows = await insertMany(
    query,
    'proposals',
    plan.proposals,
    [
      ['call_id', 'int', (p) => callOf(p.call)],
      ['proposal_type_id', 'int', (p) => typeOf(p.call, p.type)],
      ['author_id', 'int', (p) => userIds[p.author]],
      ['name', 'text', (p) => p.name],
      ['state_val', 'int', (p) => (p.submitted ? 1 : 0)],
      ['created_at', 'timestamptz', (p) => iso(p.at)],
      ['updated_at', 'timestamptz', (p) => iso(p.at)],
    ],
    'id',
  );
  const proposalIds = proposalRows.map((r) => r.id as number);

  const entries = plan.proposals.flatMap((p, i) =>
    p.answers.map((answer) => ({ proposal: i, answer })),
  );
  await insertMany(query, 'proposal_responses', entries, [
    ['proposal_id', 'int', (e) => proposalIds[e.proposal]],
    ['form_id', 'int', (e) => setUp.formIds[e.answer.form]],
    ['entry_index', 'int', (e) => e.answer.index],
    ['data', 'jsonb', (e) => json(e.answer.data)],
    ['updated_at', 'timestamptz', (e) => iso(plan.proposals[e.proposal]!.at)],
    ['updated_by', 'int', (e) => userIds[plan.proposals[e.proposal]!.author]],
  ]);

  const team = plan.proposals.flatMap((p, i) =>
    p.collaborators.map((user) => ({ proposal: i, user })),
  );
  await insertMany(query, 'proposal_collaborators', team, [
    ['proposal_id', 'int', (c) => proposalIds[c.proposal]],
    ['user_id', 'int', (c) => userIds[c.user]],
  ]);

  const assigned = plan.proposals.flatMap((p, i) =>
    p.reviewers.map((user) => ({ proposal: i, user })),
  );
  await insertMany(query, 'proposal_reviewers', assigned, [
    ['proposal_id', 'int', (a) => proposalIds[a.proposal]],
    ['user_id', 'int', (a) => userIds[a.user]],
  ]);

  const reviews = plan.proposals.flatMap((p, i) =>
    p.reviews.map((review) => ({
      proposal: i,
      review,
      // As saving the score form works it out (reviews.service.ts scoreOf).
      scored: reviewScore([{ options: SCORE_OPTIONS, data: review.scores }]),
    })),
  );
  const reviewRows = await insertMany(
    query,
    'reviews',
    reviews,
    [
      ['proposal_id', 'int', (r) => proposalIds[r.proposal]],
      ['reviewer_id', 'int', (r) => userIds[r.review.reviewer]],
      ['score', 'float8', (r) => r.scored.score],
      ['scores', 'jsonb', (r) => json(r.scored.scores)],
      // Its two forms' saves each raised it from the first save's 1.
      ['version', 'int', () => 2],
      ['created_at', 'timestamptz', (r) => iso(r.review.at)],
      ['updated_at', 'timestamptz', (r) => iso(r.review.at)],
    ],
    'id',
  );
  const answers = reviews.flatMap((r, i) => [
    { review: i, form: setUp.formIds.reviewComments, data: r.review.comments, at: r.review.at },
    { review: i, form: setUp.formIds.reviewScores, data: r.review.scores, at: r.review.at },
  ]);
  await insertMany(query, 'review_responses', answers, [
    ['review_id', 'int', (a) => reviewRows[a.review]!.id],
    ['form_id', 'int', (a) => a.form],
    ['data', 'jsonb', (a) => json(a.data)],
    ['updated_at', 'timestamptz', (a) => iso(a.at)],
  ]);

  // Conflicts of interest, as the detector finds them once the proposals are in: the
  // services queue it after each submission; here it runs once per call.
  for (const callId of [setUp.mainCallId, setUp.openCallId])
    await detectForScope(db, { callId }, plan.now);

  // The state autovacuum reaches minutes later, now: the planner's statistics (so the
  // first query is planned for 10,000 rows, not the empty tables of a moment ago) and the
  // visibility map (so index-only scans need not visit the table).
  await query('vacuum analyze', []);
  return { proposalIds };
}
