import {
  exportTypeNotInCall,
  parseSort,
  proposalErrorCodes,
  resourceSortMessages,
  RESPONSE_DATA_MAX_BYTES,
  type CallProposalExport,
  type CallProposalExportQuery,
  type CallProposalPage,
  type CallProposalsQuery,
  type Collaborator,
  type CollaboratorAdd,
  type CollaboratorRemove,
  type DecisionSummarySave,
  type LockState,
  type MultiFormEntryDelete,
  type MyProposal,
  type ProposalDetail,
  type ProposalNameSave,
  type proposalResponseSave,
  type ProposalResponseSaved,
  type ProposalStateChange,
} from '@merit/contract';
import {
  addErrors,
  callMessages,
  checkText,
  decide,
  hasErrors,
  isMultiForm,
  MAX_LENGTHS,
  PROPOSAL_STATE,
  proposalListScope,
  proposalMessages,
  validationMessages,
  type Action,
  type FieldErrors,
  type TimeWindow,
} from '@merit/domain';
import type { z } from 'zod';
import { addToAuditBatch } from '../../lib/audit.js';
import { DELETE_STORED_FILES_JOB, type DeleteStoredFiles } from '../../lib/file-storage.js';
import { storageKeysOf } from '../files/files.queries.js';
import { reviewFactsOf } from '../reviews/review-facts.js';
import { authorize } from '../../lib/authorize.js';
import { conflict, HttpError, invalid, notFound } from '../../lib/http-errors.js';
import { enqueueMail } from '../../lib/mail-job.js';
import { pageOf } from '../../lib/pages.js';
import { ImageTooLargeError, sanitizeRichText } from '../../lib/rich-text.js';
import type { ReadWork, Work } from '../../lib/work.js';
import { callResource, extensionsOfActor, findCall, type CallRow } from '../calls/calls.queries.js';
import { callNotFound } from '../calls/calls.service.js';
import { callChairColumns, chairColumnsOf } from './chair-columns.js';
import { answerErrors } from './proposal-answers.js';
import {
  collaboratorAddedMail,
  retractedMail,
  submittedMail,
  type ProposalFacts,
} from './proposals.mails.js';
import {
  presentCallProposal,
  presentLock,
  presentMyProposal,
  presentProposal,
} from './proposals.presenter.js';
import {
  answerFormsOf,
  callProposalPage,
  callProposalRows,
  changeStateVal,
  currentLock,
  deleteCollaborator,
  deleteProposalRow,
  entryCount,
  insertCollaborator,
  insertProposal,
  myProposals,
  proposalFormsOf,
  proposalOfRetriedSave,
  recordSave,
  releaseLock,
  removeEntry,
  responsesOf,
  shareCall,
  takeLock,
  teamOf,
  resourceFormsOfCall,
  resourceTotalsOf,
  teamsAndWindows,
  teamsAndWindowsOfCall,
  type CallProposalRow,
  type ResourceForm,
  type ResourceSort,
  type TeamsAndWindows,
  touchProposal,
  typeOfCall,
  userByHash,
  loadProposal,
  writeDecisionSummary,
  writeEntry,
  type LoadedProposal,
} from './proposals.queries.js';

/** The actions whose rule reads a proposal: its own, and those on its files. */
type ProposalAction = Extract<Action, `proposal.${string}` | `file.${string}`>;

/**
 * The proposal, loaded for `action` and authorized: one the caller may not see is a 404
 * whatever the action and whatever the proposal is. With `forUpdate` its row stays
 * locked, so the checks hold for the change that follows.
 */
export async function loadFor(
  work: ReadWork,
  action: ProposalAction,
  id: number,
  forUpdate = false,
): Promise<LoadedProposal> {
  const loaded = await loadProposal(work.tx, work.actor, id, { forUpdate });
  if (!loaded) throw notFound(proposalMessages.notFound);
  authorize(work.actor, action, loaded.resource, work.now);
  return loaded;
}

// --- Reads -------------------------------------------------------------------------------

