/**
 * The call figure (h) reads the chair's review progress of (issue 28): (g)'s assignment
 * call made again in a committee of its own, with its reviewers assigned and part of their
 * reviews saved, as a chair finds it halfway through review. (g)'s own call stays as (g)
 * leaves it (no assignment), and the generated call as it is.
 *
 * Made by set-based SQL (INSERT ... SELECT) the first time a figure asks for it, in one
 * transaction, and found again by its committee's name after that; `settleProgressCall`
 * moves its windows to `now` before each measurement (reading changes nothing).
 *
 * What it holds, and why:
 * - a committee with (g)'s 300 current members and chairs (`ensureAssignmentCall` makes
 *   them), the manifest's chair among the chairs: the reader;
 * - the call in review (submission closed 10 days ago, review closes in 30), k = 4,
 *   conflicts on, with (g)'s 10,000 submitted proposals (names, authors, collaborators)
 *   and their applicant-declared conflicts, one per tenth proposal;
 * - 4 reviewers per proposal, round the members in turn (none conflicted, none of the
 *   team): 40,000 assignments, about 133 per member;
 * - no review yet for one proposal in twenty, and for the others a review saved for 6 in
 *   10 of their assignments, scored from 1 to 5, made over the last 9 days;
 * - the reader conflicted with one proposal in a thousand (applicant-declared): their view
 *   leaves those out, so the figure measures a chair's view with the conflict filter on;
 * - one reviewer in a hundred of the reviewed pairs declared a conflict after saving
 *   (a "late" conflict), and every member reminded once by a rule, a third of them by hand
 *   as well: the last-reminded column is filled.
 */
import { defaultReminderRules } from '@merit/domain';
import { ensureAssignmentCall } from './assignment-call.js';
import {
  copyProposalTypes,
  ensureBenchCommittee,
  inReviewWindows,
  numberOf,
  rowsOf,
  type Query,
} from './database.js';
import type { Manifest } from './manifest.js';

/** k: the reviews each proposal wants. */
export const PROGRESS_K = 4;
/** Of ten assignments, this many have a saved review. */
const SAVED_OF_TEN = 6;
/** One proposal in this many has no review yet. */
const UNREVIEWED_EVERY = 20;
/** The reader is conflicted with one proposal in this many. */
const CHAIR_CONFLICT_EVERY = 1000;
/** One reviewed pair in this many declared a conflict after saving. */
const LATE_EVERY = 100;

export interface ProgressCall {
  callId: number;
  committeeId: number;
  /** Its submitted proposals. */
  proposals: number;
  /** Current members, chairs included. */
  members: number;
  assignments: number;
  reviews: number;
  /** Made in this run (false: found from an earlier one). */
  made: boolean;
}

const committeeName = (manifest: Manifest) =>
  `Benchmark progress committee (call ${manifest.callId})`;

async function describe(
  query: Query,
  committeeId: number,
): Promise<Omit<ProgressCall, 'made'> | undefined> {
  const [call] = await rowsOf(query, 'select id from calls where committee_id = $1', [committeeId]);
  if (!call) return undefined;
  const callId = Number(call.id);
  const count = (text: string) => numberOf(query, text, [callId]);
  return {
    callId,
    committeeId,
    proposals: await count('select count(*) from proposals where call_id = $1 and state_val >= 1'),
    members: await numberOf(
      query,
      'select count(distinct user_id) from committee_roles where committee_id = $1',
      [committeeId],
    ),
    assignments: await count(
      `select count(*) from proposal_reviewers pr join proposals p on p.id = pr.proposal_id
       where p.call_id = $1`,
    ),
    reviews: await count(
      'select count(*) from reviews r join proposals p on p.id = r.proposal_id where p.call_id = $1',
    ),
  };
}

/**
 * The progress call of the manifest's data, made first when there is none (a few
 * seconds, and (g)'s call first when that is missing too). `query` must be one connection.
 */
export async function ensureProgressCall(
  query: Query,
  manifest: Manifest,
  now: Date,
): Promise<ProgressCall> {
  let source: { callId: number; committeeId: number } | undefined;
  return ensureBenchCommittee(query, {
    name: committeeName(manifest),
    describe: (committeeId) => describe(query, committeeId),
    current: (call) => call.proposals === manifest.proposalIds.length && call.assignments > 0,
    // (g)'s call, made first when missing: its own transaction, before this one.
    before: async () => {
      source = await ensureAssignmentCall(query, manifest, now);
    },
    make: () => makeProgressCall(query, manifest, source!.callId, source!.committeeId, now),
    vacuum: `proposals, proposal_collaborators, proposal_reviewers, reviews, conflicts,
       conflict_declarations, committee_roles, reminder_dispatches`,
  });
}

