import { describe, expect, it } from 'vitest';
import { searchRows, sortRows, type SortValue } from './sort-rows';

const sorted = (values: SortValue[], direction: 'asc' | 'desc') =>
  sortRows(values, (value) => value, direction);

describe('sortRows', () => {
  it.each([
    ['numbers as numbers', [10, 9, 100], [9, 10, 100]],
    [
      'strings with numbers in them as people read them',
      ['Round 10', 'Round 9'],
      ['Round 9', 'Round 10'],
    ],
    ['strings without regard to case', ['beta', 'Alpha', 'Gamma'], ['Alpha', 'beta', 'Gamma']],
    [
      'dates as instants, whatever their offset',
      [new Date('2026-01-01T01:00:00Z'), new Date('2026-01-01T10:00:00+10:00')],
      [new Date('2026-01-01T10:00:00+10:00'), new Date('2026-01-01T01:00:00Z')],
    ],
  ])('orders %s', (_name, values, ascending) => {
    expect(sorted(values, 'asc')).toEqual(ascending);
    expect(sorted(values, 'desc')).toEqual([...ascending].reverse());
  });

  it.each([
    ['null', null],
    ['undefined', undefined],
    ['an empty string', ''],
    ['NaN', Number.NaN],
    ['an invalid date', new Date('not a date')],
  ])('puts %s last in either direction', (_name, missing) => {
    expect(sorted([missing, 2, 1], 'asc')).toEqual([1, 2, missing]);
    expect(sorted([missing, 1, 2], 'desc')).toEqual([2, 1, missing]);
  });

  it('keeps the incoming order of rows that sort alike', () => {
    const rows = [
      { id: 1, group: 'b' },
      { id: 2, group: 'a' },
      { id: 3, group: 'b' },
      { id: 4, group: 'a' },
    ];
    expect(sortRows(rows, (row) => row.group, 'asc').map((row) => row.id)).toEqual([2, 4, 1, 3]);
    expect(sortRows(rows, (row) => row.group, 'desc').map((row) => row.id)).toEqual([1, 3, 2, 4]);
  });
});

describe('searchRows', () => {
  const rows = [
    { name: 'Beamtime 2026', committee: 'Neutrons' },
    { name: 'Cryo-EM round', committee: null },
  ];
  const fields = (row: (typeof rows)[number]) => [row.name, row.committee];

  it('finds a text in any field, ignoring case and the spaces around it', () => {
    expect(searchRows(rows, '  CRYO ', fields)).toEqual([rows[1]]);
    expect(searchRows(rows, 'neutron', fields)).toEqual([rows[0]]);
  });

  it('returns every row for an empty search and none when nothing matches', () => {
    expect(searchRows(rows, ' ', fields)).toEqual(rows);
    expect(searchRows(rows, 'zzz', fields)).toEqual([]);
  });
});
