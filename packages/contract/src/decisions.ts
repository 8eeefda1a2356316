import { z } from 'zod';
import {
  MAX_AWARD_NOTE,
  MAX_OUTCOME_LABEL,
  MAX_RANK_REASON,
  OUTCOMES,
  decisionMessages,
} from '@merit/domain';
import { dateTime, entityId } from './common.js';

/*
 * Decisions (issue 29): outcomes and awards per proposal, capacities and the ranking per
 * call, letter templates, and the letters released to the applicants. Under /api/v1.
 * The letter limits are written out here rather than imported: the template engine stays
 * out of the contract (`@merit/domain/letters`); a contract test holds them equal.
 */

export const MAX_LETTER_SUBJECT_CHARS = 300;
export const MAX_LETTER_BODY_CHARS = 20_000;
export const MAX_SIGNATURE_CHARS = 2_000;

export const outcome = z.enum(OUTCOMES).meta({ id: 'Outcome' });

/**
 * Per facility, per data field, an amount: `ResourceValues` of proposals.ts, written again
 * here because the proposal's detail carries a decision (proposals.ts imports this file).
 */
const resourceValues = z.record(z.string(), z.record(z.string(), z.number()));

/** Per facility, a note (required on a facility awarded more than it asked for). */
export const awardNotes = z.record(z.string(), z.string().max(MAX_AWARD_NOTE));

/**
 * POST /proposals/{proposalId}/decision/: the outcome (null unsets it) and the awards, from
 * `version`. 409 `stale` with `current` when another chair saved since; 400 with `fields`
 * keyed `awards.<facility>.<field>` or `awardNotes.<facility>` (decisionMessages).
 */
export const decisionSave = z
  .object({
    outcome: outcome.nullable(),
    awards: resourceValues,
    awardNotes,
    version: z.number().int().min(0),
  })
  .strict();
export type DecisionSave = z.infer<typeof decisionSave>;

export const LETTER_STATES = ['queued', 'sent', 'failed', 'superseded'] as const;
export const letterState = z.enum(LETTER_STATES);

/** A proposal's current letter: its state, and the letter's id for its PDF (a download ticket). */
export const letterSummary = z
  .object({
    id: entityId,
    state: letterState,
    outcome,
    createdAt: dateTime,
    sentAt: dateTime.nullable(),
    /** The PDF is made: it can be downloaded. */
    hasPdf: z.boolean(),
  })
  .meta({ id: 'LetterSummary' });
export type LetterSummary = z.infer<typeof letterSummary>;

/**
 * A proposal's decision as its readers see it (`abilities.viewOutcome`): in the proposal's
 * detail as `decision`, and the answer of POST /proposals/{proposalId}/decision/. Chairs
 * also see `awardNotes` and who decided; its applicants what was decided beside what they
 * asked for.
 */
export const proposalDecision = z
  .object({
    outcome: outcome.nullable(),
    awards: resourceValues,
    /** Raised by each save; 0 before the first. */
    version: z.number().int(),
    /** The letter the applicants read: the latest not superseded; null before release. */
    letter: letterSummary.nullable(),
    /** What it asks for: the awards' defaults and limits, and the letter's awards table. */
    requested: resourceValues,
    /** Chairs only. */
    awardNotes: awardNotes.optional(),
    decidedAt: dateTime.nullable().optional(),
    decidedBy: z.string().nullable().optional(),
  })
  .meta({ id: 'ProposalDecision' });
export type ProposalDecision = z.infer<typeof proposalDecision>;

/**
 * The answer of POST /proposals/{proposalId}/decision/: the decision saved, and what the
 * call's ranking (as the chair ranks it) is awarded now per facility and data field, from
 * which the Ranking page updates its totals (the domain's `withAwarded`) without loading
 * every row again.
 */
export const decisionSaved = proposalDecision
  .extend({
    awarded: resourceValues,
    /**
     * Saved after the call's decisions were released, with an outcome: its letter (its
     * first, or a corrected one) is owed; POST /calls/{callId}/letters/send/ sends it.
     */
    letterDue: z.boolean(),
  })
  .meta({ id: 'DecisionSaved' });
