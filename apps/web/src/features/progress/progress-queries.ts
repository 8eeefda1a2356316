import type { CallProgress } from '@merit/contract';
import { apiRequest } from '../../api/client';

// Apart from progress.api.ts, which re-exports them: the app asks for a call's progress as
// it starts on the Progress page (prefetchFirstRoute in routes.tsx), so this is in its
// first scripts, and the rest of the page's code stays with the page.

export const progressKeys = {
  all: ['progress'] as const,
  ofCall: (callId: number) => ['progress', callId] as const,
};

/** While review is open the page asks again this often: reviews are being saved. */
export const PROGRESS_POLL_MS = 30_000;

/**
 * Whether the numbers may change by themselves: the call is open and so is its review
 * window. Before it nobody can save a review; after it the numbers stand still.
 */
export function progressIsLive(
  progress: Pick<CallProgress, 'closed' | 'reviewCommencement' | 'reviewTermination'>,
  now: number,
): boolean {
  return (
    !progress.closed &&
    now >= new Date(progress.reviewCommencement).getTime() &&
    now < new Date(progress.reviewTermination).getTime()
  );
}

/** GET .../progress/: what the Progress page asks, and what the app asks early when it starts there. */
export const callProgressQuery = (callId: number) => ({
  queryKey: progressKeys.ofCall(callId),
  queryFn: ({ signal }: { signal: AbortSignal }) =>
    apiRequest(`/calls/${callId}/progress/`, { schema: (c) => c.callProgress, signal }),
});
