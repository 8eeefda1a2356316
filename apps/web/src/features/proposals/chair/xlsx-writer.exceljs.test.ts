import type { CallProposal } from '@merit/contract';
import ExcelJS from 'exceljs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeCallProposal } from '../proposals.fixtures';
import {
  EXPORT_KINDS,
  type ExportKind,
  type ExportSource,
  exportTable,
  sheetNames,
  type SheetCell,
  tableSheetData,
  workbookSheets,
} from './chair-exports';
import { MAX_CELL_TEXT, xlsxBlob, type Workbook, type WorkbookSheet } from './xlsx-writer';

/*
 * The XLSX writer (xlsx-writer.ts) checked by an independent reader: every workbook it
 * writes here is read back by exceljs (a devDependency, never shipped) and compared with
 * what was written, cell by cell: the chair's downloads as ChairExports builds them, and
 * sheets aimed at the writer's edges. xlsx-writer.test.ts checks the file's own XML.
 */

/** The workbook as a spreadsheet program reads it: written by our writer, loaded by exceljs. */
async function readBack(workbook: Workbook): Promise<ExcelJS.Workbook> {
  const read = new ExcelJS.Workbook();
  await read.xlsx.load(await (await xlsxBlob(workbook)).arrayBuffer());
  return read;
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;

/**
 * A written text as a reader gets it back, by the rules the tests below check one by one:
 * the control characters XML 1.0 forbids are dropped; the text is cut at Excel's 32,767
 * characters, not inside a surrogate pair; a lone surrogate (not UTF-8) becomes U+FFFD;
 * and the XML parser reads a carriage return, alone or before a line feed, as a line feed.
 */
function textAsRead(text: string): string {
  // eslint-disable-next-line no-control-regex -- the characters XML 1.0 forbids
  const kept = text.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '');
  const fitted =
    kept.length <= MAX_CELL_TEXT
      ? kept
      : kept.slice(
          0,
          isHighSurrogate(kept.charCodeAt(MAX_CELL_TEXT - 1)) ? MAX_CELL_TEXT - 1 : MAX_CELL_TEXT,
        );
  return fitted
    .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD')
    .replace(/\r\n?/g, '\n');
}

/** The width the writer gives a column: its widest text in the first 200 rows, 10 to 50. */
function columnWidth(data: readonly SheetCell[][], column: number): number {
  let width = 10;
  for (const row of data.slice(0, 200)) {
    const cell = row[column];
    if (cell && cell.type !== Number) width = Math.max(width, String(cell.value).length + 2);
  }
  return Math.min(width, 50);
}

const show = (value: unknown) => {
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'string' && value.length > 60)
    return `${JSON.stringify(value.slice(0, 60))}… (${value.length} characters)`;
  return JSON.stringify(value) ?? String(value);
};

/**
 * Where the workbook exceljs read differs from the one written: the properties, the
 * sheets' names, views, filters and column widths, and every cell's type, value, format,
 * font and alignment. None of them is a formula. Empty when they agree.
 */
