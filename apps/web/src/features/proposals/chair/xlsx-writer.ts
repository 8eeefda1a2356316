import type { SheetCell } from './chair-exports';

/*
 * The XLSX writer of the chair's downloads: its own chunk, imported only when a chair
 * asks for a spreadsheet, so no other page loads it. It writes the sheets' XML as text
 * and zips it with the browser's own deflate (CompressionStream 'deflate-raw'). It
 * replaced write-excel-file, which took 1.3-1.9 s of a 10,000-proposal call's workbook
 * (40,000 rows), most of it escaping each cell three times and making each cell's style
 * key (bench/README.md, figure (d)). The file holds what that one wrote: shared strings,
 * numbers as numbers with their format, a bold header, the columns' widths, the
 * workbook's title and time, and on a filtered sheet a frozen header row and a filter.
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

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * Text as XML character data: the three characters that must be escaped, and the control
 * characters XML 1.0 does not allow at all (a spreadsheet program refuses the whole file
 * for one of them), dropped. Most cells have none: one test, no copy.
 */
// eslint-disable-next-line no-control-regex -- finding the control characters is the point
const XML_SPECIAL = /[&<>"\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/;
const XML_SPECIAL_ALL = new RegExp(XML_SPECIAL.source, 'g');
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };
export const escapeXml = (text: string) =>
  XML_SPECIAL.test(text) ? text.replace(XML_SPECIAL_ALL, (c) => ENTITIES[c] ?? '') : text;

/**
 * The most characters a cell holds (Excel's limit, in UTF-16 code units as it counts them):
 * a file with a longer one is "corrupt" to Excel, which repairs it by cutting the text.
 */
export const MAX_CELL_TEXT = 32_767;

/**
 * A text cell's text as the file can hold it: past Excel's limit (All's answers of several
 * reviewers can be), cut there, as Excel's repair would, but not between the two halves
 * of a character outside the BMP; the control characters escapeXml drops do not count.
 */
function fittedText(text: string): string {
  if (text.length <= MAX_CELL_TEXT) return text;
  const kept = text.replace(XML_SPECIAL_ALL, (c) => (c in ENTITIES ? c : ''));
  if (kept.length <= MAX_CELL_TEXT) return kept;
  const last = kept.charCodeAt(MAX_CELL_TEXT - 1);
  return kept.slice(0, last >= 0xd800 && last <= 0xdbff ? MAX_CELL_TEXT - 1 : MAX_CELL_TEXT);
}

/**
 * A spreadsheet program reads `_xHHHH_` in a text as the character HHHH (ECMA-376,
 * ST_Xstring): a text that has one literally keeps it with its underscore written as
 * `_x005F_`. Most texts have no `_x`: one test, no copy.
 */
const ESCAPE_LIKE = /_(?=x[0-9A-Fa-f]{4}_)/g;
const escapeXstring = (text: string) =>
  text.includes('_x') ? text.replace(ESCAPE_LIKE, '_x005F_') : text;

