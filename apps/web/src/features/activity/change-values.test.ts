import { describe, expect, it } from 'vitest';
import { fieldChanges, inlineValue, NO_VALUE } from './change-values';

describe('inlineValue', () => {
  it.each([
    ['a short text', 'Dark matter', 'Dark matter'],
    ['a number', 3, '3'],
    ['a flag on', true, 'Yes'],
    ['a flag off', false, 'No'],
    ['null', null, NO_VALUE],
    ['an empty text', '', NO_VALUE],
    ['a list of short values', ['Vera Rubin', 2, null], `Vera Rubin, 2, ${NO_VALUE}`],
    ['an empty list', [], NO_VALUE],
    ['a text too long for the row', 'x'.repeat(81), null],
    ['a text of several lines', 'first\nsecond', null],
    ['an object', { title: 'Axions' }, null],
    ['a list of objects', [{ full_name: 'Vera Rubin' }], null],
  ])('%s -> %j', (_name, value, expected) => {
    expect(inlineValue(value)).toBe(expected);
  });
});

describe('fieldChanges', () => {
  it('writes each field by what the row kept of it', () => {
    expect(
      fieldChanges({
        stateVal: { before: 0, after: 1 },
        proposalName: { after: 'Axions' },
        reviewer: { before: 'Grace Hopper' },
        'Science Review': {},
        answers: { before: null, after: { title: 'Axions' } },
      }),
    ).toEqual([
      { field: 'stateVal', kind: 'inline', before: '0', after: '1' },
      // A creation: only the new value.
      { field: 'proposalName', kind: 'inline', before: null, after: 'Axions' },
      // A deletion: the value went.
      { field: 'reviewer', kind: 'inline', before: 'Grace Hopper', after: NO_VALUE },
      // Values the reader may not see: the name alone.
      { field: 'Science Review', kind: 'name' },
      { field: 'answers', kind: 'long', before: NO_VALUE, after: '{\n  "title": "Axions"\n}' },
    ]);
  });
});
