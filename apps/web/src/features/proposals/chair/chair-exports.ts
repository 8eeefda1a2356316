import type {
  CallProposalExportColumns,
  CallProposalExportPart,
  CallProposalExportRow,
  ExportRanking,
} from '@merit/contract';
import {
  conflictMessages,
  facilityLabel,
  formatScore,
  outcomeLabel,
  resourceFieldTitle,
  RESULT_SCORE,
  spreadsheetText,
  type Outcome,
} from '@merit/domain';
import { csvText } from '../../files/csv';
import { downloadFileName } from '../../files/downloads';
import {
  resourceAmount,
  resourceColumnsOf,
  resourceHeader,
  scoreFieldsOfRows,
  type ResourceColumn,
} from './chair-columns';

/*
 * The chair's downloads (spec sections 1, 2 and 9), made in the browser from the rows of
 * GET /calls/{callId}/proposals/: pure functions, rows in, a table out, then CSV text or
 * sheet data. The XLSX writer itself (xlsx-writer.ts) is loaded only when a chair asks.
 */

/**
 * One cell: text, a score (2 decimals; N/A when null), a resource amount (N/A when
 * missing), a whole number (a rank, a proposal's id in the Ranking sheet) or a ratio (an
 * oversubscription: 2 decimals; N/A when null).
 */
export type ExportCell =
  | string
  | { score: number | null }
  | { amount: number | undefined }
  | { whole: number }
  | { ratio: number | null };

/** A row of the export: a row of the chair's list, with its decision when the export has it. */
type Row = CallProposalExportRow;

export interface ExportTable {
  header: string[];
  rows: ExportCell[][];
}

/** The four downloads of a proposal type (spec section 2, Proposal list). */
export const EXPORT_KINDS = ['score', 'comments', 'resources', 'all'] as const;
export type ExportKind = (typeof EXPORT_KINDS)[number];

export const EXPORT_LABELS: Record<ExportKind, string> = {
  score: 'Score Summary',
  comments: 'Comments',
  resources: 'Resources',
  all: 'All',
};

/** What a download asks the export for. */
export interface ExportParts {
  /** Beyond the rows: each review's scores or comments. */
  include: readonly CallProposalExportPart[];
  /** The chair's columns (`chair`), or of them only `isReviewed` (`lean`). */
  columns: CallProposalExportColumns;
}

/**
 * What each download needs from the export (its `include` and `columns`): the Comments
 * and All downloads write the reviews' comments, the whole-call workbook each review's
 * scores; the others only the rows' own columns. Every download but Comments writes each
 * proposal's outcome, and those with resources its awards (`decisions`, issue 29); only
 * the workbook writes the ranking and the capacities (`ranking`: one more read of the
 * whole call on the server). Comments writes none of the chair's columns either
 * (reviewers, scores, resources), only the rows' own and, to leave out unreviewed drafts,
 * `isReviewed`: its rows are lean, which spares the server reading the rest. The rest is
 * not fetched.
 */
export const EXPORT_PARTS: Record<ExportKind | 'workbook', ExportParts> = {
  score: { include: ['decisions'], columns: 'chair' },
  comments: { include: ['allReviewComments'], columns: 'lean' },
  resources: { include: ['decisions'], columns: 'chair' },
  all: { include: ['allReviewComments', 'decisions'], columns: 'chair' },
  workbook: { include: ['allReviewScores', 'decisions', 'ranking'], columns: 'chair' },
};

/**
 * A download's file name by call, proposal type and kind (issue 30: the spec's names, the
 * call's name plus Comment Summary or Resource Summary, were the same for every type):
 * "Call - Type - Resources.csv"; the whole-call workbook, of every type, "Call -
 * Workbook.xlsx".
 */
export function exportFileName(
  callName: string,
  request: { kind: ExportKind; typeName: string } | { kind: 'workbook' },
  extension: 'csv' | 'xlsx',
): string {
  return request.kind === 'workbook'
    ? downloadFileName([callName, 'Workbook'], extension)
    : downloadFileName([callName, request.typeName, EXPORT_LABELS[request.kind]], extension);
}

