import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../api/client';
import { noBody } from '../../api/contract';

/**
 * Query keys of the Manage Committees screens. Under `admin` with the other admin-only
 * data, so a change to a role (roles.api.ts) refreshes the committees' members too.
 */
export const committeeKeys = {
  list: ['admin', 'committees', 'list'] as const,
  detail: (committeeId: number) => ['admin', 'committees', 'detail', committeeId] as const,
};

export function useCommitteeList() {
  return useQuery({
    queryKey: committeeKeys.list,
    queryFn: ({ signal }) => apiRequest('/committees/', { schema: (c) => c.committeeList, signal }),
  });
}

export function useCommittee(committeeId: number) {
  return useQuery({
    queryKey: committeeKeys.detail(committeeId),
    queryFn: ({ signal }) =>
      apiRequest(`/committees/${committeeId}/`, { schema: (c) => c.committeeDetail, signal }),
  });
}

export function createCommittee(name: string) {
  return apiRequest('/committees/', {
    method: 'POST',
    body: { name },
    schema: (c) => c.committee,
  });
}

export function deleteCommittee(id: number) {
  return apiRequest('/committees/', {
    method: 'DELETE',
    body: { id },
    schema: noBody,
  });
}
