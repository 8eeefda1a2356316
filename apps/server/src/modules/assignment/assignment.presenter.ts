import type { AssignmentMember, AssignmentRun } from '@merit/contract';
import { assignmentMessages, type AssignmentResult } from '@merit/domain';
import type { assignmentRuns } from '../../db/schema.js';
import type { CallMember } from './assignment.queries.js';

/** How the Assignment page and the preview present members and proposed assignments. */

export type RunRow = typeof assignmentRuns.$inferSelect;

/** A member with their cap, load and bids, as the Assignment page lists them. */
export function presentMember(
  member: CallMember & { chairCap: number | null; memberCap: number | null; cap: number },
  load: number,
  bids: number,
): AssignmentMember {
  return {
    userId: member.userId,
    name: member.name,
    username: member.username,
    role: member.role,
    eligible: member.eligible,
    load,
    chairCap: member.chairCap,
    memberCap: member.memberCap,
    cap: member.cap,
    bids,
    facilities: member.facilities,
    keywords: member.keywords,
  };
}

/** What the viewer may not see of a call: proposals, and each member's reviews of them now. */
export interface Hidden {
  proposals: ReadonlySet<number>;
  loads: ReadonlyMap<number, number>;
}

/**
 * A proposed assignment with names: while running, its progress; once ready, what it
 * adds and takes back, each member's load before and after, and the proposals that could
 * not get k with the reason in words. Pairs of the hidden proposals (the viewer's own, or
 * those they have a conflict with) are left out, and loads count without them, so no sum
 * tells who reviews those: the solver still assigns them.
 */
export function presentRun(
  run: RunRow,
  names: { proposals: Map<number, string>; users: Map<number, string> },
  hidden: Hidden,
): AssignmentRun {
  const result = run.state === 'ready' ? (run.result as AssignmentResult | null) : null;
  const proposalName = (id: number) => names.proposals.get(id) ?? '';
  const userName = (id: number) => names.users.get(id) ?? '';
  const shown = ({ proposalId }: { proposalId: number }) => !hidden.proposals.has(proposalId);
  // Each member's reviews of hidden proposals after the run: before, plus added, less removed.
  const hiddenAfter = new Map(hidden.loads);
  const count = (pairs: readonly { proposalId: number; userId: number }[], by: number) => {
    for (const pair of pairs)
      if (!shown(pair)) hiddenAfter.set(pair.userId, (hiddenAfter.get(pair.userId) ?? 0) + by);
  };
  count(result?.added ?? [], 1);
  count(result?.removed ?? [], -1);
  return {
    id: run.id,
    state: run.state,
    progress: run.state === 'ready' ? 1 : run.progress,
    redo: run.redo,
    createdAt: run.createdAt.toISOString(),
    error: run.error,
    added: (result?.added ?? []).filter(shown).map((pair) => ({
      proposalId: pair.proposalId,
      proposalName: proposalName(pair.proposalId),
      userId: pair.userId,
      userName: userName(pair.userId),
      preference: pair.preference,
    })),
    removed: (result?.removed ?? []).filter(shown).map((pair) => ({
      proposalId: pair.proposalId,
      proposalName: proposalName(pair.proposalId),
      userId: pair.userId,
      userName: userName(pair.userId),
    })),
    loads: (result?.loads ?? [])
      .map((load) => ({
        userId: load.userId,
        userName: userName(load.userId),
        before: load.before - (hidden.loads.get(load.userId) ?? 0),
        after: load.after - (hiddenAfter.get(load.userId) ?? 0),
        cap: load.cap,
      }))
      .sort((a, b) => a.userName.localeCompare(b.userName) || a.userId - b.userId),
    unfilled: (result?.unfilled ?? []).filter(shown).map((item) => ({
      proposalId: item.proposalId,
      proposalName: proposalName(item.proposalId),
      missing: item.missing,
      reason: item.reason,
      message: assignmentMessages.unfilled[item.reason],
    })),
  };
}

/** The ids a run's answer names, so their names are read in one query each. */
export function idsOfRun(run: RunRow): { proposals: number[]; users: number[] } {
  const result = run.state === 'ready' ? (run.result as AssignmentResult | null) : null;
  if (!result) return { proposals: [], users: [] };
  const proposals = new Set<number>();
  const users = new Set<number>();
  for (const pair of [...result.added, ...result.removed]) {
    proposals.add(pair.proposalId);
    users.add(pair.userId);
  }
  for (const item of result.unfilled) proposals.add(item.proposalId);
  for (const load of result.loads) users.add(load.userId);
  return { proposals: [...proposals], users: [...users] };
}
