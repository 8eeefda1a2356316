import { sql, type SQL } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { enforcedConflictProposalIdsSql } from '../conflicts/conflicts.queries.js';
import { ownSql } from '../proposals/list-scope.queries.js';

/*
 * The History and Activity pages' reads (issue 28): pages of audit rows, and for the
 * administrators the security events beside them, newest first. Each page is one ORDER BY
 * `at` DESC with LIMIT and OFFSET over the rows' `at` indexes (`audit_log_proposal_idx`,
 * `audit_log_call_idx`, `audit_log_at_idx`, `security_events_at_idx`), and the names are
 * joined to the page's rows only, so a page costs its size, not the log's.
 */

/** One row of the log as the pages read it, before what the reader may see is decided. */
export interface ActivityRow {
  source: 'audit' | 'security';
  id: number;
  at: Date;
  action: string;
  actorId: number | null;
  actorName: string | null;
  subjectId: number | null;
  subjectName: string | null;
  callId: number | null;
  proposalId: number | null;
  proposalName: string | null;
  /** The audit row's changes; a security event's details as they are stored. */
  data: Record<string, unknown>;
  requestId: string | null;
  address: string | null;
}

interface RawRow {
  source: 'audit' | 'security';
  id: number;
  at: Date | string;
  action: string;
  actor_id: number | null;
  actor_name: string | null;
  subject_id: number | null;
  subject_name: string | null;
  call_id: number | null;
  proposal_id: number | null;
  proposal_name: string | null;
  data: Record<string, unknown> | string;
  request_id: string | null;
  address: string | null;
}

const rowsOf = async <T>(tx: Tx, query: SQL) =>
  ((await tx.execute(query)) as unknown as { rows: T[] }).rows;

const asRow = (r: RawRow): ActivityRow => ({
  source: r.source,
  id: Number(r.id),
  // A timestamp and a jsonb value arrive parsed or as text, as the driver chooses.
  at: new Date(r.at),
  action: r.action,
  actorId: r.actor_id,
  actorName: r.actor_name,
  subjectId: r.subject_id,
  subjectName: r.subject_name,
  callId: r.call_id,
  proposalId: r.proposal_id,
  proposalName: r.proposal_name,
  data: typeof r.data === 'string' ? (JSON.parse(r.data) as Record<string, unknown>) : r.data,
  requestId: r.request_id,
  address: r.address,
});

/** The domain's `personName` for the user `u` in the FROM. */
const nameOf = (u: string) =>
  sql.raw(
    `coalesce(nullif(trim(${u}."first_name" || ' ' || ${u}."last_name"), ''), ${u}."username")`,
  );

/** What a page asks for: the rows' WHERE, and which slice (none: every row, for a CSV). */
export interface Slice {
  limit: number;
  offset: number;
}

const sliceSql = (slice: Slice | null) =>
  slice ? sql`limit ${slice.limit} offset ${slice.offset}` : sql``;

/** The filters of the Activity pages, each optional. */
export interface ActivityFilter {
  user?: number;
  action?: string;
  proposal?: number;
  from?: Date;
  to?: Date;
}

/** The filter as a WHERE over `audit_log a` (true when it filters nothing). */
export function auditFilterSql(filter: ActivityFilter): SQL {
  const parts: SQL[] = [sql`true`];
  if (filter.user !== undefined) parts.push(sql`a."actor_id" = ${filter.user}`);
  if (filter.action !== undefined) parts.push(sql`a."action" = ${filter.action}`);
  if (filter.proposal !== undefined) parts.push(sql`a."proposal_id" = ${filter.proposal}`);
  if (filter.from) parts.push(sql`a."at" >= ${filter.from}`);
  if (filter.to) parts.push(sql`a."at" <= ${filter.to}`);
  return sql.join(parts, sql` and `);
}

