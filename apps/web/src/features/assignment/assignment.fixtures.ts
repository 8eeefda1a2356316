import type {
  AssignmentMember,
  AssignmentOverview,
  AssignmentRun,
  Biddable,
  BidsResponse,
  MatrixResponse,
  MatrixRow,
} from '@merit/contract';

/*
 * Test data only: the assignment routes' answers about call 12 ("Beamtime 2026",
 * calls.fixtures), whose committee has Carla Chair (3), Grace Hopper (9), Alan Turing (10)
 * and Mary Short (11), whose role ends before review does.
 */

export function makeMember(overrides: Partial<AssignmentMember> = {}): AssignmentMember {
  return {
    userId: 9,
    name: 'Grace Hopper',
    username: 'grace',
    role: 'MEMBER',
    eligible: true,
    load: 2,
    chairCap: null,
    memberCap: null,
    cap: 4,
    bids: 3,
    facilities: [],
    keywords: [],
    ...overrides,
  };
}

export const MEMBERS: AssignmentMember[] = [
  makeMember({
    userId: 3,
    name: 'Carla Chair',
    username: 'carla',
    role: 'CHAIR',
    load: 1,
    bids: 0,
  }),
  makeMember(),
  makeMember({
    userId: 10,
    name: 'Alan Turing',
    username: 'alan',
    load: 3,
    chairCap: 6,
    cap: 5,
    memberCap: 5,
    bids: 1,
  }),
  makeMember({
    userId: 11,
    name: 'Mary Short',
    username: 'mary',
    eligible: false,
    load: 0,
    bids: 0,
  }),
];

/** GET /calls/12/assignment/settings/: k 3, bidding closed, no proposal open. */
export function makeOverview(overrides: Partial<AssignmentOverview> = {}): AssignmentOverview {
  return {
    reviewsPerProposal: 3,
    perProposal: {},
    caps: { '10': 6 },
    biddingOpen: false,
    biddingShowsProposals: false,
    defaultCap: 4,
    counts: { proposals: 5, slots: 15, assigned: 6, members: 4, capacity: 17, short: 0 },
    members: MEMBERS,
    run: null,
    abilities: { manage: true },
    ...overrides,
  };
}

/** Run 70, worked out: Grace gets the Dark matter survey, Alan the Axion search. */
export function makeRun(overrides: Partial<AssignmentRun> = {}): AssignmentRun {
  return {
    id: 70,
    state: 'ready',
    progress: 1,
    redo: false,
    createdAt: '2026-04-02T09:00:00.000Z',
    error: null,
    added: [
      {
        proposalId: 30,
        proposalName: 'Dark matter survey',
        userId: 9,
        userName: 'Grace Hopper',
        preference: 'eager',
      },
      {
        proposalId: 30,
        proposalName: 'Dark matter survey',
        userId: 10,
        userName: 'Alan Turing',
        preference: 'neutral',
      },
      {
        proposalId: 31,
        proposalName: 'Axion search',
        userId: 10,
        userName: 'Alan Turing',
        preference: 'willing',
      },
    ],
    removed: [],
    loads: [
      { userId: 9, userName: 'Grace Hopper', before: 2, after: 3, cap: 4 },
      { userId: 10, userName: 'Alan Turing', before: 3, after: 5, cap: 5 },
    ],
    unfilled: [
      {
        proposalId: 31,
        proposalName: 'Axion search',
        missing: 2,
        reason: 'all_at_cap',
        message: 'All eligible members are at their cap',
      },
    ],
    ...overrides,
  };
}

export function makeMatrixRow(overrides: Partial<MatrixRow> = {}): MatrixRow {
  return {
    proposalId: 30,
    name: 'Dark matter survey',
    typeName: 'Standard',
    facilities: ['Beamline 1'],
    wanted: 3,
    assigned: 1,
    cells: [
      { userId: 9, assigned: true, locked: true, preference: 'eager', conflict: false },
      { userId: 10, assigned: false, locked: false, conflict: true },
    ],
    ...overrides,
  };
}

/** GET /calls/12/assignment/matrix/: two proposals against three members. */
export function makeMatrix(overrides: Partial<MatrixResponse> = {}): MatrixResponse {
  return {
    count: 2,
    page: 1,
    pageSize: 200,
    members: [
      { userId: 3, name: 'Carla Chair', load: 1, cap: 4 },
      { userId: 9, name: 'Grace Hopper', load: 2, cap: 4 },
      { userId: 10, name: 'Alan Turing', load: 5, cap: 5 },
    ],
    rows: [
      makeMatrixRow(),
      makeMatrixRow({
        proposalId: 31,
        name: 'Axion search',
        facilities: [],
        wanted: 2,
        assigned: 0,
        cells: [
          { userId: 3, assigned: false, locked: false, preference: 'reluctant', conflict: false },
        ],
      }),
    ],
    facilities: ['Beamline 1'],
    types: [{ id: 40, name: 'Standard' }],
    ...overrides,
  };
}

export function makeBiddable(overrides: Partial<Biddable> = {}): Biddable {
  return {
    proposalId: 30,
    name: 'Dark matter survey',
    typeName: 'Standard',
    facilities: ['Beamline 1'],
    institutions: ['Analytical Engines'],
    preference: 'neutral',
    ...overrides,
  };
}

/** GET /calls/12/bids/ for Grace: bidding open, two proposals, one bid made. */
export function makeBids(overrides: Partial<BidsResponse> = {}): BidsResponse {
  return {
    biddingOpen: true,
    biddingShowsProposals: false,
    cap: null,
    chairCap: 4,
    load: 2,
    proposals: [
      makeBiddable(),
      makeBiddable({
        proposalId: 31,
        name: 'Axion search',
        typeName: 'Rapid',
        facilities: ['Beamline 2'],
        institutions: ['University of Manchester'],
        preference: 'willing',
      }),
    ],
    ...overrides,
  };
}
