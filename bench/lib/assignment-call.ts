/**
 * The call figure (g) assigns reviewers in (issue 27): the generated call's 10,000
 * proposals copied into a call of their own, of a committee of 300 current members, with
 * the review window open, submission closed and no reviewer assigned. The generated call
 * itself stays as it is (its 200 members already review every proposal five times, and
 * the other figures read it).
 *
 * Made by set-based SQL (INSERT ... SELECT) the first time a figure asks for it, in one
 * transaction, and found again by its committee's name after that; `settleAssignmentCall`
 * then puts it back as it was made before each measurement.
 *
 * What it holds, and why:
 * - a committee of its own (so the generated committee and its call are untouched): the
 *   generated call's chairs as chairs, its members, and new members made here up to 300,
 *   each role running from 400 days before to 400 days after, so every one of them may
 *   review; each with one facility and two keywords as expertise (the solver's small
 *   bonus), as a chair who filled them in would have them;
 * - the call, with the generated call's forms and proposal types, conflicts of interest on
 *   and no declaration required, k back at the default 3 (the figure sets 4 through the API);
 * - every proposal of the generated call (its 8 % of drafts too), each with its answers
 *   (so its facilities) and collaborators, by the same authors, all submitted: the issue's
 *   "10,000-proposal call", so Propose fills 40,000 slots;
 * - one conflict declared by the applicants for every tenth proposal, with a member (never
 *   a chair, whose view of the preview would then leave that proposal out): enforced, so
 *   the solver has exclusions to honour. No detector run: its suggestions are not
 *   enforced, so none would change what Propose does. Nothing queues detection here, so the call stays settled.
 */
import type { AssignmentProblem } from '@merit/domain';
import { eq } from 'drizzle-orm';
import { openDatabase } from '../../apps/server/src/db/client.js';
import { calls } from '../../apps/server/src/db/schema.js';
import { embeddedDatabaseDir } from '../../apps/server/src/db/template.js';
import {
  loadProblem,
  problemDigest,
} from '../../apps/server/src/modules/assignment/assignment-problem.js';
import { newUserHash } from '../../apps/server/src/platform/security/secrets.js';
import {
  copyProposalTypes,
  ensureBenchCommittee,
  inReviewWindows,
  numberOf,
  rowsOf,
  type Query,
} from './database.js';
import type { Manifest } from './manifest.js';

/** Current members of the call's committee, chairs included (issue 27's figure). */
export const ASSIGNMENT_MEMBERS = 300;
/** k: the reviews each proposal wants, set through the API by the figure. */
export const ASSIGNMENT_K = 4;
/** One declared conflict per this many proposals. */
const CONFLICT_EVERY = 10;
/** Members' keywords: words the generated proposals' names are made of (bench/lib/plan.ts). */
const KEYWORDS = [
  'stellar',
  'galaxy',
  'dust',
  'pulsar',
  'exoplanet',
  'survey',
  'magnetic',
  'transient',
  'cosmic',
  'clusters',
];
const DAY = 24 * 60 * 60 * 1000;

export interface AssignmentCall {
  callId: number;
  committeeId: number;
  /** Its submitted proposals. */
  proposals: number;
  /** Current members, chairs included. */
  members: number;
  /** Enforced (declared) conflicts. */
  conflicts: number;
  /** Made in this run (false: found from an earlier one). */
  made: boolean;
}

const committeeName = (manifest: Manifest) =>
  `Benchmark assignment committee (call ${manifest.callId})`;

/** What the call holds now; undefined when there is no call of the committee. */
async function describe(
  query: Query,
  committeeId: number,
): Promise<Omit<AssignmentCall, 'made'> | undefined> {
  const [call] = await rowsOf(query, 'select id from calls where committee_id = $1', [committeeId]);
  if (!call) return undefined;
  const callId = Number(call.id);
  return {
    callId,
    committeeId,
    proposals: await numberOf(
      query,
      'select count(*) from proposals where call_id = $1 and state_val >= 1',
      [callId],
    ),
    members: await numberOf(
      query,
      'select count(distinct user_id) from committee_roles where committee_id = $1',
      [committeeId],
    ),
    conflicts: await numberOf(
      query,
      `select count(*) from conflicts c join proposals p on p.id = c.proposal_id
       where p.call_id = $1 and c.state = 'confirmed'`,
      [callId],
    ),
  };
}

/**
 * The assignment call of the manifest's data, made first when there is none (a few
 * seconds). `query` must be one connection (a transaction spans several statements).
 */
export async function ensureAssignmentCall(
  query: Query,
  manifest: Manifest,
  now: Date,
): Promise<AssignmentCall> {
  return ensureBenchCommittee(query, {
    name: committeeName(manifest),
    describe: (committeeId) => describe(query, committeeId),
    // Made by this code for this data: the generated call's every proposal, and 300 members
    // or the generated committee's people when it has more (1,002 at 30,000 proposals).
    current: (call) =>
      call.proposals === manifest.proposalIds.length && call.members >= ASSIGNMENT_MEMBERS,
    make: () => makeAssignmentCall(query, manifest, now),
    vacuum:
      'proposals, proposal_responses, proposal_collaborators, conflicts, committee_roles, users',
  });
}