export async function getProposal(work: ReadWork, id: number): Promise<ProposalDetail> {
  // The page in the same query as the proposal: one round trip for the whole read.
  const loaded = await loadProposal(work.tx, work.actor, id, { page: true });
  if (!loaded?.page) throw notFound(proposalMessages.notFound);
  authorize(work.actor, 'proposal.view', loaded.resource, work.now);
  const { page } = loaded;
  return {
    ...presentProposal(loaded, page.forms, page.entries, work.actor, work.now),
    ...reviewFactsOf(work, loaded, page),
  };
}

export async function getMyProposals(work: ReadWork): Promise<MyProposal[]> {
  const rows = await myProposals(work.tx, work.actor.id);
  return rows.map((row) => presentMyProposal(row, work.actor.id));
}

/** The call, if the caller may see it (every signed-in user may), with their extensions. */
async function callToList(work: ReadWork, callId: number) {
  const found = await findCall(work.tx, callId);
  if (!found) throw notFound(callNotFound);
  const { call } = found;
  const own = await extensionsOfActor(work.tx, work.actor.id, call.id);
  const resource = callResource(call, own);
  authorize(work.actor, 'call.view', resource, work.now);
  return { call, own, resource };
}

/**
 * GET /calls/{callId}/proposals/: one page of the proposals the caller sees. Chairs of
 * the call's committee (and admins), whom the list scope tells which proposals are
 * Reviewed, also get the chair's columns and the call's resource totals (issue 14).
 * Members get the rows only (the reviews they may see are a View Reviews away), and
 * authors their own rows only: neither gets those fields, not even empty.
 */
export async function getCallProposals(
  work: ReadWork,
  callId: number,
  query: CallProposalsQuery,
): Promise<CallProposalPage> {
  const { call, own } = await callToList(work, callId);
  const chair = proposalListScope(work.actor, call, work.now).reviewed;
  const byResource = chair && parseSort(query.sort).key === 'resource';
  // A resource column is sorted by in SQL, which needs the call's resource forms; their
  // totals, read meanwhile, name the facilities the sort must be one of.
  const resourceForms = byResource ? await resourceFormsOfCall(work.tx, call.id) : undefined;
  const resourceSort = resourceForms && resourceSortOf(resourceForms, query);
  const [{ total, rows }, knownTotals] = await Promise.all([
    callProposalPage(work.tx, work.actor, call, { ...query, resourceSort }, work.now),
    resourceForms && resourceTotalsOf(work.tx, call.id, resourceForms),
  ]);
  if (resourceSort && !knownTotals?.facilities.includes(resourceSort.facility))
    throw refusedSort('sortFacility', resourceSortMessages.unknownFacility(resourceSort.facility));
  const [editable, chairs] = await Promise.all([
    editableOf(work, call, own, rows),
    chair ? chairColumnsOf(work, call, rows, { totals: knownTotals }) : undefined,
  ]);
  const items = rows.map((row) => ({
    ...presentCallProposal(row, editable.has(row.id)),
    ...chairs?.columns.get(row.id),
  }));
  return { ...pageOf(query, total, items), ...chairs?.totals };
}

/** A 400 for a resource sort the call does not have, its message on the parameter. */
const refusedSort = (parameter: 'sortFacility' | 'sortField', message: string) =>
  invalid({ [parameter]: [message] }, message);

/**
 * The chair's resource sort of a query (`sort=resource`, which the contract lets through
 * only with `sortFacility` and `sortField`): refused when no resource form of the call
 * has the data field. The facility is checked against the call's facilities later.
 */
function resourceSortOf(forms: readonly ResourceForm[], query: CallProposalsQuery): ResourceSort {
  const facility = query.sortFacility ?? '';
  const field = query.sortField ?? '';
  if (!forms.some((form) => form.options.data_fields.includes(field)))
    throw refusedSort('sortField', resourceSortMessages.unknownField(field));
  return { forms, facility, field };
}

