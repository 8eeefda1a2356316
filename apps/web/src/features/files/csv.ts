import Papa from 'papaparse';

/*
 * The one CSV writer of the downloads (the chair's files and the Review Summary): each
 * written the same way, so a spreadsheet program opens each alike.
 */

export const CSV_TYPE = 'text/csv;charset=utf-8';

/**
 * The byte order mark: without it Excel reads a CSV file in the computer's own code page,
 * and garbles every name outside ASCII ("JosÃ©").
 */
const BOM = '\uFEFF';

/** Rows as CSV text: quoted where needed, lines ended by CRLF as RFC 4180 writes them. */
export const csvText = (rows: readonly (readonly string[])[]): string =>
  Papa.unparse(rows as string[][], { newline: '\r\n' });

/** CSV text as a file: UTF-8, starting with the byte order mark. */
export const csvBlob = (text: string): Blob => new Blob([BOM, text], { type: CSV_TYPE });
