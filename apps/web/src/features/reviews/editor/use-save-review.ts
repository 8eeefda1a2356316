import type { StaleReview } from '@merit/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState, type ActionDispatch, type RefObject } from 'react';
import { isApiError } from '../../../api/client';
import { useNotify } from '../../../components/notifications/notification-context';
import { staleCurrent } from '../../drafts/stale';
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

/** The review the next save goes into, and its version that save names. */
export interface ReviewBase {
  /** Null until the first save makes the review. */
  reviewId: number | null;
  /** The version the answers on screen started from; null before the review exists. */
  version: number | null;
}

/** A save refused because the review was saved elsewhere first: what is saved now. */
export interface ReviewConflict {
  current: StaleReview;
  /**
   * The page had no review yet, but the person has one of this proposal (the new-review
   * page open twice): nothing was written, and theirs is to be opened, not saved over.
   */
  exists: boolean;
}

interface SaveReviewOptions {
  callId: number;
  proposalId: number;
  /** The review as the page loaded it (ids null for a new review). */
  initial: ReviewBase;
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
  /** The review was saved elsewhere first: the person chooses what to keep. */
  onConflict: (conflict: ReviewConflict) => void;
}

/**
 * Save (spec section 2, Reviews): every form of the review that has changes, in the
 * call's order, one request after another under one random hash, as the proposal
 * editor's Save All does. The first form saved makes the review; the others go into it,
 * each naming the version the previous save answered (every save raises it). With checks
 * on, a form whose answers break its schema is not sent; it and any form the server
 * refuses show their errors and the first one's tab is shown, while the other forms are
 * still saved. A 409 `stale` (the review saved elsewhere first) stops the save and goes to
 * `onConflict`; anything else (the review period over, the connection) stops it and is
 * kept in `error`.
 */
export function useSaveReview({
  callId,
  proposalId,
  initial,
  forms,
  latest,
  dispatch,
  validate,
  onRefused,
  onCreated,
  onConflict,
}: SaveReviewOptions) {
  const notify = useNotify();
  const queryClient = useQueryClient();
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<unknown>(null);
  // Read by the save loop between its requests, and shown (the drafts' base version).
  const baseRef = useRef<ReviewBase>(initial);
  const [base, setBaseState] = useState<ReviewBase>(initial);
  const setBase = (next: ReviewBase) => {
    baseRef.current = next;
    setBaseState(next);
  };

  async function save() {
    if (saving) return;
    setSaving(true);
    setError(null);
    const hash = randomSaveHash();
    const before = baseRef.current.reviewId;
    let { reviewId: review, version } = baseRef.current;
    const refused: number[] = [];
    let conflict: ReviewConflict | null = null;
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
            version: review === null ? null : version,
            formId: form.id,
            hash,
            data: item.draft,
            validate,
          });
          review = saved.reviewId;
          version = saved.version;
          setBase({ reviewId: review, version });
        } catch (failure) {
          const current = await staleCurrent(failure, (c) => c.staleReview);
          if (current) {
            conflict = { current, exists: review === null };
            break;
          }
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
      if (refused.length === 0 && conflict === null) notify('Saved successfully.');
    } catch (failure) {
      setError(failure);
    } finally {
      setSaving(false);
      // One move of the address: to the new review's, or to the refused form's tab.
      const refusedFormId = refused[0] ?? null;
      if (review !== null && review !== before) onCreated(review, refusedFormId);
      else if (refusedFormId !== null) onRefused(refusedFormId);
      if (conflict) onConflict(conflict);
      // The review's score and time, the proposal's scores and state, the pending reviews.
      void refreshReviews(queryClient);
    }
  }

  return { saving, error, save, base, setBase };
}
