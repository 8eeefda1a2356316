import type { ProposalDetail } from '@merit/contract';
import { useEffect, useReducer, useRef, useState } from 'react';
import { draftReducer, draftsFromServer, type DraftState, type EditorForm } from './editor-state';

/**
 * The answers being edited, form by form, from the responses as loaded (a proposal's, or
 * a review's). Each time they are loaded again (after a save, or when the lock comes
 * back), the forms without unsaved changes take what the server holds; those with
 * changes keep them. `latest` reads the current answers from code that waits on the
 * server (a Save All).
 */
export function useProposalDrafts(
  responses: ProposalDetail['responses'],
  forms: readonly EditorForm[],
) {
  const [drafts, dispatch] = useReducer(draftReducer, undefined, () =>
    draftsFromServer(forms, responses),
  );
  // React's way to follow a prop: compare while rendering, not in an effect a render late.
  const [loaded, setLoaded] = useState(responses);
  if (loaded !== responses) {
    setLoaded(responses);
    dispatch({ type: 'load', forms, responses });
  }

  const latest = useRef<DraftState>(drafts);
  useEffect(() => {
    latest.current = drafts;
  }, [drafts]);

  return { drafts, dispatch, latest };
}
