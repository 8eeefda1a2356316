import type {
  CallCapacity,
  CallRanking,
  DecisionSaved,
  RankingLineBody,
  RankingRowBody,
} from '@merit/contract';

/*
 * Test data only: the ranking of call 12 ("Beamtime 2026", calls.fixtures) as Carla, a
 * chair, reads it. Telescope A has 10 nights; Alpha (6) fits, Beta (5) passes it, so the
 * line falls above Beta. Gamma is of type 41 and Carla may not decide on it.
 */

export function makeRankingRow(overrides: Partial<RankingRowBody> = {}): RankingRowBody {
  return {
    rank: 1,
    proposalId: 30,
    name: 'Alpha',
    proposalTypeId: 40,
    proposalTypeName: 'Standard',
    score: 4.5,
    moved: null,
    requested: { 'Telescope A': { nights: 6 } },
    running: { 'Telescope A': { nights: 6 } },
    aboveLine: { 'Telescope A': true },
    above: true,
    outcome: 'approved',
    awards: { 'Telescope A': { nights: 6 } },
    awardNotes: {},
    version: 2,
    decide: true,
    ...overrides,
  };
}

export function makeLine(overrides: Partial<RankingLineBody> = {}): RankingLineBody {
  return {
    facility: 'Telescope A',
    field: 'nights',
    capacity: 10,
    requested: 14,
    awarded: 12,
    firstBelow: 2,
    oversubscription: 1.4,
    awardedShare: 1.2,
    overAwarded: true,
    ...overrides,
  };
}

export function makeRanking(overrides: Partial<CallRanking> = {}): CallRanking {
  return {
    rows: [
      makeRankingRow(),
      makeRankingRow({
        rank: 2,
        proposalId: 31,
        name: 'Beta',
        score: 4,
        requested: { 'Telescope A': { nights: 5 } },
        running: { 'Telescope A': { nights: 11 } },
        aboveLine: { 'Telescope A': false },
        above: false,
        outcome: null,
        awards: {},
        version: 0,
      }),
      makeRankingRow({
        rank: 3,
        proposalId: 32,
        name: 'Gamma',
        proposalTypeId: 41,
        proposalTypeName: 'Rapid',
        score: 3.25,
        moved: { reason: 'Urgent follow-up', by: 'Alan Turing', at: '2026-05-02T00:00:00.000Z' },
        requested: { 'Telescope A': { nights: 3 } },
        running: { 'Telescope A': { nights: 14 } },
        aboveLine: { 'Telescope A': false },
        above: false,
        awards: { 'Telescope A': { nights: 6 } },
        awardNotes: { 'Telescope A': 'Needs a longer run' },
        version: 1,
        decide: false,
      }),
    ],
    lines: [makeLine()],
    capacityVersion: 2,
    proposalTypes: [
      { id: 40, name: 'Standard' },
      { id: 41, name: 'Rapid' },
    ],
    hidden: 0,
    fieldTitles: { nights: 'Nights' },
    ...overrides,
  };
}

export function makeCapacity(overrides: Partial<CallCapacity> = {}): CallCapacity {
  return {
    capacity: { 'Telescope A': { nights: 10 } },
    version: 2,
    asked: [
      { facility: 'Telescope A', field: 'nights' },
      { facility: 'Instrument B', field: 'hours' },
    ],
    lines: [makeLine()],
    fieldTitles: { nights: 'Nights' },
    ...overrides,
  };
}

/**
 * A decision as GET /proposals/{id}/ carries it to a chair (with notes and the request),
 * and as its save answers it, with the call's awarded totals and whether a letter is owed
 * (which the detail leaves out).
 */
export function makeDecision(overrides: Partial<DecisionSaved> = {}): DecisionSaved {
  return {
    awarded: { 'Telescope A': { nights: 12 } },
    letterDue: false,
    outcome: 'approved',
    awards: { 'Telescope A': { nights: 6 } },
    version: 2,
    letter: null,
    awardNotes: {},
    requested: { 'Telescope A': { nights: 6 } },
    decidedAt: '2026-05-03T00:00:00.000Z',
    decidedBy: 'Carla Chair',
    ...overrides,
  };
}
