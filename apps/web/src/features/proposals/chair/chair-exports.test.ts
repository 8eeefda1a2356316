import type { CallProposal, CallProposalExportRow, ExportRanking } from '@merit/contract';
import { conflictMessages } from '@merit/domain';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { makeCallProposal } from '../proposals.fixtures';
import {
  capacityTable,
  EXPORT_PARTS,
  exportFileName,
  type ExportParts,
  type ExportSource,
  exportTable,
  rankingTable,
  sheetNames,
  tableCsv,
  tableSheetData,
  workbookSheets,
  workbookTable,
} from './chair-exports';

const rebecca = { id: 21, name: 'Rebecca Reviewer' };
const ben = { id: 22, name: 'Ben Second' };

/** A reviewed proposal asking two telescopes, scored by Rebecca and Ben. */
const galaxy: CallProposal = makeCallProposal({
  id: 30,
  proposalName: 'Galaxy survey',
  author: 'Ada Author',
  state: 'Reviewed',
  stateVal: 2,
  reviewers: [rebecca, ben],
  isReviewed: true,
  reviewScores: [
    { name: 'significance', value: 3 },
    { name: 'feasibility', value: 3.5 },
    { name: 'result', value: 3.25 },
  ],
  score: 3.25,
  resourceValues: { ATCA: { hours: 12.5, nights: 3 }, Parkes: { hours: 4 } },
  allReviewScores: [
    {
      reviewer: rebecca,
      scores: [
        { name: 'significance', value: 4 },
        { name: 'feasibility', value: 3 },
      ],
      score: 3.5,
    },
    {
      reviewer: ben,
      scores: [
        { name: 'significance', value: 2 },
        { name: 'feasibility', value: 4 },
      ],
      score: 3,
    },
  ],
  allReviewComments: [
    { reviewer: rebecca, comments: [{ name: 'Strengths', value: 'Clear aims' }] },
    {
      reviewer: ben,
      comments: [
        { name: 'Strengths', value: '=HYPERLINK("x")' },
        { name: 'Weaknesses', value: 'Costly' },
      ],
    },
  ],
});
/** Submitted, not reviewed yet, asking Parkes only. */
const pulsar = makeCallProposal({
  id: 31,
  proposalName: 'Pulsar timing',
  author: 'Bob Writer',
  state: 'Submitted',
  stateVal: 1,
  reviewers: [rebecca],
  isReviewed: false,
  reviewScores: [{ name: 'result', value: null }],
  score: null,
  resourceValues: { Parkes: { hours: 6, nights: 3 } },
  allReviewScores: [],
  allReviewComments: [],
});
/** A draft: never in a download (spec section 9). */
const draft = makeCallProposal({
  id: 32,
  proposalName: 'Unfinished',
  resourceValues: { ATCA: { hours: 100 } },
  reviewers: [],
  isReviewed: false,
  reviewScores: [{ name: 'result', value: null }],
  score: null,
  allReviewScores: [],
  allReviewComments: [],
});

const source = {
  rows: [galaxy, pulsar, draft],
  facilities: ['ATCA', 'Parkes'],
  labels: new Map([
    ['significance', 'Significance'],
    ['feasibility', 'Feasibility'],
  ]),
};

const csvRows = (text: string) => Papa.parse<string[]>(text).data;

