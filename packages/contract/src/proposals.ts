import { SUBMISSION_STANDINGS } from '@merit/domain';
import { z } from 'zod';
import { outcome, proposalDecision, rankingLine } from './decisions.js';
import {
  dateTime,
  entityId,
  idParam,
  jsonObject,
  listQuery,
  paginated,
  parseSort,
} from './common.js';
import { reviewer, score } from './reviews.js';

const id = entityId;

/** What the caller may do with a proposal, from the domain's proposal policy. */
export const proposalAbilities = z.object({
  view: z.boolean(),
  edit: z.boolean(),
  submit: z.boolean(),
  retract: z.boolean(),
  manageCollaborators: z.boolean(),
  delete: z.boolean(),
  /** May take the editing lock: may edit, whoever holds the lock now. */
  lock: z.boolean(),
  /** May write a review of it now, or change their own (spec section 6, "Reviewing requires"). */
  review: z.boolean(),
  /** May see its reviews (View Reviews): chairs, members who may review it, a review's author. */
  viewReviews: z.boolean(),
  /** May assign and remove its reviewers (Manage Reviewers). */
  manageReviewers: z.boolean(),
  /** May read its decision summary: chairs always, its people once the call is closed. */
  viewDecision: z.boolean(),
  /** May write its decision summary: chairs of the call's committee, not on their own. */
  editDecision: z.boolean(),
  /** May declare its conflicts of interest (the applicant's Conflicts panel). */
  declareConflicts: z.boolean(),
  /** May see its conflicts: its team their declarations, chairs without a conflict all. */
  viewConflicts: z.boolean(),
  /** May add, confirm, dismiss and pin its conflicts: chairs without a conflict of their own. */
  manageConflicts: z.boolean(),
  /** May answer its conflict declaration now (once). */
  answerDeclaration: z.boolean(),
  /** May read its History tab (issue 28): its team their own timeline, chairs and admins more. */
  viewHistory: z.boolean(),
  /** May set its outcome and awards (issue 29): chairs, not conflicted, once submission closed for it. */
  decide: z.boolean(),
  /** May read its outcome, awards and letter: chairs; its people once decisions are released. */
  viewOutcome: z.boolean(),
});
export type ProposalAbilities = z.infer<typeof proposalAbilities>;

export const PROPOSAL_STATES = ['Draft', 'Submitted', 'Reviewed'] as const;

/** The `code` of the refusals particular to proposals, beside the common `errorCodes`. */
export const proposalErrorCodes = {
  /**
   * 409: another editor holds the editing lock (another person, or the same person in
   * another browser tab); `detail` says which.
   */
  locked: 'locked',
  /** 400 from a submit: `fields` maps each form id to what must be fixed in that form. */
  invalidForms: 'invalid_forms',
} as const;

export const collaborator = z.object({ id, name: z.string(), email: z.string() });
export type Collaborator = z.infer<typeof collaborator>;

/**
 * The header naming the browser tab an editor runs in (a random id per tab): the editing
 * lock is held by one login session and one tab, so one person's two tabs are two editors.
 * Without it, the session alone is the editor.
 */
export const TAB_HEADER = 'x-merit-tab';
/** The most characters a tab id may have. */
export const TAB_ID_MAX = 64;

/**
 * Why GET /lock/{id}/ did not give the caller the lock: another person holds it, the
 * same person holds it in another tab or window, submission is closed for the caller, or
 * the caller can no longer edit (submitted, no longer a collaborator, call closed).
 */
export const LOCK_REASONS = ['held', 'otherTab', 'closed', 'noEdit'] as const;
export type LockReason = (typeof LOCK_REASONS)[number];

/** Who holds a proposal's editing lock: `null` fields when nobody does. */
export const lockState = z.object({
  holderId: z.number().int().nullable(),
  /** The holder's name as people read it. */
  holder: z.string().nullable(),
  /** True only for the session and tab that hold it: the editor is editable only then. */
  mine: z.boolean(),
  /** When the caller does not hold it: why, and the message to show. */
  reason: z.enum(LOCK_REASONS).optional(),
  message: z.string().optional(),
});
export type LockState = z.infer<typeof lockState>;

