import type {
  CallCapacity,
  CallRanking,
  LetterSummary,
  ProposalDecision,
  RankingRowBody,
} from '@merit/contract';
import { facilitiesOf, type Ranking, type ResourceValues } from '@merit/domain';
import type { DecisionRow, LetterRow, RankingSourceRow } from './decisions.queries.js';

/*
 * Decisions as the API answers them (issue 29): a proposal's decision for its chairs and,
 * once released, its applicants; a call's capacities; the ranking.
 */

/** A letter as the proposal's page shows it: its state, and whether its PDF is made. */
export const presentLetter = (letter: LetterRow | undefined): LetterSummary | null =>
  letter
    ? {
        id: letter.id,
        state: letter.state,
        outcome: letter.outcome,
        createdAt: letter.createdAt.toISOString(),
        sentAt: letter.sentAt?.toISOString() ?? null,
        hasPdf: letter.storageKey !== null,
      }
    : null;

/**
 * A proposal's decision: what was decided, what it asks for (the applicants' own answers,
 * for the awards beside them) and its letter for everyone who may read it; for its
 * chairs, also the notes and who decided when. Before the first save it has no outcome,
 * no awards and version 0.
 */
export function presentDecision(
  row: { decision: DecisionRow; decidedByName: string | null } | undefined,
  letter: LetterRow | undefined,
  requested: ResourceValues,
  forChair: boolean,
): ProposalDecision {
  const decision = row?.decision;
  const shown: ProposalDecision = {
    outcome: decision?.outcome ?? null,
    awards: decision?.awards ?? {},
    requested,
    version: decision?.version ?? 0,
    letter: presentLetter(letter),
  };
  if (!forChair) return shown;
  return {
    ...shown,
    awardNotes: decision?.awardNotes ?? {},
    decidedAt: decision?.decidedAt?.toISOString() ?? null,
    decidedBy: decision?.decidedAt ? (row?.decidedByName ?? null) : null,
  };
}

/** A decision as the audit log keeps it: what a chair can change. */
export const auditedDecision = (
  decision: Pick<DecisionRow, 'outcome' | 'awards' | 'awardNotes'> | undefined,
) => ({
  outcome: decision?.outcome ?? null,
  awards: decision?.awards ?? {},
  awardNotes: decision?.awardNotes ?? {},
});

/**
 * GET /calls/{callId}/capacity/: the capacities, their version, each facility and field
 * asked for, and the ranking's lines against them.
 */
export const presentCapacity = (
  capacity: ResourceValues,
  version: number,
  totals: ResourceValues,
  lines: Ranking['lines'],
  fieldTitles: Record<string, string>,
): CallCapacity => ({
  capacity,
  version,
  asked: facilitiesOf([totals]).flatMap((facility) =>
    Object.keys(totals[facility]!)
      .sort()
      .map((field) => ({ facility, field })),
  ),
  lines,
  fieldTitles,
});

/** A ranked row, with whether the reader may set its outcome. */
export const presentRankingRow = (
  ranked: Ranking<RankingSourceRow>['rows'][number],
  decide: boolean,
): RankingRowBody => {
  const { row } = ranked;
  return {
    rank: ranked.rank,
    proposalId: row.proposalId,
    name: row.name,
    proposalTypeId: row.proposalTypeId,
    proposalTypeName: row.proposalTypeName,
    score: row.score,
    moved:
      row.rankReason !== null && row.rankedAt !== null
        ? { reason: row.rankReason, by: row.rankedBy, at: row.rankedAt.toISOString() }
        : null,
    requested: row.requested,
    running: ranked.running,
    aboveLine: ranked.aboveLine,
    above: ranked.above,
    outcome: row.outcome,
    awards: row.awards,
    awardNotes: row.awardNotes,
    version: row.version,
    decide,
  };
};

/**
 * GET /calls/{callId}/ranking/: `ranking` is the whole of what the reader may rank; the
 * filters keep some of its rows after it was worked out, so ranks, running totals and
 * lines stay the call's.
 */
export function presentRanking(
  ranking: Ranking<RankingSourceRow>,
  decidable: ReadonlySet<number>,
  facts: {
    capacityVersion: number;
    proposalTypes: CallRanking['proposalTypes'];
    hidden: number;
    fieldTitles: Record<string, string>;
    facility?: string | undefined;
    type?: number | undefined;
  },
): CallRanking {
  const { facility, type } = facts;
  const kept = ranking.rows.filter(
    ({ row }) =>
      (facility === undefined || Object.hasOwn(row.requested, facility)) &&
      (type === undefined || row.proposalTypeId === type),
  );
  return {
    rows: kept.map((ranked) => presentRankingRow(ranked, decidable.has(ranked.row.proposalId))),
    lines: ranking.lines,
    capacityVersion: facts.capacityVersion,
    proposalTypes: facts.proposalTypes,
    hidden: facts.hidden,
    fieldTitles: facts.fieldTitles,
  };
}
