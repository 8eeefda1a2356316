import { Button, Typography } from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { errorMessages } from '../../api/client';
import { useNotify } from '../../components/notifications/notification-context';
import { startOidcLink } from '../auth/auth.api';

/**
 * Links the institution's login (OIDC) to this account: the browser goes to the provider
 * and comes back to /account/?linked=1, or to /auth/oidc/error.
 */
export function LinkInstitutionalLogin({ providerName }: { providerName: string }) {
  const notify = useNotify();
  const link = useMutation({
    mutationFn: startOidcLink,
    onSuccess: ({ url }) => window.location.assign(url),
    onError: (error) => notify(errorMessages(error).join(' '), 'error'),
  });
  return (
    <>
      <Typography sx={{ mb: 2, maxWidth: 720 }}>
        Link your login at {providerName} to this account, and log in to Merit with it from then on.
        Your username and password keep working.
      </Typography>
      {/* Stays busy while the browser leaves for the provider. */}
      <Button
        variant="outlined"
        onClick={() => link.mutate()}
        loading={link.isPending || link.isSuccess}
      >
        Link institutional login
      </Button>
    </>
  );
}
