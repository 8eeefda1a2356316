import type {
  CallConflictsPage,
  ConflictDeclarationGate,
  ConflictItem,
  ProposalConflicts,
} from '@merit/contract';

/*
 * Test data only: the conflict routes' answers about proposal 30 ("Dark matter survey",
 * by Ada Lovelace, user 7) of call 12 (proposals.fixtures, calls.fixtures), whose
 * committee has Grace Hopper (9), Alan Turing (10) and Carla Chair (3).
 */

export const COMMITTEE = [
  { userId: 3, name: 'Carla Chair', institution: 'Uppsala University' },
  { userId: 9, name: 'Grace Hopper', institution: 'Navy Labs' },
  { userId: 10, name: 'Alan Turing', institution: 'University of Manchester' },
];

/** Grace Hopper's conflict with proposal 30, detected by mail domain, waiting for a chair. */
export function makeConflictItem(overrides: Partial<ConflictItem> = {}): ConflictItem {
  return {
    id: 500,
    proposalId: 30,
    proposalName: 'Dark matter survey',
    userId: 9,
    userName: 'Grace Hopper',
    institution: 'Navy Labs',
    type: 'institutional',
    source: 'detected',
    state: 'suggested',
    pinned: false,
    reason: '',
    evidence: [
      { kind: 'domain', person: 'cs.uu.se', applicant: 'uu.se', applicantName: 'Ada Lovelace' },
    ],
    changedBy: null,
    changedAt: '2026-03-05T10:00:00.000Z',
    ...overrides,
  };
}

/** An applicant's declaration, as GET /proposals/30/conflicts/ sends it to the team. */
export const declared = (overrides: Partial<ConflictItem> = {}) =>
  makeConflictItem({
    source: 'applicant',
    state: 'confirmed',
    evidence: [],
    changedBy: 'Ada Lovelace',
    ...overrides,
  });

export function makeProposalConflicts(
  overrides: Partial<ProposalConflicts> = {},
): ProposalConflicts {
  return {
    enabled: true,
    version: 3,
    candidates: [
      ...COMMITTEE,
      // The author is on the committee too, and is not offered.
      { userId: 7, name: 'Ada Lovelace', institution: 'Analytical Engines' },
    ],
    conflicts: [],
    abilities: { declare: true, manage: false },
    ...overrides,
  };
}

export function makeCallConflictsPage(
  overrides: Partial<CallConflictsPage> = {},
): CallConflictsPage {
  const items = overrides.items ?? [makeConflictItem()];
  return {
    items,
    total: items.length,
    counts: { suggested: 1, confirmed: 0, dismissed: 0 },
    undeclared: 0,
    members: COMMITTEE,
    ...overrides,
  };
}

/** What Grace sees before proposal 30 opens for her. */
export function makeGate(
  overrides: Partial<ConflictDeclarationGate> = {},
): ConflictDeclarationGate {
  return {
    proposalId: 30,
    callId: 12,
    proposalName: 'Dark matter survey',
    proposalTypeName: 'Standard',
    institutions: ['Analytical Engines', 'Uppsala University'],
    required: true,
    answer: null,
    mayAnswer: true,
    ...overrides,
  };
}

/** The 403 of a proposal's page and reviews while the member has not answered. */
export const DECLARATION_REQUIRED = {
  status: 403,
  body: {
    detail: 'Say whether you have a conflict of interest with this proposal before you read it.',
    code: 'declaration_required',
  },
};
