import {
  errorCodes,
  type CallConflictsPage,
  type callConflictsQuery,
  type ConflictBulkChange,
  type ConflictChange,
  type ConflictDeclarationGate,
  type ConflictItem,
  type ProposalConflicts,
  type RecentCollaborator,
  type RecentCollaboratorsBody,
  type conflictCreate,
  type conflictDeclarationAnswer,
  type conflictDeclarationsSave,
} from '@merit/contract';
import {
  applicantRemovalProblem,
  callMessages,
  conflictChangeProblem,
  conflictMessages,
  decide,
  declarationPending,
  isProposalTeam,
  proposalMessages,
  type CommitteeActor,
  type DeclaredConflictType,
  type ConflictState,
} from '@merit/domain';
import type { z } from 'zod';
import type { AuditEntry } from '../../platform/data/audit.js';
import type { ReadWork, Work } from '../../platform/data/work.js';
import { authorize, refusalError } from '../../platform/http/authorize.js';
import { conflict, forbidden, invalid, notFound, stale } from '../../platform/http/http-errors.js';
import { enqueueMail } from '../../platform/io/mail-job.js';
import { callResource, findCall } from '../calls/calls.queries.js';
import { loadFor } from '../proposals/proposal-access.js';
import { loadProposal, type LoadedProposal } from '../proposals/proposals.queries.js';
import { deleteReviewer } from '../reviews/reviews.queries.js';
import { conflictDeclaredMail } from './conflicts.mails.js';
import { presentConflict, type ConflictItemAbilities } from './conflicts.presenter.js';
import {
  applicantInstitutions,
  callConflictPage,
  conflictById,
  conflictOfPair,
  conflictsByIds,
  conflictsOfProposal,
  currentMembers,
  declarationOf,
  deleteConflict,
  insertConflict,
  insertDeclaration,
  isCurrentMember,
  queueDetection,
  raiseConflictsVersion,
  recentCollaboratorsOf,
  setConflictStates,
  setRecentCollaborators,
  unconflictedChairs,
  updateConflict,
  type ConflictView,
  type DeclaredConflict,
} from './conflicts.queries.js';

/*
 * Conflicts of interest as people declare and judge them: the applicants' Conflicts
 * panel, the chairs' additions and judgements (one and many), the member's declaration
 * before a proposal opens for them, and one's own recent collaborators. Each change is
 * one audit row per conflict (entity `conflict`), in the change's transaction.
 */

type ConflictCreateInput = z.output<typeof conflictCreate>;
type DeclarationsSaveInput = z.output<typeof conflictDeclarationsSave>;
type DeclarationAnswerInput = z.output<typeof conflictDeclarationAnswer>;

/** Where a mail about a call's conflicts points: its Conflicts page. */
const conflictsPage = (publicUrl: string, callId: number) =>
  `${publicUrl}/calls/${callId}/conflicts`;

/** A conflict as its audit rows record it: what it is, never the matched evidence. */
const auditView = (c: Pick<ConflictView, 'proposalId' | 'userId'> & Partial<ConflictView>) => ({
  proposalId: c.proposalId,
  userId: c.userId,
  type: c.type,
  source: c.source,
  state: c.state,
  pinned: c.pinned,
  reason: c.reason,
});

/** A deleted conflict's proposal, call and person, which its audit row can no longer read. */
const goneConflict = (loaded: LoadedProposal, c: Pick<ConflictView, 'proposalId' | 'userId'>) => ({
  proposalId: c.proposalId,
  callId: loaded.call.id,
  subjectUserId: c.userId,
});

const NO_ABILITIES: ConflictItemAbilities = {
  confirm: false,
  dismiss: false,
  pin: false,
  remove: false,
};

/** What a chair may do with one conflict, given whether they may manage the proposal's. */
function chairAbilities(
  actor: CommitteeActor,
  view: ConflictView,
  manage: boolean,
): ConflictItemAbilities {
  if (!manage) return NO_ABILITIES;
  const allowed = (change: { state?: ConflictState; remove?: boolean }) =>
    conflictChangeProblem(actor, view, change) === null;
  return {
    confirm: view.state !== 'confirmed' && allowed({ state: 'confirmed' }),
    dismiss: view.state !== 'dismissed' && allowed({ state: 'dismissed' }),
    pin: allowed({}),
    remove: allowed({ remove: true }),
  };
}

