import type { CallProgress, MemberProgress, ProposalProgress } from '@merit/contract';

/*
 * Test data only: GET /calls/12/progress/ of call 12 ("Beamtime 2026", calls.fixtures;
 * review from 2 April to 1 May 2026), whose committee has Carla Chair (3), Grace Hopper
 * (9), Alan Turing (10) and Mary Short (11).
 */

export function makeMemberProgress(overrides: Partial<MemberProgress> = {}): MemberProgress {
  return {
    userId: 9,
    name: 'Grace Hopper',
    username: 'grace',
    assigned: 4,
    saved: 1,
    notStarted: 3,
    overdue: 0,
    lastReminded: '2026-04-20T08:00:00.000Z',
    ...overrides,
  };
}

export const MEMBER_PROGRESS: MemberProgress[] = [
  makeMemberProgress({
    userId: 3,
    name: 'Carla Chair',
    username: 'carla',
    assigned: 2,
    saved: 2,
    notStarted: 0,
    lastReminded: null,
  }),
  makeMemberProgress(),
  makeMemberProgress({
    userId: 10,
    name: 'Alan Turing',
    username: 'alan',
    assigned: 3,
    saved: 0,
    notStarted: 3,
    lastReminded: null,
  }),
  makeMemberProgress({
    userId: 11,
    name: 'Mary Short',
    username: 'mshort',
    assigned: 0,
    saved: 0,
    notStarted: 0,
    lastReminded: null,
  }),
];

export function makeProposalProgress(overrides: Partial<ProposalProgress> = {}): ProposalProgress {
  return {
    proposalId: 30,
    name: 'Dark matter survey',
    proposalTypeName: 'Standard',
    reviewsSaved: 2,
    reviewsWanted: 3,
    scoreMin: 2,
    scoreMax: 9,
    scoreSd: 3.5,
    lateConflict: false,
    ...overrides,
  };
}

/** Three proposals: one whose scores spread widely, one with a late conflict, one unreviewed. */
export const PROPOSAL_PROGRESS: ProposalProgress[] = [
  makeProposalProgress(),
  makeProposalProgress({
    proposalId: 31,
    name: 'Axion search',
    proposalTypeName: 'Rapid',
    reviewsSaved: 1,
    reviewsWanted: 2,
    scoreMin: 7,
    scoreMax: 7,
    scoreSd: 0,
    lateConflict: true,
  }),
  makeProposalProgress({
    proposalId: 32,
    name: 'Neutrino mass',
    reviewsSaved: 0,
    reviewsWanted: 3,
    scoreMin: null,
    scoreMax: null,
    scoreSd: null,
  }),
];

export function makeProgress(overrides: Partial<CallProgress> = {}): CallProgress {
  return {
    members: MEMBER_PROGRESS,
    proposals: PROPOSAL_PROGRESS,
    totals: { saved: 3, wanted: 8, withoutReview: 1, wideSpread: 2 },
    savesPerDay: [
      { day: '2026-04-05', saves: 1 },
      { day: '2026-04-12', saves: 2 },
    ],
    reviewCommencement: '2026-04-02T00:00:00.000Z',
    reviewTermination: '2026-05-01T00:00:00.000Z',
    closed: false,
    ...overrides,
  };
}
