import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState, type ActionDispatch, type RefObject } from 'react';
import { isApiError } from '../../../api/client';
import { useNotify } from '../../../components/notifications/notification-context';
import {
  checkAnswers,
  needsSaving,
  serverErrors,
  type DraftAction,
  type DraftState,
  type EditorForm,
} from '../../proposals/editor/editor-state';
import { randomSaveHash } from '../../proposals/editor/use-save-forms';
import { refreshReviews, saveReviewResponse } from '../reviews.api';

interface SaveReviewOptions {
  callId: number;
  proposalId: number;
  /** The review being edited; null until its first save makes it. */
  reviewId: number | null;
  forms: readonly EditorForm[];
  latest: RefObject<DraftState>;
  dispatch: ActionDispatch<[DraftAction]>;
  /** Check the answers against each form's schema, here and on the server. */
  validate: boolean;
  /** A form's answers stopped the save: its tab is the one to show (spec section 8). */
  onRefused: (formId: number) => void;
  /**
   * The save made the review: it has an address of its own now, to be shown at the tab
   * of the form that was refused, if one was (instead of `onRefused`).
   */
  onCreated: (reviewId: number, refusedFormId: number | null) => void;
}

/**
 * Save (spec section 2, Reviews): every form of the review that has changes, in the
 * call's order, one request after another under one random hash, as the proposal
 * editor's Save All does. The first form saved makes the review; the others go into it.
 * With checks on, a form whose answers break its schema is not sent; it and any form the
 * server refuses show their errors and the first one's tab is shown, while the other
 * forms are still saved. Anything else (the review period over, the connection) stops
 * the save and is kept in `error`.
 */
export function useSaveReview({
  callId,
  proposalId,
  reviewId,
  forms,
  latest,
  dispatch,
  validate,
  onRefused,
  onCreated,
}: SaveReviewOptions) {
  const notify = useNotify();
  const queryClient = useQueryClient();
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<unknown>(null);
  // The review made by an earlier save of this page, before its props catch up.
  const made = useRef<number | null>(null);

  async function save() {
    if (saving) return;
    setSaving(true);
    setError(null);
    const hash = randomSaveHash();
    const before = reviewId ?? made.current;
    let review = before;
    const refused: number[] = [];
    try {
      for (const form of forms) {
        const item = latest.current[form.id]?.entries[0];
        if (!item) continue;
        if (validate) {
          const errors = checkAnswers(form, item.draft);
          if (errors) {
            dispatch({ type: 'refused', formId: form.id, key: item.key, errors });
            refused.push(form.id);
            continue;
          }
        }
        if (!needsSaving(item)) {
          dispatch({ type: 'formSaved', formId: form.id });
          continue;
        }
        try {
          const saved = await saveReviewResponse({
            call: callId,
            proposal: proposalId,
            reviewId: review,
            formId: form.id,
            hash,
            data: item.draft,
            validate,
          });
          review = saved.reviewId;
          made.current = review;
        } catch (failure) {
          if (!isApiError(failure, 400) || !failure.body.fields) throw failure;
          dispatch({
            type: 'refused',
            formId: form.id,
            key: item.key,
            errors: serverErrors(failure.body.fields),
          });
          refused.push(form.id);
          continue;
        }
        dispatch({ type: 'saved', formId: form.id, key: item.key, answers: item.draft });
        dispatch({ type: 'formSaved', formId: form.id });
      }
      if (refused.length === 0) notify('Saved successfully.');
    } catch (failure) {
      setError(failure);
    } finally {
      setSaving(false);
      // One move of the address: to the new review's, or to the refused form's tab.
      const refusedFormId = refused[0] ?? null;
      if (review !== null && review !== before) onCreated(review, refusedFormId);
      else if (refusedFormId !== null) onRefused(refusedFormId);
      // The review's score and time, the proposal's scores and state, the pending reviews.
      void refreshReviews(queryClient);
    }
  }

  return { saving, error, save };
}
