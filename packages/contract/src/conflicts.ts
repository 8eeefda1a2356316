import { z } from 'zod';
import {
  CONFLICT_REASON_MAX,
  CONFLICT_SOURCES,
  CONFLICT_STATES,
  CONFLICT_TYPES,
  DECLARED_CONFLICT_TYPES,
} from '@merit/domain';
import { dateTime, entityId, MAX_PAGE_SIZE } from './common.js';

const id = entityId;

export const conflictType = z.enum(CONFLICT_TYPES);
export const declaredConflictType = z.enum(DECLARED_CONFLICT_TYPES);
export const conflictState = z.enum(CONFLICT_STATES);
export const conflictSource = z.enum(CONFLICT_SOURCES);
const reason = z.string().trim().max(CONFLICT_REASON_MAX);

/** What matched, for a detected conflict (the domain's `ConflictEvidence`). */
export const conflictEvidence = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('team'), role: z.enum(['author', 'collaborator']) }),
  z.object({
    kind: z.literal('domain'),
    person: z.string(),
    applicant: z.string(),
    applicantName: z.string(),
  }),
  z.object({
    kind: z.literal('institution'),
    person: z.string(),
    applicant: z.string(),
    applicantName: z.string(),
  }),
  z.object({
    kind: z.literal('collaboratorList'),
    listedBy: z.enum(['person', 'applicant']),
    email: z.string(),
    applicantName: z.string(),
  }),
  z.object({
    kind: z.literal('sharedProposal'),
    proposalId: id,
    proposalName: z.string(),
    applicantName: z.string(),
  }),
]);
export type ConflictEvidenceBody = z.infer<typeof conflictEvidence>;

/** One conflict of interest: a proposal and a person (GET /calls/{id}/conflicts/ and others). */
export const conflictItem = z.object({
  id,
  proposalId: id,
  proposalName: z.string(),
  userId: id,
  userName: z.string(),
  institution: z.string(),
  type: conflictType,
  source: conflictSource,
  state: conflictState,
  pinned: z.boolean(),
  reason: z.string(),
  evidence: z.array(conflictEvidence),
  /** Who last changed it (declared, confirmed, dismissed), and when. */
  changedBy: z.string().nullable(),
  changedAt: dateTime,
  /**
   * What the caller may do with it now (the server's own rules): a chair confirms,
   * dismisses, pins and removes all but their own; the applicant removes their unpinned
   * declarations.
   */
  abilities: z
    .object({
      confirm: z.boolean(),
      dismiss: z.boolean(),
      pin: z.boolean(),
      remove: z.boolean(),
    })
    .optional(),
});
export type ConflictItem = z.infer<typeof conflictItem>;

/** A committee member as the applicant's Conflicts panel lists them: name and institution only. */
export const conflictCandidate = z.object({
  userId: id,
  name: z.string(),
  institution: z.string(),
});
export type ConflictCandidate = z.infer<typeof conflictCandidate>;

/**
 * GET /proposals/{id}/conflicts/: for its author and collaborators, their declarations
 * and the committee to choose from; for chairs, every conflict of the proposal.
 */
export const proposalConflicts = z.object({
  /** The call records conflicts (the call's setting). */
  enabled: z.boolean(),
  /** Raised by each save of the applicant's declarations: a save names the one it started from. */
  version: z.number().int(),
  /** The committee's current members (for the applicant's panel; chairs get them too). */
  candidates: z.array(conflictCandidate),
  conflicts: z.array(conflictItem),
  abilities: z.object({ declare: z.boolean(), manage: z.boolean() }),
});
export type ProposalConflicts = z.infer<typeof proposalConflicts>;

/** POST /proposals/{id}/conflicts/: the applicant declares one, or a chair adds one (confirmed). */
export const conflictCreate = z.object({
  userId: id,
  type: declaredConflictType,
  reason: reason.default(''),
  /** A chair's only: only a chair can remove it then. */
  pinned: z.boolean().default(false),
});
export type ConflictCreate = z.input<typeof conflictCreate>;

/**
 * PUT /proposals/{id}/conflicts/: the applicant's Conflicts panel saved as a whole, like a
 * form: the members they declare, from the version they opened (another is 409 `stale`).
 */
