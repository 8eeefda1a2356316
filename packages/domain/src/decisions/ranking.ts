import { facilitiesOf, type ResourceValues } from '../resources/resources.js';
import type { Capacity, Outcome } from './outcomes.js';

/*
 * The ranking (issue 29): a call's submitted proposals in order of review score, as the
 * chairs may have moved them, with each facility's requests added up down the list and a
 * line where they pass the facility's capacity. Server and web work it out with these
 * functions from the same rows; a server test holds the SQL it reads them with to them.
 */

/** One proposal as the ranking reads it. */
export interface RankingInput {
  proposalId: number;
  name: string;
  proposalTypeId: number;
  /** Its review score (the proposal's total); null while it has none. */
  score: number | null;
  /** Where a chair put it: a key among its neighbours' scores; null: by its score. */
  rankKey: number | null;
  /** What it asks of each facility, per data field (a field left empty is absent). */
  requested: ResourceValues;
  outcome: Outcome | null;
  awards: ResourceValues;
}

/** What orders a proposal: where a chair put it, else its score; null (none) goes last. */
export const orderKeyOf = (row: Pick<RankingInput, 'rankKey' | 'score'>): number | null =>
  row.rankKey ?? row.score;

/** Names compared as the chair's list sorts them: without case, then as written. */
function byName(a: RankingInput, b: RankingInput): number {
  const x = a.name.toLowerCase();
  const y = b.name.toLowerCase();
  if (x !== y) return x < y ? -1 : 1;
  if (a.name !== b.name) return a.name < b.name ? -1 : 1;
  return a.proposalId - b.proposalId;
}

/** Highest key first, proposals without one last, ties by name (then id). */
export function rankOrder<T extends RankingInput>(rows: readonly T[]): T[] {
  return [...rows].sort((a, b) => {
    const x = orderKeyOf(a);
    const y = orderKeyOf(b);
    if (x !== y) {
      if (x === null) return 1;
      if (y === null) return -1;
      return y - x;
    }
    return byName(a, b);
  });
}

/** One facility's data field down the ranking. */
export interface FieldLine {
  facility: string;
  field: string;
  /** The capacity the chairs entered; null when none is (no line, nothing over). */
  capacity: number | null;
  /** The sum of what the ranked proposals ask for, and of what they are awarded. */
  requested: number;
  awarded: number;
  /**
   * The rank (1-based) of the first proposal whose running total passes the capacity: it,
   * and every one after it, is below the line. Null when the total never passes it.
   */
  firstBelow: number | null;
  /** Requested over capacity, and awarded over capacity (null without a capacity, or at 0). */
  oversubscription: number | null;
  awardedShare: number | null;
  /** More is awarded than there is. */
  overAwarded: boolean;
}

/** One proposal in the ranking. */
export interface RankedRow<T extends RankingInput = RankingInput> {
  row: T;
  /** 1-based place in the order. */
  rank: number;
  /** Per facility and field, the running total of requests down to and including this row. */
  running: ResourceValues;
  /** Per facility it asks for, whether it is above that facility's line. */
  aboveLine: Record<string, boolean>;
  /**
   * Above the line: of every facility with a capacity it asks for; asking nothing of one,
   * above the first line of all. A proposal without a score never is.
   */
  above: boolean;
}

export interface Ranking<T extends RankingInput = RankingInput> {
  rows: RankedRow<T>[];
  /** Every facility and field asked for or with a capacity, facilities in facilitiesOf order. */
  lines: FieldLine[];
}

const fieldsOf = (values: ResourceValues, facility: string) => Object.keys(values[facility] ?? {});

/**
 * The ranking of `rows` against `capacity`: ordered by rankOrder, with running totals,
 * each facility's line and its oversubscription. Missing amounts (N/A) add nothing.
 */
