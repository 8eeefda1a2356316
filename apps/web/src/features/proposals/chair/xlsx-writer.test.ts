import { strFromU8, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { columnName, xlsxBlob } from './xlsx-writer';

/** The XML files of an XLSX file, by path (fflate comes with write-excel-file). */
async function filesOf(blob: Blob): Promise<Record<string, string>> {
  const zip = unzipSync(new Uint8Array(await blob.arrayBuffer()));
  return Object.fromEntries(Object.entries(zip).map(([path, bytes]) => [path, strFromU8(bytes)]));
}

describe('xlsxBlob', () => {
  it('writes the title and time in the properties, numbers as numbers, a filter and a frozen header', async () => {
    const files = await filesOf(
      await xlsxBlob({
        title: 'Beamtime <2026>',
        created: new Date('2026-11-23T10:00:00.000Z'),
        sheets: [
          {
            name: 'Observing',
            filter: true,
            data: [
              [
                { value: 'Proposal', type: String, fontWeight: 'bold' },
                { value: 'Score', type: String, fontWeight: 'bold' },
              ],
              [
                { value: 'Galaxy survey', type: String },
                { value: 3.25, type: Number, format: '0.00' },
              ],
            ],
          },
          { name: 'Computing', data: [[{ value: 'Proposal', type: String }]] },
        ],
      }),
    );
    expect(files['docProps/core.xml']).toContain('<dc:title>Beamtime &#60;2026&#62;</dc:title>');
    expect(files['docProps/core.xml']).toContain('2026-11-23T10:00:00Z');
    expect(files['[Content_Types].xml']).toContain('/docProps/core.xml');
    expect(files['_rels/.rels']).toContain('docProps/core.xml');
    const first = files['xl/worksheets/sheet1.xml']!;
    expect(first).toContain('<autoFilter ref="A1:B2"/>');
    expect(first).toMatch(/<pane [^>]*ySplit="1"/);
    // A number cell has no t="s" (shared string): it is a number.
    expect(first).toMatch(/<c r="B2"[^>]*><v>3.25<\/v><\/c>/);
    expect(files['xl/worksheets/sheet2.xml']).not.toContain('autoFilter');
    expect(files['xl/styles.xml']).toContain('formatCode="0.00"');
    expect(files['xl/workbook.xml']).toContain('name="Computing"');
  });

  it.each([
    [1, 'A'],
    [26, 'Z'],
    [27, 'AA'],
    [53, 'BA'],
  ])('column %i is %s', (index, name) => {
    expect(columnName(index)).toBe(name);
  });
});