/** Spec section 9: proposals in Draft that are not reviewed are left out of downloads. */
export const isDownloaded = (row: Row) => !(row.stateVal === 0 && !row.isReviewed);

/** What every download of one proposal type is made from. */
export interface ExportSource {
  /** The type's rows, as the server sorted them (by name). */
  rows: readonly Row[];
  /** The call's facilities in the server's order (the page's `facilities`). */
  facilities: readonly string[];
  /** Score fields' labels by field name (the Review Score Form's titles). */
  labels?: ReadonlyMap<string, string>;
  /** The call's own words for the outcomes (the export's `outcomeLabels`). */
  outcomeLabels?: Partial<Record<Outcome, string>>;
  /** The resource fields' titles by key (the export's `resourceTitles`). */
  resourceTitles?: Readonly<Record<string, string>>;
}

const proposalColumns = ['Proposal ID', 'Proposal', 'Proposal Author', 'State'];
// The id is a number, as a spreadsheet sorts and looks it up.
const proposalCells = (row: Row): ExportCell[] => [
  { whole: row.id },
  row.proposalName,
  row.author,
  row.state,
];
/**
 * A row whose reviews, scores and decision the server left out for the chair, who has a
 * conflict of interest with it (`myConflict`): its reviewer column says so instead.
 */
const conflictNote = (row: Row) => (row.myConflict ? conflictMessages.exportOmitted : '');
const reviewersOf = (row: Row) =>
  conflictNote(row) || (row.reviewers ?? []).map((person) => person.name).join(', ');
const scoreOf = (row: Row, field: string) =>
  row.reviewScores?.find((score) => score.name === field)?.value ?? null;

/** The written questions of some rows' reviews, in the order they first appear. */
function questionsOf(rows: readonly Row[]): string[] {
  const names = new Set<string>();
  for (const row of rows)
    for (const review of row.allReviewComments ?? [])
      for (const comment of review.comments) names.add(comment.name);
  return [...names];
}

/** One reviewer's answer to a question; two forms asking the same title keep both. */
function answerOf(comments: readonly { name: string; value: string }[], question: string) {
  return comments
    .filter((comment) => comment.name === question)
    .map((comment) => comment.value)
    .join('\n\n');
}

/**
 * The decision columns of some rows (issue 29): "Outcome", and an "Awarded: facility:
 * field" beside each resource column and any other field awarded. None until a chair has
 * set the outcome of one of them (an export without `decisions`, a call that decides
 * without the decision meeting, or one whose decided rows were all left out for the
 * reader): a file gains no empty columns. The outcome in the call's own words; empty while
 * unset, and on a row whose decision the reader may not read; an award empty where none
 * was given.
 */
function decisionColumns(source: ExportSource, rows: readonly Row[], resources: ResourceColumn[]) {
  if (!rows.some((row) => row.decision?.outcome !== undefined))
    return { outcome: [], awarded: [], outcomeCells: () => [], awardedCells: () => [] };
  const titles = source.resourceTitles ?? {};
  const awarded = resourceColumnsOf(source.facilities, [
    ...resources.map(({ facility, field }) => ({ [facility]: { [field]: 0 } })),
    ...rows.map((row) => row.decision?.awards),
  ]);
  return {
    outcome: ['Outcome'],
    awarded: awarded.map((column) => `Awarded: ${resourceHeader(column, titles)}`),
    outcomeCells: (row: Row): ExportCell[] => [outcomeText(row, source)],
    awardedCells: (row: Row): ExportCell[] =>
      awarded.map((column) => {
        const amount = resourceAmount(row.decision?.awards, column);
        return amount === undefined ? '' : { amount };
      }),
  };
}

/** A row's outcome as its file writes it: the call's word for it; empty while unset or unread. */
const outcomeText = (
  row: Pick<Row, 'decision'>,
  source: Pick<ExportSource, 'outcomeLabels'>,
): string => {
  const outcome = row.decision?.outcome;
  return outcome ? outcomeLabel(outcome, source.outcomeLabels) : '';
};

