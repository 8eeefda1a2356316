import { strFromU8, unzipSync } from 'fflate';
import { crc32 as zlibCrc32 } from 'node:zlib';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeCallProposal } from '../proposals.fixtures';
import { tableSheetData, workbookTable, type SheetCell } from './chair-exports';
import { columnName, crc32, xlsxBlob, type Workbook } from './xlsx-writer';

/** The files of a zip, by path, read by another zip reader (fflate, a devDependency). */
function unzip(bytes: Uint8Array): Record<string, string> {
  const zip = unzipSync(bytes);
  return Object.fromEntries(Object.entries(zip).map(([path, data]) => [path, strFromU8(data)]));
}

/** Each entry's CRC-32 and sizes as the zip's central directory records them. */
function centralDirectory(bytes: Uint8Array) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const end = bytes.length - 22;
  expect(view.getUint32(end, true)).toBe(0x06054b50);
  const count = view.getUint16(end + 10, true);
  let at = view.getUint32(end + 16, true);
  const entries = new Map<string, { crc: number; method: number; size: number }>();
  for (let i = 0; i < count; i++) {
    expect(view.getUint32(at, true)).toBe(0x02014b50);
    const nameLength = view.getUint16(at + 28, true);
    const name = strFromU8(bytes.subarray(at + 46, at + 46 + nameLength));
    entries.set(name, {
      method: view.getUint16(at + 10, true),
      crc: view.getUint32(at + 16, true),
      size: view.getUint32(at + 24, true),
    });
    at += 46 + nameLength;
  }
  return entries;
}

const unescapeXml = (text: string) =>
  text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');

type Cell = string | number;

/** Each sheet's cells, by name, read back as a spreadsheet program reads them. */
function readSheets(files: Record<string, string>): Record<string, Cell[][]> {
  const shared = [
    ...files['xl/sharedStrings.xml']!.matchAll(/<si><t[^>]*>([\s\S]*?)<\/t><\/si>/g),
  ].map((m) => unescapeXml(m[1]!));
  const sheets: Record<string, Cell[][]> = {};
  for (const sheet of files['xl/workbook.xml']!.matchAll(
    /<sheet name="([^"]*)" sheetId="(\d+)"/g,
  )) {
    const xml = files[`xl/worksheets/sheet${sheet[2]}.xml`]!;
    sheets[unescapeXml(sheet[1]!)] = [...xml.matchAll(/<row r="\d+">([\s\S]*?)<\/row>/g)].map(
      (row) =>
        [...row[1]!.matchAll(/<c r="[A-Z]+\d+"( s="\d+")?( t="s")?><v>([^<]*)<\/v><\/c>/g)].map(
          (c) => (c[2] ? shared[Number(c[3])]! : Number(c[3])),
        ),
    );
  }
  return sheets;
}

const bold = (value: string): SheetCell => ({ value, type: String, fontWeight: 'bold' });
const text = (value: string): SheetCell => ({ value, type: String });
const score = (value: number): SheetCell => ({ value, type: Number, format: '0.00' });

