import {
  proposalErrorCodes,
  type MyProposal,
  type ProposalDetail,
  type ProposalNameSave,
  type ProposalStateChange,
} from '@merit/contract';
import {
  addErrors,
  callMessages,
  checkText,
  hasErrors,
  isMultiForm,
  MAX_LENGTHS,
  PROPOSAL_STATE,
  proposalMessages,
  validationMessages,
  type FieldErrors,
} from '@merit/domain';
import { DELETE_STORED_FILES_JOB, type DeleteStoredFiles } from '../../platform/io/file-storage.js';
import { storageKeysOf } from '../files/files.queries.js';
import { reviewFactsOf } from '../reviews/review-access.js';
import { decisionFactsOf } from '../decisions/decisions-access.js';
import { authorize } from '../../platform/http/authorize.js';
import { conflict, HttpError, invalid, notFound } from '../../platform/http/http-errors.js';
import { enqueueMail } from '../../platform/io/mail-job.js';
import type { ReadWork, Work } from '../../platform/data/work.js';
import { callResource, extensionsOfActor } from '../calls/calls.queries.js';
import { queueDetection } from '../conflicts/conflicts.queries.js';
import { answerErrors } from '../forms/form-access.js';
import { retractedMail, submittedMail, type ProposalFacts } from './proposals.mails.js';
import { presentMyProposal, presentProposal } from './proposals.presenter.js';
import {
  changeStateVal,
  deleteProposalRow,
  insertProposal,
  myProposals,
  shareCall,
  touchProposal,
  typeOfCall,
  loadProposal,
  type LoadedProposal,
} from './proposals.queries.js';
import { teamOf } from './team.queries.js';
import { answerFormsOf, proposalFormsOf, responsesOf } from './answers.queries.js';
import { loadFor } from './proposal-access.js';

/*
 * A proposal's life: read it, create and name it, submit or retract it, delete it. Its
 * answers are answers.service.ts's, its people and lock team.service.ts's, and the chair's
 * list, export and decision chair.service.ts's.
 */

export async function getProposal(work: ReadWork, id: number): Promise<ProposalDetail> {
  // The page in the same query as the proposal: one round trip for the whole read.
  const loaded = await loadProposal(work.tx, work.actor, id, { page: true });
  if (!loaded?.page) throw notFound(proposalMessages.notFound);
  authorize(work.actor, 'proposal.view', loaded.resource, work.now);
  const { page } = loaded;
  return {
    ...presentProposal(loaded, page.forms, page.entries, work.actor, work.now),
    ...reviewFactsOf(work, loaded, page),
    ...(await decisionFactsOf(work, loaded)),
  };
}

export async function getMyProposals(work: ReadWork): Promise<MyProposal[]> {
  const rows = await myProposals(work.tx, work.actor.id);
  return rows.map((row) => presentMyProposal(row, work.actor.id));
}

// --- Creating and naming -----------------------------------------------------------------

/**
 * Creates a Draft for the caller: while submission is open for them, of a type of the
 * call. The call is share-locked meanwhile, so a chair's edit of its types and forms
 * waits for the proposal and then finds the type pinned by it. `fields` names the
 * payload's fields for the messages (the two routes that create call them differently).
 */
export async function createProposal(
  work: Work,
  input: { callId: number; typeId: number | null | undefined; name: string },
  fields: { name: string; type: string },
) {
  const { tx, actor, now } = work;
  const call = await shareCall(tx, input.callId);
  if (!call) throw notFound(callMessages.notFound);
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
    await touchProposal(work.tx, proposal.id, work.now, { name });
    await work.audit({
      action: 'proposal.rename',
      entityId: proposal.id,
      before: { name: proposal.name },
      after: { name },
    });
  }
  return { id: proposal.id, created: false };
}

/** Where a proposal's mails point: its editor in the web app. */
export function factsOf(loaded: LoadedProposal, publicUrl: string): ProposalFacts {
  return {
    callName: loaded.call.name,
    proposalName: loaded.proposal.name,
    typeName: loaded.typeName,
    link: `${publicUrl}/calls/${loaded.proposal.callId}/proposals/${loaded.proposal.id}/`,
  };
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
  // A submitted proposal is one members may meet: Merit looks for their conflicts with it.
  if (submit) await queueDetection(work, { callId: loaded.proposal.callId });
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
    // The proposal is gone: its call, as `writeAudit` cannot read it.
    callId: proposal.callId,
    before: {
      callId: proposal.callId,
      proposalTypeId: proposal.proposalTypeId,
      authorId: proposal.authorId,
      name: proposal.name,
    },
  });
}
