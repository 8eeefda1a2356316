import type { RoleRequest, RoleUpdateRequest, UserAdminUpdate } from '@merit/contract';
import { keepPreviousData, useQuery, type QueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../api/client';
import { noBody } from '../../api/contract';
import type { ServerListQuery } from '../../components/table/use-table-state';
import { currentUserKey } from '../auth/session-hooks';

/** Query keys of the admin screens; everything under `admin` is admin-only data. */
export const adminKeys = {
  all: ['admin'] as const,
  users: (query: ServerListQuery) => ['admin', 'users', 'list', query] as const,
  user: (userId: number) => ['admin', 'users', 'detail', userId] as const,
  roles: (userId: number) => ['admin', 'roles', userId] as const,
  committees: ['admin', 'committees', 'list'] as const,
  committee: (committeeId: number) => ['admin', 'committees', 'detail', committeeId] as const,
};

/** One page of the Manage Users list, as the server searched, sorted and paged it. */
export function useUserList(query: ServerListQuery) {
  return useQuery({
    queryKey: adminKeys.users(query),
    queryFn: ({ signal }) => {
      const params = new URLSearchParams({
        page: String(query.page),
        pageSize: String(query.pageSize),
        sort: query.sort,
        ...(query.q ? { q: query.q } : {}),
      });
      return apiRequest(`/users/?${params}`, { schema: (c) => c.userPage, signal });
    },
    // While the next page or search loads, the table keeps the last answer instead of flashing empty.
    placeholderData: keepPreviousData,
  });
}

export function useAdminUser(userId: number) {
  return useQuery({
    queryKey: adminKeys.user(userId),
    queryFn: ({ signal }) =>
      apiRequest(`/users/${userId}/`, { schema: (c) => c.adminUserDetails, signal }),
  });
}

export function updateUserFlags(userId: number, body: UserAdminUpdate) {
  return apiRequest(`/users/${userId}/`, {
    method: 'PATCH',
    body,
    schema: (c) => c.adminUserDetails,
  });
}

export function useUserRoles(userId: number) {
  return useQuery({
    queryKey: adminKeys.roles(userId),
    queryFn: ({ signal }) =>
      apiRequest(`/roles/${userId}/`, { schema: (c) => c.committeeRoleList, signal }),
  });
}

export function createRole(userId: number, body: RoleRequest) {
  return apiRequest(`/roles/${userId}/`, { method: 'POST', body, schema: (c) => c.committeeRole });
}

export function updateRole(userId: number, body: RoleUpdateRequest) {
  return apiRequest(`/roles/${userId}/`, { method: 'PATCH', body, schema: (c) => c.committeeRole });
}

export function deleteRole(roleId: number) {
  return apiRequest(`/roles/${roleId}/`, { method: 'DELETE', schema: noBody });
}

export function useCommitteeList() {
  return useQuery({
    queryKey: adminKeys.committees,
    queryFn: ({ signal }) => apiRequest('/committees/', { schema: (c) => c.committeeList, signal }),
  });
}

export function useCommittee(committeeId: number) {
  return useQuery({
    queryKey: adminKeys.committee(committeeId),
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

/**
 * After a role changes: the user's page, the committees (members, and whether they can
 * be deleted) and, when admins edit their own roles, their own details all change.
 */
export function refreshAfterRoleChange(client: QueryClient): Promise<unknown> {
  return Promise.all([
    client.invalidateQueries({ queryKey: adminKeys.all }),
    client.invalidateQueries({ queryKey: currentUserKey }),
  ]);
}
