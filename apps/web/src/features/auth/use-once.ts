import { useEffect, useRef } from 'react';

/**
 * Runs `action` once per value of `key` when the page opens. For single-use links
 * (a verification key, a login code): StrictMode's second effect pass, or a re-render,
 * must not spend the link again and turn a success into an error.
 */
export function useOnce(key: string, action: () => void): void {
  const done = useRef<string | null>(null);
  useEffect(() => {
    if (done.current === key) return;
    done.current = key;
    action();
    // Only a new key runs it again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
}