/** What the applicant may do with their declaration: remove it, unless a chair pinned it. */
const teamAbilities = (view: ConflictView, declare: boolean): ConflictItemAbilities => ({
  ...NO_ABILITIES,
  remove: declare && applicantRemovalProblem(view) === null,
});

const isTeam = (work: ReadWork, loaded: LoadedProposal) =>
  isProposalTeam(work.actor, loaded.resource);

/** The proposal's author and collaborators: never candidates, since they are its authors. */
const teamIdsOf = (loaded: LoadedProposal) =>
  new Set([loaded.resource.authorId, ...loaded.resource.collaboratorIds]);

/**
 * The proposal's conflicts as the caller sees them: the team, their own declarations
 * (source applicant); chairs, every one. `version` overrides the loaded one after a save.
 */
async function proposalConflictsOf(
  work: ReadWork,
  loaded: LoadedProposal,
  version = loaded.proposal.conflictsVersion,
): Promise<ProposalConflicts> {
  const { actor, now, tx } = work;
  const team = isTeam(work, loaded);
  const declare = decide('proposal.declareConflicts', actor, loaded.resource, now) === true;
  const manage = decide('proposal.manageConflicts', actor, loaded.resource, now) === true;
  // One after the other: after a change, `tx` is the transaction's one connection.
  const rows = await conflictsOfProposal(tx, loaded.proposal.id, team ? 'applicant' : undefined);
  const members = await currentMembers(tx, loaded.call.committeeId, now);
  const teamIds = teamIdsOf(loaded);
  return {
    enabled: loaded.call.conflictsEnabled,
    version,
    candidates: members.filter((m) => !teamIds.has(m.userId)),
    conflicts: rows.map((view) =>
      team
        ? presentConflict(view, teamAbilities(view, declare), true)
        : presentConflict(view, chairAbilities(actor, view, manage)),
    ),
    abilities: { declare, manage },
  };
}

/** One conflict as the caller sees it, read again after a change. */
async function itemOf(work: ReadWork, loaded: LoadedProposal, id: number): Promise<ConflictItem> {
  const view = (await conflictById(work.tx, id))!;
  if (isTeam(work, loaded)) {
    const declare = decide('proposal.declareConflicts', work.actor, loaded.resource, work.now);
    return presentConflict(view, teamAbilities(view, declare === true), true);
  }
  const manage = decide('proposal.manageConflicts', work.actor, loaded.resource, work.now);
  return presentConflict(view, chairAbilities(work.actor, view, manage === true));
}

/** GET /proposals/{id}/conflicts/. */
export async function getProposalConflicts(work: ReadWork, id: number): Promise<ProposalConflicts> {
  return proposalConflictsOf(work, await loadFor(work, 'proposal.viewConflicts', id));
}

// --- The applicants' declarations ------------------------------------------------------------

interface Declaration {
  userId: number;
  type: DeclaredConflictType;
  reason: string;
}

/**
 * Records the applicants' declaration of one member, against `existing` (the pair's row,
 * if any): a new row, confirmed; Merit's suggestion (or a dismissed one) made theirs; their
 * own declaration changed. A conflict the member or a chair recorded, or authorship, is
 * left as it is: the member is kept away already. The row's id, and whether it is new.
 */
async function recordApplicantDeclaration(
  work: Work,
  proposalId: number,
  declaration: Declaration,
  existing: ConflictView | undefined,
): Promise<{ id: number; created: boolean }> {
  const { tx, actor, now } = work;
  if (!existing) {
    const values: DeclaredConflict = {
      proposalId,
      ...declaration,
      source: 'applicant',
      state: 'confirmed',
      pinned: false,
    };
    const id = await insertConflict(tx, values, actor.id, now);
    await work.audit({ action: 'conflict.create', entityId: id, after: auditView(values) });
    return { id, created: true };
  }
  const mine = existing.source === 'applicant';
  const suggested = existing.source === 'detected' && existing.type !== 'author';
  const changes = { type: declaration.type, reason: declaration.reason };
  const unchanged = mine && existing.type === changes.type && existing.reason === changes.reason;
  if ((mine || suggested) && !unchanged) {
    const after = { ...changes, source: 'applicant' as const, state: 'confirmed' as const };
    await updateConflict(tx, existing.id, after, actor.id, now);
    await work.audit({
      action: 'conflict.update',
      entityId: existing.id,
      before: auditView(existing),
      after: auditView({ ...existing, ...after }),
    });
  }
  return { id: existing.id, created: false };
}

