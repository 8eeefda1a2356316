import type { CommitteeActor } from '@merit/domain';
import { sql, type SQL } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { users } from '../../db/schema.js';
import { personNameSql } from '../../platform/data/sql.js';
import type { CallRow } from '../calls/calls.queries.js';
import { enforcedSql } from '../conflicts/conflicts.queries.js';
import { conflictedSql, ownSql } from '../proposals/list-scope.queries.js';

/*
 * The chair's review progress of a call (issue 28), counted in SQL for the whole call at
 * once: three set-based queries (the proposals, the members, the saves per day) however
 * many proposals and members it has, never one per row. The rules the numbers follow are
 * the domain's (packages/domain reminders/progress.ts); the one written again here is the
 * score spread (`scoreSpreadSql`, `scoreSpread`), and progress.api.test.ts holds the two
 * to the same answers.
 */

/** Both drivers (node-postgres and PGlite) answer `execute` with `{ rows }`. */
async function rowsOf<T>(tx: Tx, query: SQL): Promise<T[]> {
  return ((await tx.execute(query)) as unknown as { rows: T[] }).rows;
}

/** An instant as the API writes it, from SQL: the same string on both drivers. */
const isoSql = (value: SQL) =>
  sql`to_char(${value} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * The proposals of the call the reader follows, as the CTE `visible` (id, name, type,
 * author, k): its submitted ones (state 1 and on, as assignment reads them), but those
 * the reader is the author or a collaborator of, or has an enforced conflict of interest
 * with. Of those they learn nothing here, not even that they are there: no row, no
 * review counted in a total or a day, no assignment counted in a member's numbers (as
 * assignment's `hiddenOf` keeps them out of the loads a conflicted chair sees).
 */
const visibleSql = (call: CallRow, reader: CommitteeActor) => sql`visible as materialized (
  select "proposals"."id", "proposals"."name", "proposals"."proposal_type_id",
         "proposals"."author_id",
         coalesce("proposals"."reviews_wanted", ${call.reviewsPerProposal}::int) as "wanted"
  from "proposals"
  where "proposals"."call_id" = ${call.id}::int and "proposals"."state_val" >= 1
    and not ${ownSql(reader.id)} and not ${conflictedSql(reader.id, call)})`;

/**
 * The spread of a proposal's review scores, over `reviews` as `r` grouped by proposal: the
 * domain's `scoreSpread` in SQL. MIN, MAX and STDDEV_POP leave out reviews without a
 * score as it does, and are null when none has one; STDDEV_POP is the population
 * standard deviation (0 for one score).
 */
export const scoreSpreadSql = sql`min(r."score") as "score_min", max(r."score") as "score_max",
  stddev_pop(r."score") as "score_sd"`;

/**
 * A reviewer declared a conflict of interest with the proposal `v` in the FROM late: after
 * they were given it to review. There is no time of assignment to compare with, so "late"
 * is read from what the declaration left behind: their "I have a conflict" answer
 * (standing: the conflict it recorded is still confirmed) and either a review of the
 * proposal they had saved before, or the audit row of their being taken off its
 * reviewers, which the declaration writes in the same change (conflicts.service
 * `answerDeclaration`: same actor, same instant). A member who declared before anyone
 * assigned them is not late. A subquery of the select list: a look-up of the proposal's
 * few declarations by its key, where a join of the call's late conflicts to its 10,000
 * proposals was planned as a nested loop over both (0.7 s, bench figure (h)).
 */
const lateConflictSql = sql`exists (select 1
  from "conflict_declarations" d
  inner join "conflicts" c on c."proposal_id" = d."proposal_id" and c."user_id" = d."user_id"
  where d."proposal_id" = v."id" and d."conflict" and c."state" = 'confirmed'
    and (exists (select 1 from "reviews" r
           where r."proposal_id" = d."proposal_id" and r."reviewer_id" = d."user_id")
      or exists (select 1 from "audit_log" a
           where a."entity_type" = 'proposal' and a."entity_id" = d."proposal_id"
             and a."action" = 'proposal.remove_reviewer' and a."actor_id" = d."user_id"
             and a."at" = d."at")))`;

export interface ProposalProgressRow {
  proposalId: number;
  name: string;
  proposalTypeName: string;
  reviewsSaved: number;
  reviewsWanted: number;
  scoreMin: number | null;
  scoreMax: number | null;
  scoreSd: number | null;
  lateConflict: boolean;
}

const numberOrNull = (value: unknown) => (value === null ? null : Number(value));

/** Each proposal the reader follows, by name: its reviews against its k, its spread, a late conflict. */
export async function proposalProgressOf(
  tx: Tx,
  call: CallRow,
  reader: CommitteeActor,
): Promise<ProposalProgressRow[]> {
  const rows = await rowsOf<{
    id: number;
    name: string;
    type_name: string;
    wanted: number;
    saved: number;
    score_min: number | null;
    score_max: number | null;
    score_sd: number | null;
    late: boolean;
  }>(
    tx,
    // Each proposal's reviews looked up by its key (LATERAL), not the call's joined to
    // `visible`: no plan can then scan the reviews of every call, or meet `visible`
    // (a CTE, without an index) in a nested loop, whatever the row estimates say.
    sql`with ${visibleSql(call, reader)}
      select v."id", v."name", pt."name" as "type_name", v."wanted", s."saved",
             s."score_min", s."score_max", s."score_sd", ${lateConflictSql} as "late"
      from visible v
      inner join "proposal_types" pt on pt."id" = v."proposal_type_id"
      cross join lateral (
        select count(*)::int as "saved", ${scoreSpreadSql}
        from "reviews" r where r."proposal_id" = v."id") s
      order by lower(v."name"), v."id"`,
  );
  return rows.map((row) => ({
    proposalId: Number(row.id),
    name: row.name,
    proposalTypeName: row.type_name,
    reviewsSaved: Number(row.saved),
    reviewsWanted: Number(row.wanted),
    scoreMin: numberOrNull(row.score_min),
    scoreMax: numberOrNull(row.score_max),
    scoreSd: numberOrNull(row.score_sd),
    lateConflict: row.late === true,
  }));
}

export interface MemberCountsRow {
  userId: number;
  name: string;
  username: string;
  assigned: number;
  saved: number;
  /** ISO instant, or null. */
  lastReminded: string | null;
}

/**
 * The members whose progress the reader follows, by name: the committee's current members
 * (active accounts, chairs too, as assignment lists them) and anyone else assigned to a
 * proposal the reader follows (a member whose role has ended, say), each with
 *
 * - `assigned`: their assignments to those proposals that they may review: not one of
 *   its team, and no enforced conflict of interest with it (the pairs the reviewers'
 *   reminder and their pending reviews leave out too; an override counts);
 * - `saved`: how many of those they have saved a review of;
 * - `lastReminded`: the last reminder of their reviews in this call, by a reviewers' rule
 *   or by hand (not a draft of their own, nor a chair's copy of an overdue reminder).
 */
export async function memberCountsOf(
  tx: Tx,
  call: CallRow,
  reader: CommitteeActor,
  now: Date,
): Promise<MemberCountsRow[]> {
  const at = now.toISOString();
  const enforced = call.conflictsEnabled
    ? sql`and not exists (select 1 from "conflicts" c
        where c."proposal_id" = x."proposal_id" and c."user_id" = x."user_id" and ${enforcedSql})`
    : sql``;
  const rows = await rowsOf<{
    id: number;
    name: string;
    username: string;
    assigned: number | null;
    saved: number | null;
    last: string | null;
  }>(
    tx,
    // The assignments of `visible` are materialized first and filtered after: the
    // filters' NOT EXISTS made PostgreSQL expect one row and join `visible` (a CTE,
    // without an index) to every assignment of the database in a nested loop, 48 s on
    // the bench's 10,000-proposal call; each filter is now a look-up by key per pair.
    sql`with ${visibleSql(call, reader)},
      pairs as materialized (
        select a."proposal_id", a."user_id", v."author_id"
        from visible v inner join "proposal_reviewers" a on a."proposal_id" = v."id"),
      counted as (
        select x."user_id", count(*)::int as "assigned", count(r."id")::int as "saved"
        from pairs x
        left join "reviews" r on r."proposal_id" = x."proposal_id" and r."reviewer_id" = x."user_id"
        where x."user_id" <> x."author_id"
          and not exists (select 1 from "proposal_collaborators" pc
            where pc."proposal_id" = x."proposal_id" and pc."user_id" = x."user_id")
          ${enforced}
        group by x."user_id"),
      people as (
        select "user_id" from counted
        union
        select cr."user_id" from "committee_roles" cr
        inner join "users" u on u."id" = cr."user_id"
        where cr."committee_id" = ${call.committeeId}::int and u."is_active"
          and cr."commencement" <= ${at}::timestamptz and cr."termination" >= ${at}::timestamptz),
      reminded as (
        select d."user_id", max(d."sent_at") as "last"
        from "reminder_dispatches" d
        left join "reminder_rules" rr on rr."id" = d."rule_id"
        where d."call_id" = ${call.id}::int
          and (d."kind" = 'manual' or (d."kind" = 'rule' and rr."audience" = 'reviewers_pending'))
        group by d."user_id")
      select "users"."id", ${personNameSql(users)} as "name", "users"."username",
             counted."assigned", counted."saved", ${isoSql(sql`reminded."last"`)} as "last"
      from people
      inner join "users" on "users"."id" = people."user_id"
      left join counted on counted."user_id" = people."user_id"
      left join reminded on reminded."user_id" = people."user_id"
      order by 2, 1`,
  );
  return rows.map((row) => ({
    userId: Number(row.id),
    name: row.name,
    username: row.username,
    assigned: Number(row.assigned ?? 0),
    saved: Number(row.saved ?? 0),
    lastReminded: row.last,
  }));
}

/** Reviews first saved per UTC day, of the proposals the reader follows, oldest first. */
export async function savesPerDayOf(
  tx: Tx,
  call: CallRow,
  reader: CommitteeActor,
): Promise<{ day: string; saves: number }[]> {
  const rows = await rowsOf<{ day: string; saves: number }>(
    tx,
    sql`with ${visibleSql(call, reader)}
      select to_char(r."created_at" at time zone 'UTC', 'YYYY-MM-DD') as "day",
             count(*)::int as "saves"
      from visible v
      cross join lateral (
        select r."created_at" from "reviews" r where r."proposal_id" = v."id") r
      group by 1 order by 1`,
  );
  return rows.map((row) => ({ day: row.day, saves: Number(row.saves) }));
}
