import type { ScoreFormOptions } from '../forms/form-options.js';

/**
 * Scores (ARCHITECTURE.md "Scores"): a Review Score Form (type 3) turns the numbers a
 * reviewer gave its score fields into the review's score, by `average` or `total`; a
 * proposal's score per field is the mean over its reviews, and its `result` the mean of
 * the reviews' scores. A field left empty counts as missing, never as zero.
 */

/** One named score; null when nobody gave that field a number. */
export interface Score {
  name: string;
  value: number | null;
}

/** The name of the proposal-level entry that holds the mean of the review scores. */
export const RESULT_SCORE = 'result';

/** A Review Score Form's options with the answers one review gave it. */
export interface ScoredForm {
  options: ScoreFormOptions;
  data: Record<string, unknown>;
}

const numberOrNull = (value: unknown) =>
  typeof value === 'number' && Number.isFinite(value) ? value : null;

const mean = (values: readonly number[]) =>
  values.length === 0 ? null : values.reduce((a, b) => a + b, 0) / values.length;

/**
 * A review's scores: each score field's number, and the review's score. With several
 * score forms (rare), their scores add up, each form computed by its own method.
 */
export function reviewScore(forms: readonly ScoredForm[]): {
  scores: Score[];
  score: number | null;
} {
  const scores: Score[] = [];
  let score: number | null = null;
  for (const { options, data } of forms) {
    const given: number[] = [];
    for (const field of options.fields) {
      const value = numberOrNull(data[field]);
      scores.push({ name: field, value });
      if (value !== null) given.push(value);
    }
    if (given.length === 0) continue;
    const formScore =
      options.method === 'total' ? given.reduce((a, b) => a + b, 0) : (mean(given) as number);
    score = (score ?? 0) + formScore;
  }
  return { scores, score };
}

/**
 * A proposal's scores over its reviews: each score field's mean over the reviews that
 * gave it a number, in the order the fields first appear, then the `result` entry, the
 * mean of the reviews' scores.
 */
export function proposalScores(
  reviews: readonly { scores: readonly Score[]; score: number | null }[],
): Score[] {
  const byField = new Map<string, number[]>();
  for (const review of reviews) {
    for (const { name, value } of review.scores) {
      const values = byField.get(name) ?? [];
      if (value !== null) values.push(value);
      byField.set(name, values);
    }
  }
  const results = reviews.map((r) => r.score).filter((s): s is number => s !== null);
  return [
    ...[...byField].map(([name, values]) => ({ name, value: mean(values) })),
    { name: RESULT_SCORE, value: mean(results) },
  ];
}

/** A score as people read it (spec section 9): two decimals, N/A when there is none. */
export function formatScore(value: number | null | undefined): string {
  return value === null || value === undefined ? 'N/A' : value.toFixed(2);
}
