import type { Preference, UnfilledReason } from './assignment.js';
import { FlowNetwork, minCostFlow } from './flow.js';

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

/*
 * The cost model (lower is better). Every review the solver adds costs
 *
 *   preference          eager 2 · willing 5 · neutral 8 (no bid) · reluctant 11
 *   minus expertise     1 per match, at most 2: each of the proposal's facilities among
 *                       the member's, and each of the member's keywords among the
 *                       proposal's words (case does not matter)
 *   plus load           j x LOAD_STEP for the member's (j + 1)-th review in the call,
 *                       counting the assignments they keep: 0, 12, 24, 36, ...
 *
 * so one review's pair cost lies between 0 (eager, two matches) and 11 (reluctant, none).
 * Preferences go 3 apart so that expertise, at most 2, only ever orders members within a
 * preference. LOAD_STEP (12) is more than the widest gap between two pair costs (11): moving
 * a review from a member with j + 1 reviews to one with j - 1 or fewer saves at least
 * LOAD_STEP in load and loses at most 11 in preference, so the least-cost answer never
 * leaves two loads 2 apart when the review could move. Loads spread evenly first (within 1
 * of the mean when every member may take every proposal), and preferences choose among the
 * even spreads. "Not me", exclusions and ineligible members get no arc at all.
 */

/** A review's base cost by the member's preference for the proposal; `not_me` never gets one. */
export const PREFERENCE_COSTS: Readonly<Record<Exclude<Preference, 'not_me'>, number>> = {
  eager: 2,
  willing: 5,
  neutral: 8,
  reluctant: 11,
};
/** Matches of expertise lower the cost by 1 each, up to this many. */
export const MAX_EXPERTISE_BONUS = 2;
/** What each further review adds to a member's cost; above any gap between pair costs. */
export const LOAD_STEP = 12;

/** Facilities and keywords compare without case or surrounding spaces. */
function normalize(text: string): string {
  return text.trim().toLowerCase();
}

/**
 * How many of the proposal's facilities the member lists, plus how many of the member's
 * keywords are among the proposal's words; at most MAX_EXPERTISE_BONUS count.
 */
export function expertiseMatches(
  proposal: Pick<ProblemProposal, 'facilities' | 'words'>,
  member: Pick<ProblemMember, 'facilities' | 'keywords'>,
): number {
  const facilities = new Set(member.facilities.map(normalize));
  const words = new Set(proposal.words.map(normalize));
  let matches = 0;
  for (const facility of new Set(proposal.facilities.map(normalize))) {
    if (facilities.has(facility)) matches++;
  }
  for (const keyword of new Set(member.keywords.map(normalize))) {
    if (words.has(keyword)) matches++;
  }
  return Math.min(MAX_EXPERTISE_BONUS, matches);
}

/** The cost of one review of a proposal by a member, before their load (the table above). */
export function pairCost(preference: Exclude<Preference, 'not_me'>, expertise: number): number {
  return PREFERENCE_COSTS[preference] - Math.min(MAX_EXPERTISE_BONUS, expertise);
}

/** A small seeded generator (mulberry32): the same seed gives the same shuffle. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** 0 .. count - 1 in an order drawn from `random` (Fisher-Yates). */
function shuffledIndexes(count: number, random: () => number): Int32Array {
  const order = new Int32Array(count);
  for (let i = 0; i < count; i++) order[i] = i;
  for (let i = count - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    const t = order[i]!;
    order[i] = order[j]!;
    order[j] = t;
  }
  return order;
}

/** What the solver knows of a proposal-member pair, one byte each (bits and a preference). */
const PAIR_EXCLUDED = 1;
const PAIR_KEPT = 2;
const PAIR_RELEASED = 4;
/** Bits 3-5: the index of the preference in BID_ORDER (0 = neutral, no bid). */
const PREFERENCE_SHIFT = 3;
const BID_ORDER = ['neutral', 'eager', 'willing', 'reluctant'] as const;

