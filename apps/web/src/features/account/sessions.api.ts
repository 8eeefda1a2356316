import { apiRequest } from '../../api/client';
import { noBody } from '../../api/contract';

export const sessionsKey = ['auth', 'sessions'] as const;

/** The signed-in user's live sessions, the most recently used first. */
export function fetchSessions(signal?: AbortSignal) {
  return apiRequest('/auth/sessions/', { schema: (c) => c.sessionList, signal });
}

/** Ends one of the user's sessions; ending this one is a logout. */
export function endSession(id: number) {
  return apiRequest(`/auth/sessions/${id}/`, { method: 'DELETE', schema: noBody });
}

/** Ends every session of the user but this one; says how many it ended. */
export function endOtherSessions() {
  return apiRequest('/auth/sessions/end-others/', {
    method: 'POST',
    schema: (c) => c.endOtherSessionsResponse,
  });
}
