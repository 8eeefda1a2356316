import { Link, Stack, Typography } from '@mui/material';
import { Link as RouterLink } from 'react-router';
import { AuthLayout } from '../../components/AuthLayout';
import { resendVerificationEmail } from '../../features/auth/auth.api';
import { EmailRequestForm } from '../../features/auth/EmailRequestForm';

/** /auth/register/resend: mails a new verification link to an account not yet verified. */
export default function ResendVerificationPage() {
  return (
    <AuthLayout title="Resend verification email">
      <Stack spacing={2}>
        <Typography>
          Enter the email address you registered with and we will send a new verification link.
          Links in earlier emails keep working until they expire.
        </Typography>
        <EmailRequestForm
          submitLabel="Resend verification email"
          submit={resendVerificationEmail}
          sentMessage={(email) =>
            `If an account that is not yet verified uses ${email}, a new verification email is ` +
            'on its way. Follow its link, then log in.'
          }
        />
        <Link component={RouterLink} to="/auth/login">
          Back to log in
        </Link>
      </Stack>
    </AuthLayout>
  );
}
