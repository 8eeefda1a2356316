import type { LockState } from '@merit/contract';
import { LOCK_POLL_MS } from '@merit/domain';
import { useEffect, useRef, useState } from 'react';
import { isApiError } from '../../../api/client';
import { endSessionOn401 } from '../../../api/query-client';
import { whenTabIdKnown } from '../../../api/tab-id';
import { releaseLock, takeLock } from '../proposals.api';

/**
 * What the editor knows of its lock: nothing yet; this tab holds it; it does not (the
 * server says why); the last poll failed; or a save was refused because another editor
 * holds it (until the next poll says more).
 */
export type LockView =
  | { status: 'pending' }
  | { status: 'mine'; lock: LockState }
  | { status: 'notMine'; lock: LockState }
  | { status: 'failed'; error: unknown }
  | { status: 'refused'; message: string };

interface LockControls {
  /** Waits a whole interval again before the next renewal (spec section 4: after each save). */
  restart: () => void;
  /** Asks now, e.g. after a save was refused because someone else holds the lock. */
  refresh: () => void;
}

const PENDING: LockView = { status: 'pending' };

/**
 * The proposal's editing lock (spec section 4, Proposal lock), while `enabled` (the
 * caller may take it): asked for at once and every LOCK_POLL_MS, which takes it when it
 * is free and renews it while this tab holds it. The lock is this tab's (the request's
 * tab header) only while the server says `mine`; a failed poll is said, not kept quiet,
 * since a lease that is not renewed runs out. It is given back when the editor is left,
 * the tab closed included, or when the caller may no longer take it (submitted).
 */
export function useProposalLock(proposalId: number, enabled: boolean) {
  const [view, setView] = useState<LockView>(PENDING);
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
        // A duplicated tab first learns that its copied id is taken, and takes its own.
        await whenTabIdKnown();
        const state = await takeLock(proposalId);
        held = state.mine;
        // Left while the answer was on its way: the lock just taken goes back.
        if (!active) return release();
        setView({ status: state.mine ? 'mine' : 'notMine', lock: state });
      } catch (error) {
        if (!active) return;
        // The session ended (revoked, expired): the app goes to the login page, as for
        // any request; the answers typed are in the local drafts by then.
        if (isApiError(error, 401)) return endSessionOn401(error);
        // A lost connection or a server restart: the lease may run out before the next
        // poll, so nothing may be changed until a poll succeeds again.
        setView({ status: 'failed', error });
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
      setView(PENDING);
    };
  }, [proposalId, enabled]);

  return {
    view: enabled ? view : PENDING,
    restart: () => controls.current.restart(),
    refresh: () => controls.current.refresh(),
    /** A save was refused as `locked`: read-only with its message, and ask who holds it. */
    refuse: (message: string) => {
      setView({ status: 'refused', message });
      controls.current.refresh();
    },
  };
}
