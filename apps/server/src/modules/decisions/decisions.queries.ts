import {
  resourceValues,
  type CommitteeActor,
  type Outcome,
  type ResourceValues,
  type TimeWindow,
} from '@merit/domain';
import { and, asc, desc, eq, inArray, ne, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Tx } from '../../db/client.js';
import {
  callCapacities,
  decisionLetters,
  extensions,
  proposalDecisions,
  proposalTypes,
  proposals,
  users,
} from '../../db/schema.js';
import { personNameSql } from '../../platform/data/sql.js';
import type { CallRow } from '../calls/calls.queries.js';
import { reviewScoresOfCall } from '../proposals/chair.queries.js';
import { conflictedSql, ownSql } from '../proposals/list-scope.queries.js';
import {
  resourceEntriesOf,
  resourceEntriesOfCall,
  type ResourceEntryRow,
} from '../proposals/resource-totals.queries.js';

/*
 * The decisions module's tables (issue 29): a proposal's decision and its current letter,
 * a call's capacities, and the ranking's rows, read for a whole call in a few set-based
 * queries (the proposals with their scores and decisions, their resource entries, the
 * authors' extensions) however many proposals it has, never one per row. The ranking
 * itself, its line and the outcomes from it are the domain's (decisions/ranking.ts).
 */

export type DecisionRow = typeof proposalDecisions.$inferSelect;
export type LetterRow = typeof decisionLetters.$inferSelect;

/**
 * Runs queries side by side on a read, where each takes a pooled connection of its own;
 * one after another in a transaction (`inTransaction`), whose one connection runs one
 * query at a time.
 */
export async function runAll<T extends readonly unknown[]>(
  inTransaction: boolean,
  queries: { [K in keyof T]: () => Promise<T[K]> },
): Promise<T> {
  if (!inTransaction) return (await Promise.all(queries.map((query) => query()))) as unknown as T;
  const results: unknown[] = [];
  for (const query of queries) results.push(await query());
  return results as unknown as T;
}

const deciders = alias(users, 'deciders');
const rankers = alias(users, 'rankers');

/** A proposal's decision with the names of who decided and who moved it; undefined before the first save. */
export async function decisionOf(tx: Tx, proposalId: number) {
  const [row] = await tx
    .select({
      decision: proposalDecisions,
      decidedByName: personNameSql(deciders),
    })
    .from(proposalDecisions)
    .leftJoin(deciders, eq(deciders.id, proposalDecisions.decidedBy))
    .where(eq(proposalDecisions.proposalId, proposalId));
  return row;
}

/**
 * The proposal's current letter: its latest that is not superseded; with `applicants`,
 * only one that is queued or sent (a failed one is the chairs' to resend).
 */
export async function currentLetterOf(
  tx: Tx,
  proposalId: number,
  applicants: boolean,
): Promise<LetterRow | undefined> {
  const [row] = await tx
    .select()
    .from(decisionLetters)
    .where(
      and(
        eq(decisionLetters.proposalId, proposalId),
        applicants
          ? inArray(decisionLetters.state, ['queued', 'sent'])
          : ne(decisionLetters.state, 'superseded'),
      ),
    )
    .orderBy(desc(decisionLetters.createdAt), desc(decisionLetters.id))
    .limit(1);
  return row;
}

/** Per proposal, what it asks of each facility (`resourceValues` of its entries). */
export function requestsOf(entries: readonly ResourceEntryRow[]): Map<number, ResourceValues> {
  const byProposal = new Map<number, ResourceEntryRow[]>();
  for (const entry of entries) {
    const rows = byProposal.get(entry.proposalId);
    if (rows) rows.push(entry);
    else byProposal.set(entry.proposalId, [entry]);
  }
  return new Map([...byProposal].map(([id, rows]) => [id, resourceValues(rows)]));
}

/** What one proposal asks of each facility. */
export async function requestedOf(tx: Tx, proposalId: number): Promise<ResourceValues> {
  return resourceValues(await resourceEntriesOf(tx, [proposalId]));
}

/** A call's capacities, per facility and data field. */
export async function capacityOf(tx: Tx, callId: number): Promise<ResourceValues> {
  const rows = await tx
    .select()
    .from(callCapacities)
    .where(eq(callCapacities.callId, callId))
    .orderBy(asc(callCapacities.facility), asc(callCapacities.field));
  const capacity: ResourceValues = {};
  for (const row of rows) (capacity[row.facility] ??= {})[row.field] = row.amount;
  return capacity;
}

