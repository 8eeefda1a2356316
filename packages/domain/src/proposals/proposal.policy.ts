import { decisionsReleased } from '../calls/call.policy.js';
import { submissionOpenFor, type TimeWindow } from '../calls/windows.js';
import { decisionMessages } from '../decisions/outcomes.js';
import { utcTime } from '../dates.js';
import {
  mayAnswerDeclaration,
  mayDeclareAsApplicant,
  mayManageConflicts,
  mayViewConflicts,
} from '../conflicts/conflicts.policy.js';
import { conflictMessages } from '../conflicts/conflicts.js';
import { mayReadHistory } from '../history/history.js';
import {
  declarationPending,
  isConflicted,
  isProposalTeam,
  mayManageReviewers,
  mayReview,
  reviewAccess,
  type ReviewedProposal,
} from '../reviews/reviewing.js';
import {
  isCommitteeChair,
  isCommitteeMember,
  type CommitteeActor,
} from '../permissions/committee.js';
import {
  allOf,
  conflict,
  definePolicy,
  forbidden,
  hidden,
  type Decision,
} from '../permissions/policy.js';

/** The stored states (ARCHITECTURE.md "Proposal state"); Reviewed (2) is derived when read. */
export const PROPOSAL_STATE = { draft: 0, submitted: 1, reviewed: 2 } as const;
export type ProposalStateName = 'Draft' | 'Submitted' | 'Reviewed';

/** How long a lock lasts without renewal; the editor renews it every 5 s (spec section 9). */
export const LOCK_LEASE_MS = 30_000;
/** How often the editor asks for the lock, and restarts the wait after each save. */
export const LOCK_POLL_MS = 5_000;

