import { describe, expect, it } from 'vitest';
import type { ResourceValues } from '../resources/resources.js';
import {
  keyBetween,
  outcomesFromLine,
  rankOrder,
  rankProposals,
  withAwarded,
  type RankingInput,
} from './ranking.js';

let nextId = 1;
function row(
  name: string,
  score: number | null,
  requested: ResourceValues = {},
  more: Partial<RankingInput> = {},
): RankingInput {
  return {
    proposalId: nextId++,
    name,
    proposalTypeId: 1,
    score,
    rankKey: null,
    requested,
    outcome: null,
    awards: {},
    ...more,
  };
}

const names = (rows: readonly { name: string }[]) => rows.map((r) => r.name);
const rankedNames = (ranking: ReturnType<typeof rankProposals>) =>
  ranking.rows.map((r) => r.row.name);

describe('rankOrder', () => {
  it('puts the highest score first, ties by name without case, then as written', () => {
    const rows = [row('beta', 3), row('Alpha', 4), row('alpha', 4), row('gamma', 4.5)];
    expect(names(rankOrder(rows))).toEqual(['gamma', 'Alpha', 'alpha', 'beta']);
  });

  it('puts proposals without a score last, by name', () => {
    const rows = [row('zeta', null), row('beta', 1), row('alpha', null)];
    expect(names(rankOrder(rows))).toEqual(['beta', 'alpha', 'zeta']);
  });

  it('orders a moved proposal by its key, not its score', () => {
    const moved = row('moved', 1, {}, { rankKey: 4.25 });
    expect(names(rankOrder([row('four', 4), row('five', 5), moved]))).toEqual([
      'five',
      'moved',
      'four',
    ]);
  });

  it('leaves the rows it is given in their order', () => {
    const rows = [row('b', 1), row('a', 2)];
    rankOrder(rows);
    expect(names(rows)).toEqual(['b', 'a']);
  });
});

describe('rankProposals: running totals and the line', () => {
  it('adds the requests down the list and draws the line where they pass capacity', () => {
    const ranking = rankProposals(
      [
        row('first', 5, { Telescope: { nights: 100 } }),
        row('second', 4, { Telescope: { nights: 150 } }),
        row('third', 3, { Telescope: { nights: 100 } }),
        row('fourth', 2, { Telescope: { nights: 10 } }),
      ],
      { Telescope: { nights: 300 } },
    );
    expect(ranking.rows.map((r) => r.running.Telescope?.nights)).toEqual([100, 250, 350, 360]);
    const [line] = ranking.lines;
    expect(line).toMatchObject({ requested: 360, capacity: 300, firstBelow: 3 });
    expect(line!.oversubscription).toBeCloseTo(1.2);
    // The proposal whose total first passes the capacity is below the line, and so is every
    // one after it, even one that would fit on its own.
    expect(ranking.rows.map((r) => r.above)).toEqual([true, true, false, false]);
  });

  it('keeps a proposal whose total reaches the capacity exactly above the line', () => {
    const ranking = rankProposals(
      [row('a', 2, { T: { n: 200 } }), row('b', 1, { T: { n: 100 } })],
      { T: { n: 300 } },
    );
    expect(ranking.lines[0]!.firstBelow).toBeNull();
    expect(ranking.rows.every((r) => r.above)).toBe(true);
  });

  it('adds nothing for a missing value (N/A), and sums the entries already summed per proposal', () => {
    const ranking = rankProposals(
      [
        // Two entries of a multi-entry form come summed per facility (resourceValues).
        row('two entries', 3, { T: { nights: 40, hours: 5 } }),
        // Named the facility but left its numbers empty: N/A, not zero.
        row('no numbers', 2, { T: {} }),
        row('hours only', 1, { T: { hours: 7 } }),
      ],
      { T: { nights: 30, hours: 100 } },
    );
    expect(ranking.rows.map((r) => r.running.T)).toEqual([
      { nights: 40, hours: 5 },
      { nights: 40, hours: 5 },
      { nights: 40, hours: 12 },
    ]);
    const nights = ranking.lines.find((l) => l.field === 'nights')!;
    expect(nights.firstBelow).toBe(1);
    // A facility's line is its earliest field's: below it on nights is below the line.
    expect(ranking.rows.map((r) => r.aboveLine.T)).toEqual([false, false, false]);
  });

  it('draws each facility its own line, and a proposal is above only when above every line it asks for', () => {
    const ranking = rankProposals(
      [
        row('A and B', 5, { A: { h: 60 }, B: { h: 10 } }),
        row('A only', 4, { A: { h: 60 } }),
        row('B only', 3, { B: { h: 10 } }),
        row('asks nothing', 2),
      ],
      { A: { h: 100 }, B: { h: 100 } },
    );
    expect(ranking.lines.map((l) => [l.facility, l.firstBelow])).toEqual([
      ['A', 2],
      ['B', null],
    ]);
    expect(ranking.rows.map((r) => [r.row.name, r.above])).toEqual([
      ['A and B', true],
      ['A only', false],
      // Ranked below A's line, but asks nothing of A: above.
      ['B only', true],
      // Asks nothing of a facility with a line: above only while above the first line of all.
      ['asks nothing', false],
    ]);
  });

  it('has no line without a capacity, and lists the facilities with one that nobody asks for', () => {
    const ranking = rankProposals([row('a', 1, { T: { n: 1e6 } })], { Unused: { hours: 10 } });
    expect(ranking.lines.map((l) => [l.facility, l.field, l.capacity, l.firstBelow])).toEqual([
      ['T', 'n', null, null],
      ['Unused', 'hours', 10, null],
    ]);
    expect(ranking.lines[0]!.oversubscription).toBeNull();
    expect(ranking.rows[0]!.above).toBe(true);
  });

  it('never puts a proposal without a score above the line', () => {
    const ranking = rankProposals([row('scored', 1), row('unscored', null)], {});
    expect(ranking.rows.map((r) => r.above)).toEqual([true, false]);
  });

  it('adds up the awards against capacity, over it when more is awarded than there is', () => {
    const ranking = rankProposals(
      [
        row('a', 2, { T: { n: 100 } }, { outcome: 'approved', awards: { T: { n: 120 } } }),
        row('b', 1, { T: { n: 100 } }, { outcome: 'partly_approved', awards: { T: { n: 90 } } }),
      ],
      { T: { n: 200 } },
    );
    const [line] = ranking.lines;
    expect(line).toMatchObject({ awarded: 210, overAwarded: true });
    expect(line!.awardedShare).toBeCloseTo(1.05);
  });
});

