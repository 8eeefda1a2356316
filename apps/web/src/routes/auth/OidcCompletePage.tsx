import { Alert, Button, Stack } from '@mui/material';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { AuthLayout } from '../../components/AuthLayout';
import { LoadingView } from '../../components/LoadingView';
import { safeNext } from '../../features/auth/safe-next';
import { useOidcLogin } from '../../features/auth/use-oidc-login';
import { useOnce } from '../../features/auth/use-once';

/**
 * /auth/oidc/complete?code=…&next=…: the end of a federated login. The one-time code
 * becomes a token like a password login's; an incomplete registration is then sent to
 * /auth/complete_registration by the route guards.
 */
export default function OidcCompletePage() {
  const [params] = useSearchParams();
  const code = params.get('code') ?? '';
  const next = safeNext(params.get('next')) ?? '/';
  const exchange = useOidcLogin(next);
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