export const proposalMessages = {
  notFound: 'There is no proposal with this id.',
  /** Spec section 5 and 8, word for word. */
  nameMissing: 'Please set a Proposal Name before saving any pages.',
  /** Spec section 8, word for word. */
  saveFailed: 'Save failed. There is an error with a form.',
  /** Spec section 5, word for word. */
  deleteEntryConfirm: 'Do you really want to delete this entry?',
  submitted:
    'This proposal has been submitted, so it cannot be changed. Its author can retract it to edit it again.',
  authorWindowClosed: 'Submission to this call has closed for this proposal.',
  actorWindowClosed: 'Submission to this call is not open for you now.',
  locked: (holder: string) =>
    `${holder} is editing this proposal now. You can edit it once they have left it.`,
  /** 409 `locked` (and the lock's `otherTab`): the same person holds it in another tab. */
  lockedInOtherTab:
    'You have this proposal open in another tab or window. Edit it there, or close it there and wait a few seconds.',
  authorOnly: 'Only the author of this proposal can do this.',
  editorsOnly: 'Only the author and the collaborators of this proposal can edit it.',
  alreadySubmitted: 'This proposal has already been submitted.',
  alreadyDraft: 'This proposal is a draft already.',
  hasReviews: 'This proposal has reviews, so it cannot be deleted.',
  callClosed: 'This call is closed, so its proposals can no longer be changed.',
  lastEntry: 'The last entry of a form cannot be deleted: change it instead.',
  invalidForms: 'Some forms are not complete. Fix them, then submit again.',
  typeNotInCall: 'This proposal type does not belong to this call.',
  hashUnknown:
    'No one has this hash. Ask your collaborator for the hash shown on their My Account page.',
  hashOwn: 'This is your own hash: you are the author of this proposal.',
  /** 409: adding one of the proposal's reviewers who has saved a review of it. */
  reviewerCollaborator:
    'This person reviews this proposal and has saved a review, so they cannot become a collaborator on it.',
  alreadyCollaborator: 'This person is a collaborator on this proposal already.',
  notCollaborator: 'This person is not a collaborator on this proposal.',
  formNotInType: 'This form is not one of the forms of this proposal’s type.',
  notMultiForm: 'This form takes one entry only.',
  tooManyEntries: (max: number) =>
    `This form takes at most ${max} entries. Delete one before adding another.`,
  /** 409 `stale`: the answers were saved by someone (or another tab) after these were opened. */
  answersStale: (savedBy: string | null, savedAt: Date, entry: boolean) =>
    `${savedBy ?? 'Someone'} saved this ${entry ? 'entry' : 'form'} on ${utcTime(savedAt)}, after you opened it, so your answers were not saved. Choose which answers to keep.`,
  /** 409 `stale`: the entry was deleted after these answers were opened. */
  entryGone:
    'This entry was deleted after you opened it, so your answers were not saved. Choose whether to save them as a new entry.',
  /** 409 `stale` of a delete naming an entry by both its id and its number, which differ. */
  entryMoved:
    'The entries of this form have changed since you opened it, so nothing was deleted. Reload the proposal to see its entries.',
  /** 409 `conflict`: a Save All's hash reused for other answers to the same form or entry. */
  saveReused:
    'This Save All batch already saved other answers to this form, so these were not saved. Save again to save them.',
  /** 413: a proposal's answers together would pass PROPOSAL_ANSWERS_MAX_BYTES. */
  answersTooLarge: (maxBytes: number) =>
    `The answers of this proposal together would take more than ${maxBytes / (1024 * 1024)} MB, so these were not saved. Shorten long answers or delete entries, then save again.`,
  dataTooLarge: (maxBytes: number) =>
    `These answers take more than ${maxBytes / (1024 * 1024)} MB. Shorten the longest answers, then save again.`,
  proposalMissing: 'Say which proposal to change, or send new: true to create one.',
  typeMissing: 'Choose a proposal type.',
  otherCall: 'This proposal belongs to another call.',
  otherType: 'This proposal is of another proposal type.',
  /** One entry's problem, for a form with several entries. */
  entryProblem: (index: number, message: string) => `Entry ${index + 1}: ${message}`,
  decisionChairsOnly: 'Only the chairs of the call’s committee can write its decision summaries.',
  decisionOwnProposal: 'You cannot write the decision on a proposal you wrote or collaborate on.',
  decisionNotYet:
    'The decision on this proposal is available once the chairs have closed the call.',
  decisionHidden:
    'Only the chairs of the call’s committee and the proposal’s people see its decision.',
  /** 409 `stale`: another chair saved the decision summary after this one opened it. */
  decisionStale: (savedBy: string | null, savedAt: Date | null) =>
    `${savedBy ?? 'Someone'} changed this decision summary${savedAt ? ` on ${utcTime(savedAt)}` : ''}, after you opened it, so your text was not saved. Compare it with theirs, then save again.`,
} as const;

/**
 * One editor of a proposal: a person in one login session (`tokenId`) and one browser
 * tab (`tabId`, '' when the client named none). The same person in two tabs, or logged
 * in twice, is two editors: only the one holding the lock saves.
 */
export interface Editor {
  userId: number;
  tokenId: number;
  tabId: string;
}

/** Who holds a proposal's lock, until when. */
export interface ProposalLock {
  editor: Editor;
  holderName: string;
  expiresAt: Date;
}

/** The editor the actor is in this request; without a session (tools, fixtures), session 0. */
export const editorOf = (actor: CommitteeActor): Editor => ({
  userId: actor.id,
  tokenId: actor.session?.tokenId ?? 0,
  tabId: actor.session?.tabId ?? '',
});

export const sameEditor = (a: Editor, b: Editor) =>
  a.userId === b.userId && a.tokenId === b.tokenId && a.tabId === b.tabId;

/** A proposal as one actor's rules see it. */
export interface ProposalResource extends ReviewedProposal {
  /** The author's extension windows on the call: submission is open for the proposal in them. */
  authorExtensions: readonly TimeWindow[];
  /** The actor's own extension windows on the call. */
  actorExtensions: readonly TimeWindow[];
  lock: ProposalLock | null;
  hasReviews: boolean;
}

