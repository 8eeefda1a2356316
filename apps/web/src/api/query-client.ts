import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { isApiError } from './client';
import { endSession, subscribeToSession } from './session';

/** Client errors will not change on a retry; network and server errors may. */
function shouldRetry(failureCount: number, error: unknown): boolean {
  if (isApiError(error) && error.status >= 400 && error.status < 500) return false;
  return failureCount < 2;
}

/**
 * Any 401 means the token is missing, expired or revoked: the user is logged out, and the
 * login page brings them back to the page they were on. Requests made outside TanStack
 * Query (the editing lock's poll) call this too. An editor's unsaved answers are in the
 * browser's local drafts by then (features/drafts), and are offered back on its return.
 */
export function endSessionOn401(error: unknown): void {
  if (isApiError(error, 401)) endSession('expired');
}

export function createQueryClient(): QueryClient {
  const client = new QueryClient({
    queryCache: new QueryCache({ onError: endSessionOn401 }),
    mutationCache: new MutationCache({ onError: endSessionOn401 }),
    defaultOptions: {
      queries: { retry: shouldRetry, staleTime: 30_000 },
      mutations: { retry: false },
    },
  });
  return client;
}

/**
 * Cached data belongs to the session that fetched it. Whenever the token changes
 * (login, logout, expiry, or another tab), drop it all so no user sees another's data.
 */
export function clearCacheOnSessionChange(client: QueryClient): () => void {
  return subscribeToSession(() => client.clear());
}