/** Builds one of the four downloads of a type's rows. */
export function exportTable(kind: ExportKind, source: ExportSource): ExportTable {
  const rows = source.rows.filter(isDownloaded);
  const labels = source.labels ?? new Map<string, string>();
  const titles = source.resourceTitles ?? {};
  const fields = scoreFieldsOfRows(rows);
  const fieldHeaders = fields.map((field) => labels.get(field) ?? field);
  const resources = resourceColumnsOf(
    source.facilities,
    rows.map((row) => row.resourceValues),
  );
  const resourceCells = (row: Row): ExportCell[] =>
    resources.map((column) => ({ amount: resourceAmount(row.resourceValues, column) }));
  const decisions = decisionColumns(source, rows, resources);
  const scoreCells = (row: Row): ExportCell[] => [
    ...fields.map((field) => ({ score: scoreOf(row, field) })),
    { score: row.score ?? scoreOf(row, RESULT_SCORE) },
  ];
  const questions = questionsOf(rows);

  switch (kind) {
    case 'score':
      return {
        header: [
          ...proposalColumns,
          'Reviewers',
          ...fieldHeaders,
          'Review Score',
          ...decisions.outcome,
        ],
        rows: rows.map((row) => [
          ...proposalCells(row),
          reviewersOf(row),
          ...scoreCells(row),
          ...decisions.outcomeCells(row),
        ]),
      };
    case 'resources':
      return {
        header: [
          ...proposalColumns,
          ...resources.map((column) => resourceHeader(column, titles)),
          ...decisions.outcome,
          ...decisions.awarded,
        ],
        rows: rows.map((row) => [
          ...proposalCells(row),
          ...resourceCells(row),
          ...decisions.outcomeCells(row),
          ...decisions.awardedCells(row),
        ]),
      };
    case 'comments':
      // One row per review: who wrote it, and each answer under its question; a row with
      // the note for a proposal whose reviews were left out.
      return {
        header: [...proposalColumns, 'Reviewer', ...questions],
        rows: rows.flatMap((row) =>
          row.myConflict
            ? [[...proposalCells(row), conflictNote(row), ...questions.map(() => '')]]
            : (row.allReviewComments ?? []).map((review) => [
                ...proposalCells(row),
                review.reviewer.name,
                ...questions.map((question) => answerOf(review.comments, question)),
              ]),
        ),
      };
    case 'all':
      // One row per proposal: every column of the other three; each question's answers
      // are the reviewers' in turn, "Name: answer", a blank line apart.
      return {
        header: [
          ...proposalColumns,
          'Reviewers',
          ...fieldHeaders,
          'Review Score',
          ...resources.map((column) => resourceHeader(column, titles)),
          ...decisions.outcome,
          ...decisions.awarded,
          ...questions,
        ],
        rows: rows.map((row) => [
          ...proposalCells(row),
          reviewersOf(row),
          ...scoreCells(row),
          ...resourceCells(row),
          ...decisions.outcomeCells(row),
          ...decisions.awardedCells(row),
          ...questions.map((question) =>
            (row.allReviewComments ?? [])
              .map((review) => ({
                name: review.reviewer.name,
                answer: answerOf(review.comments, question),
              }))
              .filter(({ answer }) => answer !== '')
              .map(({ name, answer }) => `${name}: ${answer}`)
              .join('\n\n'),
          ),
        ]),
      };
  }
}

/**
 * A type's Reviews sheet of the whole-call workbook: one row per review joining the
 * proposal, its reviewer, that review's score on each criterion and its score, and the
 * proposal's review score and outcome; a proposal without reviews has one row, reviewer
 * empty, or the note that its reviews were left out for a chair with a conflict of
 * interest. The resources are not here but on the type's Resources sheet, one row per
 * proposal (`workbookSheets`): repeated on each review's row, a sum counted them again
 * for each reviewer.
 */