/**
 * A form's saved answers: the data object of a one-entry form, or for a multi-entry
 * form (types 1 and 5) the entries in index order.
 */
export const formResponse = z.union([jsonObject, z.array(jsonObject)]);

/** A saved answer's identity: a one-entry form's answers, or one entry of a multi-entry form. */
export const entryVersion = z.object({
  entryId: z.uuid(),
  /** Raised by each save of it: a save names the version it started from. */
  version: z.number().int().min(1),
  savedAt: dateTime,
  /** Who saved it last, as people read the name; null when that account is gone. */
  savedBy: z.string().nullable(),
});
export type EntryVersion = z.infer<typeof entryVersion>;

/** The `current` of a 409 `stale` from a proposal save: that entry as saved now, or null. */
export const staleEntry = entryVersion.extend({ data: jsonObject }).nullable();
export type StaleEntry = z.infer<typeof staleEntry>;

/** GET /proposals/{id}/ (spec section 3, Proposal). */
export const proposalDetail = z
  .object({
    id,
    callId: id,
    callName: z.string(),
    proposalName: z.string(),
    author: z.string(),
    authorId: id,
    authorEmail: z.string(),
    proposalTypeId: id,
    proposalTypeName: z.string(),
    state: z.enum(PROPOSAL_STATES),
    stateVal: z.number().int(),
    collaboratorIds: z.array(id),
    collaborators: z.array(collaborator),
    lockHolder: lockState.nullable(),
    created: dateTime,
    lastModified: dateTime,
    /** Keyed by form id (as a string). */
    responses: z.record(z.string(), formResponse),
    /**
     * Keyed by form id (as a string), like `responses`: each saved entry's id and
     * version, in index order, for the saves that change it (`entryId`, `version`).
     */
    entries: z.record(z.string(), z.array(entryVersion)),
    /**
     * Only for those who may see its reviews (chairs, members who may review it): absent,
     * not empty, for everyone else, its author and collaborators above all.
     */
    reviewers: z.array(reviewer).optional(),
    isReviewed: z.boolean().optional(),
    /** Each score field's mean over the reviews, then `result`, the mean review score. */
    reviewScores: z.array(score).optional(),
    /**
     * The decision summary (sanitised rich text), null until a chair writes one. Only for
     * those who may read it (`abilities.viewDecision`): absent, not null, for everyone
     * else, its author and collaborators above all until the call is closed.
     */
    decisionSummary: z.string().nullable().optional(),
    /** The decision summary's version (0 before the first save), with `decisionSummary`. */
    decisionSummaryVersion: z.number().int().optional(),
    /**
     * Its outcome, awards and letter (issue 29), for those who may read them
     * (`abilities.viewOutcome`): absent for everyone else, its applicants above all until
     * the chairs release the decisions of the closed call.
     */
    decision: proposalDecision.optional(),
    /**
     * Where submission stands for it now, by its author's windows (the call's, or their
     * extension; the domain's `submissionStanding`), so the editor says why it cannot be
     * changed: open; closed until `reopensAt`; closed, its deadline passed; or the call
     * closed.
     */
    submission: z
      .object({ status: z.enum(SUBMISSION_STANDINGS), reopensAt: dateTime.nullable() })
      .optional(),
    abilities: proposalAbilities,
  })
  .meta({ id: 'Proposal' });
export type ProposalDetail = z.infer<typeof proposalDetail>;

export const PROPOSAL_ROLES = ['Author', 'Collaborator'] as const;

/** One row of GET /proposals/: the caller's own proposals, for the dashboard. */
export const myProposal = z.object({
  id,
  callId: id,
  callName: z.string(),
  proposalName: z.string(),
  proposalTypeName: z.string(),
  state: z.enum(PROPOSAL_STATES),
  stateVal: z.number().int(),
  lastModified: dateTime,
  role: z.enum(PROPOSAL_ROLES),
});
export type MyProposal = z.infer<typeof myProposal>;
export const myProposalList = z.array(myProposal);

/**
 * Per facility, per data field, the amount of a resource asked for (ARCHITECTURE.md
 * "Resources"). The unnamed facility of a form without a facility field is `""`
 * (the domain's UNNAMED_FACILITY); a field without a number is absent (N/A).
 */