/** Who a proposal belongs to. */
type ProposalPeople = Pick<ProposalResource, 'authorId' | 'collaboratorIds'>;

export const isAuthor = (actor: CommitteeActor, proposal: ProposalPeople) =>
  actor.id === proposal.authorId;
export const isCollaborator = (actor: CommitteeActor, proposal: ProposalPeople) =>
  proposal.collaboratorIds.includes(actor.id);

/** The lock while its lease runs, whoever holds it: a lease that ran out is free. */
export function liveLock(proposal: Pick<ProposalResource, 'lock'>, now: Date): ProposalLock | null {
  const { lock } = proposal;
  return lock && lock.expiresAt.getTime() > now.getTime() ? lock : null;
}

/**
 * The lock, when an editor other than the actor's holds it now: another person, or the
 * actor in another session or tab.
 */
export function lockedByOther(
  actor: CommitteeActor,
  proposal: Pick<ProposalResource, 'lock'>,
  now: Date,
): ProposalLock | null {
  const lock = liveLock(proposal, now);
  return lock && !sameEditor(lock.editor, editorOf(actor)) ? lock : null;
}

/** The refusal a lock held by another editor is: by another person, or in another tab. */
export const lockedRefusal = (actor: CommitteeActor, lock: ProposalLock) =>
  conflict(
    lock.editor.userId === actor.id
      ? proposalMessages.lockedInOtherTab
      : proposalMessages.locked(lock.holderName),
    'locked',
  );

/** Submission is open for the proposal: the call's window, or its author's extension. */
export const submissionOpenForProposal = (proposal: ProposalResource, now: Date) =>
  submissionOpenFor(proposal.call, proposal.authorExtensions, now);

const mayKnowOf = (actor: CommitteeActor, proposal: ProposalResource, now: Date): Decision => {
  if (isProposalTeam(actor, proposal)) return true;
  // Chairs of the call's committee (and admins) see every proposal of their calls.
  if (isCommitteeChair(actor, proposal.call.committeeId, now)) return true;
  // Members see submitted proposals of their committee's calls, to review them.
  if (
    proposal.stateVal >= PROPOSAL_STATE.submitted &&
    isCommitteeMember(actor, proposal.call.committeeId, now)
  )
    return true;
  return hidden(proposalMessages.notFound);
};

/**
 * Seeing the proposal itself (its detail, answers, files, extract): whoever may know of it,
 * once they have answered its conflict declaration where the call asks for one
 * (`declarationPending`): until then, 403 `declaration_required`, and only its list row
 * and the declaration's facts are theirs to read.
 */
const canSee = (actor: CommitteeActor, proposal: ProposalResource, now: Date): Decision =>
  allOf(
    () => mayKnowOf(actor, proposal, now),
    () =>
      declarationPending(actor, proposal, now)
        ? forbidden(conflictMessages.declarationRequired, 'declaration_required')
        : true,
  );

const notLocked = (actor: CommitteeActor, proposal: ProposalResource, now: Date): Decision => {
  const holder = lockedByOther(actor, proposal, now);
  return holder ? lockedRefusal(actor, holder) : true;
};

const openForAuthor = (proposal: ProposalResource, now: Date): Decision =>
  submissionOpenForProposal(proposal, now)
    ? true
    : conflict(
        proposal.call.closed ? proposalMessages.callClosed : proposalMessages.authorWindowClosed,
      );

/**
 * May edit but for the lock (who holds it is checked apart, so that whoever may edit can
 * take the lock): the author or a collaborator, a draft, and submission open for both the
 * proposal (its author's window) and the person editing (theirs).
 */
