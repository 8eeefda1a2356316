/*
 * Minimum-cost flow with integer capacities and costs: the engine of Propose (issue 27).
 *
 * Primal-dual successive shortest paths. Every node carries a potential, and the reduced
 * cost of a residual arc (its cost plus the potential of its tail minus that of its head)
 * is never negative, so Dijkstra finds shortest paths. After each Dijkstra the potentials
 * move by the distances found, which makes every arc on a shortest path cost zero; a
 * blocking flow (Dinic: BFS levels, DFS with current-arc pointers) then sends as much as
 * those zero arcs carry, along all shortest paths at once, before the next Dijkstra. A call
 * of 10,000 proposals x k = 4 needs 40,000 units: one Dijkstra per unit would be 40,000
 * Dijkstras, this takes a few hundred rounds. A round whose paths one phase of Dinic does
 * not use up is followed by one at distance zero, which Dijkstra finds at once.
 *
 * It can also go on from an earlier answer (`warmStart`): Propose solves on part of the
 * pairs first and adds the others only where the potentials say they could help.
 *
 * Memory is flat typed arrays in CSR form: a node's arcs sit side by side, each paired
 * with its reverse. A node keeps the arcs that can still carry flow at the front of its
 * range ("live"), so a member with 10,000 candidate proposals scans only the reverse arcs
 * of the few it was given, not the 10,000 empty ones. Everything runs in a fixed order, so
 * the same network gives the same flow.
 */

const MAX_INT32 = 2_147_483_647;
/** Dijkstra keeps a bucket for each distance below this; farther nodes wait in a heap. */
const BUCKETS = 256;

/** A network to solve: nodes 0 .. nodeCount - 1 and the arcs added between them. */
export class FlowNetwork {
  readonly nodeCount: number;
  #tail: Int32Array;
  #head: Int32Array;
  #capacity: Int32Array;
  #cost: Int32Array;
  #arcCount = 0;

  /** `expectedArcs` only sizes the first allocation; more arcs still fit. */
  constructor(nodeCount: number, expectedArcs = 16) {
    if (!Number.isInteger(nodeCount) || nodeCount < 0) {
      throw new RangeError(`A network needs a whole number of nodes, not ${nodeCount}.`);
    }
    this.nodeCount = nodeCount;
    const size = Math.max(16, Math.floor(expectedArcs));
    this.#tail = new Int32Array(size);
    this.#head = new Int32Array(size);
    this.#capacity = new Int32Array(size);
    this.#cost = new Int32Array(size);
  }

  get arcCount(): number {
    return this.#arcCount;
  }

  /** Adds an arc and answers its id (0, 1, 2, ... in the order added). */
  addArc(from: number, to: number, capacity: number, cost: number): number {
    this.#checkNode(from);
    this.#checkNode(to);
    // A loop changes no node's balance; with a negative cost it would also be a negative cycle.
    if (from === to) throw new RangeError(`An arc from node ${from} to itself carries nothing.`);
    if (!Number.isInteger(capacity) || capacity < 0 || capacity > MAX_INT32) {
      throw new RangeError(`An arc's capacity must be a whole number from 0 to ${MAX_INT32}.`);
    }
    if (!Number.isInteger(cost) || Math.abs(cost) > MAX_INT32) {
      throw new RangeError(`An arc's cost must be a whole number within ±${MAX_INT32}.`);
    }
    const id = this.#arcCount;
    if (id === this.#tail.length) this.#grow();
    this.#tail[id] = from;
    this.#head[id] = to;
    this.#capacity[id] = capacity;
    this.#cost[id] = cost;
    this.#arcCount = id + 1;
    return id;
  }

  /** The arcs as columns, trimmed to their count (for the solver). */
  arcs(): { tail: Int32Array; head: Int32Array; capacity: Int32Array; cost: Int32Array } {
    const m = this.#arcCount;
    return {
      tail: this.#tail.subarray(0, m),
      head: this.#head.subarray(0, m),
      capacity: this.#capacity.subarray(0, m),
      cost: this.#cost.subarray(0, m),
    };
  }

  #checkNode(node: number): void {
    if (!Number.isInteger(node) || node < 0 || node >= this.nodeCount) {
      throw new RangeError(`There is no node ${node} in a network of ${this.nodeCount} nodes.`);
    }
  }

