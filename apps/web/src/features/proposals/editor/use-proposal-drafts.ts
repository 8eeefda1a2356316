import type { ProposalDetail } from '@merit/contract';
import { useEffect, useReducer, useRef, useState } from 'react';
import {
  draftReducer,
  draftsFromServer,
  type DraftState,
  type EditorForm,
  type EntryVersions,
} from './editor-state';

/**
 * The answers being edited, form by form, from the responses as loaded (a proposal's, or
 * a review's), with the saved entries' ids and versions when the server gives them
 * (`entries`). Each time they are loaded again (after a save, when the lock comes back,
 * when the window gets the focus), the entries without unsaved changes take what the
 * server holds; a changed one that someone else saved meanwhile keeps the person's
 * answers and gets a conflict, for them to choose (draftReducer's `load`). `latest` reads
 * the current answers from code that waits on the server (a Save All).
 */
export function useProposalDrafts(
  responses: ProposalDetail['responses'],
  forms: readonly EditorForm[],
  entries?: EntryVersions,
) {
  const [drafts, dispatch] = useReducer(draftReducer, undefined, () =>
    draftsFromServer(forms, responses, entries),
  );
  // React's way to follow a prop: compare while rendering, not in an effect a render late.
  // Both, since the query shares unchanged parts: a version can change under equal answers.
  const [loaded, setLoaded] = useState({ responses, entries });
  if (loaded.responses !== responses || loaded.entries !== entries) {
    setLoaded({ responses, entries });
    dispatch({ type: 'load', forms, responses, entries });
  }

  const latest = useRef<DraftState>(drafts);
  useEffect(() => {
    latest.current = drafts;
  }, [drafts]);

  return { drafts, dispatch, latest };
}
