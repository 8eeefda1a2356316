/*
 * Conflicts of interest: a person who must be kept away from a proposal's reviews, scores
 * and decision. One per proposal and person; who declared it, whether a chair has judged
 * it, and what Merit matched to suggest it.
 */

/** Why the person is conflicted. `author`: they wrote or collaborate on the proposal. */
export const CONFLICT_TYPES = [
  'author',
  'institutional',
  'collaborator',
  'personal',
  'financial',
  'other',
] as const;
export type ConflictType = (typeof CONFLICT_TYPES)[number];

/** The types a person declares by hand: `author` is Merit's to record. */
export const DECLARED_CONFLICT_TYPES = [
  'institutional',
  'collaborator',
  'personal',
  'financial',
  'other',
] as const satisfies readonly ConflictType[];
export type DeclaredConflictType = (typeof DECLARED_CONFLICT_TYPES)[number];

/** Who said so: the proposal's applicant, the member themselves, a chair, or Merit's detector. */
export const CONFLICT_SOURCES = ['applicant', 'reviewer', 'chair', 'detected'] as const;
export type ConflictSource = (typeof CONFLICT_SOURCES)[number];

/**
 * `suggested`: detected, waiting for a chair; `confirmed`: enforced; `dismissed`: a chair
 * said no, and it stays dismissed when detection runs again. Declarations (by the
 * applicant, the member, or a chair) are confirmed when made.
 */
export const CONFLICT_STATES = ['suggested', 'confirmed', 'dismissed'] as const;
export type ConflictState = (typeof CONFLICT_STATES)[number];

export const CONFLICT_TYPE_LABELS: Record<ConflictType, string> = {
  author: 'Author or collaborator',
  institutional: 'Same institution',
  collaborator: 'Recent collaborator',
  personal: 'Personal',
  financial: 'Financial',
  other: 'Other',
};

export const CONFLICT_SOURCE_LABELS: Record<ConflictSource, string> = {
  applicant: 'Declared by the applicant',
  reviewer: 'Declared by the member',
  chair: 'Added by a chair',
  detected: 'Detected by Merit',
};

export const CONFLICT_STATE_LABELS: Record<ConflictState, string> = {
  suggested: 'Suggested',
  confirmed: 'Confirmed',
  dismissed: 'Dismissed',
};

/** What matched, for a detected conflict: enough for a chair to judge it in one look. */
export type ConflictEvidence =
  | { kind: 'team'; role: 'author' | 'collaborator' }
  | { kind: 'domain'; person: string; applicant: string; applicantName: string }
  | { kind: 'institution'; person: string; applicant: string; applicantName: string }
  | {
      kind: 'collaboratorList';
      listedBy: 'person' | 'applicant';
      email: string;
      applicantName: string;
    }
  | {
      kind: 'sharedProposal';
      proposalId: number;
      proposalName: string;
      applicantName: string;
    };

/** The parts of a conflict the rules read. */
export interface ConflictFacts {
  type: ConflictType;
  source: ConflictSource;
  state: ConflictState;
  pinned: boolean;
  /**
   * A chair assigned the person to review the proposal all the same, with a written
   * reason (POST /reviewers/ `overrideReason`): the conflict stays on record, shown beside
   * the assignment, but no longer keeps them from reviewing it. Taking the assignment back
   * ends the override.
   */
  overridden?: boolean;
}

/** A call's conflict settings: both on for new calls. */
export interface CallConflictSettings {
  conflictsEnabled: boolean;
  declarationRequired: boolean;
}

/**
 * Only a confirmed conflict is enforced, only on a call with conflicts turned on, and not
 * once a chair has assigned the person all the same (`overridden`).
 */
export const isEnforced = (
  call: Pick<CallConflictSettings, 'conflictsEnabled'>,
  conflict: Pick<ConflictFacts, 'state' | 'overridden'> | null | undefined,
) => call.conflictsEnabled && conflict?.state === 'confirmed' && conflict.overridden !== true;

export const conflictMessages = {
  notFound: 'There is no conflict with this id.',
  /** 409 `conflict` of POST /reviewers/: assigning a conflicted member without a reason. */
  assignConflicted: (name: string, type: ConflictType) =>
    `${name} has a conflict of interest with this proposal (${CONFLICT_TYPE_LABELS[type].toLowerCase()}). Give a reason to assign them all the same.`,
  /** 403 of the review editor and POST /review_responses/. */
  reviewConflicted: 'You have a conflict of interest with this proposal, so you cannot review it.',
  /** 403 of Manage Reviewers and the decision summary for a conflicted chair. */
  chairConflicted:
    'You have a conflict of interest with this proposal: another chair of the committee decides on it.',
  /** 403 `declaration_required`. */
  declarationRequired:
    'Say whether you have a conflict of interest with this proposal before you read it.',
  alreadyDeclared: 'You have already answered whether you have a conflict with this proposal.',
  declarationNotNeeded:
    'Only members of the call’s committee who may review this proposal declare conflicts with it.',
  typeRequired: 'Choose the kind of conflict.',
  reasonTooLong: 'The reason can be at most 500 characters.',
  conflictsOff: 'Conflicts of interest are turned off for this call.',
  callClosed: 'This call is closed, so conflicts can no longer be declared for its proposals.',
  notMember: 'This person is not a current member of the call’s committee.',
  ownConflict: 'A chair cannot judge a conflict of their own: another chair of the committee does.',
  chairsOnly: 'Only the chairs of the call’s committee manage its conflicts of interest.',
  applicantsOnly: 'Only the author and the collaborators of this proposal declare its conflicts.',
  pinned: 'A chair has pinned this conflict, so only a chair can remove it.',
  notApplicantDeclared:
    'This conflict was not declared by the proposal’s author or collaborators, so only a chair can remove it.',
  authorConflict:
    'Authors and collaborators are conflicted with their own proposal: this cannot be changed.',
  reviewerDeclared: 'The member declared this conflict themselves, so it cannot be dismissed.',
  overrideTooLong: 'The reason can be at most 500 characters.',
  /** The note of a chair's export on a proposal they have a conflict of interest with. */
  exportOmitted:
    'You have a conflict of interest with this proposal, so its reviews, scores and decision are left out.',
  stale:
    'Someone changed this proposal’s conflicts after you opened them, so yours were not saved. Check them, then save again.',
} as const;

/** The longest reason a declaration or an override carries. */
export const CONFLICT_REASON_MAX = 500;
