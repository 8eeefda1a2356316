import { z } from 'zod';
import { MAX_CAP, MAX_REVIEWS_PER_PROPOSAL, PREFERENCES, UNFILLED_REASONS } from '@merit/domain';
import { dateTime, entityId, idParam, MAX_PAGE_SIZE } from './common.js';

/** The call's own routes take `callId` (`callIdParams` in calls.ts); a run adds its `id`. */

/*
 * Reviewer assignment for a whole call (issue 27), under /api/v1/calls/{callId}/.
 */

const id = entityId;
export const preference = z.enum(PREFERENCES);
const k = z.number().int().min(0).max(MAX_REVIEWS_PER_PROPOSAL);
const cap = z.number().int().min(0).max(MAX_CAP);

export const assignmentRunParams = z.object({ callId: idParam, id: idParam });

/** GET /calls/{callId}/assignment/settings/: what Propose works from, and the counts. */
export const assignmentSettings = z
  .object({
    /** k: the reviews each proposal wants unless `perProposal` says otherwise. */
    reviewsPerProposal: k,
    /** Proposals whose k the chair set (keys are proposal ids). */
    perProposal: z.record(z.string(), k),
    /** Caps the chair set (keys are user ids); others have `defaultCap`. */
    caps: z.record(z.string(), cap),
    biddingOpen: z.boolean(),
    /** Whether bidders may open the proposals from the bidding list (otherwise names only). */
    biddingShowsProposals: z.boolean(),
  })
  .meta({ id: 'AssignmentSettings' });
export type AssignmentSettings = z.infer<typeof assignmentSettings>;

/** PATCH /calls/{callId}/assignment/settings/: any of the settings; a key null in `perProposal` or `caps` resets it. */
export const assignmentSettingsPatch = z
  .object({
    reviewsPerProposal: k.optional(),
    perProposal: z.record(z.string(), k.nullable()).optional(),
    caps: z.record(z.string(), cap.nullable()).optional(),
    biddingOpen: z.boolean().optional(),
    biddingShowsProposals: z.boolean().optional(),
  })
  .strict();
export type AssignmentSettingsPatch = z.infer<typeof assignmentSettingsPatch>;

/** A member as the Assignment page lists them. */
export const assignmentMember = z.object({
  userId: id,
  name: z.string(),
  username: z.string(),
  role: z.enum(['CHAIR', 'MEMBER']),
  /** Their role lasts through the review window: Propose may give them work. */
  eligible: z.boolean(),
  load: z.number().int(),
  /** The chair's cap, or null for the default. */
  chairCap: cap.nullable(),
  /** The cap the member set for themselves, or null. */
  memberCap: cap.nullable(),
  /** The cap that holds: the lower of the chair's (or the default) and the member's. */
  cap,
  bids: z.number().int(),
  facilities: z.array(z.string()),
  keywords: z.array(z.string()),
});
export type AssignmentMember = z.infer<typeof assignmentMember>;

/** The settings with the counts the page shows beside them. */
export const assignmentOverview = assignmentSettings
  .extend({
    defaultCap: cap,
    counts: z.object({
      proposals: z.number().int(),
      slots: z.number().int(),
      assigned: z.number().int(),
      members: z.number().int(),
      capacity: z.number().int(),
      /** Slots the caps cannot hold (0 when capacity is enough). */
      short: z.number().int(),
    }),
    members: z.array(assignmentMember),
    /** The latest proposal not yet applied or discarded, if any. */
    run: z.object({ id, state: z.enum(['running', 'ready', 'failed']) }).nullable(),
    abilities: z.object({ manage: z.boolean() }),
  })
  .meta({ id: 'AssignmentOverview' });
export type AssignmentOverview = z.infer<typeof assignmentOverview>;

// --- Bidding -------------------------------------------------------------------------

/** A proposal a member may bid on, with what bidding shows of it. */
export const biddable = z.object({
  proposalId: id,
  name: z.string(),
  typeName: z.string(),
  facilities: z.array(z.string()),
  /** The institutions of its author and collaborators. */
  institutions: z.array(z.string()),
  preference,
});
export type Biddable = z.infer<typeof biddable>;

export const bidsResponse = z
  .object({
    biddingOpen: z.boolean(),
    biddingShowsProposals: z.boolean(),
    /** The member's cap in this call, and the chair's (the most they may set). */
    cap: cap.nullable(),
    chairCap: cap.nullable(),
    load: z.number().int(),
    proposals: z.array(biddable),
  })
  .meta({ id: 'Bids' });
