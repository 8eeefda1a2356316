import { Link, Stack, Typography } from '@mui/material';
import { Link as RouterLink } from 'react-router';
import { AuthLayout } from '../../components/AuthLayout';
import { requestPasswordReset } from '../../features/auth/auth.api';
import { EmailRequestForm } from '../../features/auth/EmailRequestForm';

/** /auth/password-reset/: asks for a reset link by email. */
export default function PasswordResetPage() {
  return (
    <AuthLayout title="Reset your password">
      <Stack spacing={2}>
        <Typography>
          Enter the email address of your account and we will send you a link to choose a new
          password.
        </Typography>
        <EmailRequestForm
          submitLabel="Send reset link"
          submit={requestPasswordReset}
          sentMessage={(email) =>
            `If an account uses ${email}, a link to reset its password is on its way. ` +
            'Check your inbox, and your spam folder if it has not arrived in a few minutes.'
          }
        />
        <Link component={RouterLink} to="/auth/login">
          Back to log in
        </Link>
      </Stack>
    </AuthLayout>
  );
}
