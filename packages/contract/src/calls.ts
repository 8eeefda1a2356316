import { z } from 'zod';
import { dateTime, dateTimeInput, entityId, idParam } from './common.js';

const id = entityId;

/** What the caller may do with a call, computed by the domain's call policy. */
export const callAbilities = z.object({
  view: z.boolean(),
  edit: z.boolean(),
  manage: z.boolean(),
  close: z.boolean(),
  manageExtensions: z.boolean(),
  addProposal: z.boolean(),
  /** The Assignment page (issue 27): chairs of the call's committee and admins. */
  assign: z.boolean(),
  /** Bidding on its proposals: a current member of its committee while bidding is open. */
  bid: z.boolean(),
  /** The Progress page, the reminders and the call's Activity (issue 28): chairs and admins. */
  followReview: z.boolean(),
  /** May change the reminders and send one now: chairs, while the call is not closed. */
  remind: z.boolean(),
  /** The decision meeting (issue 29): capacities, the Ranking page, letter templates. Chairs. */
  decide: z.boolean(),
  /** May release the decisions to the applicants: chairs, once the call is closed, once. */
  releaseDecisions: z.boolean(),
});

export const CALL_ROLES = ['Author', 'Collaborator', 'Committee'] as const;

export const callSummary = z.object({
  id,
  name: z.string(),
  committeeId: id,
  committeeName: z.string(),
  commencement: dateTime,
  termination: dateTime,
  reviewCommencement: dateTime,
  reviewTermination: dateTime,
  isReviewOpen: z.boolean(),
  closed: z.boolean(),
  /** The caller's parts in this call (spec section 2, Call lists: "my roles"). */
  myRoles: z.array(z.enum(CALL_ROLES)),
  abilities: callAbilities,
});
export type CallSummary = z.infer<typeof callSummary>;
export const callList = z.array(callSummary);

export const typeFormRef = z.object({
  id,
  name: id,
  display_name: z.string(),
  type: z.number().int(),
  version: z.string(),
});

export const proposalType = z.object({
  typeId: id,
  typeName: z.string(),
  proposalForms: z.array(id),
  reviewForms: z.array(id),
  /** The forms in order, for showing the call's structure. */
  proposalFormDetails: z.array(typeFormRef),
  reviewFormDetails: z.array(typeFormRef),
  /** Saved proposals of this type exist: the type cannot be deleted nor its proposal forms changed. */
  hasProposals: z.boolean(),
  /** Saved reviews exist: its review forms cannot change. */
  hasReviews: z.boolean(),
});
export type ProposalType = z.infer<typeof proposalType>;

export const extension = z.object({
  id,
  userId: id,
  userName: z.string(),
  commencement: dateTime,
  termination: dateTime,
  reason: z.string(),
});
export type Extension = z.infer<typeof extension>;

/** A call's conflict-of-interest settings: both on for new calls. */
export const callConflictSettings = z.object({
  /** Conflicts are recorded, detected and enforced. */
  enabled: z.boolean().default(true),
  /** Members say whether they have a conflict before a proposal's text opens for them. */
  declarationRequired: z.boolean().default(true),
});
export type CallConflictSettings = z.infer<typeof callConflictSettings>;

export const callDetail = callSummary.extend({
  description: z.string(),
  created: dateTime,
  lastModified: dateTime,
  /** Raised by every edit; send it back with an edit so a stale copy cannot overwrite a newer one. */
  version: z.number().int(),
  proposalTypes: z.array(proposalType),
  /** Chairs see every extension; others only their own. */
  extensions: z.array(extension),
  conflicts: z.object({ enabled: z.boolean(), declarationRequired: z.boolean() }),
});
export type CallDetail = z.infer<typeof callDetail>;

/**
 * The most a call description may hold: its text and images (each at most 512 KiB,
 * ARCHITECTURE.md "Rich text"). POST /new_call/ accepts a body this size plus room for the
 * rest of the call.
 */
export const CALL_DESCRIPTION_MAX = 12 * 1024 * 1024;
// Room for the rest of the call and for JSON escaping of the description's quotes.
export const CALL_SAVE_BODY_LIMIT = CALL_DESCRIPTION_MAX + 4 * 1024 * 1024;

export const callSave = z.object({
  new: z.boolean(),
  id: id.nullish(),
  /**
   * The `version` of the call the edit was made on. When sent and no longer current (someone
   * saved the call since), the edit is refused with 409 instead of overwriting theirs.
   */
  version: z.number().int().min(1).optional(),
  committee: id,
  name: z.string().max(5000),
  openDateTime: dateTimeInput,
  closeDateTime: dateTimeInput,
  reviewOpenDateTime: dateTimeInput,
  reviewCloseDateTime: dateTimeInput,
  isReviewOpen: z.boolean().default(false),
  /** Left out of an edit, the call keeps its settings; of a new call, both are on. */
  conflicts: callConflictSettings.optional(),
  description: z.string().max(CALL_DESCRIPTION_MAX).default(''),
  proposalTypes: z
    .array(
      z.object({
        typeName: z.string().max(5000),
        typeId: id.nullish(),
        proposalForms: z.array(id).max(50),
        reviewForms: z.array(id).max(50),
      }),
    )
    .max(50),
});
export type CallSave = z.infer<typeof callSave>;

export const callIdBody = z.object({ callId: id });

export const extensionCreate = z.object({
  callId: id,
  user: id,
  commencement: dateTimeInput,
  termination: dateTimeInput,
  reason: z.string().max(5000).default(''),
});
export type ExtensionCreate = z.infer<typeof extensionCreate>;

export const extensionDelete = z.object({ callId: id, extensionId: id });

export const callIdParams = z.object({ callId: idParam });

/** Numbers for the chair's Manage Call page. */
export const callManagement = z.object({
  /** Proposals submitted or beyond. */
  submitted: z.number().int(),
  /** Submitted proposals not yet reviewed by every assigned reviewer (or by nobody). */
  awaitingReview: z.number().int(),
});

/**
 * The deadlines a chair is about to save, to be told who they affect (issue 30): the call
 * edit page asks before it saves a changed submission or review deadline.
 */
export const deadlineImpactQuery = z.object({
  termination: dateTimeInput,
  reviewTermination: dateTimeInput,
});
export type DeadlineImpactQuery = z.infer<typeof deadlineImpactQuery>;

/** Who a change of a call's deadlines reaches. */
export const deadlineImpact = z.object({
  /**
   * Drafts whose own submission deadline (the call's, or their author's later extension)
   * moves earlier: their authors and collaborators are mailed when the call is saved.
   */
  draftsEarlier: z.number().int(),
  /** The people on those drafts: how many are mailed. */
  peopleMailed: z.number().int(),
  /** Drafts whose own submission deadline moves later. */
  draftsLater: z.number().int(),
  /** Extensions that end after the new submission deadline: their holders keep them. */
  extensionsPast: z.number().int(),
  /** Extensions that gave more time before and end on or before the new deadline. */
  extensionsOvertaken: z.number().int(),
  /** Assigned reviews of submitted proposals that are not saved yet. */
  reviewsNotSaved: z.number().int(),
});
export type DeadlineImpact = z.infer<typeof deadlineImpact>;

export const formOrderEntry = z.object({
  typeId: id,
  typeName: z.string(),
  forms: z.array(
    typeFormRef.extend({
      jsonSchema: z.record(z.string(), z.unknown()),
      uiSchema: z.record(z.string(), z.unknown()),
      initialData: z.unknown().nullable(),
      options: z.record(z.string(), z.unknown()).nullable(),
    }),
  ),
});
export const formOrder = z.array(formOrderEntry);
