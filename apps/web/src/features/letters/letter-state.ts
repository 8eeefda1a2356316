import type { CallLetters } from '@merit/contract';

/*
 * Where each proposal's letter is, as the Release list orders them: the proposals with no
 * outcome first (they get no letter), then those not written yet (before release), then
 * queued, sent, failed and superseded.
 */

export type LetterRow = CallLetters['proposals'][number];

export const LETTER_STATE_ORDER = [
  'no_outcome',
  'not_written',
  'queued',
  'sent',
  'failed',
  'superseded',
] as const;
export type LetterState = (typeof LETTER_STATE_ORDER)[number];

export function letterStateOf(row: LetterRow): LetterState {
  if (row.outcome === null) return 'no_outcome';
  return row.letter?.state ?? 'not_written';
}

/** The place of a row's state in LETTER_STATE_ORDER, for sorting. */
export const letterStateRank = (row: LetterRow) => LETTER_STATE_ORDER.indexOf(letterStateOf(row));