export const resourceValues = z
  .record(z.string(), z.record(z.string(), z.number()))
  .meta({ id: 'ResourceValues' });
export type ResourceValuesBody = z.infer<typeof resourceValues>;

/** One review's scores in the chair's list: who wrote it, each score field, its score. */
export const reviewScoreRow = z.object({
  reviewer,
  scores: z.array(score),
  score: z.number().nullable(),
});
export type ReviewScoreRow = z.infer<typeof reviewScoreRow>;

/** One review's written answers in the chair's list, labelled by the forms' titles. */
export const reviewCommentRow = z.object({
  reviewer,
  comments: z.array(z.object({ name: z.string(), value: z.string() })),
});
export type ReviewCommentRow = z.infer<typeof reviewCommentRow>;

/** One row of GET /calls/{callId}/proposals/: the proposals of the call the caller may see. */
export const callProposal = z.object({
  id,
  proposalName: z.string(),
  proposalTypeId: id,
  proposalTypeName: z.string(),
  author: z.string(),
  authorId: id,
  state: z.enum(PROPOSAL_STATES),
  stateVal: z.number().int(),
  lastModified: dateTime,
  /**
   * The caller may edit it, unless someone else holds its lock at that moment: the
   * domain's `proposal.lock` rule, so the list offers Edit or View as the editor will open.
   */
  editable: z.boolean(),
  // The chair's columns (chairs of the call's committee, and admins). Absent, not empty,
  // for everyone else; on a chair's own proposals the review fields are absent too
  // (ARCHITECTURE.md "Visibility"), and only its resources show.
  /** Its resources per facility and data field, from its resource forms. */
  resourceValues: resourceValues.optional(),
  /** The reviewers a chair assigned. */
  reviewers: z.array(reviewer).optional(),
  /** Submitted, reviewed at least once, and by every assigned reviewer. */
  isReviewed: z.boolean().optional(),
  /** Each score field's mean over its reviews, then `result`, the mean review score. */
  reviewScores: z.array(score).optional(),
  /** The `result` of `reviewScores`: the mean of its reviews' scores; null without any. */
  score: z.number().nullable().optional(),
  /** Each review's scores, oldest review first. */
  allReviewScores: z.array(reviewScoreRow).optional(),
  /** Each review's text answers, oldest review first. */
  allReviewComments: z.array(reviewCommentRow).optional(),
  /**
   * The caller has a conflict of interest with it (confirmed, on a call with conflicts
   * on): its review columns are left out for them. Absent otherwise.
   */
  myConflict: z.literal(true).optional(),
  /**
   * Chairs only (not conflicted): its conflicts by state, and whether its applicants
   * declared any; for the list's badges and "declared none".
   */
  conflicts: z
    .object({
      confirmed: z.number().int(),
      suggested: z.number().int(),
      declaredByApplicants: z.boolean(),
    })
    .optional(),
});
export type CallProposal = z.infer<typeof callProposal>;

/**
 * The columns the server sorts by. `score` and `resource` sort numbers as numbers with
 * the proposals that have none (and, for anyone but chairs, every proposal) last either
 * way. `resource` is one resource column of the chair's list: the sum of a proposal's
 * entries of facility `sortFacility` and data field `sortField`, as its `resourceValues`
 * show it.
 */
export const CALL_PROPOSAL_SORTS = [
  'name',
  'type',
  'author',
  'state',
  'lastModified',
  'score',
  'resource',
] as const;

/** Spec section 2, Proposal list: by name ascending unless asked otherwise. */
export const CALL_PROPOSALS_DEFAULT_SORT = 'name';

/** The refusals of a resource sort the query alone shows wrong. */
export const resourceSortMessages = {
  noFacility:
    'Sorting by a resource column needs sortFacility: the facility of the column (empty for the unnamed facility).',
  noField: 'Sorting by a resource column needs sortField: the data field of the column.',
  stray: 'sortFacility and sortField go only with sort=resource or sort=-resource.',
  /** The call's proposals name no such facility (checked for chairs, who see the columns). */
  unknownFacility: (facility: string) =>
    `No proposal of this call names the facility "${facility}": sort by a column the list shows.`,
  /** No resource form of the call has such a data field. */
  unknownField: (field: string) =>
    `No resource form of this call has the data field "${field}": sort by a column the list shows.`,
} as const;