/**
 * GET /calls/{callId}/proposals/export/: every proposal of the call with the chair's
 * columns, as the list's pages give them, in the list's default order, and the call's
 * resource totals: the downloads' rows in one read. Each review's scores and comments
 * only when `query.include` names them, so each download is sent only what it writes. Only for the call's chairs (and
 * admins), whom `call.manage` names; a fixed number of queries, each choosing its rows
 * by the call's id, whatever the call holds. With `query.type`, by the call's id and that
 * type: the rows, reviews, comments, totals and facilities of its proposals only (a
 * download of one type is sent none of the others'); refused (400) when the call has no
 * such type. With `query.columns` `lean`, of the chair's columns only `isReviewed`, and
 * no totals: the reviewers, scores and resources are not read (the Comments download).
 */
export async function getCallProposalExport(
  work: ReadWork,
  callId: number,
  query: CallProposalExportQuery,
): Promise<CallProposalExport> {
  const { call, own, resource } = await callToList(work, callId);
  authorize(work.actor, 'call.manage', resource, work.now);
  const typeId = query.type;
  if (typeId !== undefined && !(await typeOfCall(work.tx, call.id, typeId)))
    throw invalid({ type: [exportTypeNotInCall] }, exportTypeNotInCall);
  // Every read chooses its rows by the call's id (and type), so none waits for another.
  const [rows, teams, chairColumnsOfRows] = await Promise.all([
    callProposalRows(work.tx, work.actor, call, work.now, typeId),
    teamsAndWindowsOfCall(work.tx, call.id, typeId),
    callChairColumns(work, call, query.include, typeId, query.columns),
  ]);
  const editable = await editableOf(work, call, own, rows, teams);
  const chairs = chairColumnsOfRows(rows);
  const items = rows.map((row) => ({
    ...presentCallProposal(row, editable.has(row.id)),
    ...chairs.columns.get(row.id),
  }));
  return { items, total: items.length, ...chairs.totals };
}

/**
 * The rows the caller may edit (but for a lock someone may hold at the moment), by the
 * domain's `proposal.lock` rule: two queries for the whole page, not one per row, or
 * none when the call's teams and windows were read already (the export).
 */
async function editableOf(
  work: ReadWork,
  call: CallRow,
  actorExtensions: readonly TimeWindow[],
  rows: readonly CallProposalRow[],
  known?: TeamsAndWindows,
): Promise<Set<number>> {
  const drafts = rows.filter((row) => row.stateVal === PROPOSAL_STATE.draft);
  if (drafts.length === 0) return new Set();
  const { collaborators, windows } =
    known ??
    (await teamsAndWindows(
      work.tx,
      call.id,
      drafts.map((row) => row.id),
      drafts.map((row) => row.authorId),
    ));
  const editable = drafts.filter(
    (row) =>
      decide(
        'proposal.lock',
        work.actor,
        {
          call,
          authorId: row.authorId,
          collaboratorIds: collaborators.get(row.id) ?? [],
          stateVal: row.stateVal,
          authorExtensions: windows.get(row.authorId) ?? [],
          actorExtensions,
          lock: null,
          // The lock rule reads nothing of reviews.
          hasReviews: false,
          reviewerIds: [],
          actorHasReview: false,
        },
        work.now,
      ) === true,
  );
  return new Set(editable.map((row) => row.id));
}

// --- Creating and naming -----------------------------------------------------------------

/**
 * Creates a Draft for the caller: while submission is open for them, of a type of the
 * call. The call is share-locked meanwhile, so a chair's edit of its types and forms
 * waits for the proposal and then finds the type pinned by it. `fields` names the
 * payload's fields for the messages (the two routes that create call them differently).
 */