  #grow(): void {
    const size = this.#tail.length * 2;
    const grown = (old: Int32Array) => {
      const next = new Int32Array(size);
      next.set(old);
      return next;
    };
    this.#tail = grown(this.#tail);
    this.#head = grown(this.#head);
    this.#capacity = grown(this.#capacity);
    this.#cost = grown(this.#cost);
  }
}

export interface MinCostFlowOptions {
  /** Send at most this much (a required flow); the maximum flow when absent. */
  limit?: number;
  /** Hears the flow sent so far after each round (one Dijkstra and its blocking flow). */
  onProgress?: (flow: number) => void;
  /**
   * Start from an earlier answer instead of from nothing: a flow on the arcs (by arc id,
   * conserved at every node but the source and the sink) and potentials (by node), such
   * as the result on a smaller network that has since gained arcs. Arcs the potentials
   * price wrongly are set right first (filled when their reduced cost is negative, emptied
   * when it is positive), what that unbalances is sent back at least cost, and the search
   * for more flow goes on from there. The answer costs the same as from nothing.
   */
  warmStart?: { arcFlow: ArrayLike<number>; potential: ArrayLike<number> };
}

export interface MinCostFlowResult {
  /** The flow sent: the maximum, or `limit` when that is less. */
  flow: number;
  /** The least total cost (sum of flow x cost over the arcs) of sending `flow`. */
  cost: number;
  /** The flow on each arc, indexed by the id `addArc` answered. */
  arcFlow: Int32Array;
  /** Rounds it took: one Dijkstra and one blocking flow each. */
  rounds: number;
  /**
   * Node potentials that prove the cost least: no arc that can still carry flow has a
   * negative reduced cost (cost + potential[tail] - potential[head]). An arc left out of
   * the network that also keeps it non-negative could not have lowered the cost.
   */
  potential: Float64Array;
}

/** The arcs as columns; `flow` is where they start (none: empty). */
interface ArcColumns {
  tail: Int32Array;
  head: Int32Array;
  capacity: Int32Array;
  cost: Int32Array;
  flow?: Int32Array;
}

/**
 * Sends the maximum flow (or `limit`, when less) from `source` to `sink` at the least cost.
 * Negative costs are allowed as long as no cycle of arcs with capacity has a negative cost
 * (Bellman-Ford then sets the first potentials); such a cycle is refused with an error.
 */
export function minCostFlow(
  network: FlowNetwork,
  source: number,
  sink: number,
  options: MinCostFlowOptions = {},
): MinCostFlowResult {
  const n = network.nodeCount;
  if (!(source >= 0 && source < n && sink >= 0 && sink < n && source !== sink)) {
    throw new RangeError('The source and the sink must be two different nodes of the network.');
  }
  const limit = options.limit ?? Infinity;
  if (!(limit >= 0)) throw new RangeError('The flow limit cannot be negative.');
  const arcs = network.arcs();
  const m = arcs.tail.length;

  let flow = 0;
  let rounds = 0;
  let residual: Residual;
  if (options.warmStart) {
    const warm = warmStart(arcs, n, source, sink, options.warmStart);
    if (warm.value > limit) {
      throw new RangeError('The warm start already sends more than the flow limit.');
    }
    flow = warm.value;
    residual = new Residual(warm.nodes, warm.columns);
    residual.potential.set(warm.potential);
    // Send the unbalance from where it is too much to where it is too little (the two
    // extra nodes stand for both), on shortest paths as always.
    const rebalanced = warm.nodes === n ? 0 : warm.unbalance;
    let sent = 0;
    while (sent < rebalanced && residual.shortestPaths(n, n + 1)) {
      rounds++;
      sent += residual.blockingFlow(n, n + 1, rebalanced - sent);
    }
    if (sent < rebalanced) throw new Error('The warm start could not be rebalanced.');
  } else {
    residual = new Residual(n, arcs);
    residual.initialPotentials();
  }

  while (flow < limit && residual.shortestPaths(source, sink)) {
    rounds++;
    flow += residual.blockingFlow(source, sink, limit - flow);
    options.onProgress?.(flow);
  }

  const arcFlow = residual.arcFlows(m);
  let cost = 0;
  for (let i = 0; i < m; i++) cost += arcFlow[i]! * arcs.cost[i]!;
  return { flow, cost, arcFlow, rounds, potential: residual.potential.slice(0, n) };
}