/** Replaces a call's capacities with `capacity`. */
export async function replaceCapacity(tx: Tx, callId: number, capacity: ResourceValues) {
  await tx.delete(callCapacities).where(eq(callCapacities.callId, callId));
  const rows = Object.entries(capacity).flatMap(([facility, fields]) =>
    Object.entries(fields).map(([field, amount]) => ({ callId, facility, field, amount })),
  );
  if (rows.length > 0) await tx.insert(callCapacities).values(rows);
}

/** A call's proposal types in order. */
export function typesOfCall(tx: Tx, callId: number) {
  return tx
    .select({ id: proposalTypes.id, name: proposalTypes.name })
    .from(proposalTypes)
    .where(eq(proposalTypes.callId, callId))
    .orderBy(asc(proposalTypes.position), asc(proposalTypes.id));
}

/** One submitted proposal of a call as the ranking reads it. */
export interface RankingSourceRow {
  proposalId: number;
  name: string;
  proposalTypeId: number;
  proposalTypeName: string;
  authorId: number;
  stateVal: number;
  score: number | null;
  requested: ResourceValues;
  outcome: Outcome | null;
  awards: ResourceValues;
  awardNotes: Record<string, string>;
  version: number;
  rankKey: number | null;
  rankReason: string | null;
  rankedAt: Date | null;
  rankedBy: string | null;
}

const numberOrNull = (value: unknown) => (value === null ? null : Number(value));

/**
 * The call's submitted proposals (state 1 and on) the reader may rank: all but those they
 * are the author or a collaborator of, or have an enforced conflict of interest with (as
 * the progress page leaves them out), each with its score (the chair's list's: the mean
 * of its reviews' scores, `reviewScoresOfCall`), its requests and its decision; and how
 * many were left out (`hidden`). Two queries, side by side on a read.
 */
export async function rankingSourceOf(
  tx: Tx,
  call: CallRow,
  reader: CommitteeActor,
  inTransaction: boolean,
): Promise<{ rows: RankingSourceRow[]; hidden: number }> {
  const kept = sql<boolean>`(${ownSql(reader.id)} or ${conflictedSql(reader.id, call)})`;
  const [rows, entries] = await runAll(inTransaction, [
    () =>
      tx
        .select({
          id: proposals.id,
          name: proposals.name,
          proposalTypeId: proposals.proposalTypeId,
          proposalTypeName: proposalTypes.name,
          authorId: proposals.authorId,
          stateVal: proposals.stateVal,
          kept,
          score: sql<number | null>`"review_scores"."mean"`,
          decision: proposalDecisions,
          rankedBy: personNameSql(rankers),
        })
        .from(proposals)
        .innerJoin(proposalTypes, eq(proposalTypes.id, proposals.proposalTypeId))
        .leftJoin(
          reviewScoresOfCall(call.id),
          sql`"review_scores"."proposal_id" = "proposals"."id"`,
        )
        .leftJoin(proposalDecisions, eq(proposalDecisions.proposalId, proposals.id))
        .leftJoin(rankers, eq(rankers.id, proposalDecisions.rankedBy))
        .where(and(eq(proposals.callId, call.id), sql`${proposals.stateVal} >= 1`)),
    () => resourceEntriesOfCall(tx, call.id),
  ]);
  const requests = requestsOf(entries);
  const visible = rows.filter((row) => !row.kept);
  return {
    hidden: rows.length - visible.length,
    rows: visible.map((row) => ({
      proposalId: row.id,
      name: row.name,
      proposalTypeId: row.proposalTypeId,
      proposalTypeName: row.proposalTypeName,
      authorId: row.authorId,
      stateVal: row.stateVal,
      score: numberOrNull(row.score),
      requested: requests.get(row.id) ?? {},
      outcome: row.decision?.outcome ?? null,
      awards: row.decision?.awards ?? {},
      awardNotes: row.decision?.awardNotes ?? {},
      version: row.decision?.version ?? 0,
      rankKey: row.decision?.rankKey ?? null,
      rankReason: row.decision?.rankReason ?? null,
      rankedAt: row.decision?.rankedAt ?? null,
      rankedBy: row.decision?.rankReason ? row.rankedBy : null,
    })),
  };
}

/**
 * What the reader's ranking of the call is awarded, per facility and data field: the sum
 * of the awards of the proposals `rankingSourceOf` reads for them (submitted, not their
 * team's, no enforced conflict), as `rankProposals` adds them into its lines. One
 * aggregate query, however many proposals: what a saved award answers.
 */