/**
 * Works out reviewers for every proposal of the problem: a minimum-cost maximum flow (see
 * `flow.ts`) from a source through the proposals (as many units as each still wants) and
 * the members (one unit per open pair) to a sink (one arc per further review, dearer each
 * time). `onProgress` hears a fraction from 0 to 1 now and then, for the chair's progress
 * bar.
 *
 * A call of 10,000 proposals and 300 members has 3 million pairs, and the solver would
 * scan them all a few hundred times. So it first solves on a few pairs per proposal (the
 * cheapest, and some at random), then checks the answer against every pair with the
 * solver's potentials (`certify`), and goes on from it with the pairs that could do better
 * until none is left: the same least cost, in a fraction of the time.
 */
export function proposeAssignment(
  problem: AssignmentProblem,
  onProgress?: (fraction: number) => void,
): AssignmentResult {
  const { proposals, members } = problem;
  const P = proposals.length;
  const M = members.length;
  const proposalIndex = new Map<number, number>();
  proposals.forEach((proposal, i) => proposalIndex.set(proposal.id, i));
  const memberIndex = new Map<number, number>();
  members.forEach((member, i) => memberIndex.set(member.id, i));

  // One byte per pair: exclusions, bids, and what happens to the assignments there are.
  const pairs = new Uint8Array(P * M);
  const pairAt = (proposalId: number, userId: number): number => {
    const p = proposalIndex.get(proposalId);
    const m = memberIndex.get(userId);
    return p === undefined || m === undefined ? -1 : p * M + m;
  };
  for (const [proposalId, userId] of problem.excluded) {
    const at = pairAt(proposalId, userId);
    if (at >= 0) pairs[at]! |= PAIR_EXCLUDED;
  }
  for (const { proposalId, userId, preference } of problem.preferences) {
    const at = pairAt(proposalId, userId);
    if (at < 0) continue;
    if (preference === 'not_me') pairs[at]! |= PAIR_EXCLUDED;
    else pairs[at] = (pairs[at]! & 7) | (BID_ORDER.indexOf(preference) << PREFERENCE_SHIFT);
  }

  // Assignments already made: kept ones weigh on loads and on what proposals still want.
  const keptLoad = new Int32Array(M);
  const before = new Int32Array(M);
  const keptReviewers = new Int32Array(P);
  const released: { proposalId: number; userId: number }[] = [];
  const seenExisting = new Set<string>();
  for (const assignment of problem.existing) {
    const key = `${assignment.proposalId}:${assignment.userId}`;
    if (seenExisting.has(key)) continue;
    seenExisting.add(key);
    const p = proposalIndex.get(assignment.proposalId);
    const m = memberIndex.get(assignment.userId);
    if (m !== undefined) before[m]!++;
    // Outside the problem (not a member, or a proposal Propose does not handle) it stays.
    const release =
      problem.redo &&
      !assignment.locked &&
      !assignment.reviewed &&
      p !== undefined &&
      m !== undefined;
    if (release) {
      pairs[p * M + m]! |= PAIR_RELEASED;
      released.push({ proposalId: assignment.proposalId, userId: assignment.userId });
      continue;
    }
    if (m !== undefined) keptLoad[m]!++;
    if (p !== undefined) keptReviewers[p]!++;
    if (p !== undefined && m !== undefined) pairs[p * M + m]! |= PAIR_KEPT;
  }

  // Each open pair's cost; CLOSED where no review may be added.
  const costs = pairCosts(proposals, members, pairs);
  const random = seededRandom(problem.seed);
  const memberOrder = shuffledIndexes(M, random);
  const proposalOrder = shuffledIndexes(P, random);

  const candidates = new Int32Array(P);
  const degree = new Int32Array(M);
  for (let p = 0; p < P; p++) {
    for (let m = 0; m < M; m++) {
      if (costs[p * M + m] === CLOSED) continue;
      candidates[p]!++;
      degree[m]!++;
    }
  }
  const supply = new Int32Array(P);
  let wanted = 0;
  for (let p = 0; p < P; p++) {
    supply[p] = Math.min(candidates[p]!, Math.max(0, proposals[p]!.wanted - keptReviewers[p]!));
    wanted += supply[p]!;
  }
  const sinkArcs = new Int32Array(M);
  for (let m = 0; m < M; m++) {
    sinkArcs[m] = Math.max(0, Math.min(members[m]!.cap - keptLoad[m]!, degree[m]!));
  }
  const graph: CallGraph = {
    P,
    M,
    costs,
    supply,
    keptLoad,
    sinkArcs,
    memberOrder,
    proposalOrder,
  };

  let shown = 0;
  const progress = (flow: number) => {
    shown = Math.max(shown, wanted === 0 ? 1 : Math.min(1, flow / wanted));
    onProgress?.(shown);
  };
  onProgress?.(0);
  const chosen = firstChoice(graph, random);
  let solution = solveChosen(graph, chosen, progress);
  for (let attempt = 1; certify(graph, chosen, solution) > 0; attempt++) {
    if (attempt === MAX_ATTEMPTS) {
      // Settle it on every open pair: exact, only slower.
      for (let at = 0; at < chosen.length; at++) chosen[at] = costs[at] === CLOSED ? 0 : 1;
    }
    // Go on from the answer so far: only what the new pairs change is worked out again.
    solution = solveChosen(graph, chosen, progress, solution);
  }

  const added: AssignmentResult['added'] = [];
  const got = keptReviewers.slice();
  const after = keptLoad.slice();
  for (const at of solution.assigned) {
    const p = Math.floor(at / M);
    const m = at - p * M;
    got[p]!++;
    after[m]!++;
    if (pairs[at]! & PAIR_RELEASED) {
      // Picked again: it simply stays.
      pairs[at]! &= ~PAIR_RELEASED;
      continue;
    }
    added.push({
      proposalId: proposals[p]!.id,
      userId: members[m]!.id,
      preference: BID_ORDER[pairs[at]! >> PREFERENCE_SHIFT]!,
    });
  }
  const removed = released.filter(
    ({ proposalId, userId }) => pairs[pairAt(proposalId, userId)]! & PAIR_RELEASED,
  );

  const unfilled: AssignmentResult['unfilled'] = [];
  for (let p = 0; p < P; p++) {
    const missing = proposals[p]!.wanted - got[p]!;
    if (missing <= 0) continue;
    // Eligible: open pairs plus the reviewers it keeps (never open, so never counted twice).
    const eligible = candidates[p]! + keptReviewers[p]!;
    unfilled.push({
      proposalId: proposals[p]!.id,
      missing,
      reason: eligible < proposals[p]!.wanted ? 'not_enough_eligible' : 'all_at_cap',
    });
  }

  const loads = members.map((member, m) => ({
    userId: member.id,
    before: before[m]!,
    after: after[m]!,
    cap: member.cap,
  }));

  onProgress?.(1);
  const byPair = (
    a: { proposalId: number; userId: number },
    b: { proposalId: number; userId: number },
  ) => a.proposalId - b.proposalId || a.userId - b.userId;
  return {
    added: added.sort(byPair),
    removed: removed.sort(byPair),
    loads: loads.sort((a, b) => a.userId - b.userId),
    unfilled: unfilled.sort((a, b) => a.proposalId - b.proposalId),
    cost: solution.cost,
  };
}