function differences(written: Workbook, read: ExcelJS.Workbook): string[] {
  const found: string[] = [];
  const differ = (where: string, actual: unknown, expected: unknown) => {
    if (actual !== expected)
      found.push(`${where}: read ${show(actual)}, expected ${show(expected)}`);
  };
  // The properties' times are whole seconds, in UTC (Z).
  const createdSecond = Math.floor(written.created.getTime() / 1000) * 1000;
  differ('title', read.title, written.title);
  differ('creator', read.creator, 'Merit');
  differ('created', read.created?.getTime(), createdSecond);
  differ('modified', read.modified?.getTime(), createdSecond);
  differ(
    'sheet names',
    read.worksheets.map((sheet) => sheet.name).join(' | '),
    written.sheets.map((sheet) => sheet.name).join(' | '),
  );
  written.sheets.forEach((sheet: WorkbookSheet, i) => {
    const ws = read.worksheets[i];
    if (!ws) return;
    const width = sheet.data.reduce((most, row) => Math.max(most, row.length), 0);
    differ(`${sheet.name} rows`, ws.rowCount, sheet.data.length);
    differ(`${sheet.name} columns`, ws.columnCount, width);

    const view = ws.views[0];
    differ(`${sheet.name} view`, view?.state, sheet.filter ? 'frozen' : 'normal');
    if (view?.state === 'frozen') {
      differ(`${sheet.name} frozen rows`, view.ySplit, 1);
      differ(`${sheet.name} frozen columns`, view.xSplit, 0);
      differ(`${sheet.name} top left cell`, view.topLeftCell, 'A2');
    }
    const last = width > 0 ? ws.getCell(sheet.data.length, width).address : '';
    differ(
      `${sheet.name} filter`,
      ws.autoFilter,
      sheet.filter && width > 0 ? `A1:${last}` : undefined,
    );

    const header = sheet.data[0] ?? [];
    for (let c = 0; c < width; c++)
      differ(
        `${sheet.name} column ${c + 1} width`,
        ws.getColumn(c + 1).width,
        c < header.length ? columnWidth(sheet.data, c) : undefined,
      );

    sheet.data.forEach((row, r) => {
      for (let c = 0; c < width; c++) {
        const cell = ws.getCell(r + 1, c + 1);
        const at = `${sheet.name}!${cell.address}`;
        const wrote = row[c];
        differ(`${at} formula`, cell.formula, undefined);
        if (!wrote) {
          differ(`${at} type`, cell.type, ExcelJS.ValueType.Null);
          continue;
        }
        if ('format' in wrote && Number.isFinite(wrote.value)) {
          differ(`${at} type`, cell.type, ExcelJS.ValueType.Number);
          differ(`${at} value`, cell.value, wrote.value);
          differ(`${at} format`, cell.numFmt, wrote.format);
        } else {
          // Text, and a number that is no number (NaN, Infinity), as its text.
          differ(`${at} type`, cell.type, ExcelJS.ValueType.String);
          differ(`${at} value`, cell.value, textAsRead(String(wrote.value)));
          differ(`${at} format`, cell.numFmt, undefined);
        }
        const style: { fontWeight?: 'bold'; wrap?: boolean } = 'format' in wrote ? {} : wrote;
        differ(`${at} bold`, cell.font?.bold === true, style.fontWeight === 'bold');
        differ(`${at} wrapped`, cell.alignment?.wrapText === true, style.wrap === true);
      }
    });
  });
  return found;
}

/** Writes the workbook, reads it back and expects no difference (the first 20 if any). */
async function expectReadBackAsWritten(workbook: Workbook): Promise<ExcelJS.Workbook> {
  const read = await readBack(workbook);
  const found = differences(workbook, read);
  expect(found.slice(0, 20), `${found.length} differences`).toEqual([]);
  return read;
}

// --- The chair's downloads, as ChairExports builds them -------------------------------------

const rebecca = { id: 21, name: 'Rebecca Reviewer' };
const ben = { id: 22, name: 'Ben “Second” <b>' };
/** An answer of exactly Excel's most characters: All joins it with the reviewer's name. */
const longAnswer = `=${'Long answer, '.repeat(2520)}`.slice(0, MAX_CELL_TEXT);

const galaxy: CallProposal = makeCallProposal({
  id: 30,
  proposalName: 'Galaxy <survey> & “stars” 🌌',
  author: 'Zoë O’Brien',
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
  resourceValues: { ATCA: { hours: 12.5, nights: 3 }, Parkes: { hours: 1_234_567.891 } },
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
      score: -1.75,
    },
  ],
  allReviewComments: [
    {
      reviewer: rebecca,
      comments: [
        { name: 'Strengths', value: 'Clear aims\r\nGood team\u0007 & <tools>' },
        { name: 'Weaknesses', value: longAnswer },
      ],
    },
    {
      reviewer: ben,
      comments: [
        { name: 'Strengths', value: '=HYPERLINK("http://example.org","x")' },
        { name: 'Weaknesses', value: '  spaces kept  ' },
      ],
    },
  ],
});
const pulsar = makeCallProposal({
  id: 31,
  proposalName: '@pulsar -timing',
  author: 'Bob Writer',
  state: 'Submitted',
  stateVal: 1,
  reviewers: [rebecca],
  isReviewed: false,
  reviewScores: [{ name: 'result', value: null }],
  score: null,
  resourceValues: { Parkes: { hours: 6, nights: 0.5 } },
  allReviewScores: [],
  allReviewComments: [],
});
const draft = makeCallProposal({ id: 32, proposalName: 'Unfinished', isReviewed: false });