const mayEditButForLock = (actor: CommitteeActor, proposal: ProposalResource, now: Date) =>
  allOf(
    () => canSee(actor, proposal, now),
    () => (isProposalTeam(actor, proposal) ? true : forbidden(proposalMessages.editorsOnly)),
    () =>
      proposal.stateVal === PROPOSAL_STATE.draft ? true : conflict(proposalMessages.submitted),
    () => openForAuthor(proposal, now),
    () =>
      submissionOpenFor(proposal.call, proposal.actorExtensions, now)
        ? true
        : conflict(proposalMessages.actorWindowClosed),
  );

const author = (actor: CommitteeActor, proposal: ProposalResource): Decision =>
  isAuthor(actor, proposal) ? true : forbidden(proposalMessages.authorOnly);

/**
 * Who reads a proposal's decision summary (spec sections 2 and 6, ARCHITECTURE.md
 * "Visibility"): its author and collaborators once the call is closed, and not before,
 * whatever else they are (a chair who wrote the proposal reads it as its author); the
 * chairs of the call's committee and admins always; members who are not chairs never.
 */
const mayViewDecision = (actor: CommitteeActor, proposal: ProposalResource, now: Date) => {
  if (isConflicted(actor, proposal)) return hidden(proposalMessages.notFound);
  if (isProposalTeam(actor, proposal))
    return proposal.call.closed ? true : forbidden(proposalMessages.decisionNotYet);
  return isCommitteeChair(actor, proposal.call.committeeId, now)
    ? true
    : forbidden(proposalMessages.decisionHidden);
};

/**
 * Writing the decision summary: the chairs of the call's committee (and admins), never on
 * a proposal of their own. At any time, the call closed or not: a decision is written in
 * the committee's meeting, before closing makes it visible, and a slip found afterwards
 * can still be put right (each save has its audit row).
 */
const mayEditDecision = (actor: CommitteeActor, proposal: ProposalResource, now: Date) => {
  if (isProposalTeam(actor, proposal)) return forbidden(proposalMessages.decisionOwnProposal);
  if (isConflicted(actor, proposal)) return hidden(proposalMessages.notFound);
  return isCommitteeChair(actor, proposal.call.committeeId, now)
    ? true
    : forbidden(proposalMessages.decisionChairsOnly);
};

/**
 * Setting its outcome and awards (issue 29): the chairs of the call's committee, never on a
 * proposal of their own or one they are conflicted on, once it is submitted and submission
 * has closed for it; before or after the call is closed.
 */
const mayDecide = (actor: CommitteeActor, proposal: ProposalResource, now: Date) => {
  if (isProposalTeam(actor, proposal)) return forbidden(decisionMessages.ownProposal);
  if (isConflicted(actor, proposal)) return hidden(proposalMessages.notFound);
  if (!isCommitteeChair(actor, proposal.call.committeeId, now))
    return forbidden(decisionMessages.chairsOnly);
  if (proposal.stateVal < PROPOSAL_STATE.submitted) return conflict(decisionMessages.draft);
  return submissionOpenForProposal(proposal, now) ? conflict(decisionMessages.notYet) : true;
};

/**
 * Reading its outcome, awards and letter: the chairs of the call's committee (not
 * conflicted) and admins always; its author and collaborators once the call is closed and
 * its decisions released, and not before, whatever else they are.
 */
const mayViewOutcome = (actor: CommitteeActor, proposal: ProposalResource, now: Date) => {
  if (isConflicted(actor, proposal)) return hidden(proposalMessages.notFound);
  if (isProposalTeam(actor, proposal))
    return decisionsReleased(proposal.call) ? true : forbidden(decisionMessages.notReleased);
  return isCommitteeChair(actor, proposal.call.committeeId, now)
    ? true
    : forbidden(proposalMessages.decisionHidden);
};

/**
 * The actions on a proposal (spec sections 4 and 6) and who may take them. A refusal
 * says how the server answers: 404 for someone who may not see the proposal, 403 for
 * one who sees it but may not act, 409 when its state or lock forbids it now.
 */
