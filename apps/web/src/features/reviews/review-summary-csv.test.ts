import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { csvBlob } from '../files/csv';
import { tableCsv } from '../proposals/chair/chair-exports';
import { reviewSummaryCsv, reviewSummaryFileName, reviewSummaryRows } from './review-summary-csv';
import { makeReviewSummary } from './reviews.fixtures';

const labels = new Map([
  ['significance', 'Significance'],
  ['feasibility', 'Feasibility'],
]);

const grace = makeReviewSummary();
const alan = makeReviewSummary({
  id: 91,
  authorId: 10,
  author: 'Alan Turing',
  score: 5,
  // Feasibility left unscored; the score is the average of what was given.
  scores: [
    { name: 'significance', value: 5 },
    { name: 'feasibility', value: null },
  ],
  comments: [
    { name: 'Strengths', value: 'Bold, "new" idea,\nwell argued.' },
    { name: 'Conflicts', value: 'None' },
  ],
});

describe('the Review Summary CSV', () => {
  it('is called by its call and proposal, as the chair’s downloads are (issue 30)', () => {
    expect(reviewSummaryFileName('Beamtime 2026', 'Galaxy: survey')).toBe(
      'Beamtime 2026 - Galaxy survey - Review Summary.csv',
    );
    expect(reviewSummaryFileName('Beamtime 2026', 'Pulsar')).not.toBe(
      reviewSummaryFileName('Beamtime 2026', 'Galaxy'),
    );
  });

  it('is written as every download’s CSV: CRLF lines, then UTF-8 with a byte order mark', async () => {
    const zoe = makeReviewSummary({ author: 'Zoë O’Brien' });
    const csv = reviewSummaryCsv([zoe, alan], labels);
    // The chair's files come out of the same writer: the same line ends.
    const chair = tableCsv({ header: ['A'], rows: [['x'], ['y']] });
    expect(chair).toBe('A\r\nx\r\ny');
    expect(csv.split('\r\n')).toHaveLength(3);
    const blob = csvBlob(csv);
    expect(blob.type).toBe('text/csv;charset=utf-8');
    const bytes = new Uint8Array(await blob.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes)).toBe(`\uFEFF${csv}`);
    expect(csv).toContain('Zoë O’Brien');
  });

  it('has a row per review: reviewer, each score field, score, then each written answer', () => {
    expect(reviewSummaryRows([grace, alan], labels)).toEqual([
      ['Reviewer', 'Significance', 'Feasibility', 'Score', 'Strengths', 'Weaknesses', 'Conflicts'],
      ['Grace Hopper', '4.00', '3.00', '3.50', 'A clear plan.', 'Few nights.', ''],
      ['Alan Turing', '5.00', 'N/A', '5.00', 'Bold, "new" idea,\nwell argued.', '', 'None'],
    ]);
  });

  it('names a score field by its name when its form gives no title', () => {
    expect(reviewSummaryRows([grace])[0]).toEqual([
      'Reviewer',
      'significance',
      'feasibility',
      'Score',
      'Strengths',
      'Weaknesses',
    ]);
  });

  it('writes CSV that a spreadsheet reads back as the same rows, quotes and line breaks kept', () => {
    const csv = reviewSummaryCsv([grace, alan], labels);
    expect(csv.split('\r\n')[0]).toBe(
      'Reviewer,Significance,Feasibility,Score,Strengths,Weaknesses,Conflicts',
    );
    expect(Papa.parse<string[]>(csv).data).toEqual(reviewSummaryRows([grace, alan], labels));
  });

  it('keeps a reviewer’s answer from running as a formula', () => {
    const sly = makeReviewSummary({ comments: [{ name: 'Strengths', value: '=HYPERLINK("x")' }] });
    const [, row] = Papa.parse<string[]>(reviewSummaryCsv([sly])).data;
    expect(row!.at(-1)).toBe(`'=HYPERLINK("x")`);
  });

  it('writes every text cell that starts a formula as text, a second line or not, and scores as numbers', () => {
    const sly = makeReviewSummary({
      author: '+Rita Reviewer',
      score: -1,
      scores: [{ name: 'significance', value: -1 }],
      comments: [
        { name: '@Risks', value: '=WEBSERVICE("http://canary.test/")\nsecond line' },
        { name: 'Strengths', value: '\t=1+1' },
      ],
    });
    expect(Papa.parse<string[]>(reviewSummaryCsv([sly])).data).toEqual([
      ['Reviewer', 'significance', 'Score', "'@Risks", 'Strengths'],
      [
        "'+Rita Reviewer",
        '-1.00',
        '-1.00',
        `'=WEBSERVICE("http://canary.test/")\nsecond line`,
        "'\t=1+1",
      ],
    ]);
  });

  it('has only its header when there are no reviews', () => {
    expect(reviewSummaryRows([])).toEqual([['Reviewer', 'Score']]);
  });
});