const source: ExportSource = {
  rows: [galaxy, pulsar, draft],
  facilities: ['ATCA', 'Parkes'],
  labels: new Map([
    ['significance', 'Significance'],
    ['feasibility', '=Feasibility'],
  ]),
};
const callName = 'Beamtime <2026> & “Co”';
const created = new Date('2026-11-23T22:59:59.987Z');

/** A type's download as XLSX: one sheet, named after the type, no filter. */
const downloadWorkbook = (kind: ExportKind): Workbook => ({
  title: callName,
  created,
  sheets: [
    {
      name: sheetNames(['Observing & <Main>'])[0]!,
      data: tableSheetData(exportTable(kind, source)),
    },
  ],
});

/** The whole-call workbook: a type's Reviews and Resources sheets, filtered, a type without rows too. */
function wholeCallWorkbook(types: { name: string; source: ExportSource }[]): Workbook {
  const tables = types.flatMap((type) => workbookSheets(type.name, type.source));
  const names = sheetNames(tables.map((sheet) => sheet.name));
  return {
    title: callName,
    created,
    sheets: tables.map((sheet, i) => ({
      name: names[i]!,
      data: tableSheetData(sheet.table),
      filter: true,
    })),
  };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the chair’s XLSX downloads, read back by exceljs', () => {
  it.each(EXPORT_KINDS)('%s reads back cell for cell', async (kind) => {
    const workbook = downloadWorkbook(kind);
    const read = await expectReadBackAsWritten(workbook);
    const sheet = read.getWorksheet('Observing & <Main>')!;
    // The proposal's name is text, never a formula; its ID a number.
    expect(sheet.getCell('B2').value).toBe('Galaxy <survey> & “stars” 🌌');
    expect(sheet.getCell('A2').type).toBe(ExcelJS.ValueType.Number);
    expect(sheet.getCell('A2').value).toBe(30);
    expect(sheet.getCell('A1').font.bold).toBe(true);
  });

  it('Score Summary: scores are numbers, N/A is text', async () => {
    const sheet = (await readBack(downloadWorkbook('score'))).worksheets[0]!;
    expect(sheet.getRow(1).values).toEqual([
      undefined,
      'Proposal ID',
      'Proposal',
      'Proposal Author',
      'State',
      'Reviewers',
      'Significance',
      "'=Feasibility",
      'Review Score',
    ]);
    expect(sheet.getRow(2).values).toEqual([
      undefined,
      30,
      'Galaxy <survey> & “stars” 🌌',
      'Zoë O’Brien',
      'Reviewed',
      'Rebecca Reviewer, Ben “Second” <b>',
      3,
      3.5,
      3.25,
    ]);
    expect(sheet.getCell('H2').numFmt).toBe('0.00');
    expect(sheet.getCell('B3').value).toBe("'@pulsar -timing");
    expect(sheet.getCell('H3').value).toBe('N/A');
  });

  it('Comments: a formula answer is text, the control character dropped, a 32,767-character answer whole', async () => {
    const sheet = (await readBack(downloadWorkbook('comments'))).worksheets[0]!;
    expect(sheet.getCell('F2').value).toBe('Clear aims\nGood team & <tools>');
    expect(sheet.getCell('G2').value).toBe(longAnswer.replace(/^=/, "'=").slice(0, MAX_CELL_TEXT));
    const formula = sheet.getCell('F3');
    expect(formula.type).toBe(ExcelJS.ValueType.String);
    expect(formula.formula).toBeUndefined();
    expect(formula.value).toBe('\'=HYPERLINK("http://example.org","x")');
    expect(sheet.getCell('G3').value).toBe('  spaces kept  ');
  });

  it('All: answers joined past 32,767 characters are cut to 32,767', async () => {
    const sheet = (await readBack(downloadWorkbook('all'))).worksheets[0]!;
    const header = sheet.getRow(1).values as unknown[];
    const weaknesses = sheet.getCell(2, header.indexOf('Weaknesses')).value as string;
    expect(weaknesses).toHaveLength(MAX_CELL_TEXT);
    expect(weaknesses.startsWith('Rebecca Reviewer: =Long answer, ')).toBe(true);
  });

  it('the whole-call workbook: a filtered sheet a type, frozen header, even a type with no rows', async () => {
    const workbook = wholeCallWorkbook([
      { name: 'Observing', source },
      { name: 'A/B: [test]?', source: { rows: [pulsar], facilities: ['Parkes'] } },
      { name: 'observing', source: { rows: [], facilities: [] } },
    ]);
    const read = await expectReadBackAsWritten(workbook);
    expect(read.worksheets.map((sheet) => sheet.name)).toEqual([
      'Observing Reviews',
      'Observing Resources',
      'A B   test   Reviews',
      'A B   test   Resources',
      'observing Reviews 2',
      'observing Resources 2',
    ]);
    // A row per review (Galaxy's two, Pulsar's none), then a row per proposal.
    expect(read.worksheets.map((sheet) => sheet.autoFilter)).toEqual([
      'A1:I4',
      'A1:H3',
      'A1:G2',
      'A1:F2',
      'A1:G1',
      'A1:D1',
    ]);
    expect(read.worksheets[0]!.getCell('H3').value).toBe(-1.75);
  });

  it('a 10,000-row whole-call sheet reads back cell for cell', async () => {
    const reviewer = (n: number) => ({ id: n, name: `Reviewer ${n}` });
    const rows = Array.from({ length: 2_500 }, (_, i) =>
      makeCallProposal({
        id: i + 1,
        proposalName: `Proposal ${i} <&> ${'ü'.repeat(i % 7)}`,
        author: `Author ${i % 97}`,
        state: 'Reviewed',
        stateVal: 2,
        isReviewed: true,
        score: i % 5 === 0 ? null : (i % 5) + 0.25,
        reviewScores: [{ name: 'science', value: 2 }],
        resourceValues: { ATCA: { hours: i / 4 } },
        allReviewScores: [1, 2, 3, 4].map((r) => ({
          reviewer: reviewer(r),
          scores: [{ name: 'science', value: (i + r) % 5 }],
          score: (i * r) % 7,
        })),
      }),
    );
    const workbook = wholeCallWorkbook([
      { name: 'Observing', source: { rows, facilities: ['ATCA'] } },
    ]);
    expect(workbook.sheets[0]!.data).toHaveLength(10_001);
    const read = await expectReadBackAsWritten(workbook);
    expect(read.worksheets[0]!.autoFilter).toBe('A1:H10001');
    // The Resources sheet: one row per proposal, its ids numbers.
    expect(read.worksheets[1]!.autoFilter).toBe('A1:E2501');
    expect(read.worksheets[1]!.getCell('A2').value).toBe(1);
  });

  it('reads back the same where the browser cannot deflate (stored entries)', async () => {
    vi.stubGlobal('CompressionStream', undefined);
    await expectReadBackAsWritten(downloadWorkbook('all'));
  });
});