/**
 * Checks a warm start and sets right the arcs its potentials price wrongly. Where that
 * leaves a node (the source and the sink too) with more coming in than going out, or
 * less, two extra nodes (n: too much, n + 1: too little) get arcs to send it back.
 */
function warmStart(
  arcs: ArcColumns,
  n: number,
  source: number,
  sink: number,
  warm: NonNullable<MinCostFlowOptions['warmStart']>,
): {
  nodes: number;
  columns: ArcColumns;
  potential: Float64Array;
  value: number;
  unbalance: number;
} {
  const m = arcs.tail.length;
  if (warm.arcFlow.length !== m || warm.potential.length !== n) {
    throw new RangeError('A warm start needs a flow for every arc and a potential for every node.');
  }
  const potential = new Float64Array(n + 2);
  for (let v = 0; v < n; v++) {
    const p = warm.potential[v]!;
    if (!Number.isFinite(p)) throw new RangeError('Warm-start potentials must be finite numbers.');
    potential[v] = p;
  }
  const flow = new Int32Array(m);
  // Into each node minus out of it: zero but at the source and the sink, first as given.
  const balance = new Float64Array(n);
  for (let i = 0; i < m; i++) {
    const f = warm.arcFlow[i]!;
    if (!Number.isInteger(f) || f < 0 || f > arcs.capacity[i]!) {
      throw new RangeError(`A warm-start flow must lie within its arc's capacity (arc ${i}).`);
    }
    flow[i] = f;
    balance[arcs.head[i]!]! += f;
    balance[arcs.tail[i]!]! -= f;
  }
  for (let v = 0; v < n; v++) {
    if (v !== source && v !== sink && balance[v] !== 0) {
      throw new RangeError(`A warm-start flow must be conserved at every node (node ${v}).`);
    }
  }
  const value = 0 - balance[source]!;
  balance.fill(0);
  for (let i = 0; i < m; i++) {
    const tail = arcs.tail[i]!;
    const head = arcs.head[i]!;
    const reduced = arcs.cost[i]! + potential[tail]! - potential[head]!;
    const set = reduced < 0 ? arcs.capacity[i]! : reduced > 0 ? 0 : flow[i]!;
    balance[head]! += set - flow[i]!;
    balance[tail]! -= set - flow[i]!;
    flow[i] = set;
  }
  let unbalance = 0;
  let extra = 0;
  for (let v = 0; v < n; v++) {
    if (balance[v] !== 0) extra++;
    if (balance[v]! > 0) unbalance += balance[v]!;
  }
  if (unbalance === 0) {
    return {
      nodes: n,
      columns: { ...arcs, flow },
      potential: potential.subarray(0, n),
      value,
      unbalance,
    };
  }
  const grown = (column: Int32Array) => {
    const next = new Int32Array(m + extra);
    next.set(column);
    return next;
  };
  const columns = {
    tail: grown(arcs.tail),
    head: grown(arcs.head),
    capacity: grown(arcs.capacity),
    cost: grown(arcs.cost),
    flow: grown(flow),
  };
  const TOO_MUCH = n;
  const TOO_LITTLE = n + 1;
  let top = -Infinity;
  let bottom = Infinity;
  let at = m;
  for (let v = 0; v < n; v++) {
    const b = balance[v]!;
    if (b === 0) continue;
    if (b > MAX_INT32 || b < -MAX_INT32) throw new RangeError('A warm start unbalances too much.');
    // Free arcs, priced so that none has a negative reduced cost.
    if (b > 0) {
      columns.tail[at] = TOO_MUCH;
      columns.head[at] = v;
      top = Math.max(top, potential[v]!);
    } else {
      columns.tail[at] = v;
      columns.head[at] = TOO_LITTLE;
      bottom = Math.min(bottom, potential[v]!);
    }
    columns.capacity[at] = Math.abs(b);
    at++;
  }
  potential[TOO_MUCH] = top;
  potential[TOO_LITTLE] = bottom;
  return { nodes: n + 2, columns, potential, value, unbalance };
}

