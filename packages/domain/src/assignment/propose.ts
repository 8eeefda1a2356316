import type { Preference, UnfilledReason } from './assignment.js';

/** A submitted proposal of the call, as Propose reads it. */
export interface ProblemProposal {
  id: number;
  /** k: the reviews it wants (its own, or the call's). */
  wanted: number;
  /** The facilities its resource forms request. */
  facilities: readonly string[];
  /** Words of its name and type, matched against members' keywords. */
  words: readonly string[];
}

/** A current member of the call's committee (chairs included), as Propose reads them. */
export interface ProblemMember {
  id: number;
  /** The cap that holds for them (`effectiveCap`). */
  cap: number;
  /** Their role lasts through the review still to come (`coversReview`): may get new work. */
  eligible: boolean;
  facilities: readonly string[];
  keywords: readonly string[];
}

/** An assignment made before: stays unless `redo`; a locked one, or one reviewed, always stays. */
export interface ExistingAssignment {
  proposalId: number;
  userId: number;
  locked: boolean;
  /** The reviewer has saved a review of it. */
  reviewed: boolean;
}

export interface AssignmentProblem {
  proposals: readonly ProblemProposal[];
  members: readonly ProblemMember[];
  /**
   * Pairs that may never be assigned: enforced conflicts (confirmed or declared, not
   * overridden), the proposal's author and collaborators. `not_me` bids are excluded
   * from `preferences` by the solver itself.
   */
  excluded: readonly (readonly [proposalId: number, userId: number])[];
  /** Bids other than neutral. */
  preferences: readonly { proposalId: number; userId: number; preference: Preference }[];
  existing: readonly ExistingAssignment[];
  /** Take back what is not locked nor reviewed, and work the call out anew. */
  redo: boolean;
  /** The same problem and seed always give the same answer. */
  seed: number;
}

export interface AssignmentResult {
  added: { proposalId: number; userId: number; preference: Preference }[];
  removed: { proposalId: number; userId: number }[];
  /** Every member of the problem: assignments in the call before and after, and their cap. */
  loads: { userId: number; before: number; after: number; cap: number }[];
  /** Proposals that could not get k, with how many they lack and why. */
  unfilled: { proposalId: number; missing: number; reason: UnfilledReason }[];
  /** The solution's total cost, as the solver counts it (tests compare it). */
  cost: number;
}

/**
 * Works out reviewers for every proposal of the problem (see `flow.ts`). `onProgress`
 * hears a fraction from 0 to 1 now and then, for the chair's progress bar.
 */
export function proposeAssignment(
  problem: AssignmentProblem,
  onProgress?: (fraction: number) => void,
): AssignmentResult {
  void problem;
  void onProgress;
  throw new Error('proposeAssignment is being written');
}