/** A pair no review may be added to: ineligible member, excluded, "not me" or kept. */
const CLOSED = 255;
/**
 * The solver first sees only some open pairs of each proposal: per review it wants, this
 * many of its cheapest and this many more at random. `certify` proves the answer on them
 * is the best on all pairs, or adds the pairs that could do better.
 */
const CHEAPEST_PER_REVIEW = 2;
const SPREAD_PER_REVIEW = 1;
/** After this many partial networks that could not be proven best, the whole one. */
const MAX_ATTEMPTS = 5;

/** What the network is built from: everything but which pairs it holds. */
interface CallGraph {
  P: number;
  M: number;
  /** By pair (p * M + m): the pair's cost, or CLOSED. */
  costs: Uint8Array;
  /** By proposal: the reviews the solver may still add to it. */
  supply: Int32Array;
  /** By member: reviews they keep, where their load costs start. */
  keptLoad: Int32Array;
  /** By member: the reviews the solver may add to their load. */
  sinkArcs: Int32Array;
  memberOrder: Int32Array;
  proposalOrder: Int32Array;
}

interface ChosenSolution {
  /** The pairs given a review, as p * M + m. */
  assigned: number[];
  /** By pair: 1 where the solution uses it. */
  used: Uint8Array;
  cost: number;
  /** The solver's potentials, by node (see `solveChosen` for the numbering). */
  potential: Float64Array;
  /** By proposal and by member: reviews added. */
  proposalFlow: Int32Array;
  memberFlow: Int32Array;
}