/** The committee's current members an applicant may declare: not the proposal's own people. */
async function candidateIdsOf(work: ReadWork, loaded: LoadedProposal): Promise<Set<number>> {
  const teamIds = teamIdsOf(loaded);
  const members = await currentMembers(work.tx, loaded.call.committeeId, work.now);
  return new Set(members.map((m) => m.userId).filter((id) => !teamIds.has(id)));
}

/**
 * PUT /proposals/{id}/conflicts/: the applicants' Conflicts panel saved whole, from the
 * version it was opened at (another is 409 `stale` with the panel as saved now). Members
 * listed are declared; their own declarations not listed are removed, unless a chair
 * pinned one, which refuses the whole save.
 */
export async function saveDeclarations(
  work: Work,
  id: number,
  input: DeclarationsSaveInput,
): Promise<ProposalConflicts> {
  const loaded = await loadFor(work, 'proposal.declareConflicts', id, true);
  if (loaded.proposal.conflictsVersion !== input.version)
    throw stale(conflictMessages.stale, await proposalConflictsOf(work, loaded));
  const candidates = await candidateIdsOf(work, loaded);
  const wanted = new Map<number, Declaration>();
  input.declarations.forEach((declaration, index) => {
    if (!candidates.has(declaration.userId))
      throw invalid({ [`declarations.${index}.userId`]: [conflictMessages.notMember] });
    wanted.set(declaration.userId, declaration);
  });
  const rows = await conflictsOfProposal(work.tx, loaded.proposal.id);
  const byUser = new Map(rows.map((row) => [row.userId, row]));
  for (const row of rows) {
    if (row.source !== 'applicant' || wanted.has(row.userId)) continue;
    const problem = applicantRemovalProblem(row);
    if (problem) throw forbidden(problem);
    await deleteConflict(work.tx, row.id);
    await work.audit({
      action: 'conflict.delete',
      entityId: row.id,
      before: auditView(row),
      ...goneConflict(loaded, row),
    });
  }
  for (const declaration of wanted.values())
    await recordApplicantDeclaration(
      work,
      loaded.proposal.id,
      declaration,
      byUser.get(declaration.userId),
    );
  const version = await raiseConflictsVersion(work.tx, loaded.proposal.id);
  return proposalConflictsOf(work, loaded, version);
}

/**
 * POST /proposals/{id}/conflicts/: its author or a collaborator declares one member (as
 * one more line of the panel), or a chair adds one, confirmed, pinned if they say so.
 */
export async function addConflict(
  work: Work,
  id: number,
  input: ConflictCreateInput,
): Promise<{ item: ConflictItem; created: boolean }> {
  const loaded = await loadFor(work, 'proposal.viewConflicts', id, true);
  const declaration = { userId: input.userId, type: input.type, reason: input.reason };
  if (isTeam(work, loaded)) {
    authorize(work.actor, 'proposal.declareConflicts', loaded.resource, work.now);
    if (!(await candidateIdsOf(work, loaded)).has(input.userId))
      throw invalid({ userId: [conflictMessages.notMember] });
    const existing = await conflictOfPair(work.tx, loaded.proposal.id, input.userId);
    const { id: conflictId, created } = await recordApplicantDeclaration(
      work,
      loaded.proposal.id,
      declaration,
      existing,
    );
    await raiseConflictsVersion(work.tx, loaded.proposal.id);
    return { item: await itemOf(work, loaded, conflictId), created };
  }
  authorize(work.actor, 'proposal.manageConflicts', loaded.resource, work.now);
  return chairAddsConflict(work, loaded, { ...declaration, pinned: input.pinned });
}

/**
 * A chair adds a conflict for a current member of the committee (not themselves, not one
 * of the proposal's people): a new row, confirmed; Merit's finding made theirs; or a
 * declaration someone else made, confirmed and pinned if they say so.
 */
