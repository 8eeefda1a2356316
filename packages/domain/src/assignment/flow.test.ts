import { describe, expect, it } from 'vitest';
import { FlowNetwork, minCostFlow, type MinCostFlowResult } from './flow.js';

interface Arc {
  from: number;
  to: number;
  capacity: number;
  cost: number;
}
interface Case {
  nodes: number;
  source: number;
  sink: number;
  arcs: Arc[];
}

/** mulberry32: the tests' networks are the same on every run. */
function seeded(seed: number): (below: number) => number {
  let state = seed >>> 0;
  return (below) => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4_294_967_296) * below);
  };
}

/**
 * A small random network: parallel arcs and zero costs on purpose, cycles when costs are
 * not negative; with `negative`, arcs only run from lower to higher nodes, so that no
 * cycle (of negative cost) can form.
 */
function randomCase(random: (below: number) => number, negative: boolean): Case {
  const nodes = 2 + random(4);
  const count = 1 + random(7);
  const arcs: Arc[] = [];
  while (arcs.length < count) {
    let from = random(nodes);
    let to = random(nodes);
    if (from === to) continue;
    if (negative && from > to) [from, to] = [to, from];
    const capacity = random(4);
    const cost = random(3) === 0 ? 0 : negative ? random(13) - 5 : random(10);
    arcs.push({ from, to, capacity, cost });
    // A twin now and then: parallel arcs, same or other cost.
    if (random(4) === 0 && arcs.length < count) {
      arcs.push({ from, to, capacity: random(3), cost: random(2) === 0 ? cost : random(10) });
    }
  }
  if (negative) return { nodes, source: 0, sink: nodes - 1, arcs };
  const source = random(nodes);
  let sink = random(nodes);
  while (sink === source) sink = random(nodes);
  return { nodes, source, sink, arcs };
}

/** Every integral flow, tried: the largest value, then the least cost (for `limit`, up to it). */
function bruteForce(c: Case, limit = Infinity): { flow: number; cost: number } {
  const flows = new Array<number>(c.arcs.length).fill(0);
  const feasible: { value: number; cost: number }[] = [];
  const visit = (i: number) => {
    if (i === c.arcs.length) {
      const balance = new Array<number>(c.nodes).fill(0);
      let cost = 0;
      c.arcs.forEach((arc, j) => {
        balance[arc.from]! -= flows[j]!;
        balance[arc.to]! += flows[j]!;
        cost += flows[j]! * arc.cost;
      });
      if (balance.every((b, v) => b === 0 || v === c.source || v === c.sink)) {
        feasible.push({ value: 0 - balance[c.source]!, cost });
      }
      return;
    }
    for (let f = 0; f <= c.arcs[i]!.capacity; f++) {
      flows[i] = f;
      visit(i + 1);
    }
  };
  visit(0);
  const most = Math.max(...feasible.map((f) => f.value));
  const flow = Math.min(most, limit);
  const cost = Math.min(...feasible.filter((f) => f.value === flow).map((f) => f.cost));
  return { flow, cost };
}

function build(c: Case): FlowNetwork {
  const network = new FlowNetwork(c.nodes);
  for (const arc of c.arcs) network.addArc(arc.from, arc.to, arc.capacity, arc.cost);
  return network;
}

/** The result is a flow of its value and cost, and its potentials prove the cost least. */
function expectConsistent(c: Case, result: MinCostFlowResult): void {
  const balance = new Array<number>(c.nodes).fill(0);
  let cost = 0;
  c.arcs.forEach((arc, i) => {
    const f = result.arcFlow[i]!;
    expect(f).toBeGreaterThanOrEqual(0);
    expect(f).toBeLessThanOrEqual(arc.capacity);
    balance[arc.from]! -= f;
    balance[arc.to]! += f;
    cost += f * arc.cost;
    const reduced = arc.cost + result.potential[arc.from]! - result.potential[arc.to]!;
    if (f < arc.capacity) expect(reduced).toBeGreaterThanOrEqual(0);
    if (f > 0) expect(reduced).toBeLessThanOrEqual(0);
  });
  balance.forEach((b, v) => {
    if (v !== c.source && v !== c.sink) expect(b).toBe(0);
  });
  expect(0 - balance[c.source]!).toBe(result.flow);
  expect(cost).toBe(result.cost);
}

