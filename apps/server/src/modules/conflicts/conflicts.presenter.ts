import type { ConflictItem } from '@merit/contract';
import type { ConflictView } from './conflicts.queries.js';

/** What the caller may do with one conflict, as its item says (the same rules the server applies). */
export type ConflictItemAbilities = NonNullable<ConflictItem['abilities']>;

/**
 * A conflict as its answers show it. `forTeam`: the proposal's own people read it, who
 * see what they declared but not what Merit matched (the member's address, other
 * proposals of the call).
 */
export function presentConflict(
  view: ConflictView,
  abilities: ConflictItemAbilities,
  forTeam = false,
): ConflictItem {
  return {
    id: view.id,
    proposalId: view.proposalId,
    proposalName: view.proposalName,
    userId: view.userId,
    userName: view.userName,
    institution: view.institution,
    type: view.type,
    source: view.source,
    state: view.state,
    pinned: view.pinned,
    reason: view.reason,
    evidence: forTeam ? [] : view.evidence,
    changedBy: view.changedByName,
    changedAt: view.changedAt.toISOString(),
    abilities,
  };
}
