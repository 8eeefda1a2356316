import { describe, expect, it } from 'vitest';
import {
  MAX_EXPERTISE_ITEMS,
  MAX_EXPERTISE_ITEM_LENGTH,
  expertiseMessages,
  parseExpertiseText,
  validateExpertise,
} from '../index.js';

const many = (count: number, prefix: string) =>
  Array.from({ length: count }, (_, i) => `${prefix} ${i + 1}`);

describe('expertise on a committee role', () => {
  it.each([
    ['nothing sent', {}, { facilities: [], keywords: [] }],
    ['nulls', { facilities: null, keywords: null }, { facilities: [], keywords: [] }],
    [
      'items trimmed and blanks dropped',
      { facilities: ['  MX2 ', '', '   '], keywords: [' proteins'] },
      { facilities: ['MX2'], keywords: ['proteins'] },
    ],
    [
      'duplicates that differ in case, the first spelling kept',
      { facilities: ['MX2', 'mx2 ', 'SAXS'], keywords: ['Proteins', 'PROTEINS', 'lipids'] },
      { facilities: ['MX2', 'SAXS'], keywords: ['Proteins', 'lipids'] },
    ],
    [
      'as many items as allowed, once duplicates are gone',
      { facilities: [...many(MAX_EXPERTISE_ITEMS, 'Beamline'), 'beamline 1'] },
      { facilities: many(MAX_EXPERTISE_ITEMS, 'Beamline'), keywords: [] },
    ],
    [
      'an item of the longest length',
      { keywords: ['k'.repeat(MAX_EXPERTISE_ITEM_LENGTH)] },
      { facilities: [], keywords: ['k'.repeat(MAX_EXPERTISE_ITEM_LENGTH)] },
    ],
  ])('accepts %s', (_name, input, value) => {
    expect(validateExpertise(input)).toEqual({ ok: true, value });
  });

  it.each([
    [
      'too many facilities',
      { facilities: many(MAX_EXPERTISE_ITEMS + 1, 'Beamline') },
      { facilities: ['Enter at most 50 facilities.'] },
    ],
    [
      'a keyword too long, quoted so it can be found',
      { keywords: ['short', `${'abcdefghij'.repeat(10)}x`] },
      {
        keywords: [
          'Each keyword can have at most 100 characters: shorten “abcdefghijabcdefghijabcdefghij…”.',
        ],
      },
    ],
    [
      'both problems in both fields at once',
      {
        facilities: ['f'.repeat(101), ...many(MAX_EXPERTISE_ITEMS, 'Beamline')],
        keywords: many(MAX_EXPERTISE_ITEMS + 1, 'topic'),
      },
      {
        facilities: [
          expertiseMessages.tooMany('facilities'),
          expertiseMessages.tooLong('facilities', 'f'.repeat(101)),
        ],
        keywords: [expertiseMessages.tooMany('keywords')],
      },
    ],
  ])('refuses %s', (_name, input, errors) => {
    expect(validateExpertise(input)).toEqual({ ok: false, errors });
  });

  it('reads comma-separated text as a form takes it', () => {
    expect(parseExpertiseText(' MX2, SAXS ,, mx2,  ')).toEqual(['MX2', 'SAXS']);
    expect(parseExpertiseText('')).toEqual([]);
  });
});
