import type { ProposalDetail } from '@merit/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type ActionDispatch, type RefObject } from 'react';
import { isApiError } from '../../../api/client';
import { useNotify } from '../../../components/notifications/notification-context';
import { refreshProposals, saveResponse } from '../proposals.api';
import {
  checkAnswers,
  needsSaving,
  serverErrors,
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
  /** Someone else holds the lock now: ask who. */
  onLocked: () => void;
}

/**
 * Save (one form) and Save All (spec section 4, Saving): each form in the call's order,
 * and a multi-entry form's entries in index order, one request after another, all under
 * one random hash. With checks on, a form whose answers break its schema is not sent; it
 * and any form the server refuses show their errors, the first one's tab is shown, and
 * the other forms are still saved. Anything else (the lock lost, the connection) stops
 * the batch and is kept in `error`.
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
}: SaveFormsOptions) {
  const notify = useNotify();
  const queryClient = useQueryClient();
  const [saving, setSaving] = useState<'form' | 'all' | null>(null);
  const [error, setError] = useState<unknown>(null);

  /** Saves one form; whether all of its entries were accepted. */
  async function saveForm(form: EditorForm, hash: number, singleSave: boolean) {
    const draft = latest.current[form.id];
    if (!draft) return true;
    if (validate) {
      const checks = draft.entries.map((item) => checkAnswers(form, item.draft));
      if (checks.some((errors) => errors !== null)) {
        draft.entries.forEach((item, index) =>
          dispatch({ type: 'refused', formId: form.id, key: item.key, errors: checks[index]! }),
        );
        return false;
      }
    }
    for (const [index, item] of draft.entries.entries()) {
      if (!needsSaving(item)) continue;
      try {
        await saveResponse({
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
        });
      } catch (failure) {
        if (!isApiError(failure, 400) || !failure.body.fields) throw failure;
        const errors = serverErrors(failure.body.fields);
        dispatch({ type: 'refused', formId: form.id, key: item.key, errors });
        // The entries after it stay unsaved: the server takes a form's entries in order.
        return false;
      }
      dispatch({ type: 'saved', formId: form.id, key: item.key, answers: item.draft });
    }
    dispatch({ type: 'formSaved', formId: form.id });
    return true;
  }

  async function save(scope: 'form' | 'all', formsToSave: readonly EditorForm[]) {
    if (saving) return;
    setSaving(scope);
    setError(null);
    const hash = randomSaveHash();
    const refused: number[] = [];
    try {
      for (const form of formsToSave) {
        if (!(await saveForm(form, hash, scope === 'form'))) refused.push(form.id);
      }
      if (refused.length > 0) onRefused(refused[0]!);
      else notify('Saved successfully.');
    } catch (failure) {
      setError(failure);
      if (isApiError(failure, 409) && failure.body.code === 'locked') onLocked();
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
