import { useQuery, type QueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../api/client';
import {
  callProgressQuery,
  PROGRESS_POLL_MS,
  progressIsLive,
  progressKeys,
} from './progress-queries';

/*
 * The API of the chair's review progress (issue 28): GET .../progress/, and "Remind
 * selected" (POST .../reminders/send/), which changes the members' last reminder.
 */

export {
  callProgressQuery,
  PROGRESS_POLL_MS,
  progressIsLive,
  progressKeys,
} from './progress-queries';

/** The call's progress, asked again every 30 s while it is live. */
export function useCallProgress(callId: number, enabled = true) {
  return useQuery({
    ...callProgressQuery(callId),
    enabled,
    refetchInterval: (query) =>
      query.state.data && progressIsLive(query.state.data, Date.now()) ? PROGRESS_POLL_MS : false,
  });
}

/** POST .../reminders/send/: the reviewers' reminder, now, to these members. */
export function remindNow(callId: number, userIds: readonly number[]) {
  return apiRequest(`/calls/${callId}/reminders/send/`, {
    method: 'POST',
    body: { userIds: [...userIds] },
    schema: (c) => c.remindNowResult,
  });
}

/** After a reminder went out: the members' "last reminder" changed. */
export const refreshProgress = (client: QueryClient, callId: number) =>
  client.invalidateQueries({ queryKey: progressKeys.ofCall(callId) });