async function makeAssignmentCall(query: Query, manifest: Manifest, now: Date): Promise<void> {
  const [main] = await rowsOf(query, 'select committee_id from calls where id = $1', [
    manifest.callId,
  ]);
  if (!main) throw new Error(`The manifest's call ${manifest.callId} is not in the database.`);
  const committeeId = await numberOf(
    query,
    'insert into committees (name) values ($1) returning id',
    [committeeName(manifest)],
  );

  // The generated committee's current people (its chairs stay chairs), then new members.
  const current = (await rowsOf(
    query,
    `select user_id, bool_or(role = 'CHAIR') as chair from committee_roles
     where committee_id = $1 and commencement <= $2 and termination >= $2
     group by user_id order by bool_or(role = 'CHAIR') desc, user_id`,
    [main.committee_id, now],
  )) as { user_id: number; chair: boolean }[];
  const more = Math.max(0, ASSIGNMENT_MEMBERS - current.length);
  const usernames = Array.from(
    { length: more },
    (_, i) => `bench_assignee_${String(i + 1).padStart(5, '0')}`,
  );
  // Made once per database: a committee made again (see above) finds them.
  await query(
    `insert into users (username, email, first_name, last_name, institution, email_verified,
                        hash, password_hash)
     select u.username, u.username || '@example.test', 'Reviewer', 'No. ' || u.n,
            (select institution from users where id = $3::int), true, u.hash,
            (select password_hash from users where id = $3::int)
     from unnest($1::text[], $2::text[]) with ordinality as u(username, hash, n)
     on conflict do nothing`,
    [usernames, usernames.map(() => newUserHash()), manifest.member.userId],
  );
  const newIds = (
    await rowsOf(query, 'select id from users where username = any($1::text[]) order by username', [
      usernames,
    ])
  ).map((row) => Number(row.id));
  if (newIds.length !== more)
    throw new Error(`Only ${newIds.length} of ${more} new members could be made.`);
  const people = [
    ...current.map((row) => ({ userId: Number(row.user_id), chair: row.chair })),
    ...newIds.map((userId) => ({ userId, chair: false })),
  ];
  const term = {
    from: new Date(now.getTime() - 400 * DAY),
    to: new Date(now.getTime() + 400 * DAY),
  };
  const facilities = manifest.facilities.length > 0 ? manifest.facilities : [''];
  await query(
    `insert into committee_roles (user_id, committee_id, role, commencement, termination,
                                  facilities, keywords)
     select r.user_id, $1::int, r.role, $2::timestamptz, $3::timestamptz, r.facilities,
            r.keywords
     from unnest($4::int[], $5::text[], $6::jsonb[], $7::jsonb[])
       as r(user_id, role, facilities, keywords)`,
    [
      committeeId,
      term.from,
      term.to,
      people.map((p) => p.userId),
      people.map((p) => (p.chair ? 'CHAIR' : 'MEMBER')),
      people.map((_, i) => JSON.stringify([facilities[i % facilities.length]].filter(Boolean))),
      people.map((_, i) =>
        JSON.stringify([KEYWORDS[i % KEYWORDS.length], KEYWORDS[(i * 3 + 1) % KEYWORDS.length]]),
      ),
    ],
  );

  // The call, as the generated one but in review now, with its forms and proposal types.
  const dates = inReviewWindows(now);
  const callId = await numberOf(
    query,
    `insert into calls (committee_id, name, commencement, termination, review_commencement,
                        review_termination, is_review_open, description, created_at,
                        last_modified, conflicts_enabled, declaration_required,
                        reviews_per_proposal)
     select $1::int, 'Benchmark assignment call (' || name || ')', $2::timestamptz,
            $3::timestamptz, $4::timestamptz, $5::timestamptz, false, description,
            $6::timestamptz, $6::timestamptz, true, false, 3
     from calls where id = $7::int
     returning id`,
    [
      committeeId,
      dates.commencement,
      dates.termination,
      dates.reviewCommencement,
      dates.reviewTermination,
      now,
      manifest.callId,
    ],
  );
  await copyProposalTypes(query, callId, manifest.callId);

  // The proposals, then a map from each to its copy (names are unique in the generated
  // call: each ends in its number), then their answers and collaborators.
  const copied = await numberOf(
    query,
    `with copied as (
       insert into proposals (call_id, proposal_type_id, author_id, name, state_val,
                              created_at, updated_at)
       select $1::int, nt.id, p.author_id, p.name, 1, p.created_at, p.updated_at
       from proposals p
       join proposal_types ot on ot.id = p.proposal_type_id
       join proposal_types nt on nt.call_id = $1 and nt.position = ot.position
       where p.call_id = $2
       order by p.id
       returning 1)
     select count(*) from copied`,
    [callId, manifest.callId],
  );
  await query(
    `create temporary table assignment_copy on commit drop as
     select o.id as old_id, n.id as new_id
     from proposals o join proposals n on n.call_id = $1 and n.name = o.name
       and n.author_id = o.author_id
     where o.call_id = $2`,
    [callId, manifest.callId],
  );
  const mapped = await numberOf(query, 'select count(distinct new_id) from assignment_copy');
  if (mapped !== copied)
    throw new Error(`Copied ${copied} proposals but could match ${mapped} to their originals.`);
  await query(
    `insert into proposal_responses (proposal_id, form_id, entry_index, data, updated_at,
                                     updated_by)
     select m.new_id, r.form_id, r.entry_index, r.data, r.updated_at, r.updated_by
     from proposal_responses r join assignment_copy m on m.old_id = r.proposal_id
     order by m.new_id, r.form_id, r.entry_index`,
    [],
  );
  await query(
    `insert into proposal_collaborators (proposal_id, user_id)
     select m.new_id, c.user_id
     from proposal_collaborators c join assignment_copy m on m.old_id = c.proposal_id`,
    [],
  );

  // A conflict declared by the applicants for every tenth proposal, with a member.
  const members = people.filter((p) => !p.chair).map((p) => p.userId);
  await query(
    `insert into conflicts (proposal_id, user_id, type, source, state, reason, changed_by,
                            changed_at)
     select d.new_id, ($2::int[])[(1 + (d.n * 7) % cardinality($2::int[]))::int], 'personal',
            'applicant', 'confirmed', 'Declared by the applicants.', p.author_id, $3::timestamptz
     from (select new_id, row_number() over (order by new_id) as n from assignment_copy) d
     join proposals p on p.id = d.new_id
     where d.n % $1::int = 0
     on conflict do nothing`,
    [CONFLICT_EVERY, members, now],
  );
}