/** The residual network in CSR form, with its potentials and the working arrays. */
class Residual {
  readonly n: number;
  /** A node's arcs are slots start[u] .. start[u + 1] - 1; the first live[u] may carry flow. */
  readonly start: Int32Array;
  readonly live: Int32Array;
  readonly head: Int32Array;
  readonly res: Int32Array;
  readonly cost: Int32Array;
  /** The slot of the paired arc. */
  readonly rev: Int32Array;
  /** The id of the arc a slot holds: `id` for the arc as added, `~id` for its reverse. */
  readonly arcId: Int32Array;
  readonly potential: Float64Array;
  readonly dist: Float64Array;
  /** Dijkstra's marks, stamped with the round so they need no clearing. */
  readonly seen: Int32Array;
  readonly settled: Int32Array;
  /** Dijkstra's queue: a list per small distance, and a heap beyond (see `shortestPaths`). */
  readonly bucketHead = new Int32Array(BUCKETS);
  readonly bucketNext: Int32Array;
  readonly bucketPrev: Int32Array;
  heapNode = new Int32Array(64);
  heapKey = new Float64Array(64);
  heapSize = 0;
  readonly level: Int32Array;
  /** Nodes of the level graph still alive, by level. */
  readonly alive: Int32Array;
  readonly current: Int32Array;
  readonly queue: Int32Array;
  /** The arcs (slots) of the path the blocking flow's DFS is walking. */
  readonly path: Int32Array;
  stamp = 0;

  constructor(n: number, arcs: ArcColumns) {
    this.n = n;
    const m = arcs.tail.length;
    const start = new Int32Array(n + 1);
    for (let i = 0; i < m; i++) {
      start[arcs.tail[i]! + 1]! += 1;
      start[arcs.head[i]! + 1]! += 1;
    }
    for (let u = 0; u < n; u++) start[u + 1]! += start[u]!;
    const fill = start.slice(0, n);
    const forward = new Int32Array(m);
    const backward = new Int32Array(m);
    const flow = arcs.flow;
    // Arcs that can carry flow go first in their node's range: the live ones.
    for (let i = 0; i < m; i++) {
      if (arcs.capacity[i]! > (flow ? flow[i]! : 0)) forward[i] = fill[arcs.tail[i]!]!++;
      if (flow && flow[i]! > 0) backward[i] = fill[arcs.head[i]!]!++;
    }
    const live = new Int32Array(n);
    for (let u = 0; u < n; u++) live[u] = fill[u]! - start[u]!;
    for (let i = 0; i < m; i++) {
      if (arcs.capacity[i]! <= (flow ? flow[i]! : 0)) forward[i] = fill[arcs.tail[i]!]!++;
      if (!(flow && flow[i]! > 0)) backward[i] = fill[arcs.head[i]!]!++;
    }

    const slots = 2 * m;
    this.start = start;
    this.live = live;
    this.head = new Int32Array(slots);
    this.res = new Int32Array(slots);
    this.cost = new Int32Array(slots);
    this.rev = new Int32Array(slots);
    this.arcId = new Int32Array(slots);
    for (let i = 0; i < m; i++) {
      const f = forward[i]!;
      const b = backward[i]!;
      this.head[f] = arcs.head[i]!;
      this.head[b] = arcs.tail[i]!;
      const carried = flow ? flow[i]! : 0;
      this.res[f] = arcs.capacity[i]! - carried;
      this.res[b] = carried;
      this.cost[f] = arcs.cost[i]!;
      this.cost[b] = -arcs.cost[i]!;
      this.rev[f] = b;
      this.rev[b] = f;
      this.arcId[f] = i;
      this.arcId[b] = ~i;
    }
    this.potential = new Float64Array(n);
    this.dist = new Float64Array(n);
    this.seen = new Int32Array(n);
    this.settled = new Int32Array(n);
    this.bucketNext = new Int32Array(n);
    this.bucketPrev = new Int32Array(n);
    this.level = new Int32Array(n);
    this.alive = new Int32Array(n + 1);
    this.current = new Int32Array(n);
    this.queue = new Int32Array(n);
    this.path = new Int32Array(n);
  }

