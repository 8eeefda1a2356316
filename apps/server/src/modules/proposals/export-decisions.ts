import type { CallProposalExport, ExportDecision, ExportRanking } from '@merit/contract';
import { decide, rankProposals, type Outcome, type ResourceValues } from '@merit/domain';
import { and, eq } from 'drizzle-orm';
import { proposalDecisions, proposals } from '../../db/schema.js';
import type { ReadWork } from '../../platform/data/work.js';
import type { CallRow } from '../calls/calls.queries.js';
import { capacityOf, rankingSourceOf } from '../decisions/decisions.queries.js';
import type { CallProposalRow } from './chair.queries.js';

/*
 * The decisions in the chair's export (issue 29, "Exports"): each row's outcome and awards
 * (`include=decisions`, the per-type downloads and the workbook) and the call's ranking
 * with its lines (`include=ranking`, the workbook only). Each is read for the whole call
 * (or one type) in a fixed number of queries, and worked out by the same functions as the
 * decision meeting's pages: `proposal.viewOutcome` for who reads an outcome,
 * `rankingSourceOf` and the domain's `rankProposals` for the order and the lines.
 */

/** Each proposal's stored outcome and awards, of the call (or of its type `typeId`). */
async function decisionsOfCall(work: ReadWork, callId: number, typeId: number | undefined) {
  const rows = await work.tx
    .select({
      proposalId: proposalDecisions.proposalId,
      outcome: proposalDecisions.outcome,
      awards: proposalDecisions.awards,
    })
    .from(proposalDecisions)
    .innerJoin(proposals, eq(proposals.id, proposalDecisions.proposalId))
    .where(
      and(
        eq(proposals.callId, callId),
        typeId === undefined ? undefined : eq(proposals.proposalTypeId, typeId),
      ),
    );
  return new Map<number, { outcome: Outcome | null; awards: ResourceValues }>(
    rows.map((row) => [row.proposalId, { outcome: row.outcome, awards: row.awards }]),
  );
}

/**
 * Whether the reader may read this row's outcome: the domain's `proposal.viewOutcome`, on
 * what the row knows of the reader (their team's, or conflicted). The export is a chair's,
 * whose own extensions, reviews and declarations change nothing of it.
 */
function mayReadOutcome(work: ReadWork, call: CallRow, row: CallProposalRow): boolean {
  const { actor, now } = work;
  return (
    decide(
      'proposal.viewOutcome',
      actor,
      {
        call,
        authorId: row.authorId,
        // The row says the reader is on its team; a collaborator is one whoever the author is.
        collaboratorIds: row.own && row.authorId !== actor.id ? [actor.id] : [],
        stateVal: row.stateVal,
        authorExtensions: [],
        actorExtensions: [],
        lock: null,
        hasReviews: false,
        reviewerIds: [],
        actorHasReview: false,
        // What the list's SQL found: a confirmed conflict of the reader's, not overridden.
        actorConflict: row.conflicted
          ? { type: 'other', source: 'chair', state: 'confirmed', pinned: false }
          : null,
        actorDeclared: true,
      },
      now,
    ) === true
  );
}

/**
 * `include=decisions`: read beside the rows, resolves to a function of them giving each
 * row's decision where the reader may read it: its outcome (absent while unset) and awards
 * (`{}` when none).
 */
export async function exportDecisionsOf(
  work: ReadWork,
  call: CallRow,
  typeId: number | undefined,
): Promise<(rows: readonly CallProposalRow[]) => Map<number, ExportDecision>> {
  const stored = await decisionsOfCall(work, call.id, typeId);
  return (rows) => {
    const decisions = new Map<number, ExportDecision>();
    for (const row of rows) {
      if (!mayReadOutcome(work, call, row)) continue;
      const decision = stored.get(row.id);
      decisions.set(row.id, {
        ...(decision?.outcome ? { outcome: decision.outcome } : {}),
        awards: decision?.awards ?? {},
      });
    }
    return decisions;
  };
}

/** The call's own words for the outcomes, those it renamed only. */
export const outcomeLabelsOf = (call: CallRow): CallProposalExport['outcomeLabels'] =>
  Object.fromEntries(
    Object.entries(call.outcomeLabels).filter(([, label]) => label?.trim()),
  ) as Record<string, string>;

/**
 * `include=ranking`: the ranking of the Ranking page (GET /calls/{callId}/ranking/), of
 * what the reader may rank, against the call's capacities; with `typeId`, that type's rows
 * only, their ranks and running totals the whole call's (as the page's type filter).
 */
export async function exportRankingOf(
  work: ReadWork,
  call: CallRow,
  typeId: number | undefined,
): Promise<ExportRanking> {
  const [source, capacity] = await Promise.all([
    rankingSourceOf(work.tx, call, work.actor, false),
    capacityOf(work.tx, call.id),
  ]);
  const ranking = rankProposals(source.rows, capacity);
  return {
    rows: ranking.rows
      .filter(({ row }) => typeId === undefined || row.proposalTypeId === typeId)
      .map(({ row, rank, running, aboveLine, above }) => ({
        rank,
        proposalId: row.proposalId,
        score: row.score,
        requested: row.requested,
        running,
        aboveLine,
        above,
      })),
    lines: ranking.lines,
  };
}
