/**
 * Characters that make a spreadsheet program read a cell as a formula when it opens a CSV
 * file, or when someone edits an XLSX text cell (OWASP, CSV Injection): `=`, `+`, `-`,
 * `@`, and tab and carriage return, which some programs skip before looking again.
 */
export const FORMULA_TRIGGERS: readonly string[] = ['=', '+', '-', '@', '\t', '\r'];

/**
 * A text cell of a download as a spreadsheet must take it: text that would start a
 * formula gets an apostrophe in front, which spreadsheet programs read as "this is text".
 * Exports call it on text cells only (names, answers, headers), never on numbers, so a
 * score of -1 stays a number. Unlike papaparse's own `escapeFormulae`, whose pattern
 * gives up at a newline, only the first character counts: `=HYPERLINK(…)` with a second
 * line is neutralised too.
 */
export function spreadsheetText(text: string): string {
  return FORMULA_TRIGGERS.includes(text.charAt(0)) ? `'${text}` : text;
}
