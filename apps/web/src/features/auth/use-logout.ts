import { useMutation } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { endSession } from '../../api/session';
import { useNotify } from '../../components/notifications/notification-context';
import { logout } from './auth.api';

/** Revokes the token on the server, forgets it here, and goes to the login page. */
export function useLogout() {
  const navigate = useNavigate();
  const notify = useNotify();
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
      endSession('logout');
      void navigate('/auth/login', { replace: true });
      notify('Logged out.');
    },
  });
  return { logout: () => mutation.mutate(), isPending: mutation.isPending };
}