const small: Workbook = {
  title: 'Beamtime <2026>',
  created: new Date('2026-11-23T10:00:00.000Z'),
  sheets: [
    {
      name: 'Observing',
      filter: true,
      data: [
        [bold('Proposal'), bold('Score')],
        [text('Galaxy survey'), score(3.25)],
      ],
    },
    { name: 'Computing', data: [[text('Proposal')]] },
  ],
};

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('xlsxBlob', () => {
  it('writes the title and time in the properties, numbers as numbers, a filter and a frozen header', async () => {
    const blob = await xlsxBlob(small);
    expect(blob.type).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    const files = unzip(new Uint8Array(await blob.arrayBuffer()));
    expect(files['docProps/core.xml']).toContain('<dc:title>Beamtime &lt;2026&gt;</dc:title>');
    expect(files['docProps/core.xml']).toContain('2026-11-23T10:00:00Z');
    expect(files['[Content_Types].xml']).toContain('/docProps/core.xml');
    expect(files['[Content_Types].xml']).toContain('/xl/worksheets/sheet2.xml');
    expect(files['_rels/.rels']).toContain('docProps/core.xml');
    const first = files['xl/worksheets/sheet1.xml']!;
    expect(first).toContain('<autoFilter ref="A1:B2"/>');
    expect(first).toMatch(/<pane [^>]*ySplit="1"[^>]*state="frozen"/);
    // A number cell has no t="s" (shared string): it is a number, in the 0.00 format.
    const numberCell = first.match(/<c r="B2" s="(\d+)"><v>3.25<\/v><\/c>/);
    expect(numberCell).not.toBeNull();
    const styles = files['xl/styles.xml']!;
    const xfs = [
      ...styles.match(/<cellXfs[^>]*>([\s\S]*?)<\/cellXfs>/)![1]!.matchAll(/<xf [^>]*>/g),
    ];
    const formatId = xfs[Number(numberCell![1])]![0].match(/numFmtId="(\d+)"/)![1];
    expect(styles).toContain(`<numFmt numFmtId="${formatId}" formatCode="0.00"/>`);
    // The header is bold: its style's font is the bold one.
    const headerStyle = first.match(/<c r="A1" s="(\d+)" t="s">/)![1];
    const fontId = xfs[Number(headerStyle)]![0].match(/fontId="(\d+)"/)![1];
    expect([...styles.matchAll(/<font>([\s\S]*?)<\/font>/g)][Number(fontId)]![1]).toContain('<b/>');
    expect(files['xl/worksheets/sheet2.xml']).not.toContain('autoFilter');
    expect(files['xl/worksheets/sheet2.xml']).not.toContain('<pane');
    expect(files['xl/workbook.xml']).toContain('name="Computing"');
    expect(readSheets(files)).toEqual({
      Observing: [
        ['Proposal', 'Score'],
        ['Galaxy survey', 3.25],
      ],
      Computing: [['Proposal']],
    });
  });

  it('is a zip whose every entry is deflated and carries the CRC-32 of its bytes', async () => {
    const bytes = new Uint8Array(await (await xlsxBlob(small)).arrayBuffer());
    const files = unzipSync(bytes);
    const directory = centralDirectory(bytes);
    expect([...directory.keys()].sort()).toEqual(Object.keys(files).sort());
    for (const [path, data] of Object.entries(files)) {
      const entry = directory.get(path)!;
      expect(entry.method, path).toBe(8);
      expect(entry.size, path).toBe(data.length);
      expect(entry.crc, path).toBe(zlibCrc32(data));
    }
  });

  it('stores the entries uncompressed where the browser cannot deflate, still a valid file', async () => {
    vi.stubGlobal('CompressionStream', undefined);
    const bytes = new Uint8Array(await (await xlsxBlob(small)).arrayBuffer());
    for (const entry of centralDirectory(bytes).values()) expect(entry.method).toBe(0);
    expect(readSheets(unzip(bytes)).Observing![1]).toEqual(['Galaxy survey', 3.25]);
  });

  it('reads back every text as written: XML characters, spaces, line breaks, quotes, no control characters', async () => {
    const texts = [
      'a & b < c > d',
      '"quoted" and \'single\'',
      '  leading and trailing  ',
      'two\nlines\r\nand a\ttab',
      '\'=HYPERLINK("x")',
      'Ünïcödé ✓ 𝔘',
      '',
      'N/A',
      'N/A',
    ];
    const files = unzip(
      new Uint8Array(
        await (
          await xlsxBlob({
            title: 'T',
            created: new Date(),
            sheets: [
              { name: 'A & B', data: [...texts, 'bell\u0007 and nul\u0000'].map((t) => [text(t)]) },
            ],
          })
        ).arrayBuffer(),
      ),
    );
    const cells = readSheets(files)['A & B']!.map((row) => row[0]);
    expect(cells).toEqual([...texts, 'bell and nul']);
    // Each text once in the shared strings.
    expect(files['xl/sharedStrings.xml']).toMatch(/uniqueCount="9"/);
  });

  it('writes a large sheet of a 10,000-proposal call and reads it back cell for cell', async () => {
    const reviewer = (n: number) => ({ id: n, name: `Reviewer ${n}` });
    const rows = Array.from({ length: 2_500 }, (_, i) =>
      makeCallProposal({
        id: i + 1,
        proposalName: `Proposal ${i} <&>`,
        author: `Author ${i % 97}`,
        state: 'Reviewed',
        stateVal: 2,
        isReviewed: true,
        score: i % 5,
        reviewScores: [
          { name: 'science', value: 2 },
          { name: 'result', value: i % 5 },
        ],
        resourceValues: { ATCA: { hours: i / 4 } },
        allReviewScores: [1, 2, 3, 4].map((r) => ({
          reviewer: reviewer(r),
          scores: [{ name: 'science', value: (i + r) % 5 }],
          score: (i * r) % 7,
        })),
      }),
    );
    const data = tableSheetData(workbookTable({ rows, facilities: ['ATCA'] }));
    expect(data).toHaveLength(10_001);
    const files = unzip(
      new Uint8Array(
        await (
          await xlsxBlob({
            title: 'Big',
            created: new Date(),
            sheets: [{ name: 'Observing', data, filter: true }],
          })
        ).arrayBuffer(),
      ),
    );
    expect(readSheets(files).Observing).toEqual(data.map((row) => row.map((cell) => cell.value)));
    // ID, Proposal, Author, State, Reviewer, science, Reviewer's Score, Review Score: the
    // resources are on the type's Resources sheet, one row per proposal.
    expect(data[0]).toHaveLength(8);
    // Not toContain: a failure would print the whole sheet.
    expect(files['xl/worksheets/sheet1.xml']!.match(/<autoFilter [^>]*>/)?.[0]).toBe(
      '<autoFilter ref="A1:H10001"/>',
    );
  });

  it.each([
    [1, 'A'],
    [26, 'Z'],
    [27, 'AA'],
    [53, 'BA'],
    [703, 'AAA'],
  ])('column %i is %s', (index, name) => {
    expect(columnName(index)).toBe(name);
  });

  it.each([0, 1, 7, 8, 9, 63, 64, 1000])('CRC-32 of %i bytes is zlib’s', (length) => {
    const bytes = Uint8Array.from({ length }, (_, i) => (i * 31 + 7) & 0xff);
    expect(crc32(bytes)).toBe(zlibCrc32(bytes));
  });
});