async function chairAddsConflict(
  work: Work,
  loaded: LoadedProposal,
  input: Declaration & { pinned: boolean },
): Promise<{ item: ConflictItem; created: boolean }> {
  const { tx, actor, now } = work;
  const proposalId = loaded.proposal.id;
  if (input.userId === actor.id) throw forbidden(conflictMessages.ownConflict);
  if (teamIdsOf(loaded).has(input.userId)) throw conflict(conflictMessages.authorConflict);
  if (!(await isCurrentMember(tx, loaded.call.committeeId, input.userId, now)))
    throw invalid({ userId: [conflictMessages.notMember] });
  const existing = await conflictOfPair(tx, proposalId, input.userId);
  if (!existing) {
    const values: DeclaredConflict = {
      proposalId,
      ...input,
      source: 'chair',
      state: 'confirmed',
    };
    const id = await insertConflict(tx, values, actor.id, now);
    await work.audit({ action: 'conflict.create', entityId: id, after: auditView(values) });
    return { item: await itemOf(work, loaded, id), created: true };
  }
  const after =
    existing.source === 'detected' || existing.source === 'chair'
      ? {
          type: input.type,
          reason: input.reason,
          source: 'chair' as const,
          state: 'confirmed' as const,
          pinned: input.pinned,
        }
      : { state: 'confirmed' as const, pinned: existing.pinned || input.pinned };
  await updateConflict(tx, existing.id, after, actor.id, now);
  await work.audit({
    action: 'conflict.update',
    entityId: existing.id,
    before: auditView(existing),
    after: auditView({ ...existing, ...after }),
  });
  return { item: await itemOf(work, loaded, existing.id), created: false };
}

// --- One conflict ------------------------------------------------------------------------------

/**
 * The conflict and its proposal for a change: the proposal loaded for `viewConflicts` and
 * locked first (every change of a proposal's conflicts takes turns on it), then the
 * conflict. The team knows only their own declarations: any other is a 404 to them.
 */
async function loadConflict(work: Work, id: number) {
  const found = await conflictById(work.tx, id);
  if (!found) throw notFound(conflictMessages.notFound);
  const loaded = await loadFor(work, 'proposal.viewConflicts', found.proposalId, true);
  const view = await conflictById(work.tx, id, true);
  if (!view || (isTeam(work, loaded) && view.source !== 'applicant'))
    throw notFound(conflictMessages.notFound);
  return { loaded, view };
}

/** DELETE /conflicts/{id}/: the team removes their unpinned declaration; a chair, any but their own. */
export async function removeConflict(work: Work, id: number): Promise<void> {
  const { loaded, view } = await loadConflict(work, id);
  const { actor, now } = work;
  if (isTeam(work, loaded)) {
    authorize(actor, 'proposal.declareConflicts', loaded.resource, now);
    const problem = applicantRemovalProblem(view);
    if (problem) throw forbidden(problem);
    await raiseConflictsVersion(work.tx, loaded.proposal.id);
  } else {
    authorize(actor, 'proposal.manageConflicts', loaded.resource, now);
    const problem = conflictChangeProblem(actor, view, { remove: true });
    if (problem) throw forbidden(problem);
  }
  await deleteConflict(work.tx, view.id);
  await work.audit({
    action: 'conflict.delete',
    entityId: view.id,
    before: auditView(view),
    ...goneConflict(loaded, view),
  });
}

/** POST /conflicts/{id}/: a chair confirms, dismisses, pins or unpins one conflict. */
export async function changeConflict(
  work: Work,
  id: number,
  input: ConflictChange,
): Promise<ConflictItem> {
  const { loaded, view } = await loadConflict(work, id);
  const { actor, now } = work;
  authorize(actor, 'proposal.manageConflicts', loaded.resource, now);
  const problem = conflictChangeProblem(actor, view, { state: input.state });
  if (problem) throw forbidden(problem);
  const after = {
    state: input.state ?? view.state,
    pinned: input.pinned ?? view.pinned,
  };
  if (after.state !== view.state || after.pinned !== view.pinned) {
    await updateConflict(work.tx, view.id, after, actor.id, now);
    await work.audit({
      action: 'conflict.update',
      entityId: view.id,
      before: auditView(view),
      after: auditView({ ...view, ...after }),
    });
  }
  return itemOf(work, loaded, view.id);
}

/**
 * POST /conflicts/bulk/: a chair confirms or dismisses many at once. Each is judged as
 * one would be, and those refused are listed with why; one the caller may not see is
 * "not found", whatever it is.
 */
