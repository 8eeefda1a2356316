import writeXlsxFile, { type Feature, type Sheet } from 'write-excel-file/browser';

/** What the browser build writes images from (none here): its `FileContent`. */
type FileContent = File | Blob | ArrayBuffer;
import type { SheetCell } from './chair-exports';

/*
 * The XLSX writer of the chair's downloads: its own chunk, imported only when a chair
 * asks for a spreadsheet, so no other page loads it. write-excel-file writes the sheets;
 * two small features add what it does not: the workbook's properties (title and time in
 * docProps/core.xml) and a filter on each sheet's header row.
 */

export interface WorkbookSheet {
  name: string;
  data: SheetCell[][];
  /** Keeps the header row in view and turns filters on over the columns. */
  filter?: boolean;
}

export interface Workbook {
  /** The title in the file's properties: the call's name. */
  title: string;
  /** When it was made: the file's created and modified times. */
  created: Date;
  sheets: WorkbookSheet[];
}

const escapeXml = (text: string) => text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The spreadsheet column of a 1-based index: 1 → A, 27 → AA. */
export function columnName(index: number): string {
  let name = '';
  for (let n = index; n > 0; n = Math.floor((n - 1) / 26))
    name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

function coreProperties(title: string, created: Date): string {
  const time = created.toISOString().replace(/\.\d{3}Z$/, 'Z');
  return (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
    '<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">' +
    `<dc:title>${escapeXml(title)}</dc:title>` +
    '<dc:creator>Merit</dc:creator>' +
    `<dcterms:created xsi:type="dcterms:W3CDTF">${time}</dcterms:created>` +
    `<dcterms:modified xsi:type="dcterms:W3CDTF">${time}</dcterms:modified>` +
    '</cp:coreProperties>'
  );
}

function features(workbook: Workbook): Feature<FileContent>[] {
  const properties: Feature<FileContent> = {
    files: {
      write: {
        files: () => ({ 'docProps/core.xml': coreProperties(workbook.title, workbook.created) }),
      },
      transform: {
        '[Content_Types].xml': {
          insert: () =>
            '<Override PartName="/docProps/core.xml" ContentType="application/vnd.openxmlformats-package.core-properties+xml"/>',
        },
        '_rels/.rels': {
          insert: () =>
            '<Relationship Id="rId-core-properties" Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties" Target="docProps/core.xml"/>',
        },
      },
    },
  };
  const filters: Feature<FileContent> = {
    files: {
      transform: {
        'xl/worksheets/sheet{id}.xml': {
          transform: (content, _options, { sheetIndex }) => {
            const sheet = workbook.sheets[sheetIndex];
            const width = sheet?.data[0]?.length ?? 0;
            if (!sheet?.filter || width === 0) return content;
            // After sheetData, where the format puts a sheet's filter.
            const ref = `A1:${columnName(width)}${Math.max(sheet.data.length, 1)}`;
            return content.replace('</sheetData>', `</sheetData><autoFilter ref="${ref}"/>`);
          },
        },
      },
    },
  };
  return [properties, filters];
}

/** The workbook as an XLSX file. */
export function xlsxBlob(workbook: Workbook): Promise<Blob> {
  const sheets: Sheet<FileContent>[] = workbook.sheets.map((sheet) => ({
    sheet: sheet.name,
    data: sheet.data,
    ...(sheet.filter ? { stickyRowsCount: 1 } : {}),
    columns: (sheet.data[0] ?? []).map((_cell, index) => ({
      width: Math.min(
        50,
        Math.max(10, ...sheet.data.slice(0, 200).map((row) => cellWidth(row[index]))),
      ),
    })),
  }));
  return writeXlsxFile(sheets, { features: features(workbook) }).toBlob();
}

const cellWidth = (cell: SheetCell | undefined) =>
  cell === undefined ? 0 : cell.type === Number ? 10 : Math.min(50, String(cell.value).length + 2);