/** The spreadsheet column of a 1-based index: 1 → A, 27 → AA. */
export function columnName(index: number): string {
  let name = '';
  for (let n = index; n > 0; n = Math.floor((n - 1) / 26))
    name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const MAIN_NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PACKAGE_REL_NS = 'http://schemas.openxmlformats.org/package/2006/relationships';

/** Each text once, by index (the workbook's shared strings), as a spreadsheet program writes them. */
class SharedStrings {
  private readonly indexes = new Map<string, number>();
  count = 0;

  indexOf(text: string): number {
    this.count += 1;
    let index = this.indexes.get(text);
    if (index === undefined) {
      index = this.indexes.size;
      this.indexes.set(text, index);
    }
    return index;
  }

  /** The XML, in pieces of some thousand texts (a Map keeps the order they were added in). */
  *xml(): Generator<string> {
    yield `${XML_HEAD}<sst xmlns="${MAIN_NS}" count="${this.count}" uniqueCount="${this.indexes.size}">`;
    let piece = '';
    let inPiece = 0;
    for (const text of this.indexes.keys()) {
      // preserve: a value's leading and trailing spaces and line breaks are its own.
      piece += `<si><t xml:space="preserve">${escapeXml(escapeXstring(text))}</t></si>`;
      if (++inPiece === ROWS_PER_PIECE) {
        yield piece;
        piece = '';
        inPiece = 0;
      }
    }
    yield `${piece}</sst>`;
  }
}

/**
 * The cell formats (styles.xml's cellXfs) the sheets use: 0 plain text, 1 bold, 2 text
 * wrapped, 3 bold and wrapped, then one per number format, added as first used.
 */
class Styles {
  private readonly numberFormats = new Map<string, number>();

  /** The style of a text cell. */
  text(cell: { fontWeight?: 'bold'; wrap?: boolean }): number {
    return (cell.fontWeight === 'bold' ? 1 : 0) + (cell.wrap ? 2 : 0);
  }

  /** The style of a number cell of this format. */
  number(format: string): number {
    let style = this.numberFormats.get(format);
    if (style === undefined) {
      style = 4 + this.numberFormats.size;
      this.numberFormats.set(format, style);
    }
    return style;
  }

  xml(): string {
    // Custom number formats are numbered from 164: the lower ids are Excel's built-in ones.
    const formats = [...this.numberFormats.keys()];
    const numFmts = formats.map(
      (format, i) => `<numFmt numFmtId="${164 + i}" formatCode="${escapeXml(format)}"/>`,
    );
    const wrap = '<alignment wrapText="1"/>';
    const xfs = [
      '<xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>',
      '<xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/>',
      `<xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0" applyAlignment="1">${wrap}</xf>`,
      `<xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1" applyAlignment="1">${wrap}</xf>`,
      ...formats.map(
        (_format, i) =>
          `<xf numFmtId="${164 + i}" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>`,
      ),
    ];
    const font = (bold: boolean) =>
      `<font>${bold ? '<b/>' : ''}<sz val="11"/><color theme="1"/><name val="Calibri"/><family val="2"/><scheme val="minor"/></font>`;
    return (
      `${XML_HEAD}<styleSheet xmlns="${MAIN_NS}">` +
      (numFmts.length > 0
        ? `<numFmts count="${numFmts.length}">${numFmts.join('')}</numFmts>`
        : '') +
      `<fonts count="2">${font(false)}${font(true)}</fonts>` +
      '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
      '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
      '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
      `<cellXfs count="${xfs.length}">${xfs.join('')}</cellXfs>` +
      '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>' +
      '</styleSheet>'
    );
  }
}

/** A column's width: as wide as its widest text in the first 200 rows, 10 to 50 characters. */
function columnWidths(data: readonly SheetCell[][]): number[] {
  const widths = (data[0] ?? []).map(() => 10);
  for (const row of data.slice(0, 200))
    row.forEach((cell, i) => {
      const width = cell.type === Number ? 10 : Math.min(50, String(cell.value).length + 2);
      if (i < widths.length && width > widths[i]!) widths[i] = width;
    });
  return widths;
}

/**
 * Rows are written, encoded and compressed some thousand at a time: a 40,000-row sheet
 * held whole as text was copied from one heap space to the next by the garbage collector.
 */
const ROWS_PER_PIECE = 1000;

/** A sheet's XML, in pieces of some thousand rows. */
function* worksheetXml(
  sheet: WorkbookSheet,
  selected: boolean,
  strings: SharedStrings,
  styles: Styles,
): Generator<string> {
  const width = sheet.data.reduce((most, row) => Math.max(most, row.length), 0);
  const columns = Array.from({ length: width }, (_, i) => columnName(i + 1));
  const frozen = sheet.filter
    ? '<pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/>' +
      '<selection pane="bottomLeft" activeCell="A2" sqref="A2"/>'
    : '';
  const widths = columnWidths(sheet.data);
  yield (
    `${XML_HEAD}<worksheet xmlns="${MAIN_NS}" xmlns:r="${REL_NS}">` +
    `<sheetViews><sheetView${selected ? ' tabSelected="1"' : ''} workbookViewId="0">${frozen}</sheetView></sheetViews>` +
    (widths.length > 0
      ? `<cols>${widths.map((w, i) => `<col min="${i + 1}" max="${i + 1}" width="${w}" customWidth="1"/>`).join('')}</cols>`
      : '') +
    '<sheetData>'
  );
  let piece = '';
  for (let r = 0; r < sheet.data.length; r++) {
    const row = sheet.data[r]!;
    const n = r + 1;
    piece += `<row r="${n}">`;
    for (let c = 0; c < row.length; c++) {
      const cell = row[c]!;
      if ('format' in cell && Number.isFinite(cell.value)) {
        piece += `<c r="${columns[c]}${n}" s="${styles.number(cell.format)}"><v>${cell.value}</v></c>`;
      } else {
        // Text, and a number that is no number (NaN, Infinity) written as its text.
        const style = 'format' in cell ? 0 : styles.text(cell);
        const s = style === 0 ? '' : ` s="${style}"`;
        piece += `<c r="${columns[c]}${n}"${s} t="s"><v>${strings.indexOf(fittedText(String(cell.value)))}</v></c>`;
      }
    }
    piece += '</row>';
    if (n % ROWS_PER_PIECE === 0) {
      yield piece;
      piece = '';
    }
  }
  // After sheetData, where the format puts a sheet's filter.
  const filter =
    sheet.filter && width > 0
      ? `<autoFilter ref="A1:${columnName(width)}${Math.max(sheet.data.length, 1)}"/>`
      : '';
  yield `${piece}</sheetData>${filter}</worksheet>`;
}

function coreProperties(title: string, created: Date): string {
  const time = created.toISOString().replace(/\.\d{3}Z$/, 'Z');
  return (
    XML_HEAD +
    '<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">' +
    `<dc:title>${escapeXml(title)}</dc:title>` +
    '<dc:creator>Merit</dc:creator>' +
    `<dcterms:created xsi:type="dcterms:W3CDTF">${time}</dcterms:created>` +
    `<dcterms:modified xsi:type="dcterms:W3CDTF">${time}</dcterms:modified>` +
    '</cp:coreProperties>'
  );
}

/**
 * Every file of the workbook's package, by path, in the order the zip holds them, each as
 * its pieces of text. Made as they are zipped, one after the other: the shared strings
 * and the styles are those the sheets before them used.
 */
function workbookFiles(workbook: Workbook): [string, Iterable<string>][] {
  const strings = new SharedStrings();
  const styles = new Styles();
  const sheets = workbook.sheets.map((sheet, i) => worksheetXml(sheet, i === 0, strings, styles));
  const sheetPath = (i: number) => `xl/worksheets/sheet${i + 1}.xml`;
  const override = (part: string, type: string) =>
    `<Override PartName="/${part}" ContentType="${type}"/>`;
  const officeType = 'application/vnd.openxmlformats-officedocument.spreadsheetml';
  const contentTypes =
    `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
    '<Default Extension="xml" ContentType="application/xml"/>' +
    override('xl/workbook.xml', `${officeType}.sheet.main+xml`) +
    sheets.map((_, i) => override(sheetPath(i), `${officeType}.worksheet+xml`)).join('') +
    override('xl/sharedStrings.xml', `${officeType}.sharedStrings+xml`) +
    override('xl/styles.xml', `${officeType}.styles+xml`) +
    override('docProps/core.xml', 'application/vnd.openxmlformats-package.core-properties+xml') +
    '</Types>';
  const relationship = (id: string, type: string, target: string) =>
    `<Relationship Id="${id}" Type="${type}" Target="${target}"/>`;
  const rootRels =
    `${XML_HEAD}<Relationships xmlns="${PACKAGE_REL_NS}">` +
    relationship('rId1', `${REL_NS}/officeDocument`, 'xl/workbook.xml') +
    relationship(
      'rId2',
      'http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties',
      'docProps/core.xml',
    ) +
    '</Relationships>';
  const workbookRels =
    `${XML_HEAD}<Relationships xmlns="${PACKAGE_REL_NS}">` +
    sheets
      .map((_, i) =>
        relationship(`rId${i + 1}`, `${REL_NS}/worksheet`, `worksheets/sheet${i + 1}.xml`),
      )
      .join('') +
    relationship(`rId${sheets.length + 1}`, `${REL_NS}/sharedStrings`, 'sharedStrings.xml') +
    relationship(`rId${sheets.length + 2}`, `${REL_NS}/styles`, 'styles.xml') +
    '</Relationships>';
  const workbookXml =
    `${XML_HEAD}<workbook xmlns="${MAIN_NS}" xmlns:r="${REL_NS}">` +
    '<bookViews><workbookView/></bookViews><sheets>' +
    workbook.sheets
      .map(
        (sheet, i) =>
          `<sheet name="${escapeXml(sheet.name)}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`,
      )
      .join('') +
    '</sheets></workbook>';
  return [
    ['[Content_Types].xml', [contentTypes]],
    ['_rels/.rels', [rootRels]],
    ['docProps/core.xml', [coreProperties(workbook.title, workbook.created)]],
    ['xl/workbook.xml', [workbookXml]],
    ['xl/_rels/workbook.xml.rels', [workbookRels]],
    ...sheets.map((xml, i): [string, Iterable<string>] => [sheetPath(i), xml]),
    // Generators, run when zipped: after the sheets that fill them.
    ['xl/sharedStrings.xml', strings.xml()],
    ['xl/styles.xml', { [Symbol.iterator]: () => [styles.xml()][Symbol.iterator]() }],
  ];
}