describe('the chair’s downloads', () => {
  it.each([
    ['score', 'csv', 'Beamtime 2026 - Observing - Score Summary.csv'],
    ['comments', 'csv', 'Beamtime 2026 - Observing - Comments.csv'],
    ['resources', 'xlsx', 'Beamtime 2026 - Observing - Resources.xlsx'],
    ['all', 'csv', 'Beamtime 2026 - Observing - All.csv'],
  ] as const)('%s as %s is called “%s”: call, type and kind', (kind, extension, name) => {
    expect(exportFileName('Beamtime 2026', { kind, typeName: 'Observing' }, extension)).toBe(name);
  });

  it('names each type’s file apart, and the workbook by the call alone', () => {
    const named = (typeName: string) =>
      exportFileName('Beamtime 2026', { kind: 'resources', typeName }, 'csv');
    expect(named('Observing')).not.toBe(named('Computing'));
    expect(exportFileName('Beamtime 2026', { kind: 'workbook' }, 'xlsx')).toBe(
      'Beamtime 2026 - Workbook.xlsx',
    );
  });

  it('names a file after a call whose name has a slash without making a folder', () => {
    expect(exportFileName('Round 1/2', { kind: 'score', typeName: 'A: B?' }, 'csv')).toBe(
      'Round 1 2 - A B - Score Summary.csv',
    );
    // A very long name is cut, and a name of only dots and spaces left out.
    const long = exportFileName('x'.repeat(300), { kind: 'all', typeName: ' .. ' }, 'csv');
    expect(long).toBe(`${'x'.repeat(80)} - All.csv`);
  });

  it('Score Summary: a row per proposal, drafts left out, means to 2 decimals, N/A without reviews', () => {
    expect(csvRows(tableCsv(exportTable('score', source)))).toEqual([
      [
        'Proposal ID',
        'Proposal',
        'Proposal Author',
        'State',
        'Reviewers',
        'Significance',
        'Feasibility',
        'Review Score',
      ],
      [
        '30',
        'Galaxy survey',
        'Ada Author',
        'Reviewed',
        'Rebecca Reviewer, Ben Second',
        '3.00',
        '3.50',
        '3.25',
      ],
      ['31', 'Pulsar timing', 'Bob Writer', 'Submitted', 'Rebecca Reviewer', 'N/A', 'N/A', 'N/A'],
    ]);
  });

  it('Resources: a column per facility and field, N/A where a proposal asks for none', () => {
    expect(csvRows(tableCsv(exportTable('resources', source)))).toEqual([
      [
        'Proposal ID',
        'Proposal',
        'Proposal Author',
        'State',
        'ATCA: hours',
        'ATCA: nights',
        'Parkes: hours',
        'Parkes: nights',
      ],
      ['30', 'Galaxy survey', 'Ada Author', 'Reviewed', '12.5', '3', '4', 'N/A'],
      ['31', 'Pulsar timing', 'Bob Writer', 'Submitted', 'N/A', 'N/A', '6', '3'],
    ]);
  });

  it('Comments: a row per review, a formula written as text', () => {
    const rows = csvRows(tableCsv(exportTable('comments', source)));
    expect(rows).toEqual([
      [
        'Proposal ID',
        'Proposal',
        'Proposal Author',
        'State',
        'Reviewer',
        'Strengths',
        'Weaknesses',
      ],
      ['30', 'Galaxy survey', 'Ada Author', 'Reviewed', 'Rebecca Reviewer', 'Clear aims', ''],
      ['30', 'Galaxy survey', 'Ada Author', 'Reviewed', 'Ben Second', `'=HYPERLINK("x")`, 'Costly'],
    ]);
  });

  it('All: every column, answers by reviewer', () => {
    const [header, first] = csvRows(tableCsv(exportTable('all', source)));
    expect(header).toEqual([
      'Proposal ID',
      'Proposal',
      'Proposal Author',
      'State',
      'Reviewers',
      'Significance',
      'Feasibility',
      'Review Score',
      'ATCA: hours',
      'ATCA: nights',
      'Parkes: hours',
      'Parkes: nights',
      'Strengths',
      'Weaknesses',
    ]);
    expect(first!.slice(12)).toEqual([
      `Rebecca Reviewer: Clear aims\n\nBen Second: =HYPERLINK("x")`,
      'Ben Second: Costly',
    ]);
  });

  it('XLSX sheet data: a bold header, numbers as numbers shown with 2 decimals, N/A as text', () => {
    const [header, galaxyRow, pulsarRow] = tableSheetData(exportTable('resources', source));
    expect(header![0]).toEqual({ value: 'Proposal ID', type: String, fontWeight: 'bold' });
    expect(galaxyRow!.slice(4)).toEqual([
      { value: 12.5, type: Number, format: '0.00' },
      { value: 3, type: Number, format: '0.00' },
      { value: 4, type: Number, format: '0.00' },
      { value: 'N/A', type: String },
    ]);
    expect(pulsarRow![4]).toEqual({ value: 'N/A', type: String });
  });

  it('the whole-call Reviews sheet joins each review’s scores with the proposal, no resources', () => {
    const table = workbookTable(source);
    expect(table.header).toEqual([
      'Proposal ID',
      'Proposal',
      'Proposal Author',
      'State',
      'Reviewer',
      'Significance',
      'Feasibility',
      'Reviewer’s Score',
      'Review Score',
    ]);
    expect(csvRows(tableCsv(table)).slice(1)).toEqual([
      [
        '30',
        'Galaxy survey',
        'Ada Author',
        'Reviewed',
        'Rebecca Reviewer',
        '4.00',
        '3.00',
        '3.50',
        '3.25',
      ],
      [
        '30',
        'Galaxy survey',
        'Ada Author',
        'Reviewed',
        'Ben Second',
        '2.00',
        '4.00',
        '3.00',
        '3.25',
      ],
      ['31', 'Pulsar timing', 'Bob Writer', 'Submitted', '', 'N/A', 'N/A', 'N/A', 'N/A'],
    ]);
  });

  it('the whole-call workbook has per type a Reviews sheet and a Resources sheet of one row per proposal', () => {
    const sheets = workbookSheets('Observing', source);
    expect(sheets.map((sheet) => sheet.name)).toEqual(['Observing Reviews', 'Observing Resources']);
    const resources = sheets[1]!.table;
    expect(resources).toEqual(exportTable('resources', source));
    // Galaxy has two reviews but one row: a sum of a column counts its hours once.
    const ids = resources.rows.map((row) => row[0]);
    expect(ids).toEqual([{ whole: 30 }, { whole: 31 }]);
    const atcaHours = resources.header.indexOf('ATCA: hours');
    const sum = resources.rows
      .map((row) => row[atcaHours])
      .reduce((total: number, cell) => {
        const amount = typeof cell === 'object' && 'amount' in cell ? cell.amount : undefined;
        return total + (amount ?? 0);
      }, 0);
    expect(sum).toBe(12.5);
    // A long type's name is cut so that its kind still fits Excel's 31 characters.
    const long = workbookSheets('A very long proposal type name indeed', source);
    expect(long.map((sheet) => sheet.name)).toEqual([
      'A very long proposal ty Reviews',
      'A very long proposal Resources',
    ]);
    expect(sheetNames(long.map((sheet) => sheet.name))).toEqual(long.map((sheet) => sheet.name));
  });

  it('names the resource fields by their forms’ titles, by their keys without one', () => {
    const titled = { ...source, resourceTitles: { hours: 'Observing hours' } };
    expect(exportTable('resources', titled).header.slice(4)).toEqual([
      'ATCA: Observing hours',
      'ATCA: nights',
      'Parkes: Observing hours',
      'Parkes: nights',
    ]);
    expect(exportTable('all', titled).header).toContain('Parkes: Observing hours');
    const decidedTitled = { ...decided, resourceTitles: titled.resourceTitles };
    expect(exportTable('resources', decidedTitled).header).toContain(
      'Awarded: ATCA: Observing hours',
    );
  });

  it('writes proposal ids as numbers in every sheet', () => {
    for (const table of [
      exportTable('score', source),
      exportTable('comments', source),
      exportTable('resources', source),
      exportTable('all', source),
      workbookTable(source),
    ]) {
      const [, first] = tableSheetData(table);
      expect(first![0]).toEqual({ value: 30, type: Number, format: '0' });
    }
  });

  it('writes a note where a proposal’s reviews were left out for a chair with a conflict of interest', () => {
    // As the server sends such a row: its resources, none of its review columns.
    const conflicted = makeCallProposal({
      id: 33,
      proposalName: 'Close to home',
      author: 'Cleo Colleague',
      state: 'Submitted',
      stateVal: 1,
      resourceValues: { Parkes: { hours: 2 } },
      myConflict: true,
    });
    const withNote = { ...source, rows: [conflicted] };
    const note = conflictMessages.exportOmitted;
    expect(csvRows(tableCsv(workbookTable(withNote)))[1]!.slice(0, 5)).toEqual([
      '33',
      'Close to home',
      'Cleo Colleague',
      'Submitted',
      note,
    ]);
    for (const kind of ['score', 'comments', 'all'] as const)
      expect(csvRows(tableCsv(exportTable(kind, withNote)))[1]![4], kind).toBe(note);
    // Nobody else's row carries it.
    expect(tableCsv(workbookTable(source))).not.toContain(note);
  });

  it('writes the same file from only the parts of the export it asks for', () => {
    // The export sends each review's scores and comments only when `include` names them,
    // and with `columns=lean` none of the chair's columns but isReviewed, and no
    // facilities (the server's lean answer is tested to be exactly this).
    const fetched = ({ include, columns }: ExportParts) => ({
      ...source,
      facilities: columns === 'lean' ? [] : source.facilities,
      rows: source.rows.map((row) => {
        const sent: CallProposal = { ...row };
        if (!include.includes('allReviewScores')) delete sent.allReviewScores;
        if (!include.includes('allReviewComments')) delete sent.allReviewComments;
        if (!include.includes('decisions')) delete (sent as CallProposalExportRow).decision;
        if (columns === 'lean') {
          delete sent.resourceValues;
          delete sent.reviewers;
          delete sent.reviewScores;
          delete sent.score;
        }
        return sent;
      }),
    });
    for (const kind of ['score', 'comments', 'resources', 'all'] as const) {
      const table = exportTable(kind, fetched(EXPORT_PARTS[kind]));
      expect(table, kind).toEqual(exportTable(kind, source));
      expect(table.rows.length, kind).toBeGreaterThan(0);
      // The same bytes, as CSV and as the XLSX sheet's cells.
      expect(tableCsv(table), kind).toBe(tableCsv(exportTable(kind, source)));
      expect(tableSheetData(table), kind).toEqual(tableSheetData(exportTable(kind, source)));
    }
    expect(workbookTable(fetched(EXPORT_PARTS.workbook))).toEqual(workbookTable(source));
    // Not asking is not enough for the comments: without them the Comments file is empty.
    expect(exportTable('comments', fetched({ include: [], columns: 'chair' })).rows).toEqual([]);
    expect(EXPORT_PARTS.score).toEqual({ include: ['decisions'], columns: 'chair' });
    // Only Comments asks for lean rows: every other file writes a chair's column.
    expect(
      Object.entries(EXPORT_PARTS)
        .filter(([, parts]) => parts.columns === 'lean')
        .map(([kind]) => kind),
    ).toEqual(['comments']);
    for (const kind of ['score', 'resources', 'all'] as const)
      expect(
        exportTable(kind, fetched({ ...EXPORT_PARTS[kind], columns: 'lean' })),
        kind,
      ).not.toEqual(exportTable(kind, source));
  });

  it('leaves unreviewed drafts out of a lean Comments file, as isReviewed says', () => {
    // A draft whose reviewer saved a review anyway is Reviewed (and so downloaded) only
    // when isReviewed says so: the one chair's column a lean row keeps.
    const reviewedDraft = makeCallProposal({
      id: 34,
      proposalName: 'Draft with a review',
      state: 'Draft',
      stateVal: 0,
      isReviewed: true,
      allReviewComments: [{ reviewer: ben, comments: [{ name: 'Strengths', value: 'Bold' }] }],
    });
    const rows = [
      reviewedDraft,
      { ...reviewedDraft, id: 35, proposalName: 'Unreviewed draft', isReviewed: false },
    ];
    const table = exportTable('comments', { rows, facilities: [] });
    expect(table.rows.map((row) => row[1])).toEqual(['Draft with a review']);
  });

  it('writes the same file from a type’s export as from the whole call’s', () => {
    // The whole call: another type's proposal names a facility of its own and the
    // unnamed one, and has reviews with other questions. A type's export sends only its
    // rows, and only the facilities they name (in the same order).
    const other = makeCallProposal({
      id: 33,
      proposalTypeId: 41,
      proposalName: 'Archive mining',
      state: 'Reviewed',
      stateVal: 2,
      isReviewed: true,
      reviewers: [ben],
      reviewScores: [
        { name: 'novelty', value: 2 },
        { name: 'result', value: 2 },
      ],
      score: 2,
      resourceValues: { '': { disk: 5 }, Zeta: { hours: 9 } },
      allReviewScores: [{ reviewer: ben, scores: [{ name: 'novelty', value: 2 }], score: 2 }],
      allReviewComments: [{ reviewer: ben, comments: [{ name: 'Risks', value: 'Few' }] }],
    });
    const wholeCall = {
      ...source,
      rows: [galaxy, other, pulsar, draft],
      facilities: ['', 'ATCA', 'Parkes', 'Zeta'],
    };
    const ofType = (typeId: number) => ({
      ...wholeCall,
      rows: wholeCall.rows.filter((row) => row.proposalTypeId === typeId),
    });
    const typeExport = { ...source, facilities: ['ATCA', 'Parkes'] };
    for (const kind of ['score', 'comments', 'resources', 'all'] as const) {
      const table = exportTable(kind, typeExport);
      expect(table, kind).toEqual(exportTable(kind, ofType(galaxy.proposalTypeId)));
      expect(JSON.stringify(table), kind).not.toMatch(/Zeta|Risks|novelty|Archive/);
    }
    expect(exportTable('resources', { ...ofType(41), facilities: ['', 'Zeta'] }).header).toEqual(
      exportTable('resources', ofType(41)).header,
    );
  });

  it('keeps sheet names within Excel’s rules and apart', () => {
    expect(sheetNames(['Observing', 'A/B: [test]?', 'x'.repeat(40), 'observing'])).toEqual([
      'Observing',
      'A B   test',
      'x'.repeat(31),
      'observing 2',
    ]);
  });
});

