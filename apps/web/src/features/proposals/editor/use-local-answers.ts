import { useEffect, useMemo, useRef, useState, type ActionDispatch } from 'react';
import { deleteDraft, draftKey, draftsUnder, scopePrefix } from '../../drafts/local-drafts';
import { useKeptDrafts, type UnsavedWork } from '../../drafts/use-kept-drafts';
import {
  draftEntryName,
  isEntryDirty,
  type Answers,
  type DraftAction,
  type DraftState,
  type EditorForm,
  type EntryVersions,
  type RestoredDraft,
} from './editor-state';

interface FoundDraft extends RestoredDraft {
  /** Its key in the store. */
  key: string;
  typedAt: number;
}

interface LocalAnswersOptions {
  userId: number;
  proposalId: number;
  forms: readonly EditorForm[];
  drafts: DraftState;
  dispatch: ActionDispatch<[DraftAction]>;
  /** The saved entries' versions, which restored answers are checked against. */
  entries: EntryVersions;
  /** Drafts are kept and offered back only for someone who may edit the proposal now. */
  enabled: boolean;
}

const isAnswers = (value: unknown): value is Answers =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The proposal's unsaved answers, kept in this browser (features/drafts) as the person
 * types: each changed entry under its user, proposal, form and entry (`draftEntryName`),
 * with the version it started from, until it is saved or the person took the saved
 * answers instead (useKeptDrafts writes and clears them).
 *
 * When the editor opens and finds drafts of an earlier visit (a reload, a crash, a session
 * that ended), it offers them (`offer`) until the person restores them (into the forms, as
 * unsaved changes; one that started from a version someone has since changed comes back
 * as a conflict) or discards them. Nothing typed here is kept meanwhile, so nothing
 * offered is overwritten; `checked` is false until the store has been read.
 */
export function useLocalAnswers({
  userId,
  proposalId,
  forms,
  drafts,
  dispatch,
  entries,
  enabled,
}: LocalAnswersOptions) {
  const [found, setFound] = useState<FoundDraft[] | null>(null);
  const [read, setRead] = useState(false);
  const formsNow = useRef(forms);
  useEffect(() => {
    formsNow.current = forms;
  }, [forms]);

  useEffect(() => {
    if (!enabled) return;
    let active = true;
    const prefix = scopePrefix(userId, { kind: 'proposal', proposalId });
    const formIds = new Set(formsNow.current.map((form) => form.id));
    void draftsUnder<Answers>(prefix).then((stored) => {
      if (!active) return;
      const usable = stored.flatMap(([key, draft]): FoundDraft[] => {
        const [formPart, ...rest] = key.slice(prefix.length).split('/');
        const formId = Number(formPart);
        const entry = rest.join('/');
        if (!formIds.has(formId) || entry === '' || !isAnswers(draft.data)) return [];
        const { data, baseVersion, typedAt } = draft;
        return [{ key, formId, entry, data, baseVersion, typedAt }];
      });
      setFound(usable.length > 0 ? usable : null);
      setRead(true);
    });
    return () => {
      active = false;
    };
  }, [userId, proposalId, enabled]);

  // Nothing to wait for from someone who may not edit.
  const checked = read || !enabled;
  const keeping = enabled && checked && found === null;
  const work = useMemo(() => {
    if (!keeping) return null;
    const kept = new Map<string, UnsavedWork | null>();
    for (const form of forms) {
      for (const item of drafts[form.id]?.entries ?? []) {
        const entry = draftEntryName(form, item);
        kept.set(
          draftKey(userId, { kind: 'proposal', proposalId, formId: form.id, entry }),
          isEntryDirty(item)
            ? { data: item.draft, baseVersion: item.entryId === null ? null : item.version }
            : null,
        );
      }
    }
    return kept;
  }, [keeping, forms, drafts, userId, proposalId]);
  useKeptDrafts(work);

  return {
    checked,
    /** Drafts of an earlier visit, waiting for Restore or Discard: when the newest was typed. */
    offer: found && { typedAt: Math.max(...found.map((draft) => draft.typedAt)) },
    restore: () => {
      if (!found) return;
      dispatch({ type: 'restore', forms, drafts: found, entries });
      setFound(null);
      // Kept again, from the restored entries, under the names they have now.
      for (const draft of found) void deleteDraft(draft.key);
    },
    discard: () => {
      if (!found) return;
      setFound(null);
      for (const draft of found) void deleteDraft(draft.key);
    },
  };
}