/** The filter as a WHERE over `security_events s`: the proposal is the event's `proposalId`. */
function securityFilterSql(filter: ActivityFilter): SQL {
  const parts: SQL[] = [sql`true`];
  if (filter.user !== undefined) parts.push(sql`s."user_id" = ${filter.user}`);
  if (filter.action !== undefined) parts.push(sql`s."event" = ${filter.action}`);
  if (filter.proposal !== undefined)
    parts.push(sql`s."details" -> 'proposalId' = to_jsonb(${filter.proposal}::int)`);
  if (filter.from) parts.push(sql`s."at" >= ${filter.from}`);
  if (filter.to) parts.push(sql`s."at" <= ${filter.to}`);
  return sql.join(parts, sql` and `);
}

/** The page's rows of `rows` (a subquery of the log's columns) with the names they need. */
function named(rows: SQL): SQL {
  return sql`select e.*, ${nameOf('actor')} as "actor_name", ${nameOf('subject')} as "subject_name",
      p."name" as "proposal_name"
    from (${rows}) e
    left join "users" actor on actor."id" = e."actor_id"
    left join "users" subject on subject."id" = e."subject_id"
    left join "proposals" p on p."id" = e."proposal_id"
    order by e."at" desc, e."source", e."id" desc`;
}

const AUDIT_COLUMNS = sql`'audit'::text as "source", a."id", a."at", a."action"::text as "action",
  a."actor_id", a."subject_user_id" as "subject_id", a."call_id", a."proposal_id",
  a."changes" as "data", a."request_id"::text as "request_id", a."address"::text as "address"`;

/** A page of the audit rows `where` (over `audit_log a`) chooses, newest first, and how many there are. */
export async function auditPage(
  tx: Tx,
  where: SQL,
  slice: Slice | null,
): Promise<{ rows: ActivityRow[]; total: number }> {
  const rows = await rowsOf<RawRow>(
    tx,
    named(sql`select ${AUDIT_COLUMNS} from "audit_log" a where ${where}
      order by a."at" desc, a."id" desc ${sliceSql(slice)}`),
  );
  const total = slice
    ? Number(
        (
          await rowsOf<{ count: number | string }>(
            tx,
            sql`select count(*) as "count" from "audit_log" a where ${where}`,
          )
        )[0]!.count,
      )
    : rows.length;
  return { rows: rows.map(asRow), total };
}

/** The people who did something among the audit rows `where` chooses, by name, for the filter menu. */
export async function auditActors(tx: Tx, where: SQL): Promise<{ id: number; name: string }[]> {
  return rowsOf<{ id: number; name: string }>(
    tx,
    sql`select u."id", ${nameOf('u')} as "name" from "users" u
      where u."id" in (select a."actor_id" from "audit_log" a where ${where})
      order by 2, 1`,
  );
}

/** The actions among the audit rows `where` chooses, for the filter menu. */
export async function auditActions(tx: Tx, where: SQL): Promise<string[]> {
  const rows = await rowsOf<{ action: string }>(
    tx,
    sql`select distinct a."action"::text as "action" from "audit_log" a where ${where}`,
  );
  return rows.map((r) => r.action);
}

/**
 * The proposals (of the call, or of every call) whose rows the actor may not read in an
 * Activity page: those they are of the team of (`ownSql`), or have an enforced conflict of
 * interest with on a call with conflicts turned on (the list's `conflictedSql`, per call).
 * Few: a person's own proposals and conflicts.
 */
export async function hiddenProposalIds(
  tx: Tx,
  actorId: number,
  callId: number | null,
): Promise<number[]> {
  const ofCall = callId === null ? sql`true` : sql`"proposals"."call_id" = ${callId}`;
  const rows = await rowsOf<{ id: number }>(
    tx,
    sql`select "proposals"."id" from "proposals" join "calls" c on c."id" = "proposals"."call_id"
      where ${ofCall} and (${ownSql(actorId)}
        or (c."conflicts_enabled" and "proposals"."id" in ${enforcedConflictProposalIdsSql(actorId)}))`,
  );
  return rows.map((r) => Number(r.id));
}

