import type { CallSave, DeadlineImpactQuery, ExtensionCreate } from '@merit/contract';
import { USER_LOOKUP_MIN_LENGTH } from '@merit/domain';
import {
  keepPreviousData,
  useMutation,
  useQuery,
  useQueryClient,
  type QueryClient,
} from '@tanstack/react-query';
import { apiRequest } from '../../api/client';
import { noBody } from '../../api/contract';
import { useNotify } from '../../components/notifications/notification-context';
import { callDetailQuery, callKeys, type CallFilter } from './call-queries';

export { callDetailQuery, callKeys, type CallFilter } from './call-queries';

const LIST_PATHS: Record<CallFilter, string> = {
  open: '/calls/open/',
  closed: '/calls/closed/',
  all: '/calls/',
};

export function useCallList(filter: CallFilter) {
  return useQuery({
    queryKey: callKeys.list(filter),
    queryFn: ({ signal }) => apiRequest(LIST_PATHS[filter], { schema: (c) => c.callList, signal }),
  });
}

export function useCall(callId: number) {
  return useQuery(callDetailQuery(callId));
}

export function useCallManagement(callId: number, enabled: boolean) {
  return useQuery({
    queryKey: callKeys.management(callId),
    queryFn: ({ signal }) =>
      apiRequest(`/calls/${callId}/manage/`, { schema: (c) => c.callManagement, signal }),
    enabled,
  });
}

/** Creates (`new: true`, 201) or updates (200) a call with its proposal types. */
export function saveCall(body: CallSave) {
  return apiRequest('/new_call/', { method: 'POST', body, schema: (c) => c.callDetail });
}

/**
 * Who saving these deadlines would reach (issue 30): asked by the call edit page before
 * it saves a changed submission or review deadline.
 */
export function fetchDeadlineImpact(callId: number, query: DeadlineImpactQuery) {
  const search = new URLSearchParams(query);
  return apiRequest(`/calls/${callId}/deadline_impact/?${search}`, {
    schema: (c) => c.deadlineImpact,
  });
}

export function closeCall(callId: number) {
  return apiRequest('/close_call/', {
    method: 'POST',
    body: { callId },
    schema: (c) => c.callDetail,
  });
}

/**
 * Closes the call, says so, and refreshes everything that shows calls. `onSettled` runs
 * either way (the page closes its dialog); a refusal stays in the mutation's error.
 */
export function useCloseCall(
  call: { id: number; name: string },
  { onSettled }: { onSettled: () => void },
) {
  const queryClient = useQueryClient();
  const notify = useNotify();
  return useMutation({
    mutationFn: () => closeCall(call.id),
    onSuccess: async () => {
      notify(`The call “${call.name}” has been closed.`);
      await refreshCalls(queryClient);
    },
    onSettled,
  });
}

export function createExtension(body: ExtensionCreate) {
  return apiRequest('/new_extension/', { method: 'POST', body, schema: (c) => c.extension });
}

export function deleteExtension(callId: number, extensionId: number) {
  return apiRequest('/delete_extension/', {
    method: 'DELETE',
    body: { callId, extensionId },
    schema: noBody,
  });
}

/** The forms a chair may put in a call (GET /forms/ answers chairs and admins). */
export function useFormCatalogue() {
  return useQuery({
    queryKey: callKeys.forms,
    queryFn: ({ signal }) => apiRequest('/forms/', { schema: (c) => c.formList, signal }),
  });
}

/** Every committee, for an admin creating a call (admins may create for any). */
export function useAllCommittees(enabled: boolean) {
  return useQuery({
    queryKey: callKeys.committees,
    queryFn: ({ signal }) => apiRequest('/committees/', { schema: (c) => c.committeeList, signal }),
    enabled,
  });
}

/**
 * Users matching `search` by name or username (or one whose whole email address it is),
 * for choosing who gets an extension: GET /users/lookup/, which chairs may use (at most
 * 20 answers).
 */
export function useUserLookup(search: string) {
  return useQuery({
    queryKey: callKeys.users(search),
    queryFn: ({ signal }) =>
      apiRequest(`/users/lookup/?q=${encodeURIComponent(search)}`, {
        schema: (c) => c.userLookupList,
        signal,
      }),
    enabled: search.length >= USER_LOOKUP_MIN_LENGTH,
    placeholderData: keepPreviousData,
  });
}

/** After a call changes: its lists, its page and its counts. */
export function refreshCalls(client: QueryClient): Promise<void> {
  return client.invalidateQueries({ queryKey: callKeys.all });
}
