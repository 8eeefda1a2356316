import type { ActivityEntry, ActivityPage, ProposalHistory } from '@merit/contract';

/*
 * Test data only: History and Activity rows of proposal 30 ("Dark matter survey", by Ada
 * Lovelace, user 7) of call 12 (proposals.fixtures, calls.fixtures).
 */

/** Ada submitted proposal 30 on 3 Mar 2026, 14:32 UTC. */
export function makeActivityEntry(overrides: Partial<ActivityEntry> = {}): ActivityEntry {
  return {
    key: 'audit-101',
    at: '2026-03-03T14:32:00.000Z',
    action: 'proposal.submit',
    label: 'Submitted the proposal',
    actor: { id: 7, name: 'Ada Lovelace' },
    subject: null,
    callId: 12,
    proposalId: 30,
    proposalName: 'Dark matter survey',
    changes: { stateVal: { before: 0, after: 1 } },
    ...overrides,
  };
}

export function makeProposalHistory(overrides: Partial<ProposalHistory> = {}): ProposalHistory {
  const items = overrides.items ?? [makeActivityEntry()];
  return { items, page: 1, pageSize: 10, total: items.length, reader: 'chair', ...overrides };
}

export function makeActivityPage(overrides: Partial<ActivityPage> = {}): ActivityPage {
  const items = overrides.items ?? [makeActivityEntry()];
  return {
    items,
    page: 1,
    pageSize: 10,
    total: items.length,
    people: [
      { id: 7, name: 'Ada Lovelace' },
      { id: 3, name: 'Carla Chair' },
      { id: 9, name: 'Grace Hopper' },
    ],
    actions: [
      { action: 'proposal.submit', label: 'Submitted the proposal' },
      { action: 'proposal.add_reviewer', label: 'Assigned a reviewer' },
    ],
    ...overrides,
  };
}
