import { describe, expect, it } from 'vitest';
import { countWords, maxWordsOption, truncateWords } from './word-limit';

describe('word limits', () => {
  it.each([
    ['', 0],
    ['   ', 0],
    ['one', 1],
    [' one  two\nthree\t', 3],
  ])('counts %j as %i words', (text, words) => {
    expect(countWords(text)).toBe(words);
  });

  it.each([
    ['within the limit', 'one two three', 3, 'one two three'],
    ['a space after the last word', 'one two three ', 3, 'one two three '],
    ['a word too many', 'one two three four', 3, 'one two three '],
    ['a pasted paragraph', 'one\n\ntwo  three four five', 2, 'one\n\ntwo  '],
  ])('keeps %s to the limit', (_case, text, max, kept) => {
    expect(truncateWords(text, max)).toBe(kept);
    expect(countWords(truncateWords(text, max))).toBeLessThanOrEqual(max);
  });

  it.each([
    [{ maxWords: 300 }, 300],
    [{}, null],
    [{ maxWords: 0 }, null],
    [{ maxWords: 2.5 }, null],
    [{ maxWords: '300' }, null],
  ])('reads the limit of %j as %j', (options, max) => {
    expect(maxWordsOption(options)).toBe(max);
  });
});