/** Each pair's cost by the table above, CLOSED where nothing may be added. */
function pairCosts(
  proposals: readonly ProblemProposal[],
  members: readonly ProblemMember[],
  pairs: Uint8Array,
): Uint8Array {
  const P = proposals.length;
  const M = members.length;
  const expertise = expertiseTable(proposals, members);
  const costs = new Uint8Array(P * M);
  const bidCosts = BID_ORDER.map((preference) => PREFERENCE_COSTS[preference]);
  for (let p = 0; p < P; p++) {
    for (let m = 0; m < M; m++) {
      const at = p * M + m;
      const pair = pairs[at]!;
      costs[at] =
        !members[m]!.eligible || pair & (PAIR_EXCLUDED | PAIR_KEPT)
          ? CLOSED
          : bidCosts[pair >> PREFERENCE_SHIFT]! - expertise[at]!;
    }
  }
  return costs;
}

/**
 * The first network: per proposal its cheapest open pairs (ties broken from a random place
 * in the shuffled member order, so that equal members are spread across proposals), and a
 * few more at random, so that members nobody prefers can still take up the load.
 */
function firstChoice(graph: CallGraph, random: () => number): Uint8Array {
  const { P, M, costs, supply, memberOrder } = graph;
  const chosen = new Uint8Array(P * M);
  const counts = new Int32Array(CLOSED + 1);
  for (let p = 0; p < P; p++) {
    if (supply[p] === 0) continue;
    const row = p * M;
    const cheapest = CHEAPEST_PER_REVIEW * supply[p]!;
    let spread = SPREAD_PER_REVIEW * supply[p]!;
    counts.fill(0);
    for (let m = 0; m < M; m++) counts[costs[row + m]!]!++;
    // The dearest cost that still fits, and how many pairs at that cost get in.
    let taken = 0;
    let limit = 0;
    while (limit < CLOSED && taken + counts[limit]! <= cheapest) taken += counts[limit++]!;
    let atLimit = limit < CLOSED ? cheapest - taken : 0;
    let offset = Math.floor(random() * M);
    for (let i = 0; i < M; i++) {
      const m = memberOrder[(offset + i) % M]!;
      const cost = costs[row + m]!;
      if (cost < limit) chosen[row + m] = 1;
      else if (cost === limit && atLimit > 0) {
        chosen[row + m] = 1;
        atLimit--;
      }
    }
    offset = Math.floor(random() * M);
    for (let i = 0; i < M && spread > 0; i++) {
      const at = row + memberOrder[(offset + i) % M]!;
      if (chosen[at] || costs[at] === CLOSED) continue;
      chosen[at] = 1;
      spread--;
    }
  }
  return chosen;
}

/**
 * Min-cost maximum flow on the chosen pairs: source -> proposals -> members -> sink; from
 * nothing, or on from an earlier solution on fewer pairs.
 */
