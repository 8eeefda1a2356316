import type { LockState } from '@merit/contract';
import { LOCK_POLL_MS } from '@merit/domain';
import { useEffect, useRef, useState } from 'react';
import { useCurrentUser } from '../../auth/session-hooks';
import { releaseLock, takeLock } from '../proposals.api';

interface LockControls {
  /** Waits a whole interval again before the next renewal (spec section 4: after each save). */
  restart: () => void;
  /** Asks now, e.g. after a save was refused because someone else holds the lock. */
  refresh: () => void;
}

/**
 * The proposal's editing lock (spec section 4, Proposal lock), while `enabled` (the
 * caller may take it): asked for at once and every LOCK_POLL_MS, which takes it when it
 * is free and renews it while it is ours. `lock` is who holds it, as last heard, or null
 * before the first answer. It is given back when the editor is left, the tab closed
 * included, or when the caller may no longer take it (the proposal was submitted).
 */
export function useProposalLock(proposalId: number, enabled: boolean) {
  const userId = useCurrentUser().id;
  const [lock, setLock] = useState<LockState | null>(null);
  const controls = useRef<LockControls>({ restart: () => {}, refresh: () => {} });

  useEffect(() => {
    if (!enabled) return;
    let active = true;
    let held = false;
    let timer: ReturnType<typeof setTimeout> | undefined;

    const schedule = () => {
      clearTimeout(timer);
      timer = setTimeout(() => void poll(), LOCK_POLL_MS);
    };
    const release = () => {
      if (!held) return;
      held = false;
      // The server lets the lease run out if this never arrives; nothing to tell anyone.
      releaseLock(proposalId).catch(() => {});
    };
    async function poll() {
      clearTimeout(timer);
      try {
        const state = await takeLock(proposalId);
        held = state.holderId === userId;
        // Left while the answer was on its way: the lock just taken goes back.
        if (!active) return release();
        setLock(state);
      } catch {
        // A lost connection or a server restart: the lock stays as last heard, and the next
        // poll asks again. A save in between is refused if the lock was lost meanwhile.
      }
      if (active) schedule();
    }

    // `pagehide` rather than `beforeunload`: it also fires on phones, where tabs are closed
    // by switching away from them, and for pages kept in the back-forward cache.
    const onPageHide = () => release();
    const onPageShow = (event: PageTransitionEvent) => {
      if (event.persisted) void poll();
    };
    window.addEventListener('pagehide', onPageHide);
    window.addEventListener('pageshow', onPageShow);
    controls.current = { restart: schedule, refresh: () => void poll() };
    void poll();

    return () => {
      active = false;
      clearTimeout(timer);
      window.removeEventListener('pagehide', onPageHide);
      window.removeEventListener('pageshow', onPageShow);
      controls.current = { restart: () => {}, refresh: () => {} };
      release();
    };
  }, [proposalId, enabled, userId]);

  return {
    lock: enabled ? lock : null,
    restart: () => controls.current.restart(),
    refresh: () => controls.current.refresh(),
  };
}