export async function changeConflicts(
  work: Work,
  input: ConflictBulkChange,
): Promise<{ changed: number[]; refused: { id: number; detail: string }[] }> {
  const { tx, actor, now } = work;
  const ids = [...new Set(input.ids)];
  const views = new Map((await conflictsByIds(tx, ids)).map((v) => [v.id, v]));
  const proposalRefusal = new Map<number, string | null>();
  for (const proposalId of new Set([...views.values()].map((v) => v.proposalId))) {
    const loaded = await loadProposal(tx, actor, proposalId);
    const decision = loaded
      ? decide('proposal.manageConflicts', actor, loaded.resource, now)
      : undefined;
    proposalRefusal.set(
      proposalId,
      decision === true
        ? null
        : !decision || decision.kind === 'hidden'
          ? conflictMessages.notFound
          : decision.message,
    );
  }
  const changed: number[] = [];
  const refused: { id: number; detail: string }[] = [];
  const toChange: ConflictView[] = [];
  for (const id of ids) {
    const view = views.get(id);
    const detail = view
      ? (proposalRefusal.get(view.proposalId) ??
        conflictChangeProblem(actor, view, { state: input.state }))
      : conflictMessages.notFound;
    if (detail) refused.push({ id, detail });
    else {
      changed.push(id);
      if (view!.state !== input.state) toChange.push(view!);
    }
  }
  await setConflictStates(
    tx,
    toChange.map((v) => v.id),
    input.state,
    actor.id,
    now,
  );
  const entries: AuditEntry[] = toChange.map((view) => ({
    action: 'conflict.update',
    entityId: view.id,
    before: auditView(view),
    after: auditView({ ...view, state: input.state }),
  }));
  await work.audits(entries);
  return { changed, refused };
}

// --- A call's conflicts --------------------------------------------------------------------

/**
 * GET /calls/{id}/conflicts/: a page of the call's conflicts for its chairs, but none of
 * a proposal they are conflicted on or on the team of; their own are shown, not changeable.
 */
export async function getCallConflicts(
  work: ReadWork,
  callId: number,
  query: z.output<typeof callConflictsQuery>,
): Promise<CallConflictsPage> {
  const found = await findCall(work.tx, callId);
  if (!found) throw notFound(callMessages.notFound);
  const { call } = found;
  authorize(work.actor, 'call.manage', callResource(call, []), work.now);
  const [page, members] = await Promise.all([
    callConflictPage(work.tx, call.id, work.actor.id, query, query),
    currentMembers(work.tx, call.committeeId, work.now),
  ]);
  // The proposals left are ones the chair may manage, whenever the call records conflicts.
  const manage = call.conflictsEnabled;
  return {
    items: page.rows.map((view) => presentConflict(view, chairAbilities(work.actor, view, manage))),
    total: page.total,
    counts: page.counts,
    undeclared: page.undeclared,
    members,
  };
}

// --- The member's declaration ------------------------------------------------------------------

/** The gate's facts for the caller. */
async function gateOf(work: ReadWork, loaded: LoadedProposal): Promise<ConflictDeclarationGate> {
  const { tx, actor, now } = work;
  const institutions = await applicantInstitutions(tx, loaded.proposal.id);
  const answer = await declarationOf(tx, loaded.proposal.id, actor.id);
  return {
    proposalId: loaded.proposal.id,
    callId: loaded.call.id,
    proposalName: loaded.proposal.name,
    proposalTypeName: loaded.typeName,
    institutions,
    required: declarationPending(actor, loaded.resource, now),
    answer: answer
      ? {
          conflict: answer.conflict,
          type: answer.type as DeclaredConflictType | null,
          at: answer.at.toISOString(),
        }
      : null,
    mayAnswer: decide('proposal.answerDeclaration', actor, loaded.resource, now) === true,
  };
}

/**
 * GET /proposals/{id}/conflict_declaration/: readable by whoever may know of the proposal,
 * also while its declaration keeps the proposal itself closed to them.
 */
export async function getDeclarationGate(
  work: ReadWork,
  id: number,
): Promise<ConflictDeclarationGate> {
  const loaded = await loadProposal(work.tx, work.actor, id);
  if (!loaded) throw notFound(proposalMessages.notFound);
  const view = decide('proposal.view', work.actor, loaded.resource, work.now);
  // Refused for the gate itself, and only that: they may know of it, and must answer.
  if (view !== true && !(view.kind === 'forbidden' && view.code === errorCodes.declarationRequired))
    throw refusalError(view);
  return gateOf(work, loaded);
}