export function workbookTable(source: ExportSource): ExportTable {
  const rows = source.rows.filter(isDownloaded);
  const labels = source.labels ?? new Map<string, string>();
  const fields = scoreFieldsOfRows(rows);
  const decisions = decisionColumns(source, rows, []);
  return {
    header: [
      ...proposalColumns,
      'Reviewer',
      ...fields.map((field) => labels.get(field) ?? field),
      'Reviewer’s Score',
      'Review Score',
      ...decisions.outcome,
    ],
    rows: rows.flatMap((row) => {
      const reviews = row.allReviewScores ?? [];
      const tail: ExportCell[] = [{ score: row.score ?? null }, ...decisions.outcomeCells(row)];
      if (reviews.length === 0)
        return [
          [
            ...proposalCells(row),
            conflictNote(row),
            ...fields.map(() => ({ score: null })),
            { score: null },
            ...tail,
          ],
        ];
      return reviews.map((review) => [
        ...proposalCells(row),
        review.reviewer.name,
        ...fields.map((field) => ({
          score: review.scores.find((score) => score.name === field)?.value ?? null,
        })),
        { score: review.score },
        ...tail,
      ]);
    }),
  };
}

/** The words after a type's name in its two sheets' names. */
const SHEET_KINDS = { reviews: 'Reviews', resources: 'Resources' } as const;

/**
 * A proposal type's sheets of the whole-call workbook: its Reviews (`workbookTable`, one
 * row per review) and its Resources (the Resources download's table, one row per
 * proposal, so a sum of a column counts each proposal once). Each sheet is called by the
 * type's name, cut so that the kind still fits Excel's 31 characters.
 */
export function workbookSheets(typeName: string, source: ExportSource) {
  const named = (kind: string) => `${typeName.slice(0, 31 - kind.length - 1).trim()} ${kind}`;
  return [
    { name: named(SHEET_KINDS.reviews), table: workbookTable(source) },
    { name: named(SHEET_KINDS.resources), table: exportTable('resources', source) },
  ];
}

/**
 * The workbook's Capacity sheet (issue 29): per facility and data field of the ranking,
 * its capacity (N/A where none is entered), what the ranked proposals request and are
 * awarded, and both over the capacity: the oversubscription, as numbers (N/A without a
 * capacity, or at 0).
 */
export function capacityTable(
  ranking: Pick<ExportRanking, 'lines'>,
  titles: Readonly<Record<string, string>> = {},
): ExportTable {
  return {
    header: [
      'Facility',
      'Field',
      'Capacity',
      'Requested',
      'Awarded',
      'Requested / Capacity',
      'Awarded / Capacity',
    ],
    rows: ranking.lines.map((line) => [
      facilityLabel(line.facility),
      resourceFieldTitle(titles, line.field),
      { amount: line.capacity ?? undefined },
      { amount: line.requested },
      { amount: line.awarded },
      { ratio: line.oversubscription },
      { ratio: line.awardedShare },
    ]),
  };
}

const yesNo = (value: boolean | undefined) => (value === undefined ? '' : value ? 'Yes' : 'No');

/**
 * The workbook's Ranking sheet (issue 29): the proposals in the Ranking page's order (the
 * chairs' moves included), each with its rank and id as numbers, its name, type, review
 * score and outcome, and per facility and field what it requests and the running total of
 * requests down to it; then whether it is above each facility's line, and above the line.
 * Its name, type and outcome are its row's in the export (`rows`).
 */