// --- The zip container --------------------------------------------------------------------

const CRC_TABLE = (() => {
  const table = new Int32Array(256 * 8);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c;
  }
  // Slicing by 8: eight bytes a step, tens of megabytes of sheet in tens of milliseconds.
  for (let n = 0; n < 256; n++)
    for (let k = 1; k < 8; k++)
      table[k * 256 + n] =
        (table[(k - 1) * 256 + n]! >>> 8) ^ table[table[(k - 1) * 256 + n]! & 0xff]!;
  return table;
})();

/** The CRC-32 of some bytes, as zip files carry it; of more bytes, given the CRC before them. */
export function crc32(bytes: Uint8Array, previous = 0): number {
  const t = CRC_TABLE;
  let crc = previous ^ -1;
  let i = 0;
  const end8 = bytes.length - (bytes.length % 8);
  for (; i < end8; i += 8) {
    const a =
      (bytes[i]! | (bytes[i + 1]! << 8) | (bytes[i + 2]! << 16) | (bytes[i + 3]! << 24)) ^ crc;
    crc =
      t[1792 + (a & 0xff)]! ^
      t[1536 + ((a >>> 8) & 0xff)]! ^
      t[1280 + ((a >>> 16) & 0xff)]! ^
      t[1024 + (a >>> 24)]! ^
      t[768 + bytes[i + 4]!]! ^
      t[512 + bytes[i + 5]!]! ^
      t[256 + bytes[i + 6]!]! ^
      t[bytes[i + 7]!]!;
  }
  for (; i < bytes.length; i++) crc = t[(crc ^ bytes[i]!) & 0xff]! ^ (crc >>> 8);
  return (crc ^ -1) >>> 0;
}

