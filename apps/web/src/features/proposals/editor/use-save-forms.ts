import type { ProposalDetail } from '@merit/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type ActionDispatch, type RefObject } from 'react';
import { isApiError } from '../../../api/client';
import { loadContract } from '../../../api/contract';
import { useNotify } from '../../../components/notifications/notification-context';
import { refreshProposals, saveResponse } from '../proposals.api';
import {
  checkAnswers,
  needsSaving,
  serverErrors,
  type Conflict,
  type DraftAction,
  type DraftState,
  type EditorForm,
} from './editor-state';

/** Spec section 9: a save hash is a random integer below 2^31. */
const SAVE_HASH_LIMIT = 2 ** 31;

/** Names one batch of saves, so that the server can tell a retry from a second save. */
export function randomSaveHash(): number {
  return crypto.getRandomValues(new Uint32Array(1))[0]! % SAVE_HASH_LIMIT;
}

interface SaveFormsOptions {
  proposal: ProposalDetail;
  forms: readonly EditorForm[];
  latest: RefObject<DraftState>;
  dispatch: ActionDispatch<[DraftAction]>;
  /** Check the answers against each form's schema, here and on the server. */
  validate: boolean;
  /** A form's answers stopped the save: its tab is the one to show. */
  onRefused: (formId: number) => void;
  /** After every save, whatever came of it: the lock's wait starts again. */
  onSettled: () => void;
  /** Another editor holds the lock now (the server's message): the editor turns read-only. */
  onLocked: (message: string) => void;
  /**
   * A form's entries are all saved now (`checked`: with its answers checked against its
   * schema, here and on the server), e.g. to take it off a refused submit's list.
   */
  onSaved?: (formId: number, checked: boolean) => void;
}

/**
 * What a save refused as `stale` says is saved now, as a conflict for the person to
 * resolve; null when the failure is of another kind.
 */
async function staleConflict(failure: unknown): Promise<Conflict | null> {
  if (!isApiError(failure, 409) || failure.body.code !== 'stale') return null;
  const parsed = (await loadContract()).staleEntry.safeParse(failure.body.current);
  if (!parsed.success) return null;
  const current = parsed.data;
  return {
    theirs: current?.data ?? null,
    entryId: current?.entryId ?? null,
    version: current?.version ?? null,
    savedBy: current?.savedBy ?? null,
    savedAt: current?.savedAt ?? null,
  };
}

/**
 * Save (one form) and Save All (spec section 4, Saving): each form in the call's order,
 * and a multi-entry form's entries in index order, one request after another, all under
 * one random hash. Each entry names the version it started from: one someone else saved
 * meanwhile is refused as stale and becomes a conflict for the person to choose on (the
 * rest is still saved), and an entry with a conflict is not sent until they have chosen.
 * With checks on, a form whose answers break its schema is not sent; it and any form the
 * server refuses show their errors, the first one's tab is shown, and the other forms are
 * still saved. The lock held by another editor turns the editor read-only (`onLocked`);
 * anything else (the connection) stops the batch and is kept in `error`.
 */
export function useSaveForms({
  proposal,
  forms,
  latest,
  dispatch,
  validate,
  onRefused,
  onSettled,
  onLocked,
  onSaved,
}: SaveFormsOptions) {
  const notify = useNotify();
  const queryClient = useQueryClient();
  const [saving, setSaving] = useState<'form' | 'all' | null>(null);
  const [error, setError] = useState<unknown>(null);

  /** Saves one form: whether all of its entries were accepted, or some wait for a choice. */
  async function saveForm(
    form: EditorForm,
    hash: number,
    singleSave: boolean,
  ): Promise<'saved' | 'refused' | 'conflict'> {
    const draft = latest.current[form.id];
    if (!draft) return 'saved';
    if (validate) {
      const checks = draft.entries.map((item) => checkAnswers(form, item.draft));
      if (checks.some((errors) => errors !== null)) {
        draft.entries.forEach((item, index) =>
          dispatch({ type: 'refused', formId: form.id, key: item.key, errors: checks[index]! }),
        );
        return 'refused';
      }
    }
    let conflicts = false;
    for (const [index, item] of draft.entries.entries()) {
      if (item.conflict) {
        conflicts = true;
        continue;
      }
      if (!needsSaving(item)) continue;
      try {
        const saved = await saveResponse({
          call: proposal.callId,
          proposalTypeId: proposal.proposalTypeId,
          proposal: proposal.id,
          new: false,
          hash,
          formId: form.id,
          index,
          singleSave,
          validate,
          data: item.draft,
          // A saved entry is changed from the version its answers started from; an entry
          // without an id is added.
          entryId: item.entryId,
          version: item.entryId === null ? null : item.version,
        });
        dispatch({
          type: 'saved',
          formId: form.id,
          key: item.key,
          answers: item.draft,
          entryId: saved.entryId,
          version: saved.version,
        });
      } catch (failure) {
        const conflict = await staleConflict(failure);
        if (conflict) {
          dispatch({ type: 'conflict', formId: form.id, key: item.key, conflict });
          conflicts = true;
          continue;
        }
        if (!isApiError(failure, 400) || !failure.body.fields) throw failure;
        const errors = serverErrors(failure.body.fields);
        dispatch({ type: 'refused', formId: form.id, key: item.key, errors });
        // The entries after it stay unsaved: the server takes a form's entries in order.
        return 'refused';
      }
    }
    if (conflicts) return 'conflict';
    dispatch({ type: 'formSaved', formId: form.id });
    return 'saved';
  }

  async function save(scope: 'form' | 'all', formsToSave: readonly EditorForm[]) {
    if (saving) return;
    setSaving(scope);
    setError(null);
    const hash = randomSaveHash();
    const refused: number[] = [];
    let conflicts = false;
    try {
      for (const form of formsToSave) {
        const result = await saveForm(form, hash, scope === 'form');
        if (result === 'refused') refused.push(form.id);
        if (result === 'conflict') conflicts = true;
        if (result === 'saved') onSaved?.(form.id, validate);
      }
      if (refused.length > 0) onRefused(refused[0]!);
      // The conflicts are on screen, waiting for the person's choice.
      else if (!conflicts) notify('Saved successfully.');
    } catch (failure) {
      if (isApiError(failure, 409) && failure.body.code === 'locked') onLocked(failure.body.detail);
      else setError(failure);
    } finally {
      setSaving(null);
      onSettled();
      // Multi-entry forms reload after a save (spec section 4), and lists show the new time.
      void refreshProposals(queryClient);
    }
  }

  return {
    saving,
    error,
    saveForm: (form: EditorForm) => save('form', [form]),
    saveAll: () => save('all', forms),
  };
}
