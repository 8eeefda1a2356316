import { Alert, Button, Stack } from '@mui/material';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { AuthLayout } from '../../components/AuthLayout';
import { useToken } from '../../features/auth/session-hooks';
import { oidcErrorMessage } from '../../features/auth/oidc-errors';

/** /auth/oidc/error?reason=…: where a failed federated login or link lands. */
export default function OidcErrorPage() {
  const [params] = useSearchParams();
  const signedIn = useToken() !== null;
  return (
    <AuthLayout title="Institutional login failed">
      <Stack spacing={3} sx={{ alignItems: 'flex-start' }}>
        <Alert severity="error" sx={{ alignSelf: 'stretch' }}>
          {oidcErrorMessage(params.get('reason'))}
        </Alert>
        {signedIn ? (
          // A failed link from My Account: the user is still logged in.
          <Button component={RouterLink} to="/account" variant="contained">
            Back to My Account
          </Button>
        ) : (
          <Button component={RouterLink} to="/auth/login" variant="contained">
            Back to log in
          </Button>
        )}
      </Stack>
    </AuthLayout>
  );
}