async function makeProgressCall(
  query: Query,
  manifest: Manifest,
  sourceCallId: number,
  sourceCommitteeId: number,
  now: Date,
): Promise<void> {
  const committeeId = await numberOf(
    query,
    'insert into committees (name) values ($1) returning id',
    [committeeName(manifest)],
  );
  await query(
    `insert into committee_roles (user_id, committee_id, role, commencement, termination,
                                  facilities, keywords)
     select user_id, $1::int, role, commencement, termination, facilities, keywords
     from committee_roles where committee_id = $2::int order by id`,
    [committeeId, sourceCommitteeId],
  );
  const dates = inReviewWindows(now);
  const callId = await numberOf(
    query,
    `insert into calls (committee_id, name, commencement, termination, review_commencement,
                        review_termination, is_review_open, description, created_at,
                        last_modified, conflicts_enabled, declaration_required,
                        reviews_per_proposal)
     select $1::int, 'Benchmark progress call (' || name || ')', $2::timestamptz,
            $3::timestamptz, $4::timestamptz, $5::timestamptz, false, description,
            $6::timestamptz, $6::timestamptz, true, false, $8::int
     from calls where id = $7::int
     returning id`,
    [
      committeeId,
      dates.commencement,
      dates.termination,
      dates.reviewCommencement,
      dates.reviewTermination,
      now,
      sourceCallId,
      PROGRESS_K,
    ],
  );
  // The reviewers' reminders, as a new call has them (not due now: review closes in 30 days).
  const rules = defaultReminderRules();
  await query(
    `insert into reminder_rules (call_id, position, audience, anchor, offset_hours, enabled,
                                 subject, body, since, updated_at)
     select $1::int, r.position - 1, r.audience, r.anchor, r.offset_hours, true, r.subject,
            r.body, $2::timestamptz, $2::timestamptz
     from unnest($3::text[], $4::text[], $5::int[], $6::text[], $7::text[])
       with ordinality as r(audience, anchor, offset_hours, subject, body, position)`,
    [
      callId,
      now,
      rules.map((r) => r.audience),
      rules.map((r) => r.anchor),
      rules.map((r) => r.offsetHours),
      rules.map((r) => r.subject),
      rules.map((r) => r.body),
    ],
  );
  await copyProposalTypes(query, callId, sourceCallId);
  await query(
    `insert into proposals (call_id, proposal_type_id, author_id, name, state_val, created_at,
                            updated_at)
     select $1::int, nt.id, p.author_id, p.name, 1, p.created_at, p.updated_at
     from proposals p
     join proposal_types ot on ot.id = p.proposal_type_id
     join proposal_types nt on nt.call_id = $1 and nt.position = ot.position
     where p.call_id = $2
     order by p.id`,
    [callId, sourceCallId],
  );
  // Names are unique in the generated call (each ends in its number).
  await query(
    `create temporary table progress_copy on commit drop as
     select o.id as old_id, n.id as new_id,
            (row_number() over (order by n.id) - 1)::int as n
     from proposals o join proposals n on n.call_id = $1 and n.name = o.name
       and n.author_id = o.author_id
     where o.call_id = $2`,
    [callId, sourceCallId],
  );
  await query(
    `insert into proposal_collaborators (proposal_id, user_id)
     select m.new_id, c.user_id
     from proposal_collaborators c join progress_copy m on m.old_id = c.proposal_id`,
    [],
  );
  // (g)'s applicant-declared conflicts, and the reader's own, one proposal in a thousand.
  await query(
    `insert into conflicts (proposal_id, user_id, type, source, state, reason, changed_by,
                            changed_at)
     select m.new_id, c.user_id, c.type, c.source, c.state, c.reason, c.changed_by,
            c.changed_at
     from conflicts c join progress_copy m on m.old_id = c.proposal_id`,
    [],
  );
  await query(
    `insert into conflicts (proposal_id, user_id, type, source, state, reason, changed_by,
                            changed_at)
     select m.new_id, $1::int, 'personal', 'applicant', 'confirmed', 'Declared by the applicants.',
            p.author_id, $3::timestamptz
     from progress_copy m join proposals p on p.id = m.new_id
     where m.n % $2::int = 0
     on conflict do nothing`,
    [manifest.chair.userId, CHAIR_CONFLICT_EVERY, now],
  );
  // k reviewers per proposal, round the members (not the chairs) in turn.
  await query(
    `with m as (
       select user_id, (row_number() over (order by user_id) - 1)::int as i,
              count(*) over ()::int as total
       from committee_roles where committee_id = $1 and role = 'MEMBER')
     insert into proposal_reviewers (proposal_id, user_id)
     select c.new_id, m.user_id
     from progress_copy c
     cross join generate_series(0, $2::int - 1) as j
     join m on m.i = (c.n * $2::int + j) % m.total
     join proposals p on p.id = c.new_id
     where p.author_id <> m.user_id
       and not exists (select 1 from proposal_collaborators pc
                       where pc.proposal_id = c.new_id and pc.user_id = m.user_id)
       and not exists (select 1 from conflicts x
                       where x.proposal_id = c.new_id and x.user_id = m.user_id)
     on conflict do nothing`,
    [committeeId, PROGRESS_K],
  );
  // One proposal in twenty with no review yet; of the others' assignments six in ten
  // saved, scored 1 to 5, over the last 9 days.
  await query(
    `insert into reviews (proposal_id, reviewer_id, score, scores, created_at, updated_at)
     select pr.proposal_id, pr.user_id, s.score,
            jsonb_build_array(jsonb_build_object('name', 'score', 'value', s.score)), s.at, s.at
     from proposal_reviewers pr
     join progress_copy c on c.new_id = pr.proposal_id
     cross join lateral (
       select 1 + ((pr.proposal_id * 13 + pr.user_id * 7) % 41) / 10.0 as score,
              $1::timestamptz - ((pr.proposal_id + pr.user_id) % 9) * interval '1 day'
                - ((pr.proposal_id * 7 + pr.user_id) % 24) * interval '1 hour' as at) s
     where c.n % $3::int <> 0 and (pr.proposal_id * 31 + pr.user_id * 17) % 10 < $2::int`,
    [now, SAVED_OF_TEN, UNREVIEWED_EVERY],
  );
  // Late conflicts: a reviewer who saved, then declared one (and was taken off).
  await query(
    `create temporary table progress_late on commit drop as
     select r.proposal_id, r.reviewer_id as user_id
     from reviews r join progress_copy c on c.new_id = r.proposal_id
     where (r.proposal_id + r.reviewer_id) % $1::int = 0`,
    [LATE_EVERY],
  );
  await query(
    `insert into conflict_declarations (proposal_id, user_id, conflict, type, at)
     select proposal_id, user_id, true, 'personal', $1::timestamptz from progress_late`,
    [now],
  );
  await query(
    `insert into conflicts (proposal_id, user_id, type, source, state, reason, changed_by,
                            changed_at)
     select proposal_id, user_id, 'personal', 'reviewer', 'confirmed', '', user_id,
            $1::timestamptz
     from progress_late
     on conflict do nothing`,
    [now],
  );
  await query(
    `delete from proposal_reviewers pr using progress_late l
     where pr.proposal_id = l.proposal_id and pr.user_id = l.user_id`,
    [],
  );
  // Every member reminded by a rule two days ago, a third of them by hand yesterday.
  await query(
    `insert into reminder_dispatches (call_id, rule_id, user_id, kind, due_at, sent_at, items)
     select $1::int, null, cr.user_id, k.kind, $2::timestamptz - k.days * interval '1 day',
            $2::timestamptz - k.days * interval '1 day', 3
     from (select distinct user_id from committee_roles where committee_id = $3) cr
     cross join (values ('rule', 2), ('manual', 1)) as k(kind, days)
     where k.kind = 'rule' or cr.user_id % 3 = 0`,
    [callId, now, committeeId],
  );
}

/** Moves the call's windows to `now` (in review), open: what the figure reads each time. */
export async function settleProgressCall(
  query: Query,
  call: Pick<ProgressCall, 'callId'>,
  now: Date,
): Promise<void> {
  const dates = inReviewWindows(now);
  await query(
    `update calls set closed = false, commencement = $2, termination = $3,
       review_commencement = $4, review_termination = $5
     where id = $1`,
    [
      call.callId,
      dates.commencement,
      dates.termination,
      dates.reviewCommencement,
      dates.reviewTermination,
    ],
  );
}
