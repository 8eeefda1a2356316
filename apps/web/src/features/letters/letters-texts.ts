import type { LetterState } from './letter-state';

/*
 * The Letters page's own words (issue 29). Refusals come from the server, in the domain's
 * `letterMessages` and `decisionMessages`; these are what only the page says.
 */

const counting = new Intl.NumberFormat('en');
/** "1 letter", "2,000 letters". */
const count = (n: number, one: string, many: string) =>
  `${counting.format(n)} ${n === 1 ? one : many}`;

export const lettersTexts = {
  title: 'Letters',
  saved: 'The letter templates have been saved.',
  unsaved: 'Your changes to the letters are not saved yet.',
  needChanges: 'Some templates need changes: see the fields marked below.',
  leaveText: 'Your changes to the letter templates are not saved. If you leave now, they are lost.',
  fieldsHelp:
    'Select a field to put it where the cursor is in the subject or body you were writing.',
  previewUsesSaved:
    'The preview uses the saved templates: save your changes to see them in the letter.',
  noProposals:
    'No proposal of this call has been submitted, so there is nobody to write to. Letters show here once proposals are submitted and given an outcome.',
  noOutcomeYet:
    'No proposal has an outcome yet. Set outcomes on the Ranking page, then preview their letters here.',
  chooseProposal: 'Choose a proposal to see its letter as it will be sent.',
  notClosed:
    'Decisions can be released once the call is closed. Close it from Manage Call when the committee has decided.',
  released: (at: string) =>
    `Decisions were released on ${at}. Applicants can read their outcome, award and letter.`,
  polling: 'Updated every few seconds while letters are queued.',
  releaseTitle: 'Release decisions?',
  releaseText: (letters: number, withoutOutcome: number) =>
    `Merit writes ${count(letters, 'letter', 'letters')} now, one to each proposal with an outcome (to its author, with its collaborators in copy), and sends ${letters === 1 ? 'it' : 'them'} by mail. ` +
    (withoutOutcome === 0
      ? 'Every proposal has an outcome. '
      : `${count(withoutOutcome, 'proposal has', 'proposals have')} no outcome and ${withoutOutcome === 1 ? 'gets' : 'get'} no letter. `) +
    'From now on the applicants see their outcome, award and letter. Decisions are released once: this cannot be undone.',
  queued: (queued: number, withoutOutcome: number) =>
    `${count(queued, 'letter was', 'letters were')} queued.` +
    (withoutOutcome > 0
      ? ` ${count(withoutOutcome, 'proposal has', 'proposals have')} no outcome and got no letter.`
      : ''),
  resendTitle: 'Send this letter again?',
  resendText: (name: string) =>
    `Merit writes the letter of “${name}” again and sends it to its author, with its collaborators in copy.`,
  correctTitle: 'Send the corrected letter?',
  correctText: (name: string) =>
    `The outcome of “${name}” changed since its letter was sent. Merit writes a new letter from its outcome now and sends it; the old one is kept in the proposal’s history, and its applicants no longer see it.`,
  firstTitle: 'Send its letter?',
  firstText: (name: string) =>
    `“${name}” was given its outcome after the decisions were released, so it has no letter yet. Merit writes its letter now and sends it to its author, with its collaborators in copy.`,
  sent: 'The letter was queued: it goes out in a moment.',
  noOutcome: 'No outcome',
  notWritten: 'Not written yet',
} as const;

export const LETTER_STATE_LABELS: Record<LetterState, string> = {
  no_outcome: 'No outcome: no letter',
  not_written: 'Not written yet',
  queued: 'Queued',
  sent: 'Sent',
  failed: 'Failed',
  superseded: 'Superseded',
};
