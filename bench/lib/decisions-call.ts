/**
 * The call figure (i) holds its decision meeting on (issue 29): the generated call made
 * again, closed, in a committee of its own, with its submitted proposals' resource requests
 * and review scores, each facility's capacity, and every proposal's outcome and awards, as
 * a chair finds it after "Set outcomes from the line" and before releasing the decisions.
 * The generated call stays as it is (the other figures read it in review).
 *
 * Made by set-based SQL (INSERT ... SELECT) in one transaction by the data generator
 * (bench/data.ts, issue 31), or the first time a figure asks for it on data made before,
 * and found again by its committee's name after that; `settleDecisionsCall`
 * takes away what a release wrote (letters, their jobs and mails) before each measurement.
 *
 * What it holds, and why:
 * - a committee with the generated committee's members and chairs, the manifest's chair
 *   among them: the reader;
 * - the call closed (submission closed 60 days ago, review 1 day ago), decisions not
 *   released, the default letter templates;
 * - the generated call's submitted proposals (about 9,200 of its 10,000: drafts take no
 *   part), their collaborators (the letters' copies), their resource answers (one to
 *   three entries of multi-entry forms, three facilities) and their reviews' scores;
 * - each facility's capacity per data field: 60 % of what is asked for, so the line falls
 *   inside the list;
 * - outcomes in score order (by the domain's `rankOrder`): Approved for the first 45 %
 *   (awarded what they ask for), Partly approved for the next 10 % (half of it), Waitlisted
 *   for the next 10 %, Declined for the rest: every proposal gets a letter.
 */
import {
  rankOrder,
  resourceValues,
  storedOptions,
  type ResourceFormOptions,
  type ResourceValues,
} from '@merit/domain';
import {
  copyProposalTypes,
  ensureBenchCommittee,
  numberOf,
  rowsOf,
  type Query,
} from './database.js';
import type { Manifest } from './manifest.js';

/** Of what the proposals ask of each facility and field, the capacity. */
const CAPACITY_SHARE = 0.6;
/** Shares of the ranking (in order) by outcome. */
const APPROVED = 0.45;
const PARTLY = 0.1;
const WAITLISTED = 0.1;

export interface DecisionsCall {
  callId: number;
  committeeId: number;
  /** Submitted proposals. */
  proposals: number;
  /** Proposals with an outcome (each gets a letter). */
  decided: number;
  /** Facilities and fields with a capacity. */
  capacities: number;
  /** Made in this run (false: found from an earlier one). */
  made: boolean;
}

const committeeName = (manifest: Manifest) =>
  `Benchmark decisions committee (call ${manifest.callId})`;

const DAY = 24 * 60 * 60 * 1000;

async function describe(
  query: Query,
  committeeId: number,
): Promise<Omit<DecisionsCall, 'made'> | undefined> {
  const [call] = await rowsOf(query, 'select id from calls where committee_id = $1', [committeeId]);
  if (!call) return undefined;
  const callId = Number(call.id);
  const count = (text: string) => numberOf(query, text, [callId]);
  return {
    callId,
    committeeId,
    proposals: await count('select count(*) from proposals where call_id = $1 and state_val >= 1'),
    decided: await count(
      `select count(*) from proposal_decisions d join proposals p on p.id = d.proposal_id
       where p.call_id = $1 and d.outcome is not null`,
    ),
    capacities: await count('select count(*) from call_capacities where call_id = $1'),
  };
}

/**
 * The decisions call of the manifest's data, made first when there is none (some
 * seconds). `query` must be one connection.
 */
export async function ensureDecisionsCall(
  query: Query,
  manifest: Manifest,
  now: Date,
): Promise<DecisionsCall> {
  return ensureBenchCommittee(query, {
    name: committeeName(manifest),
    describe: (committeeId) => describe(query, committeeId),
    current: (call) => call.proposals > 0 && call.decided === call.proposals,
    make: () => makeDecisionsCall(query, manifest, now),
    vacuum: `proposals, proposal_collaborators, proposal_responses, reviews, proposal_decisions,
       call_capacities, committee_roles`,
  });
}

