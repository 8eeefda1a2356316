import {
  RESPONSE_DATA_MAX_BYTES,
  type MultiFormEntryDelete,
  type proposalResponseSave,
  type ProposalResponseSaved,
} from '@merit/contract';
import {
  addErrors,
  hasErrors,
  isMultiForm,
  proposalMessages,
  type FieldErrors,
} from '@merit/domain';
import type { z } from 'zod';
import { addToAuditBatch } from '../../platform/data/audit.js';
import { conflict, invalid, notFound } from '../../platform/http/http-errors.js';
import type { Work } from '../../platform/data/work.js';
import { answerErrors } from '../forms/form-access.js';
import { touchProposal } from './proposals.queries.js';
import {
  answerFormsOf,
  entryCount,
  proposalFormsOf,
  proposalOfRetriedSave,
  recordSave,
  removeEntry,
  writeEntry,
} from './answers.queries.js';
import { loadFor } from './proposal-access.js';
import { createProposal } from './proposals.service.js';

/*
 * A proposal's answers: one form, or one entry of a multi-entry form, saved or deleted.
 */

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