/** A facility or field name in the query: as long as any the forms hold, and no longer. */
const resourceName = z.string().max(1000);

/**
 * The query of the proposal list. `sort=resource` (or `-resource`) names its column with `sortFacility` and `sortField`,
 * which go with it only.
 */
export const callProposalsQuery = listQuery(CALL_PROPOSAL_SORTS, CALL_PROPOSALS_DEFAULT_SORT)
  .extend({
    sortFacility: resourceName.optional(),
    sortField: resourceName.optional(),
    /**
     * Filter by Facility (chairs): only the proposals with a resource entry naming this
     * facility (empty for the unnamed one). Ignored for anyone who does not see the
     * resource columns.
     */
    facility: resourceName.optional(),
  })
  .superRefine((query, context) => {
    const byResource = parseSort(query.sort).key === 'resource';
    const problem = (path: 'sortFacility' | 'sortField', message: string) =>
      context.addIssue({ code: 'custom', path: [path], message });
    if (byResource) {
      if (query.sortFacility === undefined)
        problem('sortFacility', resourceSortMessages.noFacility);
      if (query.sortField === undefined) problem('sortField', resourceSortMessages.noField);
      return;
    }
    if (query.sortFacility !== undefined) problem('sortFacility', resourceSortMessages.stray);
    if (query.sortField !== undefined) problem('sortField', resourceSortMessages.stray);
  });
export type CallProposalsQuery = z.output<typeof callProposalsQuery>;

/**
 * Chairs only: per facility and data field, the sum over the call's submitted and
 * reviewed proposals (all of them, not this page's).
 */
const resourceTotals = resourceValues;
/**
 * Chairs only: every facility the call's proposals name (drafts' too, since chairs see
 * their rows), the unnamed facility `""` first, then by name. More than one: the list
 * offers Filter by Facility.
 */
const facilities = z.array(z.string());
/**
 * Chairs only: the title of each resource data field by its key, as the call's resource
 * forms title it (the domain's `resourceFieldTitles`): the list, totals and downloads name
 * a column by it. A field without a title is absent: it is named by its key.
 */
const resourceTitles = z.record(z.string(), z.string());

export const callProposalPage = paginated(callProposal).extend({
  /** Absent for everyone but chairs. */
  resourceTotals: resourceTotals.optional(),
  /** Absent for everyone but chairs. */
  facilities: facilities.optional(),
  /** Absent for everyone but chairs. */
  resourceTitles: resourceTitles.optional(),
});
export type CallProposalPage = z.infer<typeof callProposalPage>;

/**
 * What an export may ask for beyond the rows (`include`, comma-separated): each review's
 * scores (`allReviewScores`, the whole-call workbook) and each review's written answers
 * (`allReviewComments`, the Comments and All downloads). Without them a 10,000-proposal
 * call's export is a fifth of the bytes: the comments alone are over half of them.
 * `decisions` (issue 29): each row's `outcome` and `awards` where the caller may read
 * them, and the call's `outcomeLabels`. `ranking`: the call's `ranking` as the Ranking page
 * works it out (the whole-call workbook only: it is one more read of every proposal's
 * scores and requests).
 */
export const CALL_PROPOSAL_EXPORT_PARTS = [
  'allReviewScores',
  'allReviewComments',
  'decisions',
  'ranking',
] as const;
export type CallProposalExportPart = (typeof CALL_PROPOSAL_EXPORT_PARTS)[number];
/** The parts that are each review's scores or comments, read with the chair's columns. */
export const REVIEW_EXPORT_PARTS = ['allReviewScores', 'allReviewComments'] as const;
export type ReviewExportPart = (typeof REVIEW_EXPORT_PARTS)[number];
export const isReviewExportPart = (part: CallProposalExportPart): part is ReviewExportPart =>
  (REVIEW_EXPORT_PARTS as readonly string[]).includes(part);

