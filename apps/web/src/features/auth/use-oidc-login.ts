import { useMutation } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { setToken } from '../../api/session';
import { useNotify } from '../../components/notifications/notification-context';
import { exchangeOidcCode } from './auth.api';

/**
 * The end of a federated login: trades the one-time code for a token, keeps it as a
 * password login does, says so and goes on to `next` (already checked by safeNext).
 */
export function useOidcLogin(next: string) {
  const navigate = useNavigate();
  const notify = useNotify();
  return useMutation({
    mutationFn: exchangeOidcCode,
    onSuccess: ({ key }) => {
      setToken(key);
      notify('Logged in.');
      void navigate(next, { replace: true });
    },
  });
}