export async function awardedOf(
  tx: Tx,
  call: CallRow,
  reader: CommitteeActor,
): Promise<ResourceValues> {
  const result = await tx.execute(sql`
    select f."key" as "facility", a."key" as "field", sum((a."value")::float8) as "amount"
    from ${proposals}
    join ${proposalDecisions} d on d."proposal_id" = ${proposals.id}
    cross join lateral jsonb_each(d."awards") f
    cross join lateral jsonb_each(f."value") a
    where ${proposals.callId} = ${call.id} and ${proposals.stateVal} >= 1
      and jsonb_typeof(a."value") = 'number'
      and not (${ownSql(reader.id)} or ${conflictedSql(reader.id, call)})
    group by 1, 2`);
  const awarded: ResourceValues = {};
  for (const row of (
    result as unknown as { rows: { facility: string; field: string; amount: unknown }[] }
  ).rows)
    (awarded[row.facility] ??= {})[row.field] = Number(row.amount);
  return awarded;
}

/** Each author's extension windows on the call, by user: what says when submission closed for each proposal. */
export async function authorWindowsOf(tx: Tx, callId: number) {
  const rows = await tx
    .select({
      userId: extensions.userId,
      commencement: extensions.commencement,
      termination: extensions.termination,
    })
    .from(extensions)
    .where(eq(extensions.callId, callId));
  const windows = new Map<number, TimeWindow[]>();
  for (const row of rows)
    windows.set(row.userId, [
      ...(windows.get(row.userId) ?? []),
      { commencement: row.commencement, termination: row.termination },
    ]);
  return windows;
}

/** One decision to write: what it becomes, from the version it was read at. */
export interface DecisionWrite {
  proposalId: number;
  outcome: Outcome | null;
  awards: ResourceValues;
  awardNotes: Record<string, string>;
  /** The version it was read at: the write gives it this + 1, or nothing when it moved on. */
  version: number;
}

/**
 * Writes decisions in one statement (a JSON parameter, so ten thousand take no more), each
 * only if it is still at the version it was read at: a row another chair saved meanwhile is
 * left as they saved it (READ COMMITTED re-reads it after their commit). The ids written;
 * a caller that gets fewer than it asked for answers 409 `stale`, rolling all back.
 */
export async function writeDecisions(
  tx: Tx,
  writes: readonly DecisionWrite[],
  by: number,
  at: Date,
): Promise<number[]> {
  if (writes.length === 0) return [];
  const json = JSON.stringify(
    writes.map((w) => ({
      proposal_id: w.proposalId,
      outcome: w.outcome,
      awards: w.awards,
      award_notes: w.awardNotes,
      version: w.version + 1,
    })),
  );
  const result = await tx.execute(sql`
    insert into "proposal_decisions" as d
      ("proposal_id", "outcome", "awards", "award_notes", "version", "decided_at", "decided_by")
    select x."proposal_id", x."outcome", x."awards", x."award_notes", x."version",
      ${at.toISOString()}::timestamptz, ${by}::int
    from jsonb_to_recordset(${json}::jsonb) as x("proposal_id" int, "outcome" varchar,
      "awards" jsonb, "award_notes" jsonb, "version" int)
    on conflict ("proposal_id") do update set
      "outcome" = excluded."outcome", "awards" = excluded."awards",
      "award_notes" = excluded."award_notes", "version" = excluded."version",
      "decided_at" = excluded."decided_at", "decided_by" = excluded."decided_by"
    where d."version" = excluded."version" - 1
    returning d."proposal_id"`);
  return (result as unknown as { rows: { proposal_id: number }[] }).rows.map((row) =>
    Number(row.proposal_id),
  );
}

/**
 * Puts a proposal where a chair moved it in the ranking (its key, the reason, who and
 * when), only if its decision is still at `version`; raises the version (the move is part
 * of the decision). Whether it was written.
 */
export async function writeRankMove(
  tx: Tx,
  move: { proposalId: number; rankKey: number | null; reason: string; version: number },
  by: number,
  at: Date,
): Promise<boolean> {
  const result = await tx.execute(sql`
    insert into "proposal_decisions" as d
      ("proposal_id", "version", "rank_key", "rank_reason", "ranked_at", "ranked_by")
    values (${move.proposalId}::int, ${move.version + 1}::int, ${move.rankKey}::float8,
      ${move.reason}, ${at.toISOString()}::timestamptz, ${by}::int)
    on conflict ("proposal_id") do update set
      "version" = excluded."version", "rank_key" = excluded."rank_key",
      "rank_reason" = excluded."rank_reason", "ranked_at" = excluded."ranked_at",
      "ranked_by" = excluded."ranked_by"
    where d."version" = excluded."version" - 1
    returning d."proposal_id"`);
  return (result as unknown as { rows: unknown[] }).rows.length > 0;
}