const exportPartsMessage = `Include any of: ${CALL_PROPOSAL_EXPORT_PARTS.join(', ')}, comma-separated.`;

/**
 * Which columns an export's rows carry (`columns`). `chair`, the default: the chair's
 * columns as the list's pages give them (resources, reviewers, Reviewed, each score field's
 * mean and the score), with the call's resource totals and facilities. `lean`: of those,
 * `isReviewed` only (which decides, with the state, whether a row is in a download), with
 * `resourceTotals` `{}` and `facilities` `[]`; the server does not read the reviewers,
 * scores or resources at all. For a download that writes none of them, the Comments file:
 * on a 10,000-proposal call they are a sixth of its body (bench/README.md, figure (d)).
 * `include` adds its parts either way.
 */
export const CALL_PROPOSAL_EXPORT_COLUMNS = ['chair', 'lean'] as const;
export type CallProposalExportColumns = (typeof CALL_PROPOSAL_EXPORT_COLUMNS)[number];

export const exportColumnsMessage = `Columns is one of: ${CALL_PROPOSAL_EXPORT_COLUMNS.join(', ')} (chair unless given).`;

/** The refusal of an export's `type` that is an id, but of no proposal type of the call. */
export const exportTypeNotInCall =
  'This proposal type does not belong to this call: give one of its types, or no type for the whole call.';

/**
 * The query of GET /calls/{callId}/proposals/export/: `include`, the parts beyond the rows;
 * `type`, one proposal type of the call whose proposals alone the export holds (each
 * of the chair's downloads but the whole-call workbook is of one type); and `columns`,
 * the chair's columns (`chair`) or only `isReviewed` of them (`lean`). A `type` that is
 * not an id, or not one of the call's types, or a `columns` it does not know, is refused
 * (400).
 */
export const callProposalExportQuery = z.object({
  type: idParam.optional(),
  columns: z.enum(CALL_PROPOSAL_EXPORT_COLUMNS, { error: exportColumnsMessage }).default('chair'),
  include: z
    .string()
    .max(200, { error: exportPartsMessage })
    .default('')
    .transform((value, context): CallProposalExportPart[] => {
      const parts = value
        .split(',')
        .map((part) => part.trim())
        .filter((part) => part !== '');
      const known = (part: string): part is CallProposalExportPart =>
        (CALL_PROPOSAL_EXPORT_PARTS as readonly string[]).includes(part);
      if (!parts.every(known)) {
        context.addIssue({ code: 'custom', message: exportPartsMessage });
        return z.NEVER;
      }
      return [...new Set(parts)];
    }),
});
export type CallProposalExportQuery = z.output<typeof callProposalExportQuery>;

/**
 * GET /calls/{callId}/proposals/export/ (chairs of the call's committee, and admins): the
 * whole call's list in one read, for the downloads made in the browser. Every proposal
 * with the chair's columns, as the list's pages give them, in the list's default order
 * (by name), with the call's resource totals and facilities; `allReviewScores` and
 * `allReviewComments` only when `include` names them (absent otherwise, as on the
 * chair's own proposals).
 *
 * With `type`, every part is of that type's proposals only: `items` and `total` are its
 * proposals (with their reviews' scores and comments), `resourceTotals` the sums over its
 * submitted and reviewed proposals, and `facilities` the facilities its proposals name
 * (drafts' too), in the same order. The chair's list has no type filter (it shows the
 * whole call's totals); the downloads write no totals, and `facilities` only orders the
 * facilities their rows name, so a type's files are the same either way.
 *
 * With `columns=lean`, each row is the proposal's own columns, `isReviewed` (not on the
 * chair's own proposals, as with `chair`) and what `include` names; `resourceTotals` is
 * `{}` and `facilities` `[]`.
 */
/**
 * One row of the export: a row of the chair's list, and with `include=decisions` its
 * `decision` on the rows whose outcome the caller may read (`proposal.viewOutcome`: not
 * those they are conflicted on, nor their own before the decisions are released): its
 * outcome (absent while unset: the export's serializer writes no `null` of an enum) and its
 * awards per facility and field (`{}` when none). Absent on the others, and without the part.
 */