/**
 * POST /proposals/{id}/conflict_declaration/: a member answers, once. A conflict is
 * recorded as theirs (confirmed, whatever Merit or a chair had recorded of the pair), takes
 * them off the proposal's reviewers, and is mailed to the chairs who may act on it.
 */
export async function answerDeclaration(
  work: Work,
  id: number,
  input: DeclarationAnswerInput,
  publicUrl: string,
): Promise<ConflictDeclarationGate> {
  const { tx, actor, now } = work;
  const loaded = await loadFor(work, 'proposal.answerDeclaration', id, true);
  const { proposal, call, resource } = loaded;
  const type = input.conflict ? input.type! : null;
  const answer = { proposalId: proposal.id, userId: actor.id, conflict: input.conflict, type };
  if (!(await insertDeclaration(tx, answer, now))) throw conflict(conflictMessages.alreadyDeclared);
  await work.audit({
    action: 'proposal.declare_conflict',
    entityId: proposal.id,
    after: { userId: actor.id, conflict: input.conflict, type },
  });
  if (type) {
    const declared = { type, source: 'reviewer' as const, state: 'confirmed' as const };
    const existing = await conflictOfPair(tx, proposal.id, actor.id);
    if (existing) {
      const after = { ...declared, reason: input.reason };
      await updateConflict(tx, existing.id, after, actor.id, now);
      await work.audit({
        action: 'conflict.update',
        entityId: existing.id,
        before: auditView(existing),
        after: auditView({ ...existing, ...after }),
      });
    } else {
      const values = {
        proposalId: proposal.id,
        userId: actor.id,
        ...declared,
        pinned: false,
        reason: input.reason,
      };
      const conflictId = await insertConflict(tx, values, actor.id, now);
      await work.audit({
        action: 'conflict.create',
        entityId: conflictId,
        after: auditView(values),
      });
    }
    if (
      resource.reviewerIds.includes(actor.id) &&
      (await deleteReviewer(tx, proposal.id, actor.id))
    )
      await work.audit({
        action: 'proposal.remove_reviewer',
        entityId: proposal.id,
        subjectUserId: actor.id,
        before: { reviewerIds: resource.reviewerIds },
        after: { reviewerIds: resource.reviewerIds.filter((r) => r !== actor.id) },
      });
    const member = (await conflictOfPair(tx, proposal.id, actor.id))!;
    for (const chair of await unconflictedChairs(tx, call.committeeId, proposal.id, now))
      await enqueueMail(
        work,
        conflictDeclaredMail(chair, {
          memberName: member.userName,
          callName: call.name,
          proposalName: proposal.name,
          type,
          link: conflictsPage(publicUrl, call.id),
        }),
      );
  }
  const reloaded = await loadProposal(tx, actor, proposal.id);
  return gateOf(work, reloaded!);
}

// --- One's recent collaborators --------------------------------------------------------------

/** GET /recent_collaborators/: the caller's own list. */
export async function getRecentCollaborators(work: ReadWork): Promise<RecentCollaboratorsBody> {
  return { collaborators: await recentCollaboratorsOf(work.tx, work.actor.id) };
}

/**
 * PUT /recent_collaborators/: the caller's list saved whole, each address once. A change
 * is audited and has Merit look again at every open call the caller is on.
 */
export async function saveRecentCollaborators(
  work: Work,
  input: RecentCollaboratorsBody,
): Promise<RecentCollaboratorsBody> {
  const seen = new Set<string>();
  const collaborators: RecentCollaborator[] = [];
  for (const c of input.collaborators) {
    const key = c.email.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    collaborators.push({ name: c.name, email: c.email });
  }
  const before = await recentCollaboratorsOf(work.tx, work.actor.id, true);
  if (JSON.stringify(before) !== JSON.stringify(collaborators)) {
    await setRecentCollaborators(work.tx, work.actor.id, collaborators, work.now);
    await work.audit({
      action: 'user.update_recent_collaborators',
      entityId: work.actor.id,
      before: { recentCollaborators: before },
      after: { recentCollaborators: collaborators },
    });
    await queueDetection(work, { userId: work.actor.id });
  }
  return { collaborators };
}