describe('formulas in the chair’s downloads', () => {
  /** Words a spreadsheet would run, in every text column the downloads have. */
  const sly = makeCallProposal({
    id: 40,
    proposalName: '=HYPERLINK("http://canary.test/","Open")',
    author: '@Ada -Author',
    state: 'Submitted',
    stateVal: 1,
    reviewers: [{ id: 23, name: '+Rita Reviewer' }],
    isReviewed: false,
    reviewScores: [
      { name: 'significance', value: -1 },
      { name: 'result', value: -1 },
    ],
    score: -1,
    resourceValues: { ATCA: { hours: -2 } },
    allReviewScores: [
      {
        reviewer: { id: 23, name: '+Rita Reviewer' },
        scores: [{ name: 'significance', value: -1 }],
        score: -1,
      },
    ],
    allReviewComments: [
      {
        reviewer: { id: 23, name: '+Rita Reviewer' },
        comments: [{ name: '-Risks', value: '=1+1\nsecond line' }],
      },
    ],
  });
  const slySource = { rows: [sly], facilities: ['ATCA'], labels: new Map<string, string>() };

  it('writes every text cell that starts a formula as text, in CSV', () => {
    const [header, row] = csvRows(tableCsv(exportTable('all', slySource)));
    expect(header).toContain("'-Risks");
    expect(row).toEqual([
      '40',
      `'=HYPERLINK("http://canary.test/","Open")`,
      "'@Ada -Author",
      'Submitted',
      "'+Rita Reviewer",
      '-1.00',
      '-1.00',
      '-2',
      // "Name: answer" starts with the reviewer's name, and so with a plus.
      "'+Rita Reviewer: =1+1\nsecond line",
    ]);
    const [, comment] = csvRows(tableCsv(exportTable('comments', slySource)));
    expect(comment!.slice(4)).toEqual(["'+Rita Reviewer", "'=1+1\nsecond line"]);
  });

  it('writes them as text in XLSX too, and numbers stay numbers', () => {
    const [header, row] = tableSheetData(exportTable('score', slySource));
    expect(header!.map((cell) => cell.value)).toContain('Review Score');
    expect(row!.map((cell) => cell.value)).toEqual([
      40,
      `'=HYPERLINK("http://canary.test/","Open")`,
      "'@Ada -Author",
      'Submitted',
      "'+Rita Reviewer",
      -1,
      -1,
    ]);
    expect(row!.at(-1)!.type).toBe(Number);
    const [, workbookRow] = tableSheetData(workbookTable(slySource));
    expect(workbookRow![4]!.value).toBe("'+Rita Reviewer");
  });
});

