import type { UserAdminUpdate } from '@merit/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../api/client';
import { useNotify } from '../../components/notifications/notification-context';
import type { ServerListQuery } from '../../components/table/use-table-state';
import { currentUserKey, useCurrentUser } from '../auth/session-hooks';

/**
 * Everything under `admin` is admin-only data: the users' keys below, and those of their
 * roles (roles.api.ts), the committees (committees.api.ts) and the forms (forms.api.ts).
 */
export const adminDataKey = ['admin'] as const;

/** Query keys of the Manage Users screens. */
export const userKeys = {
  list: (query: ServerListQuery) => ['admin', 'users', 'list', query] as const,
  detail: (userId: number) => ['admin', 'users', 'detail', userId] as const,
};

/** One page of the Manage Users list, as the server searched, sorted and paged it. */
export function useUserList(query: ServerListQuery) {
  return useQuery({
    queryKey: userKeys.list(query),
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
    queryKey: userKeys.detail(userId),
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

/** A change to a user's admin or active flag, and what to say once it is made. */
export interface UserFlagsChange {
  change: UserAdminUpdate;
  done: string;
}

/**
 * Makes a user an admin or not, or deactivates or reactivates their account, and says
 * so. `onSettled` runs either way (the page closes its dialog); a refusal stays in the
 * mutation's error for the page to show.
 */
export function useUpdateUserFlags(userId: number, { onSettled }: { onSettled: () => void }) {
  const me = useCurrentUser();
  const queryClient = useQueryClient();
  const notify = useNotify();
  const self = me.id === userId;
  return useMutation({
    mutationFn: ({ change }: UserFlagsChange) => updateUserFlags(userId, change),
    onSuccess: (details, { done }) => {
      queryClient.setQueryData(userKeys.detail(userId), details);
      void queryClient.invalidateQueries({ queryKey: adminDataKey });
      // Admins who change their own flags lose (part of) the access this page needs.
      if (self) void queryClient.invalidateQueries({ queryKey: currentUserKey });
      notify(done);
    },
    onSettled,
  });
}