export function rankProposals<T extends RankingInput>(
  rows: readonly T[],
  capacity: Capacity,
): Ranking<T> {
  const ordered = rankOrder(rows);
  const facilities = facilitiesOf([capacity, ...ordered.map((r) => r.requested)]);
  const lines: FieldLine[] = [];
  for (const facility of facilities) {
    const fields = new Set([
      ...fieldsOf(capacity, facility),
      ...ordered.flatMap((r) => fieldsOf(r.requested, facility)),
    ]);
    for (const field of [...fields].sort()) {
      const cap = capacity[facility]?.[field] ?? null;
      lines.push({
        facility,
        field,
        capacity: cap,
        requested: 0,
        awarded: 0,
        firstBelow: null,
        oversubscription: null,
        awardedShare: null,
        overAwarded: false,
      });
    }
  }

  const running: ResourceValues = {};
  const ranked: RankedRow<T>[] = ordered.map((row, index) => {
    const rank = index + 1;
    for (const line of lines) {
      const asked = row.requested[line.facility]?.[line.field];
      if (asked !== undefined) {
        line.requested += asked;
        (running[line.facility] ??= {})[line.field] = line.requested;
      }
      line.awarded += row.awards[line.facility]?.[line.field] ?? 0;
      if (line.firstBelow === null && line.capacity !== null && line.requested > line.capacity)
        line.firstBelow = rank;
    }
    // The totals so far, copied (a loop: this runs for each of 10,000 rows).
    const runningHere: ResourceValues = {};
    for (const facility in running) runningHere[facility] = { ...running[facility] };
    return {
      row,
      rank,
      running: runningHere,
      aboveLine: {},
      above: true,
    };
  });

  for (const line of lines) {
    if (line.capacity !== null && line.capacity > 0)
      line.oversubscription = line.requested / line.capacity;
    Object.assign(line, awardedAgainst(line, line.awarded));
  }

  // A facility's line is its earliest field's: below it in one field is below the line.
  const facilityLine = new Map<string, number>();
  for (const line of lines) {
    if (line.firstBelow === null) continue;
    const known = facilityLine.get(line.facility);
    if (known === undefined || line.firstBelow < known)
      facilityLine.set(line.facility, line.firstBelow);
  }
  const firstLine = Math.min(...facilityLine.values());
  const withCapacity = new Set(lines.filter((l) => l.capacity !== null).map((l) => l.facility));
  for (const entry of ranked) {
    const facilitiesAsked = Object.keys(entry.row.requested);
    for (const facility of facilitiesAsked) {
      const firstBelow = facilityLine.get(facility);
      entry.aboveLine[facility] = firstBelow === undefined || entry.rank < firstBelow;
    }
    // Unscored proposals are never above it. One asking nothing of a facility with a
    // capacity is above while it is above the first line of all.
    const limited = facilitiesAsked.filter((facility) => withCapacity.has(facility));
    entry.above =
      orderKeyOf(entry.row) !== null &&
      (limited.length > 0
        ? limited.every((facility) => entry.aboveLine[facility])
        : entry.rank < firstLine);
  }
  return { rows: ranked, lines };
}

/** A line's award figures for `awarded`: its share of the capacity, and whether it is over. */
function awardedAgainst(
  line: Pick<FieldLine, 'capacity'>,
  awarded: number,
): Pick<FieldLine, 'awarded' | 'awardedShare' | 'overAwarded'> {
  return {
    awarded,
    awardedShare: line.capacity !== null && line.capacity > 0 ? awarded / line.capacity : null,
    overAwarded: line.capacity !== null && awarded > line.capacity,
  };
}

/**
 * The lines with the awards now made (`awarded`: per facility and field, the sum over the
 * ranked proposals, as `rankProposals` adds them; a field absent has none): what an award's
 * save changes in them, without ranking every proposal again. Requests and lines stay.
 */
export function withAwarded<L extends FieldLine>(
  lines: readonly L[],
  awarded: ResourceValues,
): L[] {
  return lines.map((line) => ({
    ...line,
    ...awardedAgainst(line, awarded[line.facility]?.[line.field] ?? 0),
  }));
}

/** The outcome "Set outcomes from the line" proposes for each proposal, in rank order. */
export interface ProposedOutcome {
  proposalId: number;
  outcome: Outcome;
  /** What it has now, to show what would change. */
  current: Outcome | null;
}

/**
 * "Set outcomes from the line": Approved for every proposal above the line, Waitlisted for
 * the next `waitlist` below it (in rank order), Declined for the rest.
 */
export function outcomesFromLine(ranking: Ranking, waitlist: number): ProposedOutcome[] {
  let waitlisted = 0;
  return ranking.rows.map(({ row, above }) => {
    let outcome: Outcome = 'approved';
    if (!above) {
      outcome = waitlisted < waitlist ? 'waitlisted' : 'declined';
      if (outcome === 'waitlisted') waitlisted += 1;
    }
    return { proposalId: row.proposalId, outcome, current: row.outcome };
  });
}

/**
 * The key that puts a proposal between two neighbours in the ranking, given their keys
 * (`orderKeyOf`): `undefined` where there is no neighbour (the top or the bottom), `null`
 * for a neighbour without a key (no score). Halfway between two keys; one above the lower
 * neighbour at the top; one below the upper at the bottom or above proposals without a
 * score. Null when the upper neighbour has no key: among proposals without a score the
 * order is by name, so a proposal moved there takes its place by name.
 */
export function keyBetween(
  upper: number | null | undefined,
  lower: number | null | undefined,
): number | null {
  if (upper === null) return null;
  if (upper === undefined) return typeof lower === 'number' ? lower + 1 : 0;
  if (typeof lower !== 'number') return upper - 1;
  return (upper + lower) / 2;
}