/** The browser's own deflate, or null where it has none (then the files are stored). */
function deflater(): CompressionStream | null {
  try {
    return new CompressionStream('deflate-raw');
  } catch {
    return null;
  }
}

async function readAll(
  readable: ReadableStream<Uint8Array<ArrayBuffer>>,
): Promise<Uint8Array<ArrayBuffer>[]> {
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  const reader = readable.getReader();
  for (let next = await reader.read(); !next.done; next = await reader.read())
    chunks.push(next.value);
  return chunks;
}

interface ZipEntry {
  name: Uint8Array;
  crc: number;
  size: number;
  /** Deflated, or stored as it is when `method` is 0; in the pieces it was made in. */
  data: Uint8Array<ArrayBuffer>[];
  length: number;
  method: 0 | 8;
}

/** A file of the zip, its text encoded, checked and deflated piece by piece as it is made. */
async function zipEntry(path: string, pieces: Iterable<string>): Promise<ZipEntry> {
  const encoder = new TextEncoder();
  const stream = deflater();
  const writer = stream?.writable.getWriter();
  // Read while written: the stream holds back what is written until it is read.
  const deflated = stream ? readAll(stream.readable) : undefined;
  const stored: Uint8Array<ArrayBuffer>[] = [];
  let crc = 0;
  let size = 0;
  for (const piece of pieces) {
    const bytes = encoder.encode(piece);
    crc = crc32(bytes, crc);
    size += bytes.length;
    if (writer) await writer.write(bytes);
    else stored.push(bytes);
  }
  await writer?.close();
  const data = deflated ? await deflated : stored;
  return {
    name: encoder.encode(path),
    crc,
    size,
    data,
    length: data.reduce((sum, chunk) => sum + chunk.length, 0),
    method: deflated ? 8 : 0,
  };
}