  /**
   * With a negative cost anywhere, Bellman-Ford (from every node at once, as in Johnson's
   * algorithm) sets potentials that make every reduced cost non-negative.
   */
  initialPotentials(): void {
    const { n, start, live, head, res, cost } = this;
    let negative = false;
    for (let u = 0; u < n && !negative; u++) {
      for (let k = start[u]!, end = k + live[u]!; k < end; k++) {
        if (cost[k]! < 0) negative = true;
      }
    }
    if (!negative) return;
    const dist = this.potential.fill(0);
    const queued = new Uint8Array(n).fill(1);
    const passes = new Int32Array(n);
    // A ring buffer holding each node at most once; every node starts in it.
    const queue = new Int32Array(n);
    for (let v = 0; v < n; v++) queue[v] = v;
    let first = 0;
    let size = n;
    while (size > 0) {
      const u = queue[first]!;
      first = first + 1 === n ? 0 : first + 1;
      size--;
      queued[u] = 0;
      if (++passes[u]! > n) {
        throw new RangeError(
          'The network has a cycle of negative cost; its flow has no least cost.',
        );
      }
      const du = dist[u]!;
      for (let k = start[u]!, end = k + live[u]!; k < end; k++) {
        if (res[k] === 0) continue;
        const v = head[k]!;
        const dv = du + cost[k]!;
        if (dv < dist[v]!) {
          dist[v] = dv;
          if (!queued[v]) {
            queued[v] = 1;
            queue[(first + size) % n] = v;
            size++;
          }
        }
      }
    }
  }

  /**
   * Dijkstra on reduced costs, stopped once the sink is settled, then every potential moves
   * by min(distance, distance of the sink): arcs on shortest paths now cost zero and none
   * costs less. Answers whether the sink can still be reached.
   *
   * Reduced costs are whole numbers and the distances that matter are small (most nodes sit
   * at 0), so the queue is a bucket per distance below BUCKETS, LIFO, and a binary heap with
   * lazy deletion for anything farther.
   */
  shortestPaths(source: number, sink: number): boolean {
    const { n, start, live, head, res, cost, potential, dist, seen, settled } = this;
    const { bucketHead, bucketNext, bucketPrev } = this;
    const stamp = ++this.stamp;
    bucketHead.fill(-1);
    let inBuckets = 0;
    let cursor = 0;
    this.heapSize = 0;
    const link = (v: number, d: number) => {
      const first = bucketHead[d]!;
      bucketNext[v] = first;
      bucketPrev[v] = -1;
      if (first >= 0) bucketPrev[first] = v;
      bucketHead[d] = v;
      inBuckets++;
    };
    const unlink = (v: number, d: number) => {
      const before = bucketPrev[v]!;
      const after = bucketNext[v]!;
      if (before >= 0) bucketNext[before] = after;
      else bucketHead[d] = after;
      if (after >= 0) bucketPrev[after] = before;
      inBuckets--;
    };

    dist[source] = 0;
    seen[source] = stamp;
    link(source, 0);
    for (;;) {
      let u: number;
      if (inBuckets > 0) {
        while (bucketHead[cursor]! < 0) cursor++;
        u = bucketHead[cursor]!;
        unlink(u, cursor);
      } else {
        u = this.heapPop(stamp);
        if (u < 0) break;
      }
      settled[u] = stamp;
      if (u === sink) break;
      const dist0 = dist[u]!;
      const du = dist0 + potential[u]!;
      const first = start[u]!;
      let end = first + live[u]!;
      let k = first;
      let sinkFinal = false;
      while (k < end) {
        if (res[k] === 0) {
          // Saturated: move it out of the live front so no later scan pays for it.
          end--;
          this.swap(k, end);
          continue;
        }
        const v = head[k]!;
        k++;
        if (settled[v] === stamp) continue;
        const dv = du + cost[k - 1]! - potential[v]!;
        if (seen[v] !== stamp) {
          seen[v] = stamp;
        } else if (dv < dist[v]!) {
          if (dist[v]! < BUCKETS) unlink(v, dist[v]!);
        } else continue;
        dist[v] = dv;
        if (v === sink && dv === dist0) {
          // Nothing is nearer than u: the sink's distance is final.
          sinkFinal = true;
          break;
        }
        if (dv < BUCKETS) link(v, dv);
        else this.heapPush(v, dv);
      }
      live[u] = end - first;
      if (sinkFinal) {
        settled[sink] = stamp;
        break;
      }
    }
    if (settled[sink] !== stamp) return false;
    const reach = dist[sink]!;
    for (let v = 0; v < n; v++) potential[v]! += settled[v] === stamp ? dist[v]! : reach;
    return true;
  }

