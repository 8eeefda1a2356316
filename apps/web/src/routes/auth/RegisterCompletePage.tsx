import { Button, Link, Stack, Typography } from '@mui/material';
import { Link as RouterLink, useLocation } from 'react-router';
import { AuthLayout } from '../../components/AuthLayout';

/** /auth/register/complete: after registering, the account waits for its email link. */
export default function RegisterCompletePage() {
  const { state } = useLocation() as { state: { email?: unknown } | null };
  const email = typeof state?.email === 'string' ? state.email : null;
  return (
    <AuthLayout title="Check your email">
      <Stack spacing={2}>
        <Typography>
          Thank you for registering. We sent a verification link to{' '}
          {email ? <strong>{email}</strong> : 'your email address'}. Follow the link to verify your
          account, then log in.
        </Typography>
        <Typography color="text.secondary">
          The link works for 3 days. If the email has not arrived in a few minutes, check your spam
          folder or{' '}
          <Link component={RouterLink} to="/auth/register/resend">
            resend the verification email
          </Link>
          .
        </Typography>
        <div>
          <Button component={RouterLink} to="/auth/login" variant="contained">
            Go to log in
          </Button>
        </div>
      </Stack>
    </AuthLayout>
  );
}
