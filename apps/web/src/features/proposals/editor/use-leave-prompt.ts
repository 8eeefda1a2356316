import { useEffect, useRef } from 'react';
import { useBlocker } from 'react-router';

/**
 * Asks before unsaved changes are left behind: a move to another page of the app is held
 * (`blocker.state === 'blocked'`) until the person confirms (`proceed`) or stays
 * (`reset`); closing or reloading the tab gets the browser's own question. Moves within
 * the page (another tab of forms, in the query string) are not held.
 * `allowLeaving` lets the page leave on purpose, after deleting the proposal;
 * `allowMoveTo` lets it move to an address of its own (a new review's, once saved).
 */
export function useLeavePrompt(unsaved: boolean) {
  const leaving = useRef(false);
  const ownAddress = useRef<string | null>(null);
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      unsaved &&
      !leaving.current &&
      currentLocation.pathname !== nextLocation.pathname &&
      nextLocation.pathname !== ownAddress.current,
  );

  useEffect(() => {
    if (!unsaved) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [unsaved]);

  return {
    blocker,
    allowLeaving: () => {
      leaving.current = true;
    },
    allowMoveTo: (pathname: string) => {
      ownAddress.current = pathname;
    },
  };
}
