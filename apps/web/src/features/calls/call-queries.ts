import { apiRequest } from '../../api/client';

// Apart from calls.api.ts, which re-exports them: the app asks for a call as it starts on a
// call's page (prefetchFirstRoute in routes.tsx), so this is in its first scripts, the
// login page's too, and the rest of the calls API stays with the pages that use it.

/** Which list of calls: Current (open), History (closed) or All (spec section 2, Call lists). */
export type CallFilter = 'open' | 'closed' | 'all';

/** Query keys of the calls screens; everything under `calls` changes when a call does. */
export const callKeys = {
  all: ['calls'] as const,
  list: (filter: CallFilter) => ['calls', 'list', filter] as const,
  detail: (callId: number) => ['calls', 'detail', callId] as const,
  management: (callId: number) => ['calls', 'management', callId] as const,
  // Not under `calls`: saving a call does not change these.
  forms: ['call-wizard', 'forms'] as const,
  committees: ['call-wizard', 'committees'] as const,
  users: (search: string) => ['call-extensions', 'users', search] as const,
};

/** A call's details: what useCall asks, and what the app asks early when it starts on a call's page. */
export const callDetailQuery = (callId: number) => ({
  queryKey: callKeys.detail(callId),
  queryFn: ({ signal }: { signal: AbortSignal }) =>
    apiRequest(`/calls/${callId}/`, { schema: (c) => c.callDetail, signal }),
});