  /** The heap part of Dijkstra's queue: (distance, node) pairs, stale ones skipped on the way out. */
  heapPush(v: number, d: number): void {
    if (this.heapSize === this.heapNode.length) {
      const nodes = new Int32Array(this.heapNode.length * 2);
      nodes.set(this.heapNode);
      this.heapNode = nodes;
      const keys = new Float64Array(this.heapKey.length * 2);
      keys.set(this.heapKey);
      this.heapKey = keys;
    }
    const { heapNode, heapKey } = this;
    let at = this.heapSize++;
    while (at > 0) {
      const parent = (at - 1) >> 1;
      if (heapKey[parent]! <= d) break;
      heapNode[at] = heapNode[parent]!;
      heapKey[at] = heapKey[parent]!;
      at = parent;
    }
    heapNode[at] = v;
    heapKey[at] = d;
  }

  /** The nearest node not yet settled, or -1. */
  heapPop(stamp: number): number {
    const { heapNode, heapKey, dist, settled } = this;
    while (this.heapSize > 0) {
      const top = heapNode[0]!;
      const topKey = heapKey[0]!;
      const size = --this.heapSize;
      const lastNode = heapNode[size]!;
      const lastKey = heapKey[size]!;
      let at = 0;
      for (;;) {
        let child = 2 * at + 1;
        if (child >= size) break;
        if (child + 1 < size && heapKey[child + 1]! < heapKey[child]!) child++;
        if (heapKey[child]! >= lastKey) break;
        heapNode[at] = heapNode[child]!;
        heapKey[at] = heapKey[child]!;
        at = child;
      }
      heapNode[at] = lastNode;
      heapKey[at] = lastKey;
      if (settled[top] !== stamp && dist[top] === topKey) return top;
    }
    return -1;
  }