export const proposalPolicy = definePolicy<ProposalResource>()({
  /** Its author and collaborators; chairs of the call's committee; members once submitted. */
  view: canSee,
  /**
   * Editing in general (spec section 6): the author or a collaborator, a draft, not
   * locked by someone else, and submission open for both the proposal (its author's
   * window) and the person editing (theirs).
   */
  edit: (actor, proposal, now) =>
    allOf(
      () => mayEditButForLock(actor, proposal, now),
      () => notLocked(actor, proposal, now),
    ),
  /** The author, on a draft, while submission is open for it, and not locked by someone else. */
  submit: (actor, proposal, now) =>
    allOf(
      () => canSee(actor, proposal, now),
      () => author(actor, proposal),
      () =>
        proposal.stateVal === PROPOSAL_STATE.draft
          ? true
          : conflict(proposalMessages.alreadySubmitted),
      () => openForAuthor(proposal, now),
      () => notLocked(actor, proposal, now),
    ),
  /** The author, on a submitted proposal, while submission is still open for it. */
  retract: (actor, proposal, now) =>
    allOf(
      () => canSee(actor, proposal, now),
      () => author(actor, proposal),
      () =>
        proposal.stateVal >= PROPOSAL_STATE.submitted
          ? true
          : conflict(proposalMessages.alreadyDraft),
      () => openForAuthor(proposal, now),
      () => notLocked(actor, proposal, now),
    ),
  /** The author adds and removes collaborators until the call is closed. */
  manageCollaborators: (actor, proposal, now) =>
    allOf(
      () => canSee(actor, proposal, now),
      () => author(actor, proposal),
      () => (proposal.call.closed ? conflict(proposalMessages.callClosed) : true),
    ),
  /** The author deletes a draft that has no reviews, while it is theirs to edit. */
  delete: (actor, proposal, now) =>
    allOf(
      () => canSee(actor, proposal, now),
      () => author(actor, proposal),
      () =>
        proposal.stateVal === PROPOSAL_STATE.draft ? true : conflict(proposalMessages.submitted),
      () => (proposal.hasReviews ? conflict(proposalMessages.hasReviews) : true),
      () => (proposal.call.closed ? conflict(proposalMessages.callClosed) : true),
      () => notLocked(actor, proposal, now),
    ),
  /**
   * Taking the editing lock: whoever may edit but for the lock itself. Anyone else who
   * sees the proposal is told who holds it, and never takes it.
   */
  lock: mayEditButForLock,
  /** Writing or changing one's review: the six conditions of spec section 6. */
  review: (actor, proposal, now) =>
    allOf(
      () => canSee(actor, proposal, now),
      () => mayReview(actor, proposal, now),
    ),
  /** Seeing its reviews: chairs, members who may review it, and whoever wrote one (their own). */
  viewReviews: (actor, proposal, now) =>
    allOf(
      () => canSee(actor, proposal, now),
      () =>
        reviewAccess(actor, proposal, now) === 'none' ? hidden(proposalMessages.notFound) : true,
    ),
  /** Assigning and removing reviewers: chairs, once it has left the submission stage. */
  manageReviewers: (actor, proposal, now) =>
    allOf(
      () => canSee(actor, proposal, now),
      () => mayManageReviewers(actor, proposal, now),
    ),
  /** Reading its decision summary: chairs always; its people once the call is closed. */
  viewDecision: (actor, proposal, now) =>
    allOf(
      () => canSee(actor, proposal, now),
      () => mayViewDecision(actor, proposal, now),
    ),
  /** Writing its decision summary: chairs of the call's committee, not on their own proposal. */
  editDecision: (actor, proposal, now) =>
    allOf(
      () => canSee(actor, proposal, now),
      () => mayEditDecision(actor, proposal, now),
    ),
  /** Setting its outcome and awards: chairs, not conflicted, once submission closed for it. */
  decide: (actor, proposal, now) =>
    allOf(
      () => canSee(actor, proposal, now),
      () => mayDecide(actor, proposal, now),
    ),
  /** Reading its outcome, awards and letter: chairs; its people once decisions are released. */
  viewOutcome: (actor, proposal, now) =>
    allOf(
      () => canSee(actor, proposal, now),
      () => mayViewOutcome(actor, proposal, now),
    ),
  /** Its author and collaborators declare its conflicts of interest (the Conflicts panel). */
  declareConflicts: (actor, proposal, now) =>
    allOf(
      () => canSee(actor, proposal, now),
      () => mayDeclareAsApplicant(actor, proposal),
    ),
  /** Its team sees their declarations; chairs without a conflict see every conflict of it. */
  viewConflicts: (actor, proposal, now) =>
    allOf(
      () => canSee(actor, proposal, now),
      () => mayViewConflicts(actor, proposal, now),
    ),
  /** Chairs without a conflict of their own add, confirm, dismiss and pin its conflicts. */
  manageConflicts: (actor, proposal, now) =>
    allOf(
      () => canSee(actor, proposal, now),
      () => mayManageConflicts(actor, proposal, now),
    ),
  /**
   * A member answers whether they have a conflict with it, once: allowed before the
   * proposal opens for them, so the gate can be passed.
   */
  answerDeclaration: (actor, proposal, now) =>
    allOf(
      () => mayKnowOf(actor, proposal, now),
      () => mayAnswerDeclaration(actor, proposal, now),
    ),
  /**
   * Its History tab (issue 28): its team reads their own timeline; chairs of its committee
   * and administrators without a conflict read every row they may see (`historyReader`).
   * One with a conflict is told there is none to read (404), as for its decision and its
   * conflicts.
   */
  viewHistory: (actor, proposal, now) =>
    allOf(
      () => canSee(actor, proposal, now),
      () => (isConflicted(actor, proposal) ? hidden(proposalMessages.notFound) : true),
      () => mayReadHistory(actor, proposal, now),
    ),
});

