import { createHash } from 'node:crypto';
import {
  errorCodes,
  MAX_ENTRIES,
  PROPOSAL_ANSWERS_MAX_BYTES,
  RESPONSE_DATA_MAX_BYTES,
  type MultiFormEntryDelete,
  type proposalResponseSave,
  type ProposalResponseSaved,
  type StaleEntry,
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
import { conflict, HttpError, invalid, stale } from '../../platform/http/http-errors.js';
import type { Work } from '../../platform/data/work.js';
import { answerErrors } from '../forms/form-access.js';
import { touchProposal } from './proposals.queries.js';
import {
  answerFormsOf,
  answersBytesBesides,
  appliedSave,
  entryCount,
  findEntry,
  insertEntry,
  proposalFormsOf,
  proposalOfRetriedSave,
  recordSave,
  removeEntry,
  updateEntry,
  type SaveKey,
  type StoredEntry,
} from './answers.queries.js';
import { loadFor } from './proposal-access.js';
import { createProposal } from './proposals.service.js';
import { holdLock } from './team.service.js';

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

/** JSON with every object's keys in order: the same answers always read the same. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value).sort();
    const record = value as Record<string, unknown>;
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(record[k])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** The answers' digest a retried save is compared by (`proposal_saves.digest`). */
const answersDigest = (data: Record<string, unknown>) =>
  createHash('sha256').update(canonicalJson(data)).digest('hex');

/** An entry as the API sends it: its id, version, and who saved it when. */
const presentEntry = (entry: StoredEntry): StaleEntry => ({
  entryId: entry.entryId,
  version: entry.version,
  savedAt: entry.savedAt.toISOString(),
  savedBy: entry.savedBy,
  data: entry.data,
});

/** 409 `stale`: the entry as it is saved now, who saved it and when; or that it is gone. */
const staleAnswers = (entry: StoredEntry | undefined, multi: boolean) =>
  entry
    ? stale(proposalMessages.answersStale(entry.savedBy, entry.savedAt, multi), presentEntry(entry))
    : stale(proposalMessages.entryGone, null);

/** 413 unless the proposal's answers, these instead of `replacing`'s, stay within the cap. */
async function checkAnswersCap(
  work: Work,
  proposalId: number,
  replacing: string | null,
  bytes: number,
) {
  const others = await answersBytesBesides(work.tx, proposalId, replacing);
  if (others + bytes > PROPOSAL_ANSWERS_MAX_BYTES)
    throw new HttpError(
      413,
      errorCodes.payloadTooLarge,
      proposalMessages.answersTooLarge(PROPOSAL_ANSWERS_MAX_BYTES),
    );
}

/**
 * POST /proposal_responses/: saves one form, or one entry of a multi-entry form, of a
 * proposal the caller may edit, from the editor (session and tab) that holds its lock:
 * the save takes the lock when nobody holds it. With `entryId` it changes that entry if
 * `version` is still its version; without, it adds an entry (a one-entry form's first
 * answers, or one appended to a multi-entry form). A save from a version someone has
 * saved over, of an entry that is gone, or of a first answer someone has given already,
 * is 409 `stale` with what is saved now, and writes nothing. The save is recorded by its
 * batch hash: a retry of a save already applied, with the same answers, changes nothing
 * and gets the same answer; with other answers it is 409. One audit row per Save All
 * batch lists the forms it saved.
 */
export async function saveResponse(
  work: Work,
  input: ResponseSave,
): Promise<ProposalResponseSaved & { created: boolean }> {
  const { tx, now } = work;
  const target = await proposalToSave(work, input);
  const loaded = await loadFor(work, 'proposal.edit', target.id, true);
  const { proposal } = loaded;
  await holdLock(work, proposal.id);

  const errors: FieldErrors = {};
  if (proposal.callId !== input.call) addErrors(errors, 'call', [proposalMessages.otherCall]);
  if (proposal.proposalTypeId !== input.proposalTypeId)
    addErrors(errors, 'proposalTypeId', [proposalMessages.otherType]);
  const form = (await proposalFormsOf(tx, proposal.proposalTypeId)).find(
    (f) => f.id === input.formId,
  );
  if (!form) addErrors(errors, 'formId', [proposalMessages.formNotInType]);
  else if (!isMultiForm(form.type) && input.index > 0)
    addErrors(errors, 'index', [proposalMessages.notMultiForm]);
  const bytes = Buffer.byteLength(JSON.stringify(input.data));
  if (bytes > RESPONSE_DATA_MAX_BYTES)
    addErrors(errors, 'data', [proposalMessages.dataTooLarge(RESPONSE_DATA_MAX_BYTES)]);
  if (hasErrors(errors) || !form) throw invalid(errors);
  const multi = isMultiForm(form.type);

  const answer = (written: { entryId: string; version: number; index: number }, at: Date) => ({
    proposalId: proposal.id,
    author: loaded.author.name,
    authorId: loaded.author.id,
    formId: form.id,
    ...written,
    lastModified: at.toISOString(),
    created: target.created,
  });

  const at = { proposalId: proposal.id, formId: form.id };
  const key: SaveKey = {
    ...at,
    hash: input.hash,
    ...(input.entryId ? { entryIndex: -1, entryId: input.entryId } : { entryIndex: input.index }),
  };
  const digest = answersDigest(input.data);
  const earlier = await appliedSave(tx, key);
  if (earlier) {
    if (earlier.digest !== digest) throw conflict(proposalMessages.saveReused);
    const entry = await findEntry(tx, { ...at, entryId: earlier.entryId });
    return answer(
      { entryId: earlier.entryId, version: earlier.version, index: entry?.index ?? input.index },
      proposal.updatedAt,
    );
  }

  // What is saved now: the entry named, or a one-entry form's answers saved meanwhile.
  const saved = input.entryId
    ? await findEntry(tx, { ...at, entryId: input.entryId })
    : multi
      ? undefined
      : await findEntry(tx, { ...at, index: 0 });
  if (input.entryId ? saved?.version !== input.version : saved) throw staleAnswers(saved, multi);
  const index = saved ? saved.index : multi ? await entryCount(tx, proposal.id, form.id) : 0;
  if (!saved && index >= MAX_ENTRIES) throw conflict(proposalMessages.tooManyEntries(MAX_ENTRIES));

  if (input.validate) {
    const schema = (await answerFormsOf(tx, [form.id])).get(form.id)!;
    const problems = answerErrors(schema, input.data);
    if (hasErrors(problems)) throw invalid(problems, proposalMessages.saveFailed);
  }
  await checkAnswersCap(work, proposal.id, saved?.entryId ?? null, bytes);

  const by = work.actor.id;
  const written = saved
    ? {
        entryId: saved.entryId,
        version: await updateEntry(tx, { ...saved, data: input.data, by, now }),
      }
    : await insertEntry(tx, {
        proposalId: proposal.id,
        formId: form.id,
        index,
        data: input.data,
        by,
        now,
      });
  await recordSave(tx, key, { digest, ...written }, now);
  await touchProposal(tx, proposal.id, now);
  const batch = { action: 'proposal.save' as const, entityId: proposal.id };
  if (!(await addToAuditBatch(tx, { ...batch, hash: input.hash }, 'forms', form.id)))
    await work.audit({ ...batch, after: { hash: input.hash, forms: [form.id] } });
  return answer({ ...written, index }, now);
}

/**
 * DELETE /delete_multi_form/: removes one entry of a multi-entry form, named by its id
 * (`entryId`) or, in the spec's payload, by its number (`formIndex`); when both are sent
 * they must name the same entry. An entry that is gone, or a number that names another
 * entry than the id, is 409 `stale`: never is another entry deleted than the one the
 * person saw. The later entries move up one, keeping their ids. The last entry stays: it
 * is changed, not removed.
 */
export async function deleteEntry(work: Work, input: MultiFormEntryDelete): Promise<void> {
  const { tx, now } = work;
  const { proposal } = await loadFor(work, 'proposal.edit', input.proposalId, true);
  await holdLock(work, proposal.id);
  if (proposal.callId !== input.callId) throw invalid({ callId: [proposalMessages.otherCall] });
  const form = (await proposalFormsOf(tx, proposal.proposalTypeId)).find(
    (f) => f.id === input.formId,
  );
  if (!form) throw invalid({ formId: [proposalMessages.formNotInType] });
  if (!isMultiForm(form.type)) throw invalid({ formId: [proposalMessages.notMultiForm] });
  const at = { proposalId: proposal.id, formId: form.id };
  const entry =
    input.entryId !== undefined
      ? await findEntry(tx, { ...at, entryId: input.entryId })
      : await findEntry(tx, { ...at, index: input.formIndex! });
  if (!entry) throw stale(proposalMessages.entryGone, null);
  if (input.formIndex !== undefined && input.formIndex !== entry.index)
    throw stale(proposalMessages.entryMoved, presentEntry(entry));
  if ((await entryCount(tx, proposal.id, form.id)) === 1)
    throw conflict(proposalMessages.lastEntry);
  const answers = await removeEntry(tx, { ...at, index: entry.index });
  await touchProposal(tx, proposal.id, now);
  await work.audit({
    action: 'proposal.delete_entry',
    entityId: proposal.id,
    before: { formId: form.id, index: entry.index, entryId: entry.entryId, answers },
  });
}