/** Rows of `column` (a proposal id, or null) but of the `hidden` proposals. */
export function notHiddenSql(column: SQL, hidden: readonly number[]): SQL {
  if (hidden.length === 0) return sql`true`;
  const ids = sql.join(
    hidden.map((id) => sql`${id}::int`),
    sql`, `,
  );
  return sql`(${column} is null or ${column} not in (${ids}))`;
}

/** The proposal a security event `s` names in its details, or null. */
const eventProposalSql = sql`(case when jsonb_typeof(s."details" -> 'proposalId') = 'number'
  then (s."details" ->> 'proposalId')::int end)`;

/**
 * Which branches of the administrators' page a filter leaves: an action that is an audit
 * action finds no security event, and the other way round.
 */
export interface Branches {
  audit: boolean;
  security: boolean;
}

/**
 * A page of the whole system's audit rows and security events, merged newest first, and
 * how many there are. One ORDER BY `at` DESC over a UNION ALL of the two tables: each
 * side is read backwards along its `at` index, no further than the page's end, and the
 * two merged (Merge Append), so a page reads its offset plus its size of rows, however
 * long the log.
 */
export async function systemPage(
  tx: Tx,
  filter: ActivityFilter,
  branches: Branches,
  hidden: readonly number[],
  slice: Slice | null,
): Promise<{ rows: ActivityRow[]; total: number }> {
  const audit = branches.audit
    ? sql`${auditFilterSql(filter)} and ${notHiddenSql(sql`a."proposal_id"`, hidden)}`
    : sql`false`;
  const eventProposal = eventProposalSql;
  const security = branches.security
    ? sql`${securityFilterSql(filter)} and ${notHiddenSql(eventProposal, hidden)}`
    : sql`false`;
  // Each side limited to the rows the page could need: without, PostgreSQL sorts both
  // tables whole (a parallel scan); with, it reads each backwards along its `at` index and
  // merges them (6 ms against 300 ms for 300,000 rows).
  const upTo = slice ? sql`limit ${slice.offset + slice.limit}` : sql``;
  const rows = await rowsOf<RawRow>(
    tx,
    named(sql`select * from (
        (select ${AUDIT_COLUMNS} from "audit_log" a where ${audit}
          order by a."at" desc, a."id" desc ${upTo})
        union all
        (select 'security'::text, s."id", s."at", s."event"::text, s."user_id", null::int,
          case when jsonb_typeof(s."details" -> 'callId') = 'number'
            then (s."details" ->> 'callId')::int end,
          ${eventProposal},
          s."details", s."request_id"::text, s."address"::text
        from "security_events" s where ${security}
          order by s."at" desc, s."id" desc ${upTo})
      ) u order by u."at" desc, u."source", u."id" desc ${sliceSql(slice)}`),
  );
  const total = slice
    ? Number(
        (
          await rowsOf<{ count: number | string }>(
            tx,
            sql`select (select count(*) from "audit_log" a where ${audit})
              + (select count(*) from "security_events" s where ${security}) as "count"`,
          )
        )[0]!.count,
      )
    : rows.length;
  return { rows: rows.map(asRow), total };
}

/**
 * Everyone who did something in the log or its security events but on the `hidden`
 * proposals, for the filter menu.
 */
export async function systemActors(
  tx: Tx,
  hidden: readonly number[],
): Promise<{ id: number; name: string }[]> {
  // One probe of each table's user index per account, not a scan of the whole log.
  return rowsOf<{ id: number; name: string }>(
    tx,
    sql`select u."id", ${nameOf('u')} as "name" from "users" u
      where exists (select 1 from "audit_log" a
          where a."actor_id" = u."id" and ${notHiddenSql(sql`a."proposal_id"`, hidden)})
        or exists (select 1 from "security_events" s
          where s."user_id" = u."id" and ${notHiddenSql(eventProposalSql, hidden)})
      order by 2, 1`,
  );
}