export const exportDecision = z.object({
  outcome: outcome.optional(),
  awards: resourceValues,
});
export type ExportDecision = z.infer<typeof exportDecision>;

export const callProposalExportRow = callProposal.extend({
  decision: exportDecision.optional(),
});
export type CallProposalExportRow = z.infer<typeof callProposalExportRow>;

/**
 * One proposal in the export's ranking (`include=ranking`): its place, the score it is
 * ranked by, what it asks for, the running totals down to it, and whether it is above each
 * facility's line and above the line at all. Its name, type and outcome are its row's.
 */
export const exportRankingRow = z.object({
  rank: z.number().int(),
  proposalId: id,
  score: z.number().nullable(),
  requested: resourceValues,
  running: resourceValues,
  aboveLine: z.record(z.string(), z.boolean()),
  above: z.boolean(),
});
export type ExportRankingRow = z.infer<typeof exportRankingRow>;

/**
 * The call's ranking in the export (`include=ranking`), as GET /calls/{callId}/ranking/
 * works it out (the chairs' moves included, without the proposals the caller is
 * conflicted on or on whose team they are): its rows in rank order (of `type` only, when
 * the export is of one type; ranks and running totals stay the whole call's), and each
 * facility's field with its capacity, what is requested and awarded, and the
 * oversubscription.
 */
export const exportRanking = z.object({
  rows: z.array(exportRankingRow),
  // `firstBelow` as a number or null: the export's serializer writes no `anyOf`, which a
  // nullable integer is in JSON Schema.
  lines: z.array(rankingLine.extend({ firstBelow: z.number().nullable() })),
});
export type ExportRanking = z.infer<typeof exportRanking>;

export const callProposalExport = z.object({
  items: z.array(callProposalExportRow),
  total: z.number().int().min(0),
  resourceTotals,
  facilities,
  /** `{}` with `columns=lean`. */
  resourceTitles: resourceTitles.optional(),
  /**
   * The proposals whose reviews, scores and decision were left out for the caller, who has
   * a conflict of interest with them (their rows carry `myConflict`), each with the note a
   * download writes for it. Absent when none was.
   */
  omitted: z.array(z.object({ proposalId: id, reason: z.string() })).optional(),
  /** With `include=decisions`: the call's own words for the outcomes (`outcomeLabel`). */
  outcomeLabels: z.record(z.string(), z.string()).optional(),
  /** With `include=ranking`. */
  ranking: exportRanking.optional(),
});
export type CallProposalExport = z.infer<typeof callProposalExport>;

/**
 * POST /update_proposal_name/: with `isNew`, creates a Draft of proposal type `type`
 * for the caller (201); otherwise renames `proposalId` (200).
 */
export const proposalNameSave = z.object({
  callId: id,
  isNew: z.boolean(),
  proposalId: id.nullish(),
  name: z.string().max(5000),
  type: id.nullish(),
});
export type ProposalNameSave = z.infer<typeof proposalNameSave>;

/** Spec section 9: a save hash is a random integer below 2^31. */
export const SAVE_HASH_MAX = 2 ** 31 - 1;
/** The most one form's answers may hold, as JSON. */
export const RESPONSE_DATA_MAX_BYTES = 1024 * 1024;
/** The body of a save: the answers and the rest of the payload. */
export const RESPONSE_SAVE_BODY_LIMIT = RESPONSE_DATA_MAX_BYTES + 64 * 1024;
/** The most entries a multi-entry form may have. */
export const MAX_ENTRIES = 200;
/** The most a proposal's answers may take together, every form and entry. */
export const PROPOSAL_ANSWERS_MAX_BYTES = 10 * 1024 * 1024;

/**
 * POST /proposal_responses/ (spec section 3, Proposal response payload): saves one form,
 * or one entry of a multi-entry form. `entryId` with `version` changes that saved entry,
 * when `version` is still its version (else 409 `stale`); without `entryId` the save adds
 * a new entry (a one-entry form's first answers, or an entry appended to a multi-entry
 * form); `index` is the spec's and is only checked. `new` with `proposalName` creates the
 * proposal first. `hash` names one Save All batch: a retry with the same hash, proposal,
 * form and entry and the same answers changes nothing more (with other answers it is
 * 409). `validate: false` saves a draft that need not satisfy the form's schema yet.
 */