/** The same proposals once the chairs decided: Galaxy partly approved, Pulsar not decided yet. */
const decided: ExportSource = {
  ...source,
  rows: [
    {
      ...galaxy,
      decision: {
        outcome: 'partly_approved',
        awards: { ATCA: { hours: 10 }, Parkes: { hours: 4 } },
      },
    },
    { ...pulsar, decision: { awards: {} } },
    draft,
  ],
  outcomeLabels: { partly_approved: 'Granted in part' },
};

describe('the decisions in the chair’s downloads (issue 29)', () => {
  it('Resources: the outcome in the call’s words, and an award beside each resource', () => {
    expect(csvRows(tableCsv(exportTable('resources', decided)))).toEqual([
      [
        'Proposal ID',
        'Proposal',
        'Proposal Author',
        'State',
        'ATCA: hours',
        'ATCA: nights',
        'Parkes: hours',
        'Parkes: nights',
        'Outcome',
        'Awarded: ATCA: hours',
        'Awarded: ATCA: nights',
        'Awarded: Parkes: hours',
        'Awarded: Parkes: nights',
      ],
      [
        '30',
        'Galaxy survey',
        'Ada Author',
        'Reviewed',
        '12.5',
        '3',
        '4',
        'N/A',
        'Granted in part',
        '10',
        '',
        '4',
        '',
      ],
      // Not decided yet: no outcome, nothing awarded.
      [
        '31',
        'Pulsar timing',
        'Bob Writer',
        'Submitted',
        'N/A',
        'N/A',
        '6',
        '3',
        '',
        '',
        '',
        '',
        '',
      ],
    ]);
  });

  it('writes awards as numbers in XLSX, and nothing where none was given', () => {
    const [header, galaxyRow] = tableSheetData(exportTable('resources', decided));
    expect(header!.slice(8, 10).map((cell) => cell.value)).toEqual([
      'Outcome',
      'Awarded: ATCA: hours',
    ]);
    expect(galaxyRow!.slice(8)).toEqual([
      { value: 'Granted in part', type: String },
      { value: 10, type: Number, format: '0.00' },
      { value: '', type: String },
      { value: 4, type: Number, format: '0.00' },
      { value: '', type: String },
    ]);
  });

  it('Score Summary gains the outcome; All the outcome and the awards; the workbook’s sheets both', () => {
    const score = exportTable('score', decided);
    expect(score.header.at(-1)).toBe('Outcome');
    expect(score.rows.map((row) => row.at(-1))).toEqual(['Granted in part', '']);
    const all = exportTable('all', decided);
    expect(all.header.slice(-7, -2)).toEqual([
      'Outcome',
      'Awarded: ATCA: hours',
      'Awarded: ATCA: nights',
      'Awarded: Parkes: hours',
      'Awarded: Parkes: nights',
    ]);
    const workbook = workbookTable(decided);
    expect(workbook.header.at(-1)).toBe('Outcome');
    // Each of Galaxy's two review rows carries its outcome; its awards are on its one
    // row of the Resources sheet.
    expect(
      workbook.rows.filter((row) => row[1] === 'Galaxy survey').map((row) => row.at(-1)),
    ).toEqual(['Granted in part', 'Granted in part']);
    const [, resources] = workbookSheets('Observing', decided);
    expect(resources!.table.header.slice(-5)).toEqual(all.header.slice(-7, -2));
    expect(resources!.table.rows[0]!.at(-4)).toEqual({ amount: 10 });
    // Comments writes no decision.
    expect(exportTable('comments', decided).header).not.toContain('Outcome');
  });

  it('adds no empty columns before a chair has set any outcome', () => {
    const undecided = { ...source, rows: [{ ...galaxy, decision: { awards: {} } }, pulsar] };
    for (const kind of ['score', 'resources', 'all'] as const)
      expect(exportTable(kind, undecided), kind).toEqual(exportTable(kind, source));
    expect(workbookTable(undecided)).toEqual(workbookTable(source));
  });

  it('writes no outcome where the reader may not read it, and the label where the call kept it', () => {
    const conflicted = { ...galaxy, myConflict: true as const };
    const rows = [
      conflicted,
      { ...pulsar, decision: { outcome: 'declined' as const, awards: {} } },
    ];
    const table = exportTable('resources', { ...source, rows });
    const outcome = table.header.indexOf('Outcome');
    expect(table.rows.map((row) => row[outcome])).toEqual(['', 'Declined']);
  });

  it('asks for the decisions in every download but Comments, and for the ranking in the workbook only', () => {
    const asking = (part: string) =>
      Object.entries(EXPORT_PARTS)
        .filter(([, parts]) => (parts.include as readonly string[]).includes(part))
        .map(([kind]) => kind);
    expect(asking('decisions')).toEqual(['score', 'resources', 'all', 'workbook']);
    expect(asking('ranking')).toEqual(['workbook']);
    // What a file asks for is what it writes: without the decisions, those that ask differ.
    const undecided = {
      ...decided,
      rows: decided.rows.map(({ ...row }) => {
        delete (row as CallProposalExportRow).decision;
        return row;
      }),
    };
    for (const kind of ['score', 'resources', 'all'] as const)
      expect(exportTable(kind, undecided), kind).not.toEqual(exportTable(kind, decided));
    expect(exportTable('comments', undecided)).toEqual(exportTable('comments', decided));
    expect(workbookTable(undecided)).not.toEqual(workbookTable(decided));
  });
});

