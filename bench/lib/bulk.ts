/**
 * The volume of the plan written by bulk SQL: users, proposals with their answers,
 * collaborators and applicants' conflict declarations, members' bids, reviewer
 * assignments, members' own declarations, reviews with their answers and scores, and the
 * conflicts Merit's detector finds. One
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
import type { DetectedConflict } from '@merit/domain/conflict-detection';
import type { Db } from '../../apps/server/src/db/client.js';
import { newUserHash } from '../../apps/server/src/platform/security/secrets.js';
import { conflictPair, SCORE_OPTIONS, type Plan } from './plan.js';
import type { SetUp } from './setup.js';

type Query = (text: string, params: unknown[]) => Promise<{ rows: Record<string, unknown>[] }>;

/** The driver under drizzle (a pg Pool or a PGlite), for statements drizzle cannot build. */
export function rawQuery(db: Db): Query {
  const client = (db as unknown as { $client: { query: Query } }).$client;
  return (text, params) => client.query(text, params);
}

const CHUNK = 10_000;

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
  /** Conflicts written: declared and detected. */
  conflicts: number;
  bids: number;
}

/** Everything of the plan below the calls: proposals, answers, people, reviews. */
export async function insertVolume(
  db: Db,
  plan: Plan,
  setUp: SetUp,
  userIds: number[],
  /** Called after each part, naming it (the generator prints each part's time). */
  lap: (what: string) => void = () => {},
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

  lap(`${proposalIds.length} proposals, ${entries.length} answers, ${team.length} collaborators`);

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

  lap(
    `${assigned.length} assignments, ${reviews.length} reviews, ${answers.length} review answers`,
  );

  // The applicants' declarations (their Conflicts panel, saved once while writing) and the
  // members' own (answered during review), as conflicts.service.ts records them.
  const byApplicants = plan.proposals.flatMap((p, i) =>
    p.declared.map((d) => ({ ...d, proposal: i, by: p.author, at: p.at })),
  );
  const byMembers = plan.memberDeclarations.map((d) => ({ ...d, by: d.user }));
  await insertMany(
    query,
    'conflicts',
    [
      ...byApplicants.map((d) => ({ ...d, source: 'applicant' })),
      ...byMembers.map((d) => ({ ...d, source: 'reviewer' })),
    ],
    [
      ['proposal_id', 'int', (d) => proposalIds[d.proposal]],
      ['user_id', 'int', (d) => userIds[d.user]],
      ['type', 'text', (d) => d.type],
      ['source', 'text', (d) => d.source],
      ['state', 'text', () => 'confirmed'],
      ['reason', 'text', (d) => d.reason],
      ['changed_by', 'int', (d) => userIds[d.by]],
      ['changed_at', 'timestamptz', (d) => iso(d.at)],
    ],
  );
  const declaredIds = [...new Set(byApplicants.map((d) => proposalIds[d.proposal]!))];
  await query('update proposals set conflicts_version = 1 where id = any($1::int[])', [
    declaredIds,
  ]);
  await insertMany(query, 'conflict_declarations', byMembers, [
    ['proposal_id', 'int', (d) => proposalIds[d.proposal]],
    ['user_id', 'int', (d) => userIds[d.user]],
    ['conflict', 'boolean', () => true],
    ['type', 'text', (d) => d.type],
    ['at', 'timestamptz', (d) => iso(d.at)],
  ]);

  await insertMany(query, 'assignment_bids', plan.bids, [
    ['proposal_id', 'int', (b) => proposalIds[b.proposal]],
    ['user_id', 'int', (b) => userIds[b.user]],
    ['preference', 'text', (b) => b.preference],
    ['at', 'timestamptz', (b) => iso(b.at)],
  ]);

  lap(`${byApplicants.length + byMembers.length} declared conflicts, ${plan.bids.length} bids`);

  // Conflicts of interest as the detector finds them once the proposals are in (the
  // services queue it after each submission, conflicts.jobs.ts): the domain's
  // `detectConflicts` over each call (run by the plan), the pairs nobody declared written
  // as the job writes them, without its audit rows.
  const declaredPairs = new Set(
    [...byApplicants, ...byMembers].map((d) => conflictPair(d.proposal, d.user)),
  );
  // The plan ran the detector with plan indexes for ids: the same conflicts with the
  // written ids (a shared proposal's evidence names one).
  const detected: (DetectedConflict & { at: Date })[] = plan.detected
    .filter((c) => !declaredPairs.has(conflictPair(c.proposalId, c.userId)))
    .map((c) => ({
      ...c,
      // The job runs right after a submission: about when the proposal was written.
      at: plan.proposals[c.proposalId]!.at,
      proposalId: proposalIds[c.proposalId]!,
      userId: userIds[c.userId]!,
      evidence: c.evidence.map((e) =>
        e.kind === 'sharedProposal' ? { ...e, proposalId: proposalIds[e.proposalId]! } : e,
      ),
    }));
  lap(`detection: ${detected.length} conflicts found`);
  await insertMany(query, 'conflicts', detected, [
    ['proposal_id', 'int', (c) => c.proposalId],
    ['user_id', 'int', (c) => c.userId],
    ['type', 'text', (c) => c.type],
    ['source', 'text', () => 'detected'],
    ['state', 'text', (c) => c.state],
    ['evidence', 'jsonb', (c) => json(c.evidence)],
    ['changed_at', 'timestamptz', (c) => iso(c.at)],
  ]);

  lap(`${detected.length} detected conflicts written`);

  // The state autovacuum reaches minutes later, now: the planner's statistics (so the
  // first query is planned for 10,000 rows, not the empty tables of a moment ago) and the
  // visibility map (so index-only scans need not visit the table).
  await query('vacuum analyze', []);
  lap('vacuum analyze');
  return { proposalIds, conflicts: declaredPairs.size + detected.length, bids: plan.bids.length };
}