async function createProposal(
  work: Work,
  input: { callId: number; typeId: number | null | undefined; name: string },
  fields: { name: string; type: string },
) {
  const { tx, actor, now } = work;
  const call = await shareCall(tx, input.callId);
  if (!call) throw notFound(callNotFound);
  const own = await extensionsOfActor(tx, actor.id, call.id);
  authorize(actor, 'call.addProposal', callResource(call, own), now);
  const errors: FieldErrors = {};
  addErrors(
    errors,
    fields.name,
    checkText(input.name, { required: true, max: MAX_LENGTHS.proposalName }),
  );
  if (!input.typeId) addErrors(errors, fields.type, [proposalMessages.typeMissing]);
  else if (!(await typeOfCall(tx, call.id, input.typeId)))
    addErrors(errors, fields.type, [proposalMessages.typeNotInCall]);
  if (hasErrors(errors) || !input.typeId) throw invalid(errors);
  const proposal = await insertProposal(tx, {
    callId: call.id,
    proposalTypeId: input.typeId,
    authorId: actor.id,
    name: input.name.trim(),
    now,
  });
  await work.audit({
    action: 'proposal.create',
    entityId: proposal.id,
    after: { callId: call.id, proposalTypeId: proposal.proposalTypeId, name: proposal.name },
  });
  return proposal;
}

/**
 * POST /update_proposal_name/: creates a Draft (`isNew`) or renames one the caller may
 * edit. Returns the proposal's id and whether it was created.
 */
export async function saveProposalName(
  work: Work,
  input: ProposalNameSave,
): Promise<{ id: number; created: boolean }> {
  if (input.isNew) {
    const created = await createProposal(
      work,
      { callId: input.callId, typeId: input.type, name: input.name },
      { name: 'name', type: 'type' },
    );
    return { id: created.id, created: true };
  }
  if (!input.proposalId) throw invalid({ proposalId: [validationMessages.required] });
  const { proposal } = await loadFor(work, 'proposal.edit', input.proposalId, true);
  if (proposal.callId !== input.callId) throw invalid({ callId: [proposalMessages.otherCall] });
  const problems = checkText(input.name, { required: true, max: MAX_LENGTHS.proposalName });
  if (problems.length > 0) throw invalid({ name: problems });
  const name = input.name.trim();
  if (name !== proposal.name) {
    await touchProposal(work.tx, proposal.id, work.actor.id, work.now, { name });
    await work.audit({
      action: 'proposal.rename',
      entityId: proposal.id,
      before: { name: proposal.name },
      after: { name },
    });
  }
  return { id: proposal.id, created: false };
}

// --- Answers -----------------------------------------------------------------------------

type ResponseSave = z.output<typeof proposalResponseSave>;

/**
 * The proposal a save goes to: the one named, or with `new`, one created first (named by
 * `proposalName`, which a new proposal must have). A `new` save that was applied already
 * (its answer got lost, and the browser sent it again) finds the proposal it created.
 */
async function proposalToSave(
  work: Work,
  input: ResponseSave,
): Promise<{ id: number; created: boolean }> {
  if (!input.new) {
    if (!input.proposal) throw invalid({ proposal: [proposalMessages.proposalMissing] });
    return { id: input.proposal, created: false };
  }
  const retried = await proposalOfRetriedSave(work.tx, {
    callId: input.call,
    authorId: work.actor.id,
    formId: input.formId,
    index: input.index,
    hash: input.hash,
  });
  if (retried) return { id: retried, created: false };
  const name = input.proposalName ?? '';
  if (name.trim() === '')
    throw invalid({ proposalName: [proposalMessages.nameMissing] }, proposalMessages.nameMissing);
  const created = await createProposal(
    work,
    { callId: input.call, typeId: input.proposalTypeId, name },
    { name: 'proposalName', type: 'proposalTypeId' },
  );
  return { id: created.id, created: true };
}

/**
 * POST /proposal_responses/: saves one form, or one entry of a multi-entry form, of a
 * proposal the caller may edit. The save is recorded by its batch hash before anything
 * changes: a retry of a save already applied changes nothing and gets the same answer.
 * One audit row per Save All batch lists the forms it saved.
 */
