import type { CallProposal, LockState, MyProposal, ProposalDetail } from '@merit/contract';
import {
  abilitiesOf,
  isMultiForm,
  liveLock,
  lockedByOther,
  lockStanding,
  PROPOSAL_STATE,
  proposalPolicy,
  proposalStateName,
  seesReviewProgress,
  submissionStanding,
  type CommitteeActor,
  type ProposalResource,
  type ProposalStateName,
} from '@merit/domain';
import type { LoadedProposal } from './proposals.queries.js';
import type { CallProposalRow } from './chair.queries.js';
import type { PageEntry, SavedEntry, TypeForm } from './answers.queries.js';

/**
 * The state a caller is told: Reviewed (stateVal 2) only to those who may know it, who
 * have decided that already (`reviewed` is false for everyone else).
 */
function stateOf(stateVal: number, reviewed: boolean) {
  const state: ProposalStateName = proposalStateName(stateVal, reviewed);
  return { state, stateVal: state === 'Reviewed' ? PROPOSAL_STATE.reviewed : stateVal };
}

/**
 * Each form's answers keyed by form id: the data of a one-entry form, or the entries of
 * a multi-entry form in index order (an empty list when it has none yet). Forms nobody
 * has answered are left out.
 */
function presentResponses(forms: readonly TypeForm[], entries: readonly SavedEntry[]) {
  const responses: ProposalDetail['responses'] = {};
  for (const form of forms) {
    const mine = entries.filter((e) => e.formId === form.id).map((e) => e.data);
    if (isMultiForm(form.type)) responses[String(form.id)] = mine;
    else if (mine[0]) responses[String(form.id)] = mine[0];
  }
  return responses;
}

/**
 * Each form's saved entries keyed by form id, beside `responses`: their ids and versions
 * in index order, for the saves that change them (an empty list for a form not answered).
 */
function presentEntries(forms: readonly TypeForm[], entries: readonly PageEntry[]) {
  const versions: ProposalDetail['entries'] = {};
  for (const form of forms)
    versions[String(form.id)] = entries
      .filter((e) => e.formId === form.id)
      .map((e) => ({
        entryId: e.entryId,
        version: e.version,
        savedAt: new Date(e.savedAt).toISOString(),
        savedBy: e.savedBy,
      }));
  return versions;
}

/**
 * The lock as GET /lock/{id}/ answers the caller, once they have asked for it: who holds
 * it (null fields when nobody does), whether it is theirs (this session and tab, and they
 * may edit), and if not why (`lockStanding`).
 */
export const presentLock = (
  actor: CommitteeActor,
  resource: ProposalResource,
  now: Date,
): LockState => {
  const lock = liveLock(resource, now);
  return {
    holderId: lock?.editor.userId ?? null,
    holder: lock?.holderName ?? null,
    ...lockStanding(actor, resource, now),
  };
};

/**
 * GET /proposals/{id}/ for one caller. Nothing of the proposal's reviews is here: those
 * come per caller with the reviews issue, decided by `proposalPolicy` (never to the
 * proposal's own author and collaborators, ARCHITECTURE.md "Visibility"). Its decision
 * summary is here for whoever `proposal.viewDecision` lets read it.
 */
export function presentProposal(
  loaded: LoadedProposal,
  forms: readonly TypeForm[],
  entries: readonly PageEntry[],
  actor: CommitteeActor,
  now: Date,
): ProposalDetail {
  const { proposal, resource } = loaded;
  const lock = liveLock(resource, now);
  const abilities = abilitiesOf(proposalPolicy, actor, resource, now);
  return {
    id: proposal.id,
    callId: proposal.callId,
    callName: loaded.call.name,
    proposalName: proposal.name,
    author: loaded.author.name,
    authorId: loaded.author.id,
    authorEmail: loaded.author.email,
    proposalTypeId: proposal.proposalTypeId,
    proposalTypeName: loaded.typeName,
    // Reviewed is review progress: kept, as the reviews are, from anyone with a conflict of
    // interest with it.
    ...stateOf(proposal.stateVal, loaded.reviewed && seesReviewProgress(actor, resource, now)),
    collaboratorIds: loaded.collaborators.map((c) => c.id),
    collaborators: loaded.collaborators,
    // `mine` for the tab that holds it: the person's other tabs read it as another's.
    lockHolder: lock
      ? {
          holderId: lock.editor.userId,
          holder: lock.holderName,
          mine: !lockedByOther(actor, resource, now),
        }
      : null,
    created: proposal.createdAt.toISOString(),
    lastModified: proposal.updatedAt.toISOString(),
    responses: presentResponses(forms, entries),
    entries: presentEntries(forms, entries),
    // Absent, not null, for whoever may not read it: its authors until the call closes.
    ...(abilities.viewDecision
      ? {
          decisionSummary: proposal.decisionSummary,
          decisionSummaryVersion: proposal.decisionSummaryVersion,
        }
      : {}),
    submission: presentSubmission(resource, now),
    abilities,
  };
}

/** Where submission stands for the proposal now, by its author's windows. */
function presentSubmission(resource: ProposalResource, now: Date): ProposalDetail['submission'] {
  const { status, reopensAt } = submissionStanding(resource.call, resource.authorExtensions, now);
  return { status, reopensAt: reopensAt?.toISOString() ?? null };
}

/**
 * A row of a call's proposal list; `reviewed` is already false for callers who may not
 * know. `myConflict` when the caller has a conflict of interest with it (its review columns
 * are left out for them); its conflicts' counts when the query read them (for chairs), but
 * never on the caller's own proposal or one they have a conflict with, whose conflicts are
 * another chair's to judge.
 */
export const presentCallProposal = (row: CallProposalRow, editable: boolean): CallProposal => ({
  id: row.id,
  proposalName: row.name,
  proposalTypeId: row.proposalTypeId,
  proposalTypeName: row.proposalTypeName,
  author: row.author,
  authorId: row.authorId,
  ...stateOf(row.stateVal, row.reviewed),
  lastModified: row.updatedAt.toISOString(),
  editable,
  ...(row.conflicted ? { myConflict: true as const } : {}),
  ...(row.conflictCounts && !row.own && !row.conflicted ? { conflicts: row.conflictCounts } : {}),
});

/** A row of the caller's own proposals: never Reviewed, since they are the caller's own. */
export const presentMyProposal = (
  row: {
    id: number;
    callId: number;
    callName: string;
    name: string;
    proposalTypeName: string;
    stateVal: number;
    updatedAt: Date;
    authorId: number;
  },
  actorId: number,
): MyProposal => ({
  id: row.id,
  callId: row.callId,
  callName: row.callName,
  proposalName: row.name,
  proposalTypeName: row.proposalTypeName,
  ...stateOf(row.stateVal, false),
  lastModified: row.updatedAt.toISOString(),
  role: row.authorId === actorId ? 'Author' : 'Collaborator',
});