describe('withAwarded: the lines after an award is saved', () => {
  const rows = (awardA: number) => [
    row('a', 2, { T: { n: 100, h: 4 } }, { outcome: 'approved', awards: { T: { n: awardA } } }),
    row('b', 1, { T: { n: 100 }, U: { n: 5 } }, { outcome: 'approved', awards: { U: { n: 5 } } }),
  ];
  const capacity = { T: { n: 150 }, U: { n: 0 } };

  it('gives the lines the whole ranking would give with the new awards', () => {
    const before = rankProposals(rows(100), capacity).lines;
    const after = rankProposals(rows(160), capacity).lines;
    expect(withAwarded(before, { T: { n: 160 }, U: { n: 5 } })).toEqual(after);
    expect(after.find((l) => l.facility === 'T' && l.field === 'n')).toMatchObject({
      awarded: 160,
      overAwarded: true,
    });
  });

  it('counts a field absent from the totals as nothing awarded, below capacity again', () => {
    const before = rankProposals(rows(160), capacity).lines;
    const lines = withAwarded(before, {});
    expect(lines.map((l) => l.awarded)).toEqual([0, 0, 0]);
    expect(lines.map((l) => l.overAwarded)).toEqual([false, false, false]);
    // No share of a capacity of 0, as rankProposals has none.
    expect(lines.find((l) => l.facility === 'U')!.awardedShare).toBeNull();
  });
});

describe('outcomesFromLine', () => {
  const ranking = rankProposals(
    [
      row('one', 5, { T: { n: 100 } }),
      row('two', 4, { T: { n: 100 } }, { outcome: 'declined' }),
      row('three', 3, { T: { n: 100 } }),
      row('four', 2, { T: { n: 100 } }),
      row('five', 1, { T: { n: 100 } }),
    ],
    { T: { n: 250 } },
  );

  it('approves above the line, waitlists the next N and declines the rest', () => {
    expect(outcomesFromLine(ranking, 2).map((p) => p.outcome)).toEqual([
      'approved',
      'approved',
      'waitlisted',
      'waitlisted',
      'declined',
    ]);
  });

  it('says what each proposal has now, so the preview can show what changes', () => {
    expect(outcomesFromLine(ranking, 0)[1]).toMatchObject({
      outcome: 'approved',
      current: 'declined',
    });
  });

  it('waitlists nobody with N = 0, and everyone below with a large N', () => {
    expect(outcomesFromLine(ranking, 0).filter((p) => p.outcome === 'waitlisted')).toHaveLength(0);
    expect(outcomesFromLine(ranking, 99).filter((p) => p.outcome === 'declined')).toHaveLength(0);
  });
});

describe('keyBetween', () => {
  it('puts a proposal halfway between two keys', () => {
    expect(keyBetween(4.5, 4.3)).toBeCloseTo(4.4);
  });

  it('goes one above the first at the top and one below the last at the bottom', () => {
    expect(keyBetween(undefined, 4)).toBe(5);
    expect(keyBetween(2, undefined)).toBe(1);
    expect(keyBetween(undefined, undefined)).toBe(0);
  });

  it('goes above the proposals without a score when moved right above them', () => {
    expect(keyBetween(2, null)).toBe(1);
  });

  it('has no key among proposals without a score: there the order is by name', () => {
    expect(keyBetween(null, null)).toBeNull();
  });

  it('places a moved proposal where it was put', () => {
    const rows = [row('a', 5), row('b', 4), row('c', 3)];
    const [a, , c] = rows;
    c!.rankKey = keyBetween(a!.score, rows[1]!.score);
    expect(rankedNames(rankProposals(rows, {}))).toEqual(['a', 'c', 'b']);
  });
});
