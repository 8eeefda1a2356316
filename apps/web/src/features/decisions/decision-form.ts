import type { DecisionSave } from '@merit/contract';
import {
  awardProblems,
  awardsAllowed,
  defaultAwards,
  type Outcome,
  type ResourceValues,
} from '@merit/domain';

/*
 * The outcome and awards as a chair edits them (DecisionEditor): the amounts as typed, so
 * a field can be blank or half-written, and the domain's checks on what would be sent.
 */

/** What a decision editor starts from: a ranking row's decision, or the proposal's. */
export interface SavedDecision {
  outcome: Outcome | null;
  awards: ResourceValues;
  awardNotes: Record<string, string>;
  version: number;
}

export interface DecisionDraft {
  outcome: Outcome | null;
  /** Per facility and field, the amount as typed; blank awards nothing of it. */
  awards: Record<string, Record<string, string>>;
  /** Per facility, the note (asked for only while an award of it is above the request). */
  notes: Record<string, string>;
}

/** An amount typed that is not a number at all. */
export const NOT_A_NUMBER = 'Enter a number.';

/** The facilities and fields a proposal asks a number of: the awards it can be given. */
export const awardFields = (requested: ResourceValues) =>
  Object.entries(requested).flatMap(([facility, fields]) =>
    Object.keys(fields).map((field) => ({ facility, field, asked: fields[field]! })),
  );

const asText = (awards: ResourceValues, requested: ResourceValues) => {
  const text: DecisionDraft['awards'] = {};
  for (const { facility, field } of awardFields(requested)) {
    const amount = awards[facility]?.[field];
    (text[facility] ??= {})[field] = amount === undefined ? '' : String(amount);
  }
  return text;
};

export function draftOf(saved: SavedDecision, requested: ResourceValues): DecisionDraft {
  return {
    outcome: saved.outcome,
    awards: awardsAllowed(saved.outcome) ? asText(saved.awards, requested) : {},
    notes: { ...saved.awardNotes },
  };
}

/**
 * Another outcome chosen: one that awards starts from what was asked for (or keeps the
 * awards typed for the outcome before, when that one awarded too); any other has none.
 */
export function withOutcome(
  draft: DecisionDraft,
  outcome: Outcome | null,
  requested: ResourceValues,
): DecisionDraft {
  if (!awardsAllowed(outcome)) return { outcome, awards: {}, notes: {} };
  if (awardsAllowed(draft.outcome)) return { ...draft, outcome };
  return { outcome, awards: asText(defaultAwards(outcome, requested), requested), notes: {} };
}

const amountOf = (text: string) => (text.trim() === '' ? undefined : Number(text));

/** Whether an award of `facility` is above what was asked for: its note is needed then. */
export function aboveRequest(
  draft: DecisionDraft,
  requested: ResourceValues,
  facility: string,
): boolean {
  return Object.entries(draft.awards[facility] ?? {}).some(([field, text]) => {
    const amount = amountOf(text);
    const asked = requested[facility]?.[field];
    return amount !== undefined && asked !== undefined && amount > asked;
  });
}

/**
 * What a save sends (without its version): the amounts typed, and the notes of the
 * facilities awarded more than they asked for (a note is asked for only there).
 */
export function inputOf(
  draft: DecisionDraft,
  requested: ResourceValues,
): Omit<DecisionSave, 'version'> {
  const awards: ResourceValues = {};
  const awardNotes: Record<string, string> = {};
  if (awardsAllowed(draft.outcome)) {
    for (const [facility, fields] of Object.entries(draft.awards)) {
      for (const [field, text] of Object.entries(fields)) {
        const amount = amountOf(text);
        if (amount !== undefined) (awards[facility] ??= {})[field] = amount;
      }
      const note = draft.notes[facility]?.trim() ?? '';
      if (note !== '' && awards[facility] && aboveRequest(draft, requested, facility))
        awardNotes[facility] = note;
    }
  }
  return { outcome: draft.outcome, awards, awardNotes };
}

/** The problems with a draft, keyed as the server keys them (`awards.<facility>.<field>`). */
export function draftProblems(
  draft: DecisionDraft,
  requested: ResourceValues,
): Map<string, string[]> {
  const problems = new Map<string, string[]>();
  const add = (path: string, message: string) =>
    problems.set(path, [...(problems.get(path) ?? []), message]);
  for (const [facility, fields] of Object.entries(draft.awards)) {
    for (const [field, text] of Object.entries(fields)) {
      const amount = amountOf(text);
      if (amount !== undefined && Number.isNaN(amount))
        add(`awards.${facility}.${field}`, NOT_A_NUMBER);
    }
  }
  if (problems.size > 0) return problems;
  for (const { path, message } of awardProblems(inputOf(draft, requested), requested))
    add(path, message);
  return problems;
}

/** The same decision, however it was typed: whether there is anything to save. */
export const sameDecision = (
  a: DecisionDraft,
  b: DecisionDraft,
  requested: ResourceValues,
): boolean => JSON.stringify(inputOf(a, requested)) === JSON.stringify(inputOf(b, requested));
