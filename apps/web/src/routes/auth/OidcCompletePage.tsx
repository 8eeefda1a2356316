import { Alert, Button, Stack } from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router';
import { setToken } from '../../api/session';
import { AuthLayout } from '../../components/AuthLayout';
import { LoadingView } from '../../components/LoadingView';
import { useNotify } from '../../components/notifications/notification-context';
import { exchangeOidcCode } from '../../features/auth/auth.api';
import { safeNext } from '../../features/auth/safe-next';
import { useOnce } from '../../features/auth/use-once';

/**
 * /auth/oidc/complete?code=…&next=…: the end of a federated login. The one-time code
 * becomes a token like a password login's; an incomplete registration is then sent to
 * /auth/complete_registration by the route guards.
 */
export default function OidcCompletePage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const notify = useNotify();
  const code = params.get('code') ?? '';
  const next = safeNext(params.get('next')) ?? '/';
  const exchange = useMutation({
    mutationFn: exchangeOidcCode,
    onSuccess: ({ key }) => {
      setToken(key);
      notify('Logged in.');
      void navigate(next, { replace: true });
    },
  });
  useOnce(code, () => {
    if (code) exchange.mutate(code);
  });

  if (code && !exchange.isError) return <LoadingView standalone label="Logging you in…" />;
  return (
    <AuthLayout title="Institutional login failed">
      <Stack spacing={3} sx={{ alignItems: 'flex-start' }}>
        <Alert severity="error" sx={{ alignSelf: 'stretch' }}>
          {exchange.error?.message ||
            'This login link is incomplete. Start again from the login page.'}
        </Alert>
        <Button component={RouterLink} to="/auth/login" variant="contained">
          Back to log in
        </Button>
      </Stack>
    </AuthLayout>
  );
}