/** MS-DOS time and date, as zip files carry a file's time. */
function dosTime(date: Date): [number, number] {
  const year = Math.max(1980, date.getFullYear());
  return [
    (date.getHours() << 11) | (date.getMinutes() << 5) | Math.floor(date.getSeconds() / 2),
    ((year - 1980) << 9) | ((date.getMonth() + 1) << 5) | date.getDate(),
  ];
}

/** A zip file of the entries (APPNOTE 4.3: local headers and data, central directory, end). */
function zipParts(entries: readonly ZipEntry[], modified: Date): Uint8Array<ArrayBuffer>[] {
  const [time, date] = dosTime(modified);
  const parts: Uint8Array<ArrayBuffer>[] = [];
  const central: Uint8Array<ArrayBuffer>[] = [];
  let offset = 0;
  for (const entry of entries) {
    const local = new Uint8Array(30 + entry.name.length);
    const l = new DataView(local.buffer);
    l.setUint32(0, 0x04034b50, true);
    l.setUint16(4, 20, true); // version needed: 2.0, deflate
    l.setUint16(6, 0x0800, true); // names in UTF-8
    l.setUint16(8, entry.method, true);
    l.setUint16(10, time, true);
    l.setUint16(12, date, true);
    l.setUint32(14, entry.crc, true);
    l.setUint32(18, entry.length, true);
    l.setUint32(22, entry.size, true);
    l.setUint16(26, entry.name.length, true);
    local.set(entry.name, 30);
    parts.push(local, ...entry.data);

    const header = new Uint8Array(46 + entry.name.length);
    const h = new DataView(header.buffer);
    h.setUint32(0, 0x02014b50, true);
    h.setUint16(4, 20, true); // made by: 2.0
    h.setUint16(6, 20, true);
    h.setUint16(8, 0x0800, true);
    h.setUint16(10, entry.method, true);
    h.setUint16(12, time, true);
    h.setUint16(14, date, true);
    h.setUint32(16, entry.crc, true);
    h.setUint32(20, entry.length, true);
    h.setUint32(24, entry.size, true);
    h.setUint16(28, entry.name.length, true);
    h.setUint32(42, offset, true);
    header.set(entry.name, 46);
    central.push(header);
    offset += local.length + entry.length;
  }
  const centralSize = central.reduce((sum, header) => sum + header.length, 0);
  const end = new Uint8Array(22);
  const e = new DataView(end.buffer);
  e.setUint32(0, 0x06054b50, true);
  e.setUint16(8, entries.length, true);
  e.setUint16(10, entries.length, true);
  e.setUint32(12, centralSize, true);
  e.setUint32(16, offset, true);
  return [...parts, ...central, end];
}

/** The workbook as an XLSX file. */
export async function xlsxBlob(workbook: Workbook): Promise<Blob> {
  // One after the other: each file's text is made as it is zipped.
  const entries: ZipEntry[] = [];
  for (const [path, pieces] of workbookFiles(workbook)) entries.push(await zipEntry(path, pieces));
  return new Blob(zipParts(entries, workbook.created), { type: XLSX_TYPE });
}
