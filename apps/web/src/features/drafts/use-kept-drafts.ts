import { useCallback, useEffect, useRef } from 'react';
import { getLastEndReason } from '../../api/session';
import { deleteDraft, putDraft, type LocalDraft } from './local-drafts';

/** How long typing pauses before its answers are written to the browser's store. */
export const DRAFT_WRITE_DELAY_MS = 400;

/** Unsaved work to keep under one key: what it is, and the saved version it started from. */
export interface UnsavedWork {
  data: unknown;
  baseVersion: number | null;
}

interface Seen extends UnsavedWork {
  typedAt: number;
}

/**
 * Keeps unsaved work in the browser (local-drafts) while someone types: each key's work is
 * written a moment after the last change, at once when the page is hidden (a reload, a
 * closed tab) or the editor goes away (an ended session), and deleted when it is no longer
 * unsaved (saved, or replaced by the saved answers).
 *
 * `work` maps each draft key to its unsaved work, or null when it has none; a key first
 * seen with null is left alone, so opening a page deletes nothing it may offer back. A key
 * that held work and is left out of `work` later is deleted, as if it were null.
 * `work` null keeps nothing for now (no one signed in, or a draft is being offered back).
 */
export function useKeptDrafts(work: ReadonlyMap<string, UnsavedWork | null> | null): void {
  const seen = useRef(new Map<string, Seen | null>());
  const pending = useRef(new Map<string, LocalDraft>());
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  // Reads only refs: one function for the timer, the page's hiding and the unmount.
  const flush = useCallback(() => {
    clearTimeout(timer.current);
    for (const [key, draft] of pending.current) void putDraft(key, draft);
    pending.current.clear();
  }, []);

  // After every render: the reducer's answers keep their identity until they change.
  useEffect(() => {
    if (!work) {
      clearTimeout(timer.current);
      pending.current.clear();
      seen.current = new Map();
      return;
    }
    let typed = false;
    for (const [key, now] of work) {
      const before = seen.current.get(key);
      if (before === undefined && now === null) {
        seen.current.set(key, null);
        continue;
      }
      if (now === null) {
        if (before === null) continue;
        seen.current.set(key, null);
        pending.current.delete(key);
        void deleteDraft(key);
        continue;
      }
      if (before && before.data === now.data && before.baseVersion === now.baseVersion) continue;
      // A new base version alone (another form saved) is not new typing.
      const typedAt = before && before.data === now.data ? before.typedAt : Date.now();
      const draft = { data: now.data, baseVersion: now.baseVersion, typedAt };
      seen.current.set(key, draft);
      pending.current.set(key, draft);
      typed = true;
    }
    // A key kept before and gone from `work` now (an entry saved under its id, or deleted)
    // is no longer unsaved work either.
    for (const [key, before] of seen.current) {
      if (before === null || work.has(key)) continue;
      seen.current.set(key, null);
      pending.current.delete(key);
      void deleteDraft(key);
    }
    if (typed) {
      clearTimeout(timer.current);
      timer.current = setTimeout(() => flush(), DRAFT_WRITE_DELAY_MS);
    }
  });

  useEffect(() => {
    const queue = pending.current;
    const onHide = () => flush();
    window.addEventListener('pagehide', onHide);
    return () => {
      window.removeEventListener('pagehide', onHide);
      // The editor goes: its last keystrokes are kept (a session that ended comes back to
      // them), except after a logout, which forgets them.
      if (getLastEndReason() === 'logout') {
        clearTimeout(timer.current);
        queue.clear();
      } else flush();
    };
  }, [flush]);
}