export const proposalResponseSave = z
  .object({
    call: id,
    proposalTypeId: id,
    proposal: id.nullish(),
    new: z.boolean(),
    proposalName: z.string().max(5000).nullish(),
    hash: z.number().int().min(0).max(SAVE_HASH_MAX),
    formId: id,
    index: z
      .number()
      .int()
      .min(0)
      .max(MAX_ENTRIES - 1)
      .default(0),
    singleSave: z.boolean().default(true),
    validate: z.boolean().default(true),
    data: jsonObject,
    entryId: z.uuid().nullish(),
    version: z.number().int().min(1).nullish(),
  })
  .refine((save) => !save.entryId || save.version != null, {
    message: 'Say which version of the entry this save started from.',
    path: ['version'],
  });
export type ProposalResponseSave = z.input<typeof proposalResponseSave>;

export const proposalResponseSaved = z.object({
  proposalId: id,
  author: z.string(),
  authorId: id,
  formId: id,
  index: z.number().int(),
  lastModified: dateTime,
  entryId: z.uuid(),
  version: z.number().int(),
});
export type ProposalResponseSaved = z.infer<typeof proposalResponseSaved>;

/**
 * DELETE /delete_multi_form/: one entry of a multi-entry form; the later ones move up.
 * `entryId` names it (`formIndex` is the spec's: when both are sent they must name the
 * same entry, else 409 `stale`); an entry that is gone already is 409 `stale`.
 */
export const multiFormEntryDelete = z
  .object({
    callId: id,
    proposalId: id,
    formId: id,
    formIndex: z
      .number()
      .int()
      .min(0)
      .max(MAX_ENTRIES - 1)
      .optional(),
    entryId: z.uuid().optional(),
  })
  .refine((input) => input.formIndex !== undefined || input.entryId !== undefined, {
    message: 'Say which entry to delete.',
    path: ['entryId'],
  });
export type MultiFormEntryDelete = z.infer<typeof multiFormEntryDelete>;

/** POST /collaborators/: add the person with this collaborator hash (spec section 3). */
export const collaboratorAdd = z.object({ proposalId: id, hash: z.string().max(100) });
export const collaboratorRemove = z.object({ proposalId: id, userId: id });
export type CollaboratorAdd = z.infer<typeof collaboratorAdd>;
export type CollaboratorRemove = z.infer<typeof collaboratorRemove>;

/** POST /proposal_state/: 1 submits a draft, 0 retracts a submitted proposal. */
export const proposalStateChange = z.object({
  proposalId: id,
  state: z.union([z.literal(0), z.literal(1)]),
});
export type ProposalStateChange = z.infer<typeof proposalStateChange>;

export const proposalIdParams = z.object({ proposalId: idParam });

/**
 * The most a decision summary may hold, its images included (each at most 512 KiB,
 * ARCHITECTURE.md "Rich text"), as for a call's description.
 */
export const DECISION_SUMMARY_MAX = 12 * 1024 * 1024;
// Room for the rest of the body and for JSON escaping of the summary's quotes.
export const DECISION_SAVE_BODY_LIMIT = DECISION_SUMMARY_MAX + 4 * 1024 * 1024;

/**
 * POST /update_decision_summary/ (spec section 7): a chair writes a proposal's decision
 * summary, rich text the server sanitises before it stores it.
 */
export const decisionSummarySave = z.object({
  proposalId: id,
  summary: z.string().max(DECISION_SUMMARY_MAX),
  /** The version the chair started from (`decisionSummaryVersion`); stale is 409 `stale`. */
  version: z.number().int().min(0),
});

/** The `current` of a 409 `stale` from a decision summary save. */
export const staleDecision = z.object({
  summary: z.string().nullable(),
  version: z.number().int(),
  savedBy: z.string().nullable(),
  savedAt: dateTime.nullable(),
});
export type StaleDecision = z.infer<typeof staleDecision>;
export type DecisionSummarySave = z.infer<typeof decisionSummarySave>;
