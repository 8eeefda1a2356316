import { FORMULA_TRIGGERS, spreadsheetText } from '@merit/domain';

/*
 * The assignments CSV (issue 27): `proposal_id,username,action`, one assignment a line,
 * action `assign` or `remove`. Written for the download, read for the upload, with the
 * line numbers a person sees in a text editor.
 */

export const CSV_HEADER = ['proposal_id', 'username', 'action'] as const;

/** The most an upload may be: a call of 10,000 proposals x k = 20 in long usernames. */
export const CSV_BODY_LIMIT = 16 * 1024 * 1024;

/** A line of the file with its number (from 1, the header's). */
export interface CsvLine {
  line: number;
  values: string[];
}

/**
 * The values of one line: commas between them, a value in double quotes may hold commas
 * and `""` for a quote (RFC 4180, without line breaks inside a value), spaces around a
 * value dropped.
 */
export function csvValues(text: string): string[] {
  const values: string[] = [];
  let value = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i]!;
    if (quoted) {
      if (char !== '"') value += char;
      else if (text[i + 1] === '"') {
        value += '"';
        i += 1;
      } else quoted = false;
    } else if (char === '"' && value.trim() === '') {
      value = '';
      quoted = true;
    } else if (char === ',') {
      values.push(value.trim());
      value = '';
    } else value += char;
  }
  values.push(value.trim());
  return values;
}

/**
 * The file's lines, numbered, without blank ones (a trailing newline, a spreadsheet's
 * empty rows) and without a byte order mark; the first is the header.
 */
export function csvLines(text: string): CsvLine[] {
  return text
    .replace(/^\uFEFF/, '')
    .split(/\r\n|\n|\r/)
    .map((line, index) => ({ line: index + 1, text: line }))
    .filter(({ text: line }) => line.trim() !== '' && line.replace(/,/g, '').trim() !== '')
    .map(({ line, text: content }) => ({ line, values: csvValues(content) }));
}

/** Whether a line is the header (its names in any case). */
export const isHeader = (line: CsvLine) =>
  line.values.length === CSV_HEADER.length &&
  line.values.every((value, i) => value.toLowerCase() === CSV_HEADER[i]);

/** A value as the file holds it: quoted when it must be. */
function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/**
 * A username as the download writes it: one a spreadsheet would run as a formula gets an
 * apostrophe in front (`spreadsheetText`), which the upload takes off again.
 */
export const usernameCell = (username: string) => csvField(spreadsheetText(username));

/** A username as the upload reads it: the download's apostrophe before a formula character dropped. */
export const usernameOf = (value: string) =>
  value.startsWith("'") && FORMULA_TRIGGERS.includes(value.charAt(1)) ? value.slice(1) : value;

/** The download: the header, then every assignment as `assign`. */
export function assignmentsCsv(rows: readonly { proposalId: number; username: string }[]): string {
  const lines = rows.map((row) => `${row.proposalId},${usernameCell(row.username)},assign`);
  return `${[CSV_HEADER.join(','), ...lines].join('\r\n')}\r\n`;
}
