import { describe, expect, it } from 'vitest';
import { answerChanges, answersText, htmlText } from './answer-changes';

const form = {
  name: 'Science Review',
  schema: {
    properties: {
      strengths: { type: 'string', title: 'Strengths' },
      weaknesses: { type: 'string', title: 'Weaknesses' },
      nights: { type: 'integer' },
    },
  },
  uiSchema: { nights: { 'ui:title': 'Nights asked' } },
};

describe('answerChanges', () => {
  it('lists the fields that differ, in the form’s order, by their titles', () => {
    expect(
      answerChanges(
        form,
        { strengths: 'Mine', weaknesses: 'Few', nights: 3, extra: true },
        { strengths: 'Theirs', weaknesses: 'Few', nights: 4 },
      ),
    ).toEqual([
      { label: 'Science Review: Strengths', mine: 'Mine', theirs: 'Theirs' },
      { label: 'Science Review: Nights asked', mine: '3', theirs: '4' },
      { label: 'Science Review: extra', mine: 'Yes', theirs: '(empty)' },
    ]);
  });

  it('takes an empty answer and a missing one as the same', () => {
    expect(answerChanges(form, { strengths: '' }, {})).toEqual([]);
  });
});

describe('answersText', () => {
  it('writes each answered field on the clipboard under its form and title', () => {
    expect(answersText([{ form, answers: { strengths: 'Bold', nights: 2 } }])).toBe(
      'Science Review: Strengths\nBold\n\nScience Review: Nights asked\n2',
    );
  });
});

describe('htmlText', () => {
  it('reads rich text as lines, and runs nothing in it', () => {
    expect(
      htmlText(
        '<p>Accepted, <strong>3</strong> nights</p><ul><li>one</li><li>two</li></ul><script>x()</script>',
      ),
    ).toBe('Accepted, 3 nights\none\ntwo\nx()');
  });
});