export type DecisionSaved = z.infer<typeof decisionSaved>;

/** One facility's data field down the ranking (the domain's `FieldLine`). */
export const rankingLine = z.object({
  facility: z.string(),
  field: z.string(),
  capacity: z.number().nullable(),
  requested: z.number(),
  awarded: z.number(),
  /** The rank of the first proposal below the line; null when the requests never pass it. */
  firstBelow: z.number().int().nullable(),
  oversubscription: z.number().nullable(),
  awardedShare: z.number().nullable(),
  overAwarded: z.boolean(),
});
export type RankingLineBody = z.infer<typeof rankingLine>;

/** GET /calls/{callId}/capacity/: each facility's capacity per data field, and the version. */
export const callCapacity = z
  .object({
    capacity: resourceValues,
    version: z.number().int(),
    /** The facilities and fields the call's proposals ask for, to offer in the editor. */
    asked: z.array(z.object({ facility: z.string(), field: z.string() })),
    /**
     * The ranking's lines (as GET .../ranking/ has them, without its rows): what is asked
     * for and awarded against each capacity, for a summary that need not load the ranking.
     */
    lines: z.array(rankingLine),
    /** The data fields' titles by key, as the forms title them, to name each field by. */
    fieldTitles: z.record(z.string(), z.string()),
  })
  .meta({ id: 'CallCapacity' });
export type CallCapacity = z.infer<typeof callCapacity>;

/** PUT /calls/{callId}/capacity/: the whole set from `version` (a field left out has none). */
export const capacitySave = z
  .object({ capacity: resourceValues, version: z.number().int().min(0) })
  .strict();
export type CapacitySave = z.infer<typeof capacitySave>;

/** One proposal in the ranking. */
export const rankingRow = z.object({
  rank: z.number().int(),
  proposalId: entityId,
  name: z.string(),
  proposalTypeId: entityId,
  proposalTypeName: z.string(),
  /** Its review score; null while it has none. */
  score: z.number().nullable(),
  /** A chair moved it: the reason they gave (it is ordered by `rankKey` then). */
  moved: z.object({ reason: z.string(), by: z.string().nullable(), at: dateTime }).nullable(),
  requested: resourceValues,
  /** Per facility and field, the requests down to and including this one. */
  running: resourceValues,
  /** Per facility it asks for: above that facility's line. */
  aboveLine: z.record(z.string(), z.boolean()),
  above: z.boolean(),
  outcome: outcome.nullable(),
  awards: resourceValues,
  awardNotes: awardNotes,
  /** The decision's version, which a save of it names. */
  version: z.number().int(),
  /** The caller may set this one's outcome (not conflicted, submission closed for it). */
  decide: z.boolean(),
});
export type RankingRowBody = z.infer<typeof rankingRow>;

/**
 * GET /calls/{callId}/ranking/: the call's submitted proposals the caller may decide on or
 * read, in rank order, with every facility's line. `?facility=` and `?type=` keep the rows
 * of one facility or proposal type; the ranks and running totals stay the whole call's.
 */
export const callRanking = z
  .object({
    rows: z.array(rankingRow),
    lines: z.array(rankingLine),
    capacityVersion: z.number().int(),
    proposalTypes: z.array(z.object({ id: entityId, name: z.string() })),
    /** Proposals of the call left out because the caller is conflicted on them. */
    hidden: z.number().int(),
    /** The data fields' titles by key, as the forms title them, to name each field by. */
    fieldTitles: z.record(z.string(), z.string()),
  })
  .meta({ id: 'CallRanking' });
export type CallRanking = z.infer<typeof callRanking>;

export const rankingQuery = z.object({
  facility: z.string().max(255).optional(),
  type: z.coerce.number().int().positive().optional(),
});

/** POST /calls/{callId}/ranking/move/: put a proposal between two others, with a reason. */
export const rankingMove = z
  .object({
    proposalId: entityId,
    /** The proposal it goes below; null: to the top. */
    after: entityId.nullable(),
    reason: z
      .string()
      .trim()
      .min(1, { error: decisionMessages.rankReasonMissing })
      .max(MAX_RANK_REASON),
    /** The decision's version (the move is part of it). */
    version: z.number().int().min(0),
  })
  .strict();
