import { describe, expect, it } from 'vitest';
import {
  awardsTable,
  DEFAULT_LETTER_TEMPLATES,
  letterMessages,
  letterTemplateProblems,
  letterTextProblems,
  renderLetter,
  type LetterValues,
} from './letters.js';
import { OUTCOMES } from './outcomes.js';

const values = (more: Partial<LetterValues> = {}): LetterValues => ({
  applicant: { name: 'Grace Hopper' },
  proposal: { name: 'Cool stars', id: 42 },
  call: { name: 'Telescope time 2027' },
  outcome: 'Approved',
  decision_summary: { html: '<p>Strong <strong>science</strong>.</p>', text: 'Strong science.' },
  awards_table: awardsTable({ 'Telescope A': { nights: 10 } }, { 'Telescope A': { nights: 8 } }),
  committee: { name: 'Time Allocation Committee' },
  signature: 'Ada, chair',
  link: 'https://merit.example.org/calls/1/proposals/42/',
  ...more,
});

describe('letterTextProblems', () => {
  it('accepts every field of the list, conditions and comments', () => {
    expect(
      letterTextProblems(
        '{{ applicant.name }} {{ proposal.name }} {{ proposal.id }} {{ call.name }} {{ outcome }} ' +
          '{{ decision_summary }} {{ awards_table }} {{ committee.name }} {{ signature }} {{ link }} ' +
          '{% if outcome == "Approved" %}yes{% else %}no{% endif %}{% comment %}x{% endcomment %}',
      ),
    ).toEqual([]);
  });

  it('names a field that is not on the list', () => {
    expect(letterTextProblems('Dear {{ applicant.email }}')).toEqual([
      letterMessages.unknownField('applicant.email'),
    ]);
    expect(letterTextProblems('{% if budget %}x{% endif %}')).toEqual([
      letterMessages.unknownField('budget'),
    ]);
  });

  it('refuses tags that would read files or loop', () => {
    for (const tag of ['include "letter"', 'render "x"', 'layout "x"', 'for x in y']) {
      const [problem] = letterTextProblems(`{% ${tag} %}`);
      expect(problem).toBe(letterMessages.tagNotAllowed(tag.split(' ')[0]!));
    }
  });

  it('reports a field left open', () => {
    expect(letterTextProblems('Dear {{ applicant.name ')[0]).toMatch(/^This text has a mistake/);
  });

  it('says where each problem is', () => {
    expect(letterTemplateProblems({ subject: '{{ nope }}', body: 'fine' })).toEqual([
      { path: 'subject', message: letterMessages.unknownField('nope') },
    ]);
  });

  it('passes the default templates', () => {
    for (const outcome of OUTCOMES)
      expect(letterTemplateProblems(DEFAULT_LETTER_TEMPLATES[outcome])).toEqual([]);
  });
});

describe('renderLetter', () => {
  it('writes the fields into the subject, the text and the HTML', () => {
    const letter = renderLetter(DEFAULT_LETTER_TEMPLATES.approved, values());
    expect(letter.subject).toBe('Telescope time 2027: decision on Cool stars');
    expect(letter.text).toContain('Dear Grace Hopper,');
    expect(letter.text).toContain('Strong science.');
    expect(letter.text).toContain('Telescope A  |  nights  |  10  |  8');
    expect(letter.html).toContain('<p>Strong <strong>science</strong>.</p>');
    expect(letter.html).toContain('<td>Telescope A</td><td>nights</td><td>10</td><td>8</td>');
  });

  it('escapes every value from a proposal in the HTML, and the raw filter lets nothing through', () => {
    const letter = renderLetter(
      {
        subject: 'About {{ proposal.name }}',
        body: 'Dear {{ applicant.name }} {{ applicant.name | raw }}',
      },
      values({
        applicant: { name: '<script>alert(1)</script>' },
        proposal: { name: 'A & <b>B</b>', id: 1 },
      }),
    );
    expect(letter.html).not.toContain('<script>');
    expect(letter.html).toContain('Dear &lt;script&gt;alert(1)&lt;/script&gt; &lt;script&gt;');
    // The subject and the text are plain text: they carry the name as written.
    expect(letter.subject).toBe('About A & <b>B</b>');
    expect(letter.text).toBe('Dear <script>alert(1)</script> <script>alert(1)</script>');
  });

  it('escapes the chair’s own words too, and keeps their paragraphs and line breaks', () => {
    const letter = renderLetter(
      { subject: 's', body: 'One <i>line</i>\nNext line\n\nNew paragraph' },
      values(),
    );
    expect(letter.html).toBe(
      '<div style="margin: 0 0 1em">One &lt;i&gt;line&lt;/i&gt;<br>Next line</div><div style="margin: 0 0 1em">New paragraph</div>',
    );
  });

  it('keeps comparisons in conditions working while the words around them are escaped', () => {
    const letter = renderLetter(
      { subject: 's', body: 'a < b {% if proposal.id > 40 %}big{% endif %}' },
      values(),
    );
    expect(letter.html).toContain('a &lt; b big');
  });

  it('puts the subject on one line', () => {
    expect(renderLetter({ subject: 'a\n  b', body: 'x' }, values()).subject).toBe('a b');
  });
});

describe('awardsTable', () => {
  it('lists every field asked for or awarded, N/A for what was not asked', () => {
    const table = awardsTable({ T: { nights: 3 } }, { T: { nights: 2, hours: 1 } });
    expect(table.text.split('\n')).toEqual([
      'Facility  |  Field  |  Asked for  |  Awarded',
      'T  |  hours  |  N/A  |  1',
      'T  |  nights  |  3  |  2',
    ]);
  });

  it('escapes facility names in the HTML', () => {
    expect(awardsTable({ '<x>': { n: 1 } }, {}).html).toContain('<td>&lt;x&gt;</td>');
  });

  it('is empty when nothing was asked for', () => {
    expect(awardsTable({}, {})).toEqual({ html: '', text: '' });
  });
});