function solveChosen(
  graph: CallGraph,
  chosen: Uint8Array,
  onFlow: (flow: number) => void,
  earlier?: ChosenSolution,
): ChosenSolution {
  const { P, M, costs, supply, keptLoad, sinkArcs, memberOrder, proposalOrder } = graph;
  let sourceArcCount = 0;
  let pairCount = 0;
  for (let p = 0; p < P; p++) {
    if (supply[p] === 0) continue;
    sourceArcCount++;
    for (let m = 0; m < M; m++) pairCount += chosen[p * M + m]!;
  }
  let sinkArcCount = 0;
  for (let m = 0; m < M; m++) sinkArcCount += sinkArcs[m]!;

  // Nodes: 0 the source, 1 the sink, then the proposals and the members.
  const SOURCE = 0;
  const SINK = 1;
  const proposalNode = (p: number) => 2 + p;
  const memberNode = (m: number) => 2 + P + m;
  const arcTotal = sourceArcCount + pairCount + sinkArcCount;
  const network = new FlowNetwork(2 + P + M, arcTotal);
  // The earlier solution's flow, arc by arc, when going on from it.
  const warmFlow = earlier ? new Int32Array(arcTotal) : undefined;
  const addArc = (from: number, to: number, capacity: number, cost: number, flow: number) => {
    if (warmFlow) warmFlow[network.arcCount] = flow;
    network.addArc(from, to, capacity, cost);
  };
  // The shuffled orders decide which of equally good answers comes out, seed by seed.
  for (const p of proposalOrder) {
    if (supply[p]! > 0) {
      addArc(SOURCE, proposalNode(p), supply[p]!, 0, earlier?.proposalFlow[p] ?? 0);
    }
  }
  const firstPairArc = network.arcCount;
  const pairOf = new Int32Array(pairCount);
  for (const p of proposalOrder) {
    if (supply[p] === 0) continue;
    for (const m of memberOrder) {
      const at = p * M + m;
      if (!chosen[at]) continue;
      pairOf[network.arcCount - firstPairArc] = at;
      addArc(proposalNode(p), memberNode(m), 1, costs[at]!, earlier?.used[at] ?? 0);
    }
  }
  for (const m of memberOrder) {
    // A least-cost flow fills a member's cheapest load arcs first.
    const filled = earlier?.memberFlow[m] ?? 0;
    for (let j = 0; j < sinkArcs[m]!; j++) {
      addArc(memberNode(m), SINK, 1, (keptLoad[m]! + j) * LOAD_STEP, j < filled ? 1 : 0);
    }
  }

  const result = minCostFlow(network, SOURCE, SINK, {
    onProgress: onFlow,
    warmStart: earlier && warmFlow && { arcFlow: warmFlow, potential: earlier.potential },
  });
  const used = new Uint8Array(P * M);
  const assigned: number[] = [];
  const proposalFlow = new Int32Array(P);
  const memberFlow = new Int32Array(M);
  for (let i = 0; i < pairCount; i++) {
    if (result.arcFlow[firstPairArc + i] === 0) continue;
    const at = pairOf[i]!;
    used[at] = 1;
    assigned.push(at);
    const p = Math.floor(at / M);
    proposalFlow[p]!++;
    memberFlow[at - p * M]!++;
  }
  return {
    assigned,
    used,
    cost: result.cost,
    potential: result.potential,
    proposalFlow,
    memberFlow,
  };
}

/**
 * Whether the flow on the chosen pairs is also the best on all open pairs; answers how
 * many pairs it had to add to the choice (0: proven).
 *
 * The proof is the solver's potentials: no arc of the partial network has a negative
 * reduced cost, so if no left-out pair has one either, no cycle of changes could lower the
 * cost; and if no path of open pairs reaches a member with room from a proposal that lacks
 * reviews, no more reviews fit. Pairs that break either are added for the next attempt.
 */