  /**
   * One phase of Dinic on the arcs of reduced cost zero: BFS levels, then DFS along
   * current-arc pointers until no path of rising levels is left. Answers the flow sent (at
   * most `most`). Whatever zero-cost paths remain, the next round's Dijkstra finds at
   * distance zero, and cheaply: it stops as soon as the sink is settled.
   */
  blockingFlow(source: number, sink: number, most: number): number {
    const { start, live, head, res, cost, rev, potential, level, current, queue, path } = this;
    level.fill(-1);
    level[source] = 0;
    queue[0] = source;
    let read = 0;
    let write = 1;
    let sinkLevel = -1;
    // Every node one level short of the sink is labelled before the sink is found; no other
    // node at the sink's level is of use, so the search ends there.
    search: while (read < write) {
      const u = queue[read++]!;
      const next = level[u]! + 1;
      const pu = potential[u]!;
      for (let k = start[u]!, end = k + live[u]!; k < end; k++) {
        if (res[k] === 0) continue;
        const v = head[k]!;
        if (level[v]! < 0 && cost[k]! + pu - potential[v]! === 0) {
          level[v] = next;
          queue[write++] = v;
          if (v === sink) {
            sinkLevel = next;
            break search;
          }
        }
      }
    }
    if (level[sink]! < 0) return 0;
    // Nodes as deep as the sink (but the sink) lead nowhere: mark them dead up front. Count
    // the others by level: once a level has none left alive, no path is left either.
    const alive = this.alive.fill(0, 0, sinkLevel);
    for (let i = 0; i < write; i++) {
      const v = queue[i]!;
      if (level[v] === sinkLevel && v !== sink) level[v] = -1;
      else if (v !== sink) alive[level[v]!]!++;
    }

    current.set(start.subarray(0, this.n));
    let sent = 0;
    let depth = 0;
    let u = source;
    while (sent < most) {
      if (u === sink) {
        let push = most - sent;
        for (let i = 0; i < depth; i++) push = Math.min(push, res[path[i]!]!);
        let back = -1;
        for (let i = 0; i < depth; i++) {
          const k = path[i]!;
          res[k]! -= push;
          if (res[k] === 0 && back < 0) back = i;
          const r = rev[k]!;
          if (res[r] === 0) this.revive(r);
          res[rev[k]!]! += push;
        }
        sent += push;
        if (back < 0) break;
        // Back up to the tail of the first arc this push saturated.
        depth = back;
        u = head[rev[path[back]!]!]!;
        continue;
      }
      const pu = potential[u]!;
      const nextLevel = level[u]! + 1;
      const end = start[u]! + live[u]!;
      let k = current[u]!;
      for (; k < end; k++) {
        if (res[k] === 0) continue;
        const v = head[k]!;
        if (level[v] === nextLevel && cost[k]! + pu - potential[v]! === 0) break;
      }
      current[u] = k;
      if (k < end) {
        path[depth++] = k;
        u = head[k]!;
        continue;
      }
      // A dead end: nothing more goes through u in this level graph.
      if (--alive[level[u]!]! === 0) break;
      level[u] = -1;
      if (depth === 0) break;
      const k0 = path[--depth]!;
      u = head[rev[k0]!]!;
      current[u]!++;
    }
    return sent;
  }

  /**
   * An arc about to gain capacity joins its node's live front. Only slots past the front
   * move, so the current-arc pointers and the DFS's path stay valid.
   */
  revive(slot: number): void {
    const u = this.head[this.rev[slot]!]!;
    const end = this.start[u]! + this.live[u]!;
    if (slot < end) return;
    this.swap(slot, end);
    this.live[u]!++;
  }

  /** Exchanges two slots of one node, keeping the pairs' links. */
  swap(a: number, b: number): void {
    if (a === b) return;
    const { head, res, cost, rev, arcId } = this;
    const ra = rev[a]!;
    const rb = rev[b]!;
    let t = head[a]!;
    head[a] = head[b]!;
    head[b] = t;
    t = res[a]!;
    res[a] = res[b]!;
    res[b] = t;
    t = cost[a]!;
    cost[a] = cost[b]!;
    cost[b] = t;
    t = arcId[a]!;
    arcId[a] = arcId[b]!;
    arcId[b] = t;
    rev[a] = rb;
    rev[b] = ra;
    rev[rb] = a;
    rev[ra] = b;
  }

  /** The flow on each arc: what its reverse can send back. */
  arcFlows(m: number): Int32Array {
    const flows = new Int32Array(m);
    const { res, arcId } = this;
    for (let k = 0; k < arcId.length; k++) {
      const id = arcId[k]!;
      if (id < 0 && ~id < m) flows[~id] = res[k]!;
    }
    return flows;
  }
}
