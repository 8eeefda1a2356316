import type { ReminderRulesSave } from '@merit/contract';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../api/client';

/*
 * The API of reminders (issue 28): a call's rules (GET and PUT .../reminders/) and the
 * caller's own reminders (GET /my_reminders/). Sending one now is the Progress page's.
 */

export const reminderKeys = {
  all: ['reminders'] as const,
  ofCall: (callId: number) => ['reminders', callId] as const,
  mine: ['my-reminders'] as const,
};

/** GET .../reminders/: the rules in order, and the version a save starts from. */
export const reminderRulesQuery = (callId: number) => ({
  queryKey: reminderKeys.ofCall(callId),
  queryFn: ({ signal }: { signal: AbortSignal }) =>
    apiRequest(`/calls/${callId}/reminders/`, { schema: (c) => c.reminderRules, signal }),
});

export function useReminderRules(callId: number, enabled = true) {
  return useQuery({ ...reminderRulesQuery(callId), enabled });
}

/**
 * PUT .../reminders/: the whole list from `version` (rules left out are deleted); 409
 * `stale` when someone saved since, 400 with `fields` keyed `rules.<n>.subject`.
 */
export function saveReminderRules(callId: number, body: ReminderRulesSave) {
  return apiRequest(`/calls/${callId}/reminders/`, {
    method: 'PUT',
    body,
    schema: (c) => c.reminderRules,
  });
}

/** GET /my_reminders/: what the caller will be reminded of, and what was sent lately. */
export function useMyReminders() {
  return useQuery({
    queryKey: reminderKeys.mine,
    queryFn: ({ signal }) => apiRequest('/my_reminders/', { schema: (c) => c.myReminders, signal }),
  });
}