export function rankingTable(
  ranking: ExportRanking,
  source: Pick<ExportSource, 'rows' | 'outcomeLabels' | 'resourceTitles'>,
): ExportTable {
  const rowOf = new Map(source.rows.map((row) => [row.id, row]));
  const facilities = [...new Set(ranking.lines.map((line) => line.facility))];
  return {
    header: [
      'Rank',
      'Proposal ID',
      'Proposal',
      'Proposal Type',
      'Review Score',
      'Outcome',
      ...ranking.lines.flatMap((line) => [
        `Requested: ${resourceHeader(line, source.resourceTitles)}`,
        `Running total: ${resourceHeader(line, source.resourceTitles)}`,
      ]),
      ...facilities.map((facility) => `Above the line: ${facilityLabel(facility)}`),
      'Above the line',
    ],
    rows: ranking.rows.map((ranked) => {
      const row = rowOf.get(ranked.proposalId);
      return [
        { whole: ranked.rank },
        { whole: ranked.proposalId },
        row?.proposalName ?? '',
        row?.proposalTypeName ?? '',
        { score: ranked.score },
        row ? outcomeText(row, source) : '',
        ...ranking.lines.flatMap((line): ExportCell[] => [
          { amount: resourceAmount(ranked.requested, line) },
          { amount: resourceAmount(ranked.running, line) },
        ]),
        ...facilities.map((facility) => yesNo(ranked.aboveLine[facility])),
        yesNo(ranked.above),
      ];
    }),
  };
}

/** A cell as CSV text: scores and ratios to 2 decimals, amounts as written, N/A for missing ones. */
export function cellText(cell: ExportCell): string {
  if (typeof cell === 'string') return cell;
  if ('score' in cell) return formatScore(cell.score);
  if ('ratio' in cell) return formatScore(cell.ratio);
  if ('whole' in cell) return String(cell.whole);
  return cell.amount === undefined ? 'N/A' : String(cell.amount);
}

/**
 * A table as CSV text. As the Review Summary (review-summary-csv.ts), a text cell a
 * spreadsheet would run as a formula is written as text (spreadsheetText): reviewers' and
 * authors' words are not to be trusted as formulas on a chair's computer. Scores and
 * amounts are numbers and stay so.
 */
export function tableCsv(table: ExportTable): string {
  const csvCell = (cell: ExportCell) =>
    typeof cell === 'string' ? spreadsheetText(cell) : cellText(cell);
  return csvText([table.header.map(spreadsheetText), ...table.rows.map((row) => row.map(csvCell))]);
}

/** A cell of the XLSX writer's sheet data (xlsx-writer.ts; kept here so this file stays light). */
export type SheetCell =
  | { value: string; type: StringConstructor; fontWeight?: 'bold'; wrap?: boolean }
  | { value: number; type: NumberConstructor; format: string };

/** Numbers in the XLSX files are numbers, shown with 2 decimals. */
export const NUMBER_FORMAT = '0.00';
/** Whole numbers (ranks, ids) are numbers shown without decimals. */
export const WHOLE_FORMAT = '0';

/**
 * A table as sheet data: a bold header row, numbers as numbers, N/A as text. Text that
 * would start a formula gets its apostrophe here too: the cell is text in the file, but
 * a person who edits it in Excel would otherwise turn it into a formula.
 */
export function tableSheetData(table: ExportTable): SheetCell[][] {
  const text = (value: string): SheetCell => ({ value: spreadsheetText(value), type: String });
  return [
    table.header.map((value) => ({
      value: spreadsheetText(value),
      type: String,
      fontWeight: 'bold' as const,
    })),
    ...table.rows.map((row) =>
      row.map((cell): SheetCell => {
        if (typeof cell === 'string') return text(cell);
        if ('whole' in cell) return { value: cell.whole, type: Number, format: WHOLE_FORMAT };
        const value = 'score' in cell ? cell.score : 'ratio' in cell ? cell.ratio : cell.amount;
        return value === null || value === undefined
          ? text('N/A')
          : { value, type: Number, format: NUMBER_FORMAT };
      }),
    ),
  ];
}

/** A sheet's name as Excel allows it: at most 31 characters, none of []:*?/\, unique. */
export function sheetNames(names: readonly string[]): string[] {
  const used = new Set<string>();
  return names.map((name) => {
    const base =
      name
        .replace(/[[\]:*?/\\]/g, ' ')
        .trim()
        .slice(0, 31) || 'Sheet';
    let candidate = base;
    for (let n = 2; used.has(candidate.toLowerCase()); n += 1)
      candidate = `${base.slice(0, 31 - String(n).length - 1)} ${n}`;
    used.add(candidate.toLowerCase());
    return candidate;
  });
}