// --- Sheets aimed at the writer's edges -----------------------------------------------------

const text = (value: string): SheetCell => ({ value, type: String });
const number = (value: number, format = '0.00'): SheetCell => ({ value, type: Number, format });
const oneSheet = (data: SheetCell[][], filter?: boolean): Workbook => ({
  title: 'Edges',
  created: new Date('2026-01-02T03:04:05.000Z'),
  sheets: [{ name: 'Edges', data, filter }],
});
/** The texts of a one-column sheet, as read back. */
async function textsReadBack(texts: string[]): Promise<unknown[]> {
  const workbook = oneSheet(texts.map((value) => [text(value)]));
  const read = await expectReadBackAsWritten(workbook);
  const sheet = read.worksheets[0]!;
  return texts.map((_, i) => sheet.getCell(i + 1, 1).value);
}

describe('the XLSX writer, read back by exceljs', () => {
  it('texts: XML characters, quotes, spaces, line breaks, tabs, unicode, empty, repeated', async () => {
    const texts = [
      'a & b < c > d',
      '"double" and \'single\' quotes',
      '&amp; &lt; &#65; ]]> <![CDATA[x]]>',
      '  leading and trailing  ',
      'two\nlines\tand a tab',
      'Ünïcödé ✓ 𝔘 👩‍🔬 e\u0301 العربية 日本語',
      '\u00a0non-breaking\u2028line separator',
      '',
      'N/A',
      'N/A',
    ];
    expect(await textsReadBack(texts)).toEqual(texts);
  });

  it('texts: what a reader cannot get back as written', async () => {
    const cases: [written: string, read: string][] = [
      // The control characters XML 1.0 forbids, and U+FFFE and U+FFFF: dropped.
      ['bell\u0007 nul\u0000 esc\u001b vt\u000b ff\u000c', 'bell nul esc vt ff'],
      ['not\uFFFE a\uFFFF character', 'not a character'],
      // A carriage return is read as a line feed, as XML parsers read line ends.
      ['windows\r\nline', 'windows\nline'],
      ['old mac\rline', 'old mac\nline'],
      // Half a surrogate pair is no character: UTF-8 has none, the encoder writes U+FFFD.
      ['lone \uD835 high', 'lone \uFFFD high'],
    ];
    expect(await textsReadBack(cases.map(([written]) => written))).toEqual(
      cases.map(([, read]) => read),
    );
  });

  it('texts that look like a spreadsheet’s escapes (_xHHHH_) read back as written', async () => {
    const texts = ['_x0041_', '_x0041_x0042_', '__x00e9__', 'file_x000D_name', '_x004_', '_X0041_'];
    expect(await textsReadBack(texts)).toEqual(texts);
  });

  it('formulas refused: a text starting with =, +, - or @ stays text, no formula', async () => {
    const texts = ['=SUM(A1:A2)', '=1+2', '+1', '-1', '@SUM(1)', '=HYPERLINK("http://x","y")'];
    const read = await expectReadBackAsWritten(oneSheet(texts.map((value) => [text(value)])));
    texts.forEach((value, i) => {
      const cell = read.worksheets[0]!.getCell(i + 1, 1);
      expect(cell.type, value).toBe(ExcelJS.ValueType.String);
      expect(cell.formula, value).toBeUndefined();
      expect(cell.value, value).toBe(value);
    });
  });

  it('numbers: negatives, decimals, large and small values, each in its format', async () => {
    const values: [number, string][] = [
      [0, '0.00'],
      [3.25, '0.00'],
      [-1.5, '0.00'],
      [-273.15, '0.0'],
      [0.1 + 0.2, '0.00'],
      [1_234_567.891, '#,##0.000'],
      [Number.MAX_SAFE_INTEGER, '0'],
      [-Number.MAX_SAFE_INTEGER, '0'],
      [1e21, '0.00E+00'],
      [1.5e-10, '0.00E+00'],
      [0.125, '0%'],
      [12, '"£"#,##0.00;[Red]-"£"#,##0.00'],
      [50, '[<100]"low "0;"high "0'],
    ];
    const read = await expectReadBackAsWritten(
      oneSheet(values.map(([value, format]) => [number(value, format)])),
    );
    values.forEach(([value, format], i) => {
      const cell = read.worksheets[0]!.getCell(i + 1, 1);
      expect(cell.type, String(value)).toBe(ExcelJS.ValueType.Number);
      expect(cell.value, String(value)).toBe(value);
      expect(cell.numFmt, String(value)).toBe(format);
    });
  });

  it('a number that is no number (NaN, Infinity) is its text, plain', async () => {
    const read = await expectReadBackAsWritten(
      oneSheet([[number(NaN), number(Infinity), number(-Infinity), number(2)]]),
    );
    const row = read.worksheets[0]!.getRow(1);
    expect(row.values).toEqual([undefined, 'NaN', 'Infinity', '-Infinity', 2]);
    expect(row.getCell(1).type).toBe(ExcelJS.ValueType.String);
    expect(row.getCell(1).numFmt).toBeUndefined();
  });

  it('dates: the workbook’s created and modified times, to the second, in UTC', async () => {
    const read = await readBack({
      title: 'T',
      created: new Date('2026-03-29T01:30:59.999+02:00'),
      sheets: [{ name: 'S', data: [[text('x')]] }],
    });
    expect(read.created.toISOString()).toBe('2026-03-28T23:30:59.000Z');
    expect(read.modified.toISOString()).toBe('2026-03-28T23:30:59.000Z');
  });

  it('dates: a number in a date format is read as that date, to the second, in UTC', async () => {
    // The writer has no date cell (no chair download writes one): a date in a sheet is
    // its serial day number, days since 1899-12-30 UTC, in a date format.
    const date = new Date('2026-11-23T10:00:07.000Z');
    const serial = date.getTime() / 86_400_000 + 25_569;
    const read = await readBack(oneSheet([[number(serial, 'yyyy-mm-dd hh:mm:ss')]]));
    const cell = read.worksheets[0]!.getCell('A1');
    expect(cell.type).toBe(ExcelJS.ValueType.Date);
    expect(cell.numFmt).toBe('yyyy-mm-dd hh:mm:ss');
    expect(cell.value).toBeInstanceOf(Date);
    expect(Math.round((cell.value as Date).getTime() / 1000)).toBe(date.getTime() / 1000);
  });

  it('rows of unequal length: the missing cells are empty', async () => {
    const read = await expectReadBackAsWritten(
      oneSheet([[text('a'), text('b'), text('c')], [text('d')], [], [number(1), text('e')]], true),
    );
    const sheet = read.worksheets[0]!;
    expect(sheet.getCell('B2').type).toBe(ExcelJS.ValueType.Null);
    expect(sheet.getCell('A3').value).toBeNull();
    expect(sheet.autoFilter).toBe('A1:C4');
  });

  it('a bold header, wrapped cells, the columns’ widths from the first 200 rows', async () => {
    const data: SheetCell[][] = [
      [
        { value: 'ID', type: String, fontWeight: 'bold' },
        { value: 'A header of twenty c', type: String, fontWeight: 'bold', wrap: true },
        { value: 'Long', type: String, fontWeight: 'bold' },
        { value: 'Score', type: String, fontWeight: 'bold' },
      ],
      [
        text('1'),
        { value: 'wrapped', type: String, wrap: true },
        text('x'.repeat(60)),
        number(1e9),
      ],
      ...Array.from({ length: 199 }, () => [text('2'), text('b'), text('c'), number(1)]),
      // Past the 200th row: no column is widened for it.
      [text('y'.repeat(40))],
    ];
    const read = await expectReadBackAsWritten(oneSheet(data, false));
    const sheet = read.worksheets[0]!;
    expect([1, 2, 3, 4].map((c) => sheet.getColumn(c).width)).toEqual([10, 22, 50, 10]);
    expect(sheet.getCell('A1').font.bold).toBe(true);
    expect(sheet.getCell('A2').font?.bold).toBeFalsy();
    expect(sheet.getCell('B1').alignment.wrapText).toBe(true);
    expect(sheet.getCell('B2').alignment.wrapText).toBe(true);
    expect(sheet.getCell('C2').alignment?.wrapText).toBeFalsy();
    expect(sheet.views[0]!.state).toBe('normal');
    expect(sheet.autoFilter).toBeUndefined();
  });

  it('a sheet with no rows, filtered or not', async () => {
    await expectReadBackAsWritten({
      title: '',
      created: new Date(0),
      sheets: [
        { name: 'Empty', data: [] },
        { name: 'Empty filtered', data: [], filter: true },
      ],
    });
  });

  it('a cell of exactly 32,767 characters reads back whole', async () => {
    const full = 'é€𝔘 and words. '.repeat(3000).slice(0, MAX_CELL_TEXT - 1) + '!';
    expect(full).toHaveLength(MAX_CELL_TEXT);
    const [read] = await textsReadBack([full]);
    expect(read).toBe(full);
  });

  it('a longer cell is cut to 32,767 characters, never inside a surrogate pair', async () => {
    const long = 'a'.repeat(MAX_CELL_TEXT) + 'lost';
    // U+1D518 (𝔘) takes two code units: at 32,766-32,767 the cut would split it.
    const straddling = 'b'.repeat(MAX_CELL_TEXT - 1) + '𝔘' + 'c';
    // The control characters do not count: they are dropped before the cut.
    const controls = '\u0001'.repeat(10) + 'd'.repeat(MAX_CELL_TEXT);
    const read = await textsReadBack([long, straddling, controls, 'e'.repeat(100_000)]);
    expect(read).toEqual([
      'a'.repeat(MAX_CELL_TEXT),
      'b'.repeat(MAX_CELL_TEXT - 1),
      'd'.repeat(MAX_CELL_TEXT),
      'e'.repeat(MAX_CELL_TEXT),
    ]);
  });
});
