import { describe, expect, it } from 'vitest';
import { FORMULA_TRIGGERS, spreadsheetText } from './spreadsheet-text.js';

describe('a text cell of a download', () => {
  it.each([
    ['a formula', '=1+1', "'=1+1"],
    [
      'a link that asks another server',
      '=HYPERLINK("http://x.test/","Open")',
      `'=HYPERLINK("http://x.test/","Open")`,
    ],
    ['a plus', "+SUM(1+1)*cmd|' /C calc'!A0", "'+SUM(1+1)*cmd|' /C calc'!A0"],
    ['a minus', '-2+3', "'-2+3"],
    ['an at sign', '@SUM(1+1)', "'@SUM(1+1)"],
    ['a tab first', '\t=1+1', "'\t=1+1"],
    ['a carriage return first', '\r=1+1', "'\r=1+1"],
    ['a formula with a second line', '=1+1\nsecond line', "'=1+1\nsecond line"],
    ['a carriage return and a newline before a formula', '\r\n=1+1', "'\r\n=1+1"],
    ['a negative number written as text', '-3', "'-3"],
  ])('%s is written as text', (_name, cell, expected) => {
    expect(spreadsheetText(cell)).toBe(expected);
  });

  it.each([
    ['words', 'Galaxy survey'],
    ['an empty cell', ''],
    ['a formula character later on', 'Costs = 3 nights'],
    ['a space before an equals sign', ' =1+1'],
    ['a score', '3.50'],
    ['N/A', 'N/A'],
    ['an apostrophe already', "'=1+1"],
    ['a newline first', '\n=1+1'],
    ['a full-width equals sign', '＝1+1'],
  ])('%s is left as it is', (_name, cell) => {
    expect(spreadsheetText(cell)).toBe(cell);
  });

  it('prefixes exactly the characters OWASP names', () => {
    expect([...FORMULA_TRIGGERS].sort()).toEqual(['\t', '\r', '+', '-', '=', '@'].sort());
    for (const trigger of FORMULA_TRIGGERS) {
      expect(spreadsheetText(`${trigger}x`)).toBe(`'${trigger}x`);
    }
  });
});