async function makeDecisionsCall(query: Query, manifest: Manifest, now: Date): Promise<void> {
  const source = manifest.callId;
  const [sourceCall] = await rowsOf(query, 'select committee_id from calls where id = $1', [
    source,
  ]);
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
    [committeeId, Number(sourceCall!.committee_id)],
  );
  const at = (days: number) => new Date(now.getTime() + days * DAY);
  const callId = await numberOf(
    query,
    `insert into calls (committee_id, name, commencement, termination, review_commencement,
                        review_termination, is_review_open, description, created_at,
                        last_modified, closed, closed_at)
     select $1::int, 'Benchmark decisions call (' || name || ')', $2::timestamptz,
            $3::timestamptz, $4::timestamptz, $5::timestamptz, false, description,
            $2::timestamptz, $6::timestamptz, true, $6::timestamptz
     from calls where id = $7::int
     returning id`,
    [committeeId, at(-90), at(-60), at(-59), at(-1), now, source],
  );
  await copyProposalTypes(query, callId, source);
  await query(
    `insert into proposals (call_id, proposal_type_id, author_id, name, state_val, created_at,
                            updated_at)
     select $1::int, nt.id, p.author_id, p.name, p.state_val, p.created_at, p.updated_at
     from proposals p
     join proposal_types ot on ot.id = p.proposal_type_id
     join proposal_types nt on nt.call_id = $1 and nt.position = ot.position
     where p.call_id = $2 and p.state_val >= 1
     order by p.id`,
    [callId, source],
  );
  // Names are unique in the generated call (each ends in its number).
  await query(
    `create temporary table decisions_copy on commit drop as
     select o.id as old_id, n.id as new_id
     from proposals o join proposals n on n.call_id = $1 and n.name = o.name
       and n.author_id = o.author_id
     where o.call_id = $2`,
    [callId, source],
  );
  await query(
    `insert into proposal_collaborators (proposal_id, user_id)
     select m.new_id, c.user_id
     from proposal_collaborators c join decisions_copy m on m.old_id = c.proposal_id`,
    [],
  );
  // The resource forms' answers: what each proposal asks for (its other answers no figure reads).
  await query(
    `insert into proposal_responses (proposal_id, form_id, entry_index, version, data,
                                     updated_at, updated_by)
     select m.new_id, r.form_id, r.entry_index, r.version, r.data, r.updated_at, r.updated_by
     from proposal_responses r
     join decisions_copy m on m.old_id = r.proposal_id
     join forms f on f.id = r.form_id
     join form_names fn on fn.id = f.form_name_id
     where fn.type in (4, 5)`,
    [],
  );
  await query(
    `insert into reviews (proposal_id, reviewer_id, score, scores, created_at, updated_at)
     select m.new_id, r.reviewer_id, r.score, r.scores, r.created_at, r.updated_at
     from reviews r join decisions_copy m on m.old_id = r.proposal_id`,
    [],
  );

  // What each asks for, and its score, worked out by the domain's rules as the server does.
  const entries = await rowsOf(
    query,
    `select r.proposal_id, f.options, r.data
     from proposal_responses r
     join proposals p on p.id = r.proposal_id
     join forms f on f.id = r.form_id
     join form_names fn on fn.id = f.form_name_id
     where p.call_id = $1 and fn.type in (4, 5)
     order by r.proposal_id, r.form_id, r.entry_index`,
    [callId],
  );
  const byProposal = new Map<
    number,
    { options: ResourceFormOptions; data: Record<string, unknown> }[]
  >();
  for (const entry of entries) {
    const id = Number(entry.proposal_id);
    let list = byProposal.get(id);
    if (!list) byProposal.set(id, (list = []));
    list.push({
      options: storedOptions<ResourceFormOptions>(entry.options as Record<string, unknown>),
      data: entry.data as Record<string, unknown>,
    });
  }
  const rows = (
    await rowsOf(
      query,
      `select p.id, p.name, p.proposal_type_id, avg(r.score) as score
       from proposals p left join reviews r on r.proposal_id = p.id
       where p.call_id = $1 group by p.id`,
      [callId],
    )
  ).map((row) => ({
    proposalId: Number(row.id),
    name: String(row.name),
    proposalTypeId: Number(row.proposal_type_id),
    score: row.score === null ? null : Number(row.score),
    rankKey: null,
    requested: resourceValues(byProposal.get(Number(row.id)) ?? []),
    outcome: null,
    awards: {},
  }));

  const totals: ResourceValues = {};
  for (const row of rows)
    for (const [facility, fields] of Object.entries(row.requested))
      for (const [field, amount] of Object.entries(fields))
        (totals[facility] ??= {})[field] = (totals[facility]![field] ?? 0) + amount;
  const capacities = Object.entries(totals).flatMap(([facility, fields]) =>
    Object.entries(fields).map(([field, amount]) => ({
      facility,
      field,
      amount: Math.round(amount * CAPACITY_SHARE),
    })),
  );
  await query(
    `insert into call_capacities (call_id, facility, field, amount)
     select $1::int, x.facility, x.field, x.amount
     from jsonb_to_recordset($2::jsonb) as x(facility varchar, field varchar, amount float8)`,
    [callId, JSON.stringify(capacities)],
  );

  const ordered = rankOrder(rows);
  const half = (values: ResourceValues) =>
    Object.fromEntries(
      Object.entries(values).map(([facility, fields]) => [
        facility,
        Object.fromEntries(
          Object.entries(fields).map(([field, amount]) => [field, Math.floor(amount / 2)]),
        ),
      ]),
    );
  const decisions = ordered.map((row, index) => {
    const share = index / ordered.length;
    const [outcome, awards] =
      share < APPROVED
        ? ['approved', row.requested]
        : share < APPROVED + PARTLY
          ? ['partly_approved', half(row.requested)]
          : share < APPROVED + PARTLY + WAITLISTED
            ? ['waitlisted', {}]
            : ['declined', {}];
    return { proposal_id: row.proposalId, outcome, awards };
  });
  await query(
    `insert into proposal_decisions (proposal_id, outcome, awards, award_notes, version,
                                     decided_at, decided_by)
     select x.proposal_id, x.outcome, x.awards, '{}'::jsonb, 1, $2::timestamptz, $3::int
     from jsonb_to_recordset($1::jsonb) as x(proposal_id int, outcome varchar, awards jsonb)`,
    [JSON.stringify(decisions), now, manifest.chair.userId],
  );
}

/**
 * Takes away what a release of the call wrote (its letters, the letters' jobs and the
 * mails they queued) and makes its decisions unreleased again: what each release starts
 * from. `sinceJob`: jobs with a larger id are the release's (the letters' jobs and mails).
 */
export async function settleDecisionsCall(
  query: Query,
  call: Pick<DecisionsCall, 'callId'>,
  sinceJob?: number,
): Promise<void> {
  await query(
    `delete from decision_letters l using proposals p
     where p.id = l.proposal_id and p.call_id = $1`,
    [call.callId],
  );
  if (sinceJob !== undefined)
    await query(`delete from jobs where id > $1 and kind in ('letters.send', 'mail.send')`, [
      sinceJob,
    ]);
  await query('update calls set decisions_released_at = null where id = $1', [call.callId]);
}

/** The largest job id now: what a release queues after it is the release's. */
export const lastJobId = (query: Query) => numberOf(query, 'select coalesce(max(id), 0) from jobs');