export const conflictDeclarationsSave = z.object({
  version: z.number().int().min(0),
  declarations: z
    .array(z.object({ userId: id, type: declaredConflictType, reason: reason.default('') }))
    .max(1000),
});
export type ConflictDeclarationsSave = z.input<typeof conflictDeclarationsSave>;

/** POST /conflicts/{id}/: a chair confirms, dismisses, pins or unpins. */
export const conflictChange = z
  .object({ state: z.enum(['confirmed', 'dismissed']).optional(), pinned: z.boolean().optional() })
  .refine((c) => c.state !== undefined || c.pinned !== undefined, {
    message: 'Say the new state or whether it is pinned.',
  });
export type ConflictChange = z.infer<typeof conflictChange>;

/** POST /conflicts/bulk/: the chair's Conflicts page confirms or dismisses many at once. */
export const conflictBulkChange = z.object({
  ids: z.array(id).min(1).max(MAX_PAGE_SIZE),
  state: z.enum(['confirmed', 'dismissed']),
});
export type ConflictBulkChange = z.infer<typeof conflictBulkChange>;
export const conflictBulkResult = z.object({
  changed: z.array(id),
  /** Those left as they were, each with why (one's own, a member's declaration, authorship). */
  refused: z.array(z.object({ id, detail: z.string() })),
});

/** GET /calls/{id}/conflicts/: a page of the call's conflicts, filtered. */
export const callConflictsQuery = z.object({
  state: conflictState.optional(),
  type: conflictType.optional(),
  user: z.coerce.number().int().positive().optional(),
  proposal: z.coerce.number().int().positive().optional(),
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(50),
});
export type CallConflictsQuery = z.input<typeof callConflictsQuery>;
export const callConflictsPage = z.object({
  items: z.array(conflictItem),
  total: z.number().int(),
  /** Counts per state over the whole call, for the page's filter chips. */
  counts: z.object({
    suggested: z.number().int(),
    confirmed: z.number().int(),
    dismissed: z.number().int(),
  }),
  /** Submitted proposals whose applicants declared no conflict. */
  undeclared: z.number().int(),
  /** The committee's members, for the member filter and the chair's Add Conflict. */
  members: z.array(conflictCandidate),
});
export type CallConflictsPage = z.infer<typeof callConflictsPage>;

/**
 * GET /proposals/{id}/conflict_declaration/: the facts a member sees before a proposal
 * opens for them, and their answer once given.
 */
export const conflictDeclarationGate = z.object({
  proposalId: id,
  callId: id,
  proposalName: z.string(),
  proposalTypeName: z.string(),
  /** The applicants' institutions, each once. */
  institutions: z.array(z.string()),
  /** They must answer before the proposal opens for them. */
  required: z.boolean(),
  answer: z
    .object({ conflict: z.boolean(), type: declaredConflictType.nullable(), at: dateTime })
    .nullable(),
  /** The caller may answer now. */
  mayAnswer: z.boolean(),
});
export type ConflictDeclarationGate = z.infer<typeof conflictDeclarationGate>;

/** POST /proposals/{id}/conflict_declaration/: "No conflict", or "I have a conflict" with its kind. */
export const conflictDeclarationAnswer = z
  .object({
    conflict: z.boolean(),
    type: declaredConflictType.optional(),
    reason: reason.default(''),
  })
  .refine((a) => !a.conflict || a.type !== undefined, {
    message: 'Choose the kind of conflict.',
    path: ['type'],
  });
export type ConflictDeclarationAnswer = z.input<typeof conflictDeclarationAnswer>;

/** A person's recent collaborators (My Account), for conflict detection. */
export const recentCollaborator = z.object({
  name: z.string().trim().min(1).max(100),
  email: z.string().trim().email('Please enter a valid email address.').max(254),
});
export const recentCollaborators = z.array(recentCollaborator).max(200);
export type RecentCollaborator = z.infer<typeof recentCollaborator>;

/** GET and PUT /recent_collaborators/: the caller's own list (My Account). */
export const recentCollaboratorsBody = z.object({ collaborators: recentCollaborators });
export type RecentCollaboratorsBody = z.infer<typeof recentCollaboratorsBody>;