export type RankingMove = z.infer<typeof rankingMove>;

/**
 * POST /calls/{callId}/ranking/outcomes/: Approved above the line, Waitlisted for the next
 * `waitlist`, Declined below; a preview unless `apply`, which saves them (only for the
 * proposals the caller may decide on, each from the version the preview showed).
 */
export const outcomesFromLineRequest = z
  .object({
    waitlist: z.number().int().min(0, { error: decisionMessages.waitlistNegative }).max(100_000),
    apply: z.boolean(),
  })
  .strict();
export type OutcomesFromLineRequest = z.infer<typeof outcomesFromLineRequest>;

export const outcomesFromLineAnswer = z
  .object({
    proposals: z.array(z.object({ proposalId: entityId, outcome, current: outcome.nullable() })),
    counts: z.record(z.enum(OUTCOMES), z.number().int()),
    /** With `apply`: how many changed. */
    changed: z.number().int(),
  })
  .meta({ id: 'OutcomesFromLine' });
export type OutcomesFromLineAnswer = z.infer<typeof outcomesFromLineAnswer>;

/** One outcome's template. */
export const letterTemplate = z.object({
  outcome,
  subject: z.string().trim().min(1).max(MAX_LETTER_SUBJECT_CHARS),
  body: z.string().trim().min(1).max(MAX_LETTER_BODY_CHARS),
});

/**
 * GET and PUT /calls/{callId}/letter_templates/: one template per outcome, the signature,
 * the call's words for the outcomes, from `version`. 400 naming an unknown field with
 * `fields` keyed `templates.<n>.subject` or `.body`; 409 `stale` with `current`.
 */
export const letterTemplates = z
  .object({
    templates: z.array(letterTemplate).length(OUTCOMES.length),
    signature: z.string().max(MAX_SIGNATURE_CHARS),
    outcomeLabels: z.record(z.enum(OUTCOMES), z.string().trim().max(MAX_OUTCOME_LABEL)),
    version: z.number().int().min(0),
  })
  .meta({ id: 'LetterTemplates' });
export type LetterTemplates = z.infer<typeof letterTemplates>;
export const letterTemplatesSave = letterTemplates.strict();

/** GET /proposals/{proposalId}/letter/preview/: its letter as it would be sent now. */
export const letterPreview = z
  .object({
    outcome,
    to: z.array(z.string()),
    subject: z.string(),
    html: z.string(),
    text: z.string(),
  })
  .meta({ id: 'LetterPreview' });
export type LetterPreview = z.infer<typeof letterPreview>;

/** GET /calls/{callId}/letters/: each proposal's letter, those with no outcome first. */
export const callLetters = z
  .object({
    releasedAt: dateTime.nullable(),
    proposals: z.array(
      z.object({
        proposalId: entityId,
        name: z.string(),
        outcome: outcome.nullable(),
        /**
         * Where its letter is: `draft` before one is written (no outcome yet, decisions not
         * released, or an outcome given after the release and not sent yet), else its state.
         */
        state: z.enum(['draft', ...LETTER_STATES]),
        /** Its current letter; null when none is written (no outcome, or not released). */
        letter: letterSummary.nullable(),
        /** The outcome changed since its letter was written: a corrected one can be sent. */
        changedSinceLetter: z.boolean(),
        error: z.string().nullable(),
      }),
    ),
  })
  .meta({ id: 'CallLetters' });
export type CallLetters = z.infer<typeof callLetters>;

/** POST /calls/{callId}/release_decisions/ and POST /calls/{callId}/letters/send/. */
export const lettersQueued = z
  .object({ queued: z.number().int(), withoutOutcome: z.number().int() })
  .meta({ id: 'LettersQueued' });
export type LettersQueued = z.infer<typeof lettersQueued>;

/**
 * POST /calls/{callId}/letters/send/: write and send the letters of these proposals again:
 * a failed one, or a corrected one after an outcome changed (which supersedes the old).
 */
export const lettersSend = z
  .object({ proposalIds: z.array(entityId).min(1).max(100_000) })
  .strict();
export type LettersSend = z.infer<typeof lettersSend>;