/**
 * Puts the call back as it was made, so each measurement starts from the same place: no
 * reviewer assigned, no proposed assignment, no bids or caps, every proposal wanting the
 * call's k, k at the default 3, bidding closed, in review as of `now`.
 */
export async function settleAssignmentCall(
  query: Query,
  call: Pick<AssignmentCall, 'callId' | 'committeeId'>,
  now: Date,
): Promise<void> {
  const dates = inReviewWindows(now);
  await query('begin', []);
  try {
    await query('delete from assignment_runs where call_id = $1', [call.callId]);
    await resetAssignments(query, call.callId);
    await query(
      `delete from assignment_bids b using proposals p
       where p.id = b.proposal_id and p.call_id = $1`,
      [call.callId],
    );
    await query('delete from assignment_caps where call_id = $1', [call.callId]);
    await query(
      'update proposals set reviews_wanted = null where call_id = $1 and reviews_wanted is not null',
      [call.callId],
    );
    await query(
      `update calls set reviews_per_proposal = 3, bidding_open = false, closed = false,
         commencement = $2, termination = $3, review_commencement = $4, review_termination = $5
       where id = $1`,
      [
        call.callId,
        dates.commencement,
        dates.termination,
        dates.reviewCommencement,
        dates.reviewTermination,
      ],
    );
    await query('commit', []);
  } catch (error) {
    await query('rollback', []);
    throw error;
  }
  await query('vacuum analyze proposal_reviewers', []);
}

/** Takes back every reviewer of the call's proposals (what Apply wrote). */
export async function resetAssignments(query: Query, callId: number): Promise<number> {
  return numberOf(
    query,
    `with gone as (
       delete from proposal_reviewers pr using proposals p
       where p.id = pr.proposal_id and p.call_id = $1
       returning 1)
     select count(*) from gone`,
    [callId],
  );
}

/**
 * The problem Propose solves for the call, read as its job reads it (`loadProblem`, the
 * server's own code, through drizzle on the manifest's database), with how long the read
 * and the digest Apply compares took. Run while no server holds an embedded database.
 */
export async function loadAssignmentProblem(
  manifest: Manifest,
  callId: number,
  seed: number,
): Promise<{ problem: AssignmentProblem; loadMs: number; digestMs: number }> {
  const database = await openDatabase(
    'url' in manifest.database
      ? { kind: 'postgres', url: manifest.database.url }
      : { kind: 'pglite', dataDir: embeddedDatabaseDir(manifest.database.dataDir) },
  );
  try {
    const [call] = await database.db.select().from(calls).where(eq(calls.id, callId));
    if (!call) throw new Error(`No call ${callId}.`);
    const started = performance.now();
    const problem = await loadProblem(database.db, call, new Date(), { redo: false, seed });
    const loaded = performance.now();
    problemDigest(problem);
    return {
      problem,
      loadMs: loaded - started,
      digestMs: performance.now() - loaded,
    };
  } finally {
    await database.close();
  }
}
