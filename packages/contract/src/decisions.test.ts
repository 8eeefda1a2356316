import { MAX_LETTER_BODY, MAX_LETTER_SUBJECT, MAX_SIGNATURE } from '@merit/domain/letters';
import { describe, expect, it } from 'vitest';
import {
  decisionSave,
  MAX_LETTER_BODY_CHARS,
  MAX_LETTER_SUBJECT_CHARS,
  MAX_SIGNATURE_CHARS,
  rankingMove,
} from './index.js';

describe('decision schemas', () => {
  it('hold the letters to the domain’s limits, written out here to keep the engine out', () => {
    expect([MAX_LETTER_SUBJECT_CHARS, MAX_LETTER_BODY_CHARS, MAX_SIGNATURE_CHARS]).toEqual([
      MAX_LETTER_SUBJECT,
      MAX_LETTER_BODY,
      MAX_SIGNATURE,
    ]);
  });

  it('take null to unset an outcome, and refuse one they do not know', () => {
    const save = { outcome: null, awards: {}, awardNotes: {}, version: 0 };
    expect(decisionSave.safeParse(save).success).toBe(true);
    expect(decisionSave.safeParse({ ...save, outcome: 'accepted' }).success).toBe(false);
  });

  it('want a reason for moving a proposal in the ranking', () => {
    const result = rankingMove.safeParse({ proposalId: 1, after: null, reason: ' ', version: 0 });
    expect(result.error?.issues[0]?.message).toBe('Say why this proposal moves in the ranking.');
  });
});