export async function saveResponse(
  work: Work,
  input: ResponseSave,
): Promise<ProposalResponseSaved & { created: boolean }> {
  const { tx, now } = work;
  const target = await proposalToSave(work, input);
  const loaded = await loadFor(work, 'proposal.edit', target.id, true);
  const { proposal } = loaded;

  const errors: FieldErrors = {};
  if (proposal.callId !== input.call) addErrors(errors, 'call', [proposalMessages.otherCall]);
  if (proposal.proposalTypeId !== input.proposalTypeId)
    addErrors(errors, 'proposalTypeId', [proposalMessages.otherType]);
  const form = (await proposalFormsOf(tx, proposal.proposalTypeId)).find(
    (f) => f.id === input.formId,
  );
  if (!form) addErrors(errors, 'formId', [proposalMessages.formNotInType]);
  else if (!isMultiForm(form.type)) {
    if (input.index > 0) addErrors(errors, 'index', [proposalMessages.notMultiForm]);
  } else {
    const entries = await entryCount(tx, proposal.id, form.id);
    if (input.index > entries) addErrors(errors, 'index', [proposalMessages.entryGap(entries)]);
  }
  if (Buffer.byteLength(JSON.stringify(input.data)) > RESPONSE_DATA_MAX_BYTES)
    addErrors(errors, 'data', [proposalMessages.dataTooLarge(RESPONSE_DATA_MAX_BYTES)]);
  if (hasErrors(errors)) throw invalid(errors);

  if (input.validate) {
    const schema = (await answerFormsOf(tx, [input.formId])).get(input.formId)!;
    const problems = answerErrors(schema, input.data);
    if (hasErrors(problems)) throw invalid(problems, proposalMessages.saveFailed);
  }

  const key = {
    proposalId: proposal.id,
    formId: input.formId,
    index: input.index,
    hash: input.hash,
  };
  const applied = await recordSave(tx, key, now);
  if (applied) {
    await writeEntry(tx, { ...key, data: input.data, by: work.actor.id, now });
    await touchProposal(tx, proposal.id, work.actor.id, now);
    const batch = {
      action: 'proposal.save' as const,
      entityId: proposal.id,
    };
    if (!(await addToAuditBatch(tx, { ...batch, hash: input.hash }, 'forms', input.formId)))
      await work.audit({ ...batch, after: { hash: input.hash, forms: [input.formId] } });
  }
  return {
    proposalId: proposal.id,
    author: loaded.author.name,
    authorId: loaded.author.id,
    formId: input.formId,
    index: input.index,
    lastModified: (applied ? now : proposal.updatedAt).toISOString(),
    created: target.created,
  };
}

/**
 * DELETE /delete_multi_form/: removes one entry of a multi-entry form; the later entries
 * move up one, so the indexes stay 0 to n-1. The last entry stays: it is changed, not
 * removed.
 */
export async function deleteEntry(work: Work, input: MultiFormEntryDelete): Promise<void> {
  const { tx, now } = work;
  const { proposal } = await loadFor(work, 'proposal.edit', input.proposalId, true);
  if (proposal.callId !== input.callId) throw invalid({ callId: [proposalMessages.otherCall] });
  const form = (await proposalFormsOf(tx, proposal.proposalTypeId)).find(
    (f) => f.id === input.formId,
  );
  if (!form) throw invalid({ formId: [proposalMessages.formNotInType] });
  if (!isMultiForm(form.type)) throw invalid({ formId: [proposalMessages.notMultiForm] });
  const entries = await entryCount(tx, proposal.id, form.id);
  if (input.formIndex >= entries) throw notFound(proposalMessages.entryNotFound);
  if (entries === 1) throw conflict(proposalMessages.lastEntry);
  const answers = await removeEntry(tx, {
    proposalId: proposal.id,
    formId: form.id,
    index: input.formIndex,
  });
  await touchProposal(tx, proposal.id, work.actor.id, now);
  await work.audit({
    action: 'proposal.delete_entry',
    entityId: proposal.id,
    before: { formId: form.id, index: input.formIndex, answers },
  });
}

// --- Collaborators -----------------------------------------------------------------------

/** Where a proposal's mails point: its editor in the web app. */
function factsOf(loaded: LoadedProposal, publicUrl: string): ProposalFacts {
  return {
    callName: loaded.call.name,
    proposalName: loaded.proposal.name,
    typeName: loaded.typeName,
    link: `${publicUrl}/calls/${loaded.proposal.callId}/proposals/${loaded.proposal.id}/`,
  };
}