function certify(graph: CallGraph, chosen: Uint8Array, solution: ChosenSolution): number {
  const { P, M, costs, supply, sinkArcs } = graph;
  const { used, potential: potentials, proposalFlow, memberFlow } = solution;
  // Node numbers as in `solveChosen`.
  const proposalPotential = potentials.subarray(2, 2 + P);
  const memberPotential = potentials.subarray(2 + P, 2 + P + M);
  let added = 0;
  for (let p = 0; p < P; p++) {
    if (supply[p] === 0) continue;
    const row = p * M;
    const potential = proposalPotential[p]!;
    for (let m = 0; m < M; m++) {
      const at = row + m;
      if (chosen[at] || costs[at] === CLOSED) continue;
      if (costs[at]! + potential - memberPotential[m]! < 0) {
        chosen[at] = 1;
        added++;
      }
    }
  }

  // Breadth-first over the residual network of all open pairs, from proposals lacking
  // reviews: proposal -> member on an unused pair, member -> proposal on a used one. A
  // member with room at the end of such a path means more reviews fit.
  const reachedProposal = new Uint8Array(P);
  const reachedBy = new Int32Array(M).fill(-1);
  const queue: number[] = [];
  for (let p = 0; p < P; p++) {
    if (proposalFlow[p]! < supply[p]!) {
      reachedProposal[p] = 1;
      queue.push(p);
    }
  }
  let augmentable = false;
  for (let head = 0; head < queue.length; head++) {
    const p = queue[head]!;
    const row = p * M;
    for (let m = 0; m < M; m++) {
      const at = row + m;
      if (reachedBy[m]! >= 0 || costs[at] === CLOSED || used[at]) continue;
      reachedBy[m] = at;
      if (memberFlow[m]! < sinkArcs[m]!) augmentable = true;
      for (let q = 0; q < P; q++) {
        if (!reachedProposal[q] && used[q * M + m]) {
          reachedProposal[q] = 1;
          queue.push(q);
        }
      }
    }
  }
  if (augmentable) {
    // The pairs these paths took, and every pair from a proposal reached to a member with
    // room: among them are the paths the partial network lacked.
    for (let m = 0; m < M; m++) {
      const at = reachedBy[m]!;
      if (at >= 0 && !chosen[at]) {
        chosen[at] = 1;
        added++;
      }
    }
    for (const p of queue) {
      for (let m = 0, row = p * M; m < M; m++) {
        const at = row + m;
        if (!chosen[at] && costs[at] !== CLOSED && memberFlow[m]! < sinkArcs[m]!) {
          chosen[at] = 1;
          added++;
        }
      }
    }
  }
  return added;
}

/**
 * `expertiseMatches` for every pair at once: each member's facilities and keywords look up
 * the proposals that hold them (an index), instead of comparing 3 million pairs word by word.
 * Answers a lookup by proposal and member index.
 */
function expertiseTable(
  proposals: readonly ProblemProposal[],
  members: readonly ProblemMember[],
): Uint8Array {
  const P = proposals.length;
  const M = members.length;
  const byFacility = new Map<string, number[]>();
  const byWord = new Map<string, number[]>();
  const post = (index: Map<string, number[]>, texts: readonly string[], p: number) => {
    for (const text of new Set(texts.map(normalize))) {
      const list = index.get(text);
      if (list) list.push(p);
      else index.set(text, [p]);
    }
  };
  proposals.forEach((proposal, p) => {
    post(byFacility, proposal.facilities, p);
    post(byWord, proposal.words, p);
  });
  const table = new Uint8Array(P * M);
  members.forEach((member, m) => {
    const add = (index: Map<string, number[]>, texts: readonly string[]) => {
      for (const text of new Set(texts.map(normalize))) {
        for (const p of index.get(text) ?? []) {
          const at = p * M + m;
          if (table[at]! < MAX_EXPERTISE_BONUS) table[at]!++;
        }
      }
    };
    add(byFacility, member.facilities);
    add(byWord, member.keywords);
  });
  return table;
}