export type BidsResponse = z.infer<typeof bidsResponse>;

export const bidRequest = z.object({ proposalId: id, preference }).strict();
export type BidRequest = z.infer<typeof bidRequest>;
export const bidResponse = z.object({ proposalId: id, preference });

export const myCapRequest = z.object({ cap: cap.nullable() }).strict();
export const myCapResponse = z.object({ cap, chairCap: cap });

// --- Propose, apply, discard ----------------------------------------------------------

export const proposeRequest = z
  .object({
    /** Take back assignments made before (not locked, no review saved) and work them out anew. */
    redo: z.boolean().default(false),
    seed: z
      .number()
      .int()
      .min(0)
      .max(2 ** 31 - 1)
      .optional(),
  })
  .strict();
export type ProposeRequest = z.infer<typeof proposeRequest>;

export const assignmentPair = z.object({
  proposalId: id,
  proposalName: z.string(),
  userId: id,
  userName: z.string(),
});
export const assignmentRun = z
  .object({
    id,
    state: z.enum(['running', 'ready', 'failed']),
    /** 0 to 1 while running. */
    progress: z.number(),
    redo: z.boolean(),
    createdAt: dateTime,
    error: z.string().nullable(),
    added: z.array(assignmentPair.extend({ preference })),
    removed: z.array(assignmentPair),
    loads: z.array(
      z.object({
        userId: id,
        userName: z.string(),
        before: z.number().int(),
        after: z.number().int(),
        cap,
      }),
    ),
    unfilled: z.array(
      z.object({
        proposalId: id,
        proposalName: z.string(),
        missing: z.number().int(),
        reason: z.enum(UNFILLED_REASONS),
        message: z.string(),
      }),
    ),
  })
  .meta({ id: 'AssignmentRun' });
export type AssignmentRun = z.infer<typeof assignmentRun>;

export const applyResponse = z.object({
  added: z.number().int(),
  removed: z.number().int(),
  /** Members who were sent one mail each about their new proposals. */
  mailed: z.number().int(),
});

// --- Matrix ---------------------------------------------------------------------------

/** PostgreSQL's largest integer: a larger id or page would fail in the database. */
const MAX_INT = 2_147_483_647;

export const matrixQuery = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  page_size: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_PAGE_SIZE * 5)
    .default(200),
  search: z.string().trim().max(200).optional(),
  type: z.coerce.number().int().positive().max(MAX_INT).optional(),
  facility: z.string().max(200).optional(),
  /** `unassigned`: no reviewer yet; `under`: fewer than k. */
  show: z.enum(['all', 'unassigned', 'under']).default('all'),
});
export type MatrixQuery = z.infer<typeof matrixQuery>;

/** One cell that is not empty: assigned, a bid other than neutral, or a conflict. */
export const matrixCell = z.object({
  userId: id,
  assigned: z.boolean(),
  locked: z.boolean(),
  preference: preference.optional(),
  /** An enforced conflict, or the member is of the proposal's team. */
  conflict: z.boolean(),
});
export const matrixRow = z.object({
  proposalId: id,
  name: z.string(),
  typeName: z.string(),
  facilities: z.array(z.string()),
  wanted: z.number().int(),
  assigned: z.number().int(),
  cells: z.array(matrixCell),
});
export type MatrixRow = z.infer<typeof matrixRow>;
export const matrixResponse = z
  .object({
    count: z.number().int(),
    page: z.number().int(),
    pageSize: z.number().int(),
    members: z.array(z.object({ userId: id, name: z.string(), load: z.number().int(), cap })),
    rows: z.array(matrixRow),
    facilities: z.array(z.string()),
    types: z.array(z.object({ id, name: z.string() })),
  })
  .meta({ id: 'AssignmentMatrix' });
export type MatrixResponse = z.infer<typeof matrixResponse>;

/** PATCH /calls/{callId}/assignment/locks/: lock an assignment so Propose never takes it back. */
export const lockRequest = z.object({ proposalId: id, userId: id, locked: z.boolean() }).strict();

export const csvUploadResponse = z.object({
  assigned: z.number().int(),
  removed: z.number().int(),
});

/**
 * GET and POST /calls/{callId}/assignment/csv/: the file itself (`Content-Type: text/csv`),
 * `proposal_id,username,action` and one assignment a line.
 */
export const assignmentCsv = z.string().describe('CSV: proposal_id,username,action');

/** POST /calls/{callId}/assignment/proposals/: the new proposal's id (202). */
export const proposeResponse = z.object({ id });