/** POST /collaborators/: the author adds the person whose collaborator hash this is. */
export async function addCollaborator(
  work: Work,
  input: CollaboratorAdd,
  publicUrl: string,
): Promise<Collaborator> {
  const loaded = await loadFor(work, 'proposal.manageCollaborators', input.proposalId, true);
  const { proposal, collaborators } = loaded;
  const person = await userByHash(work.tx, input.hash.trim());
  if (!person) throw invalid({ hash: [proposalMessages.hashUnknown] });
  if (person.id === proposal.authorId) throw invalid({ hash: [proposalMessages.hashOwn] });
  if (collaborators.some((c) => c.id === person.id))
    throw invalid({ hash: [proposalMessages.alreadyCollaborator] });
  await insertCollaborator(work.tx, proposal.id, person.id);
  await touchProposal(work.tx, proposal.id, work.actor.id, work.now);
  const before = collaborators.map((c) => c.id);
  await work.audit({
    action: 'proposal.add_collaborator',
    entityId: proposal.id,
    before: { collaboratorIds: before },
    after: { collaboratorIds: [...before, person.id] },
  });
  await enqueueMail(
    work,
    collaboratorAddedMail(person, factsOf(loaded, publicUrl), loaded.author.name),
  );
  return { id: person.id, name: person.name, email: person.email };
}

/** DELETE /collaborators/: the author removes a collaborator (and any lock they hold). */
export async function removeCollaborator(work: Work, input: CollaboratorRemove): Promise<void> {
  const { proposal, collaborators } = await loadFor(
    work,
    'proposal.manageCollaborators',
    input.proposalId,
    true,
  );
  if (!(await deleteCollaborator(work.tx, proposal.id, input.userId)))
    throw notFound(proposalMessages.notCollaborator);
  await touchProposal(work.tx, proposal.id, work.actor.id, work.now);
  const before = collaborators.map((c) => c.id);
  await work.audit({
    action: 'proposal.remove_collaborator',
    entityId: proposal.id,
    before: { collaboratorIds: before },
    after: { collaboratorIds: before.filter((id) => id !== input.userId) },
  });
}

// --- State -------------------------------------------------------------------------------

/**
 * What keeps the proposal from being submitted, by form id: every proposal form of its
 * type is checked against its schema, and a form never answered is checked as empty, so
 * its required fields count as missing. Entries of a multi-entry form are named.
 */
async function submitProblems(work: ReadWork, loaded: LoadedProposal): Promise<FieldErrors> {
  const { tx } = work;
  const forms = await proposalFormsOf(tx, loaded.proposal.proposalTypeId);
  const [schemas, entries] = await Promise.all([
    answerFormsOf(
      tx,
      forms.map((f) => f.id),
    ),
    responsesOf(tx, loaded.proposal.id),
  ]);
  const problems: FieldErrors = {};
  for (const form of forms) {
    const answers = entries.filter((e) => e.formId === form.id);
    const checked = answers.length > 0 ? answers : [{ index: 0, data: {} }];
    for (const { index, data } of checked) {
      const messages = Object.values(answerErrors(schemas.get(form.id)!, data)).flat();
      addErrors(
        problems,
        String(form.id),
        isMultiForm(form.type)
          ? messages.map((m) => proposalMessages.entryProblem(index, m))
          : messages,
      );
    }
  }
  return problems;
}

/**
 * POST /proposal_state/: the author submits a draft whose forms are all valid (1), or
 * retracts a submitted proposal to a draft (0). The one place a proposal's state
 * changes: a conditional update, its audit row, and mail to its people after commit.
 */