describe('minCostFlow against trying every flow', () => {
  const cases = (seed: number, negative: boolean) => {
    const random = seeded(seed);
    return Array.from({ length: 300 }, () => randomCase(random, negative));
  };

  it.each([
    ['costs from 0', false, 1, 1],
    ['costs from 0, other networks', false, 2, 1],
    ['negative costs, no cycles', true, 3, 1],
    // Distances beyond Dijkstra's buckets go through its heap.
    ['costs in the hundreds', false, 11, 97],
    ['negative costs in the hundreds', true, 12, 97],
  ] as const)('%s: the same maximum flow at the same least cost', (_, negative, seed, scale) => {
    for (const generated of cases(seed, negative)) {
      const c = { ...generated, arcs: generated.arcs.map((a) => ({ ...a, cost: a.cost * scale })) };
      const result = minCostFlow(build(c), c.source, c.sink);
      expect({ flow: result.flow, cost: result.cost }).toEqual(bruteForce(c));
      expectConsistent(c, result);
    }
  });

  it('a required flow below the maximum costs the least that flow can cost', () => {
    const random = seeded(4);
    for (const c of cases(5, false)) {
      const limit = random(4);
      const result = minCostFlow(build(c), c.source, c.sink, { limit });
      expect({ flow: result.flow, cost: result.cost }).toEqual(bruteForce(c, limit));
      expectConsistent(c, result);
    }
  });

  it('starting from an earlier answer on fewer arcs ends at the same least cost', () => {
    const random = seeded(6);
    for (const c of cases(7, false)) {
      // The earlier answer: on some of the arcs only (the others empty), any flow value.
      const kept = c.arcs.map(() => random(3) !== 0);
      const part = build({
        ...c,
        arcs: c.arcs.map((arc, i) => (kept[i] ? arc : { ...arc, capacity: 0 })),
      });
      const earlier = minCostFlow(part, c.source, c.sink, { limit: random(4) });
      const result = minCostFlow(build(c), c.source, c.sink, {
        warmStart: { arcFlow: earlier.arcFlow, potential: earlier.potential },
      });
      expect({ flow: result.flow, cost: result.cost }).toEqual(bruteForce(c));
      expectConsistent(c, result);
    }
  });

  it('starting from any flow and any potentials ends at the same least cost', () => {
    const random = seeded(8);
    for (const c of cases(9, false)) {
      // Any conserved flow: the best one for other costs; potentials at random.
      const other = { ...c, arcs: c.arcs.map((arc) => ({ ...arc, cost: random(10) })) };
      const start = minCostFlow(build(other), c.source, c.sink, { limit: random(4) });
      const potential = Array.from({ length: c.nodes }, () => random(21) - 10);
      const result = minCostFlow(build(c), c.source, c.sink, {
        warmStart: { arcFlow: start.arcFlow, potential },
      });
      expect({ flow: result.flow, cost: result.cost }).toEqual(bruteForce(c));
      expectConsistent(c, result);
    }
  });
});

describe('minCostFlow on networks made by hand', () => {
  it('sends nothing when the sink cannot be reached', () => {
    const network = new FlowNetwork(4);
    network.addArc(0, 1, 5, 1);
    network.addArc(2, 3, 5, 1);
    const result = minCostFlow(network, 0, 3);
    expect(result).toMatchObject({ flow: 0, cost: 0 });
    expect([...result.arcFlow]).toEqual([0, 0]);
  });

  it('is held by the narrowest cut, and takes the cheap path first', () => {
    // 0 -> 1 -> 3 costs 2, 0 -> 2 -> 3 costs 10; 1 -> 3 carries only 1.
    const network = new FlowNetwork(4);
    network.addArc(0, 1, 3, 1);
    network.addArc(1, 3, 1, 1);
    network.addArc(0, 2, 3, 5);
    network.addArc(2, 3, 1, 5);
    expect(minCostFlow(network, 0, 3)).toMatchObject({ flow: 2, cost: 12 });
    expect(minCostFlow(network, 0, 3, { limit: 1 })).toMatchObject({ flow: 1, cost: 2 });
  });

  it('sends a unit back along an arc when that makes room for two', () => {
    // The cheap path 0-1-2-3 blocks both others; the best flow of 2 takes 0-1-3 and 0-2-3.
    const network = new FlowNetwork(4);
    network.addArc(0, 1, 1, 0);
    network.addArc(1, 2, 1, 0);
    network.addArc(2, 3, 1, 0);
    network.addArc(0, 2, 1, 4);
    network.addArc(1, 3, 1, 4);
    const result = minCostFlow(network, 0, 3);
    expect(result).toMatchObject({ flow: 2, cost: 8 });
    expect(result.arcFlow[1]).toBe(0);
  });

  it('uses parallel unit arcs cheapest first', () => {
    const network = new FlowNetwork(2);
    for (const cost of [30, 10, 20, 0]) network.addArc(0, 1, 1, cost);
    const result = minCostFlow(network, 0, 1, { limit: 2 });
    expect(result).toMatchObject({ flow: 2, cost: 10 });
    expect([...result.arcFlow]).toEqual([0, 1, 0, 1]);
  });

  it('reports progress as the flow grows', () => {
    const network = new FlowNetwork(3);
    network.addArc(0, 1, 2, 0);
    network.addArc(1, 2, 1, 1);
    network.addArc(1, 2, 1, 2);
    const heard: number[] = [];
    minCostFlow(network, 0, 2, { onProgress: (flow) => heard.push(flow) });
    expect(heard).toEqual([1, 2]);
  });

  it('gives the same flow for the same network', () => {
    const random = seeded(10);
    const c = randomCase(random, false);
    const first = minCostFlow(build(c), c.source, c.sink);
    const second = minCostFlow(build(c), c.source, c.sink);
    expect([...second.arcFlow]).toEqual([...first.arcFlow]);
  });

  it('refuses what it cannot solve', () => {
    const network = new FlowNetwork(3);
    expect(() => network.addArc(1, 1, 1, 0)).toThrow(/to itself/);
    expect(() => network.addArc(0, 3, 1, 0)).toThrow(/no node 3/);
    expect(() => network.addArc(0, 1, -1, 0)).toThrow(/capacity/);
    expect(() => network.addArc(0, 1, 1, 0.5)).toThrow(/cost/);
    network.addArc(0, 1, 1, 0);
    network.addArc(1, 2, 1, -3);
    network.addArc(2, 1, 1, 1);
    expect(() => minCostFlow(network, 0, 2)).toThrow(/negative cost/);
    expect(() => minCostFlow(network, 0, 0)).toThrow(/two different nodes/);
    expect(() =>
      minCostFlow(network, 0, 2, { warmStart: { arcFlow: [1, 0, 0], potential: [0, 0, 0] } }),
    ).toThrow(/conserved/);
  });

  it('keeps its arcs in a buffer that grows', () => {
    const network = new FlowNetwork(2, 1);
    for (let i = 0; i < 100; i++) network.addArc(0, 1, 1, i % 7);
    expect(network.arcCount).toBe(100);
    expect(minCostFlow(network, 0, 1, { limit: 3 })).toMatchObject({ flow: 3, cost: 0 });
  });
});