export type ProposalAbilities = { [A in keyof typeof proposalPolicy]: boolean };

/**
 * Why an editor does not hold the lock (the contract's LOCK_REASONS): another person
 * holds it; the same person does, in another tab, window or login; submission is closed
 * for them; they can no longer edit it at all (submitted, no longer a collaborator, the
 * call closed, or never an editor).
 */
export type LockReason = 'held' | 'otherTab' | 'closed' | 'noEdit';

/** The refusals of `proposal.lock` that are a submission window closed for the caller. */
const WINDOW_CLOSED: readonly string[] = [
  proposalMessages.authorWindowClosed,
  proposalMessages.actorWindowClosed,
];

/**
 * What the lock is for the actor, once they have asked for it (`proposal.lock` decides
 * whether they may take it): theirs, so they edit, or why not with what to tell them.
 * `lock` is the proposal's lock as asking for it left it.
 */
export function lockStanding(
  actor: CommitteeActor,
  proposal: ProposalResource,
  now: Date,
): { mine: boolean; reason?: LockReason; message?: string } {
  const may = proposalPolicy.lock(actor, proposal, now);
  if (may !== true)
    return {
      mine: false,
      reason: WINDOW_CLOSED.includes(may.message) ? 'closed' : 'noEdit',
      message: may.message,
    };
  const other = lockedByOther(actor, proposal, now);
  if (other)
    return {
      mine: false,
      reason: other.editor.userId === actor.id ? 'otherTab' : 'held',
      message: lockedRefusal(actor, other).message,
    };
  return { mine: liveLock(proposal, now) !== null };
}

/**
 * The state a person sees: Draft, Submitted, or, for those who may see reviews, Reviewed
 * (ARCHITECTURE.md "Reviewed": derived when read).
 */
export function proposalStateName(stateVal: number, reviewed: boolean): ProposalStateName {
  if (stateVal < PROPOSAL_STATE.submitted) return 'Draft';
  return reviewed ? 'Reviewed' : 'Submitted';
}