export async function changeProposalState(
  work: Work,
  input: ProposalStateChange,
  publicUrl: string,
): Promise<void> {
  const submit = input.state === PROPOSAL_STATE.submitted;
  const loaded = await loadFor(
    work,
    submit ? 'proposal.submit' : 'proposal.retract',
    input.proposalId,
    true,
  );
  if (submit) {
    const problems = await submitProblems(work, loaded);
    if (hasErrors(problems))
      throw new HttpError(
        400,
        proposalErrorCodes.invalidForms,
        proposalMessages.invalidForms,
        problems,
      );
  }
  const [from, to] = submit
    ? [PROPOSAL_STATE.draft, PROPOSAL_STATE.submitted]
    : [PROPOSAL_STATE.submitted, PROPOSAL_STATE.draft];
  if (!(await changeStateVal(work.tx, loaded.proposal.id, from, to, work.now)))
    throw conflict(submit ? proposalMessages.alreadySubmitted : proposalMessages.alreadyDraft);
  await work.audit({
    action: submit ? 'proposal.submit' : 'proposal.retract',
    entityId: loaded.proposal.id,
    before: { stateVal: from },
    after: { stateVal: to },
  });
  const facts = factsOf(loaded, publicUrl);
  for (const person of await teamOf(work.tx, loaded.proposal.id)) {
    await enqueueMail(
      work,
      submit ? submittedMail(person, facts, work.now) : retractedMail(person, facts, work.now),
    );
  }
}

/** DELETE /proposals/{id}/: the author deletes a draft that has no reviews. */
export async function deleteProposal(work: Work, id: number): Promise<void> {
  const { proposal } = await loadFor(work, 'proposal.delete', id, true);
  // Its files' rows go with it (ON DELETE CASCADE); their bytes once this has committed.
  const keys = await storageKeysOf(work.tx, proposal.id);
  await deleteProposalRow(work.tx, proposal.id);
  if (keys.length > 0)
    await work.enqueue(DELETE_STORED_FILES_JOB, { keys } satisfies DeleteStoredFiles);
  await work.audit({
    action: 'proposal.delete',
    entityId: proposal.id,
    before: {
      callId: proposal.callId,
      proposalTypeId: proposal.proposalTypeId,
      authorId: proposal.authorId,
      name: proposal.name,
    },
  });
}

// --- Decisions -----------------------------------------------------------------------------

/**
 * POST /update_decision_summary/: a chair of the call's committee writes the proposal's
 * decision summary, any time (ARCHITECTURE.md "Rich text": sanitised with the allow-list
 * of call descriptions before it is stored, images at most 512 KiB). Authors read it once
 * the call is closed; lastModified stays, so they cannot tell one is being written.
 */
export async function saveDecisionSummary(work: Work, input: DecisionSummarySave): Promise<void> {
  const { proposal } = await loadFor(work, 'proposal.editDecision', input.proposalId, true);
  let summary: string;
  try {
    summary = sanitizeRichText(input.summary);
  } catch (error) {
    if (!(error instanceof ImageTooLargeError)) throw error;
    throw invalid({ summary: [callMessages.imageTooLarge] });
  }
  if (summary === proposal.decisionSummary) return;
  await writeDecisionSummary(work.tx, proposal.id, summary);
  await work.audit({
    action: 'proposal.update_decision',
    entityId: proposal.id,
    before: { decisionSummary: proposal.decisionSummary },
    after: { decisionSummary: summary },
  });
}

// --- The lock ----------------------------------------------------------------------------

/**
 * GET /lock/{id}/: takes or renews the lease for a caller who may edit (whoever holds it
 * now), and tells everyone who sees the proposal who holds it. Not a change to the
 * proposal: no audit row, and lastModified stays.
 */
export async function lockProposal(work: Work, id: number): Promise<LockState> {
  const { resource } = await loadFor(work, 'proposal.view', id);
  if (decide('proposal.lock', work.actor, resource, work.now) === true)
    await takeLock(work.tx, id, work.actor.id, work.now);
  return presentLock(await currentLock(work.tx, id, work.now));
}

/** DELETE /lock/{id}/: lets go of the caller's own lease; anyone else's stays. */
export async function unlockProposal(work: Work, id: number): Promise<void> {
  await loadFor(work, 'proposal.view', id);
  await releaseLock(work.tx, id, work.actor.id);
}
