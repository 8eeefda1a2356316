import { facilityLabel, type ResourceValues } from '../resources/resources.js';

/*
 * Decisions (issue 29): each proposal's outcome, what it is awarded of each facility, and
 * each facility's capacity. The ranking and its line are in ranking.ts; the letters in
 * letters.ts.
 */

/** The outcomes, in the order the screens list them. Unset (null) until a chair sets one. */
export const OUTCOMES = ['approved', 'partly_approved', 'waitlisted', 'declined'] as const;
export type Outcome = (typeof OUTCOMES)[number];

/** The outcomes' names. A call may rename them for its letters (`outcomeLabel`). */
export const OUTCOME_LABELS: Record<Outcome, string> = {
  approved: 'Approved',
  partly_approved: 'Partly approved',
  waitlisted: 'Waitlisted',
  declined: 'Declined',
};

/** An outcome's name in a call's letters: the call's own word for it, or the label. */
export const outcomeLabel = (
  outcome: Outcome,
  renamed: Partial<Record<Outcome, string>> = {},
): string => renamed[outcome]?.trim() || OUTCOME_LABELS[outcome];

/** Only what is approved, wholly or in part, is awarded anything. */
export const awardsAllowed = (outcome: Outcome | null): boolean =>
  outcome === 'approved' || outcome === 'partly_approved';

/** The longest note on an award, and the largest amount anyone may award or have as capacity. */
export const MAX_AWARD_NOTE = 500;
export const MAX_AMOUNT = 1e12;
/** The longest reason for moving a proposal in the ranking. */
export const MAX_RANK_REASON = 500;
/** The longest name an outcome may be given for the letters. */
export const MAX_OUTCOME_LABEL = 60;

export const decisionMessages = {
  chairsOnly: 'Only the chairs of the call’s committee can set outcomes and awards.',
  ownProposal: 'You cannot decide on a proposal you wrote or collaborate on.',
  notYet: 'Outcomes can be set once submission has closed for this proposal.',
  draft: 'This proposal was never submitted, so it gets no outcome.',
  /** 409 `stale`: another chair saved this proposal's outcome after this one opened it. */
  stale: (savedBy: string | null) =>
    `${savedBy ?? 'Someone'} changed this proposal’s outcome or awards after you opened them, so yours were not saved. Look at theirs, then save again.`,
  negative: 'An award cannot be negative.',
  tooLarge: 'This amount is too large.',
  aboveRequest: (requested: number) =>
    `This is more than the ${formatAmount(requested)} asked for: say why in the note.`,
  notRequested: 'The proposal asks nothing of this facility, so nothing can be awarded from it.',
  fieldNotRequested: 'The proposal asks nothing for this field, so nothing can be awarded for it.',
  awardsNeedApproval: 'Only an approved or partly approved proposal is awarded anything.',
  noteWithoutAward: 'A note belongs with an award of this facility.',
  capacityNegative: 'A capacity cannot be negative.',
  capacityStale:
    'Someone changed the capacities after you opened them, so yours were not saved. Look at theirs, then save again.',
  rankStale:
    'The ranking changed after you opened it, so the proposal was not moved. Look at the new order, then move it again.',
  rankReasonMissing: 'Say why this proposal moves in the ranking.',
  notReleased: 'The decision on this proposal is available once the chairs have released it.',
  releaseBeforeClose: 'Decisions can be released once the call is closed.',
  alreadyReleased: 'Decisions of this call have been released already.',
  waitlistNegative: 'The number to waitlist cannot be negative.',
} as const;

/** One formatter for every amount: `toLocaleString` with options makes a new one each call. */
const amounts = new Intl.NumberFormat('en-GB', { maximumFractionDigits: 2 });

/** An amount as the screens and letters write it: up to two decimals, with separators. */
export function formatAmount(amount: number): string {
  return amounts.format(amount);
}

/** One problem with an award, named by where it is: `awards.<facility>.<field>` or `awardNotes.<facility>`. */
export interface AwardProblem {
  path: string;
  message: string;
}

/** What a chair sends for one proposal's decision. */
export interface DecisionInput {
  outcome: Outcome | null;
  awards: ResourceValues;
  awardNotes: Record<string, string>;
}

/**
 * Awards start as what was asked for: every facility and field the proposal asks a number
 * of, for an outcome that awards anything; nothing otherwise.
 */
export function defaultAwards(outcome: Outcome | null, requested: ResourceValues): ResourceValues {
  if (!awardsAllowed(outcome)) return {};
  const awards: ResourceValues = {};
  for (const [facility, fields] of Object.entries(requested)) {
    if (Object.keys(fields).length > 0) awards[facility] = { ...fields };
  }
  return awards;
}

/**
 * The problems with a decision's awards against what the proposal asks for: an award only
 * for an approved or partly approved proposal, only of a facility and field it asks a
 * number of, never negative, and more than asked for only with a note on that facility.
 * Notes go with a facility that is awarded something.
 */
export function awardProblems(decision: DecisionInput, requested: ResourceValues): AwardProblem[] {
  const problems: AwardProblem[] = [];
  const awarded = Object.entries(decision.awards);
  if (!awardsAllowed(decision.outcome)) {
    if (awarded.some(([, fields]) => Object.keys(fields).length > 0))
      problems.push({ path: 'awards', message: decisionMessages.awardsNeedApproval });
    return problems;
  }
  for (const [facility, fields] of awarded) {
    const asked = requested[facility];
    for (const [field, amount] of Object.entries(fields)) {
      const path = `awards.${facility}.${field}`;
      if (asked === undefined) {
        problems.push({ path, message: decisionMessages.notRequested });
      } else if (asked[field] === undefined) {
        problems.push({ path, message: decisionMessages.fieldNotRequested });
      } else if (!Number.isFinite(amount) || amount < 0) {
        problems.push({ path, message: decisionMessages.negative });
      } else if (amount > MAX_AMOUNT) {
        problems.push({ path, message: decisionMessages.tooLarge });
      } else if (amount > asked[field] && !decision.awardNotes[facility]?.trim()) {
        problems.push({ path, message: decisionMessages.aboveRequest(asked[field]) });
      }
    }
  }
  for (const [facility, note] of Object.entries(decision.awardNotes)) {
    if (note.trim() !== '' && decision.awards[facility] === undefined)
      problems.push({ path: `awardNotes.${facility}`, message: decisionMessages.noteWithoutAward });
  }
  return problems;
}

/** Per facility and data field, the capacity a call's chairs entered. */
export type Capacity = ResourceValues;

/** The problems with capacities: never negative, never beyond MAX_AMOUNT. */
export function capacityProblems(capacity: Capacity): AwardProblem[] {
  const problems: AwardProblem[] = [];
  for (const [facility, fields] of Object.entries(capacity)) {
    for (const [field, amount] of Object.entries(fields)) {
      const path = `capacity.${facility}.${field}`;
      if (!Number.isFinite(amount) || amount < 0)
        problems.push({ path, message: decisionMessages.capacityNegative });
      else if (amount > MAX_AMOUNT) problems.push({ path, message: decisionMessages.tooLarge });
    }
  }
  return problems;
}

/** A facility and field as a heading reads them: "Telescope A: nights". */
export const facilityFieldLabel = (facility: string, field: string) =>
  `${facilityLabel(facility)}: ${field}`;
