import type { RoleRequest, RoleUpdateRequest } from '@merit/contract';
import { useQuery, type QueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../api/client';
import { noBody } from '../../api/contract';
import { currentUserKey } from '../auth/session-hooks';
import { adminDataKey } from '../users/users.api';

/** Query keys of a user's committee roles, which only admins manage. */
export const roleKeys = {
  ofUser: (userId: number) => ['admin', 'roles', userId] as const,
};

export function useUserRoles(userId: number) {
  return useQuery({
    queryKey: roleKeys.ofUser(userId),
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

/**
 * After a role changes: the user's page, the committees (members, and whether they can
 * be deleted) and, when admins edit their own roles, their own details all change.
 */
export function refreshAfterRoleChange(client: QueryClient): Promise<unknown> {
  return Promise.all([
    client.invalidateQueries({ queryKey: adminDataKey }),
    client.invalidateQueries({ queryKey: currentUserKey }),
  ]);
}