const ranking: ExportRanking = {
  rows: [
    {
      rank: 1,
      proposalId: 31,
      score: null,
      requested: { Parkes: { hours: 6, nights: 3 } },
      running: { Parkes: { hours: 6, nights: 3 } },
      aboveLine: { Parkes: true },
      above: false,
    },
    {
      rank: 2,
      proposalId: 30,
      score: 3.25,
      requested: { ATCA: { hours: 12.5, nights: 3 }, Parkes: { hours: 4 } },
      running: { ATCA: { hours: 12.5, nights: 3 }, Parkes: { hours: 10, nights: 3 } },
      aboveLine: { ATCA: true, Parkes: false },
      above: false,
    },
  ],
  lines: [
    {
      facility: 'ATCA',
      field: 'hours',
      capacity: null,
      requested: 12.5,
      awarded: 10,
      firstBelow: null,
      oversubscription: null,
      awardedShare: null,
      overAwarded: false,
    },
    {
      facility: 'Parkes',
      field: 'hours',
      capacity: 8,
      requested: 10,
      awarded: 4,
      firstBelow: 2,
      oversubscription: 1.25,
      awardedShare: 0.5,
      overAwarded: false,
    },
  ],
};

describe('the workbook’s Capacity and Ranking sheets (issue 29)', () => {
  it('Capacity: per facility and field, the oversubscription as numbers, N/A without a capacity', () => {
    const table = capacityTable(ranking);
    expect(table.header).toEqual([
      'Facility',
      'Field',
      'Capacity',
      'Requested',
      'Awarded',
      'Requested / Capacity',
      'Awarded / Capacity',
    ]);
    const [, atca, parkes] = tableSheetData(table);
    expect(parkes).toEqual([
      { value: 'Parkes', type: String },
      { value: 'hours', type: String },
      { value: 8, type: Number, format: '0.00' },
      { value: 10, type: Number, format: '0.00' },
      { value: 4, type: Number, format: '0.00' },
      { value: 1.25, type: Number, format: '0.00' },
      { value: 0.5, type: Number, format: '0.00' },
    ]);
    expect(atca!.slice(2)).toEqual([
      { value: 'N/A', type: String },
      { value: 12.5, type: Number, format: '0.00' },
      { value: 10, type: Number, format: '0.00' },
      { value: 'N/A', type: String },
      { value: 'N/A', type: String },
    ]);
    expect(csvRows(tableCsv(table))[2]).toEqual([
      'Parkes',
      'hours',
      '8',
      '10',
      '4',
      '1.25',
      '0.50',
    ]);
  });

  it('Ranking: in the ranking’s order, rank and id as whole numbers, requests and running totals per field', () => {
    const table = rankingTable(ranking, decided);
    expect(table.header).toEqual([
      'Rank',
      'Proposal ID',
      'Proposal',
      'Proposal Type',
      'Review Score',
      'Outcome',
      'Requested: ATCA: hours',
      'Running total: ATCA: hours',
      'Requested: Parkes: hours',
      'Running total: Parkes: hours',
      'Above the line: ATCA',
      'Above the line: Parkes',
      'Above the line',
    ]);
    expect(csvRows(tableCsv(table)).slice(1)).toEqual([
      [
        '1',
        '31',
        'Pulsar timing',
        pulsar.proposalTypeName,
        'N/A',
        '',
        'N/A',
        'N/A',
        '6',
        '6',
        '',
        'Yes',
        'No',
      ],
      [
        '2',
        '30',
        'Galaxy survey',
        galaxy.proposalTypeName,
        '3.25',
        'Granted in part',
        '12.5',
        '12.5',
        '4',
        '10',
        'Yes',
        'No',
        'No',
      ],
    ]);
    const [, first] = tableSheetData(table);
    expect(first!.slice(0, 2)).toEqual([
      { value: 1, type: Number, format: '0' },
      { value: 31, type: Number, format: '0' },
    ]);
    expect(first![8]).toEqual({ value: 6, type: Number, format: '0.00' });
  });
});
