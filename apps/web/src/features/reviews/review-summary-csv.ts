import type { ReviewSummary } from '@merit/contract';
import { formatScore, RESULT_SCORE, spreadsheetText } from '@merit/domain';
import { csvText } from '../files/csv';
import { downloadFileName } from '../files/downloads';

/**
 * The review list's download, named as the chair's are (issue 30: every proposal's was
 * "Review Summary.csv"): "Call - Proposal - Review Summary.csv".
 */
export const reviewSummaryFileName = (callName: string, proposalName: string) =>
  downloadFileName([callName, proposalName, 'Review Summary'], 'csv');

/** Names listed once each, in the order they first appear. */
const inOrder = (names: Iterable<string>) => [...new Set(names)];

/**
 * The score fields of a proposal's reviews, in the order the reviews list them (the
 * score form's order); the `result` entry of a proposal's totals is its Score column.
 */
export function scoreFieldsOf(reviews: readonly Pick<ReviewSummary, 'scores'>[]): string[] {
  return inOrder(reviews.flatMap((review) => review.scores.map((score) => score.name))).filter(
    (name) => name !== RESULT_SCORE,
  );
}

/**
 * The Review Summary's rows (spec section 2, Reviews): a header, then one row per
 * review: the reviewer, each score field (2 decimals, N/A when not scored), the review's
 * score, then each written answer under its question's label. A question a reviewer left
 * empty is an empty cell.
 */
export function reviewSummaryRows(
  reviews: readonly ReviewSummary[],
  labels: ReadonlyMap<string, string> = new Map(),
): string[][] {
  const fields = scoreFieldsOf(reviews);
  const questions = inOrder(reviews.flatMap((review) => review.comments.map((c) => c.name)));
  const header = ['Reviewer', ...fields.map((field) => labels.get(field) ?? field), 'Score'];
  return [
    [...header, ...questions],
    ...reviews.map((review) => {
      const scores = new Map(review.scores.map((score) => [score.name, score.value]));
      const answers = new Map<string, string>();
      // Two forms may ask a question of the same title: both answers are kept.
      for (const { name, value } of review.comments)
        answers.set(name, answers.has(name) ? `${answers.get(name)}\n\n${value}` : value);
      return [
        review.author,
        ...fields.map((field) => formatScore(scores.get(field))),
        formatScore(review.score),
        ...questions.map((question) => answers.get(question) ?? ''),
      ];
    }),
  ];
}

/**
 * The Review Summary as CSV text. A text cell that a spreadsheet would run as a formula
 * (spreadsheetText: `=`, `+`, `-`, `@`, tab or carriage return first) is written as text:
 * reviewers' answers are not to be trusted as formulas on a chair's computer. The score
 * columns are numbers (or N/A) and stay so.
 */
export function reviewSummaryCsv(
  reviews: readonly ReviewSummary[],
  labels?: ReadonlyMap<string, string>,
): string {
  const [header, ...rows] = reviewSummaryRows(reviews, labels);
  const scoreColumns = 1 + scoreFieldsOf(reviews).length + 1;
  return csvText([
    header!.map(spreadsheetText),
    ...rows.map((row) =>
      row.map((cell, column) =>
        column > 0 && column < scoreColumns ? cell : spreadsheetText(cell),
      ),
    ),
  ]);
}
