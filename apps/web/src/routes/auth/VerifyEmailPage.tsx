import { messages } from '@merit/domain';
import { Alert, Button, Stack, Typography } from '@mui/material';
import { Link as RouterLink, useParams } from 'react-router';
import { isApiError } from '../../api/client';
import { AuthLayout } from '../../components/AuthLayout';
import { LoadingView } from '../../components/LoadingView';
import { useToken } from '../../features/auth/session-hooks';
import { useEmailVerification } from '../../features/auth/use-email-verification';
import { useOnce } from '../../features/auth/use-once';

/**
 * /auth/registration/account-confirm-email/:confirmationKey/: the link in a verification
 * email. It verifies a new account, or confirms a signed-in user's new address.
 */
export default function VerifyEmailPage() {
  const { confirmationKey = '' } = useParams();
  const signedIn = useToken() !== null;
  const verification = useEmailVerification();
  useOnce(confirmationKey, () => verification.mutate(confirmationKey));

  if (verification.isPending || verification.isIdle) {
    return <LoadingView standalone label="Verifying your email address…" />;
  }
  const next = signedIn ? (
    <Button component={RouterLink} to="/account" variant="contained">
      Go to My Account
    </Button>
  ) : (
    <Button component={RouterLink} to="/auth/login" variant="contained">
      Log in
    </Button>
  );
  if (verification.isError) {
    // A 404 is the spec's message (unknown, used or expired key); anything else, e.g. the
    // server being unreachable, says what happened instead.
    const message = isApiError(verification.error, 404)
      ? messages.verificationFailed
      : verification.error.message || messages.verificationFailed;
    return (
      <AuthLayout title="Email verification">
        <Stack spacing={2} sx={{ alignItems: 'flex-start' }}>
          <Alert severity="error" sx={{ alignSelf: 'stretch' }}>
            {message}
          </Alert>
          <Typography>
            The link may have expired or been used already. Log in if your account is verified, or
            ask for a new link.
          </Typography>
          <Stack direction="row" spacing={2}>
            {next}
            <Button component={RouterLink} to="/auth/register/resend" variant="outlined">
              Resend verification email
            </Button>
          </Stack>
        </Stack>
      </AuthLayout>
    );
  }
  return (
    <AuthLayout title="Email verification">
      <Stack spacing={2} sx={{ alignItems: 'flex-start' }}>
        <Alert severity="success" role="status" sx={{ alignSelf: 'stretch' }}>
          Your email address has been verified.
        </Alert>
        <Typography>
          {signedIn ? 'Your account now uses this address.' : 'You can now log in to Merit.'}
        </Typography>
        {next}
      </Stack>
    </AuthLayout>
  );
}
