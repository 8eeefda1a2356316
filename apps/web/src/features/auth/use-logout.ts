import type { UserDetails } from '@merit/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { endSession } from '../../api/session';
import { useNotify } from '../../components/notifications/notification-context';
import { clearUserDrafts } from '../drafts/local-drafts';
import { logout } from './auth.api';
import { currentUserKey } from './session-hooks';

/**
 * Revokes the token on the server, forgets it here with the unsaved answers this browser
 * kept for the user (the next person at the computer must not find them), and goes to the
 * login page. A session that merely ended (a 401) keeps them, to be offered back.
 */
export function useLogout() {
  const navigate = useNavigate();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: async () => {
      try {
        await logout();
      } catch {
        // The user asked to leave: forget the token even if the server is unreachable
        // or already considers it expired.
      }
    },
    onSettled: () => {
      // Before the session ends, which empties the cache that knows whose drafts they are.
      const user = queryClient.getQueryData<UserDetails>(currentUserKey);
      if (user) void clearUserDrafts(user.id);
      endSession('logout');
      void navigate('/auth/login', { replace: true });
      notify('Logged out.');
    },
  });
  return { logout: () => mutation.mutate(), isPending: mutation.isPending };
}
