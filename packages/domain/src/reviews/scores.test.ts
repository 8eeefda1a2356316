import { describe, expect, it } from 'vitest';
import { textAnswers } from './comments.js';
import { formatScore, proposalScores, reviewScore } from './scores.js';

const average = { method: 'average' as const, fields: ['significance', 'feasibility', 'team'] };
const total = { method: 'total' as const, fields: ['significance', 'feasibility', 'team'] };

describe('a review’s score', () => {
  it.each([
    ['average of three', average, { significance: 4, feasibility: 3, team: 5 }, 4],
    ['total of three', total, { significance: 4, feasibility: 3, team: 5 }, 12],
    ['average with a field missing', average, { significance: 4, team: 5 }, 4.5],
    ['total with a field missing', total, { significance: 4, team: 5 }, 9],
    ['a zero counts', average, { significance: 0, feasibility: 3, team: 3 }, 2],
    ['text is not a number', average, { significance: '5', feasibility: 3 }, 3],
    ['nothing scored', average, {}, null],
  ])('%s', (_name, options, data, expected) => {
    expect(reviewScore([{ options, data }]).score).toBe(expected);
  });

  it('lists each score field, null where missing', () => {
    expect(reviewScore([{ options: average, data: { significance: 4 } }]).scores).toEqual([
      { name: 'significance', value: 4 },
      { name: 'feasibility', value: null },
      { name: 'team', value: null },
    ]);
  });

  it('adds up the scores of several score forms', () => {
    const other = { method: 'total' as const, fields: ['budget'] };
    expect(
      reviewScore([
        { options: average, data: { significance: 4, feasibility: 2 } },
        { options: other, data: { budget: 1 } },
      ]).score,
    ).toBe(4);
  });
});

describe('a proposal’s scores', () => {
  it('means each field over the reviews that scored it, and the result over review scores', () => {
    const first = reviewScore([
      { options: average, data: { significance: 4, feasibility: 3, team: 5 } },
    ]);
    const second = reviewScore([{ options: average, data: { significance: 2, feasibility: 4 } }]);
    expect(proposalScores([first, second])).toEqual([
      { name: 'significance', value: 3 },
      { name: 'feasibility', value: 3.5 },
      { name: 'team', value: 5 },
      { name: 'result', value: (4 + 3) / 2 },
    ]);
  });

  it('has a null result without reviews', () => {
    expect(proposalScores([])).toEqual([{ name: 'result', value: null }]);
  });

  it('shows two decimals, or N/A', () => {
    expect(formatScore(3.456)).toBe('3.46');
    expect(formatScore(4)).toBe('4.00');
    expect(formatScore(null)).toBe('N/A');
  });
});

describe('a review’s text answers', () => {
  it('keeps the non-empty text, labelled by ui:title or title or name', () => {
    const schema = {
      properties: {
        strengths: { type: 'string', title: 'Strengths' },
        weaknesses: { type: 'string', title: 'Weaknesses' },
        note: { type: 'string' },
        significance: { type: 'integer', title: 'Significance' },
        blank: { type: 'string', title: 'Blank' },
      },
    };
    const ui = { weaknesses: { 'ui:title': 'What could be better' } };
    expect(
      textAnswers(schema, ui, {
        strengths: 'Clear plan',
        weaknesses: 'Budget',
        note: 'n',
        significance: 4,
        blank: '  ',
      }),
    ).toEqual([
      { name: 'Strengths', value: 'Clear plan' },
      { name: 'What could be better', value: 'Budget' },
      { name: 'note', value: 'n' },
    ]);
  });
});
