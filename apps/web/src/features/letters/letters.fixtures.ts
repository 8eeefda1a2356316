import type { CallLetters, LetterPreview, LetterTemplates } from '@merit/contract';
import { OUTCOMES } from '@merit/domain';
import { DEFAULT_LETTER_TEMPLATES } from '@merit/domain/letters';

/*
 * Test data only: the letters of call 12 ("Beamtime 2026", calls.fixtures): its templates
 * (GET .../letter_templates/), its proposals' letters (GET .../letters/) and one preview.
 */

/** Version 2: Merit's default templates, "Granted" for Approved, and a signature. */
export function makeLetterTemplates(overrides: Partial<LetterTemplates> = {}): LetterTemplates {
  return {
    templates: OUTCOMES.map((outcome) => ({ outcome, ...DEFAULT_LETTER_TEMPLATES[outcome] })),
    signature: 'Carla Chair, for the committee',
    outcomeLabels: { approved: 'Granted', partly_approved: '', waitlisted: '', declined: '' },
    version: 2,
    ...overrides,
  };
}

type Row = CallLetters['proposals'][number];

const letter = (
  id: number,
  state: NonNullable<Row['letter']>['state'],
  outcome: Row['outcome'],
) => ({
  id,
  state,
  outcome: outcome!,
  createdAt: '2026-05-10T09:00:00.000Z',
  sentAt: state === 'sent' ? '2026-05-10T09:01:00.000Z' : null,
  hasPdf: true,
});

/** Before release: two proposals with an outcome, one without; no letter written. */
export function makeCallLetters(overrides: Partial<CallLetters> = {}): CallLetters {
  return {
    releasedAt: null,
    proposals: [
      {
        proposalId: 33,
        name: 'Undecided optics',
        outcome: null,
        state: 'draft',
        letter: null,
        changedSinceLetter: false,
        error: null,
      },
      {
        proposalId: 30,
        name: 'Crystal growth',
        outcome: 'approved',
        state: 'draft',
        letter: null,
        changedSinceLetter: false,
        error: null,
      },
      {
        proposalId: 31,
        name: 'Muon lifetimes',
        outcome: 'declined',
        state: 'draft',
        letter: null,
        changedSinceLetter: false,
        error: null,
      },
    ],
    ...overrides,
  };
}

/** After release: one sent, one failed, one whose outcome changed since its letter. */
export function makeReleasedLetters(overrides: Partial<CallLetters> = {}): CallLetters {
  return {
    releasedAt: '2026-05-10T09:00:00.000Z',
    proposals: [
      {
        proposalId: 33,
        name: 'Undecided optics',
        outcome: null,
        state: 'draft',
        letter: null,
        changedSinceLetter: false,
        error: null,
      },
      {
        proposalId: 30,
        name: 'Crystal growth',
        outcome: 'approved',
        state: 'sent',
        letter: letter(900, 'sent', 'approved'),
        changedSinceLetter: false,
        error: null,
      },
      {
        proposalId: 31,
        name: 'Muon lifetimes',
        outcome: 'declined',
        state: 'failed',
        letter: letter(901, 'failed', 'declined'),
        changedSinceLetter: false,
        error: 'The mail server refused the message.',
      },
      {
        proposalId: 32,
        name: 'Neutron optics',
        outcome: 'approved',
        state: 'sent',
        letter: letter(902, 'sent', 'waitlisted'),
        changedSinceLetter: true,
        error: null,
      },
    ],
    ...overrides,
  };
}

/** The letter of proposal 30, with markup a proposal's name tried to slip in, escaped. */
export function makePreview(overrides: Partial<LetterPreview> = {}): LetterPreview {
  return {
    outcome: 'approved',
    to: ['ada@example.org', 'grace@example.org'],
    subject: 'Beamtime 2026: decision on Crystal growth',
    html: '<div style="margin: 0 0 1em">Dear Ada Lovelace,</div><div>&lt;script&gt;alert(1)&lt;/script&gt; Granted.</div>',
    text: 'Dear Ada Lovelace,\n\n<script>alert(1)</script> Granted.',
    ...overrides,
  };
}
