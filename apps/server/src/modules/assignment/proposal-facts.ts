import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { proposalCollaborators, proposalResponses, proposals, users } from '../../db/schema.js';
import type { CallRow } from '../calls/calls.queries.js';
import { enforcedSql } from '../conflicts/conflicts.queries.js';
import { facilitySql, resourceFormsOfCall } from '../proposals/resource-totals.queries.js';
import { submittedOfCall } from './assignment.queries.js';

/*
 * What assignment reads of a call's submitted proposals, for all of them at once (Propose,
 * the bidding list) or for one page (the matrix): each a query or two, never one per row.
 */

/** Pairs of a proposal and a person. */
export type Pair = readonly [proposalId: number, userId: number];

/** Both drivers (node-postgres and PGlite) answer `execute` with `{ rows }`. */
async function rowsOf<T>(tx: Tx, query: SQL): Promise<T[]> {
  return ((await tx.execute(query)) as unknown as { rows: T[] }).rows;
}

/** `and p."id" in (...)` when only some proposals are wanted. */
const onlyIds = (ids: readonly number[] | undefined) =>
  ids === undefined
    ? sql``
    : sql`and p."id" in (${sql.join(
        ids.map((id) => sql`${id}::int`),
        sql`, `,
      )})`;

/**
 * The facilities each submitted proposal's resource forms name, sorted, by proposal id
 * (the domain's `facilityOf` in SQL, `facilitySql`). The unnamed facility (a form without
 * a facility field) names nothing to match or filter by, so it is left out.
 */
export async function facilitiesOf(
  tx: Tx,
  callId: number,
  ids?: readonly number[],
): Promise<Map<number, string[]>> {
  const byProposal = new Map<number, string[]>();
  if (ids?.length === 0) return byProposal;
  const forms = await resourceFormsOfCall(tx, callId);
  if (forms.length === 0) return byProposal;
  const rows = await tx
    .select({ proposalId: proposalResponses.proposalId, facility: facilitySql(forms) })
    .from(proposalResponses)
    .innerJoin(proposals, eq(proposals.id, proposalResponses.proposalId))
    .where(
      and(
        submittedOfCall(callId),
        inArray(
          proposalResponses.formId,
          forms.map((form) => form.id),
        ),
        ids === undefined ? undefined : inArray(proposals.id, [...ids]),
      ),
    )
    // By position: the facility expression holds parameters, so it cannot be repeated.
    .groupBy(sql`1, 2`);
  for (const { proposalId, facility } of rows) {
    if (facility === '') continue;
    byProposal.set(proposalId, [...(byProposal.get(proposalId) ?? []), facility]);
  }
  for (const list of byProposal.values()) list.sort();
  return byProposal;
}

/** Every facility the call's submitted proposals name, sorted (the filters' choices). */
export async function facilitiesOfCall(tx: Tx, callId: number): Promise<string[]> {
  const byProposal = await facilitiesOf(tx, callId);
  return [...new Set([...byProposal.values()].flat())].sort();
}

/** The condition "the proposal names `facility` in a resource form", over `proposals` in the FROM. */
export async function namesFacilitySql(tx: Tx, callId: number, facility: string): Promise<SQL> {
  const forms = await resourceFormsOfCall(tx, callId);
  if (forms.length === 0) return sql`false`;
  return sql`exists (select 1 from ${proposalResponses}
    where ${proposalResponses.proposalId} = ${proposals.id}
      and ${inArray(
        proposalResponses.formId,
        forms.map((form) => form.id),
      )}
      and ${facilitySql(forms)} = ${facility}::text)`;
}

/** The author and the collaborators of each submitted proposal: pairs of proposal and person. */
export async function teamPairsOf(
  tx: Tx,
  callId: number,
  ids?: readonly number[],
): Promise<Pair[]> {
  const rows = await rowsOf<{ proposal_id: number; user_id: number }>(
    tx,
    sql`select p."id" as "proposal_id", p."author_id" as "user_id"
      from ${proposals} p
      where p."call_id" = ${callId}::int and p."state_val" >= 1 ${onlyIds(ids)}
      union
      select pc."proposal_id", pc."user_id"
      from ${proposalCollaborators} pc inner join ${proposals} p on p."id" = pc."proposal_id"
      where p."call_id" = ${callId}::int and p."state_val" >= 1 ${onlyIds(ids)}`,
  );
  return rows.map((row) => [Number(row.proposal_id), Number(row.user_id)] as const);
}

/**
 * The enforced conflicts of interest with the call's submitted proposals (the domain's
 * `isEnforced`): confirmed, not overridden by a chair who assigned the person all the
 * same, and none at all on a call with conflicts turned off.
 */
export async function enforcedConflictPairsOf(
  tx: Tx,
  call: Pick<CallRow, 'id' | 'conflictsEnabled'>,
  ids?: readonly number[],
): Promise<Pair[]> {
  if (!call.conflictsEnabled || ids?.length === 0) return [];
  const rows = await rowsOf<{ proposal_id: number; user_id: number }>(
    tx,
    sql`select c."proposal_id", c."user_id"
      from "conflicts" c inner join ${proposals} p on p."id" = c."proposal_id"
      where p."call_id" = ${call.id}::int and p."state_val" >= 1 ${onlyIds(ids)}
        and ${enforcedSql}`,
  );
  return rows.map((row) => [Number(row.proposal_id), Number(row.user_id)] as const);
}

/**
 * The institutions of each submitted proposal's author and collaborators, each once,
 * none empty, sorted, by proposal id: what bidding shows of who applied.
 */
export async function institutionsOf(tx: Tx, callId: number): Promise<Map<number, string[]>> {
  const rows = await rowsOf<{ proposal_id: number; institution: string }>(
    tx,
    sql`select distinct team."proposal_id", trim(u."institution") as "institution"
      from (
        select p."id" as "proposal_id", p."author_id" as "user_id"
        from ${proposals} p where p."call_id" = ${callId}::int and p."state_val" >= 1
        union all
        select pc."proposal_id", pc."user_id"
        from ${proposalCollaborators} pc inner join ${proposals} p on p."id" = pc."proposal_id"
        where p."call_id" = ${callId}::int and p."state_val" >= 1
      ) team inner join ${users} u on u."id" = team."user_id"
      where trim(u."institution") <> ''
      order by 1, 2`,
  );
  const byProposal = new Map<number, string[]>();
  for (const row of rows) {
    const id = Number(row.proposal_id);
    byProposal.set(id, [...(byProposal.get(id) ?? []), row.institution]);
  }
  return byProposal;
}

/**
 * The words of a proposal that members' keywords are matched against: those of its name
 * and its type's, lower-cased, of three letters or more, each once, sorted.
 */
export function wordsOf(...texts: string[]): string[] {
  const words = texts.flatMap((text) => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);
  return [...new Set(words.filter((word) => [...word].length >= 3))].sort();
}
