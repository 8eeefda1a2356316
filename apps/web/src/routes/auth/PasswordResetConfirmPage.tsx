import { MAX_LENGTHS, validatePasswordReset } from '@merit/domain';
import { Alert, Box, Button, Link, Stack, Typography } from '@mui/material';
import { useState } from 'react';
import { Link as RouterLink, useParams } from 'react-router';
import { isApiError } from '../../api/client';
import { AuthLayout } from '../../components/AuthLayout';
import { ErrorList } from '../../components/ErrorList';
import { NewPasswordInput } from '../../components/form/NewPasswordInput';
import { PasswordInput } from '../../components/form/PasswordInput';
import { useServerForm } from '../../components/form/use-server-form';
import { PASSWORD_HINT } from '../../features/account/profile-fields';
import { confirmPasswordReset } from '../../features/auth/auth.api';

/** /auth/password-reset/confirm/:uidb64/:token: the link in a password reset email. */
export default function PasswordResetConfirmPage() {
  const { uidb64 = '', token = '' } = useParams();
  const [done, setDone] = useState(false);
  const form = useServerForm({
    initialValues: { newPassword1: '', newPassword2: '' },
    labels: { newPassword1: 'New password', newPassword2: 'Confirm new password' },
    validate: (values) => validatePasswordReset(values),
    submit: (values) => confirmPasswordReset({ uid: uidb64, token, ...values }),
    resetOnSuccess: true,
    onSuccess: () => setDone(true),
  });
  const badLink = isApiError(form.error) && Boolean(form.error.body.fields?.token);

  if (done) {
    return (
      <AuthLayout title="Password changed">
        <Stack spacing={2} sx={{ alignItems: 'flex-start' }}>
          <Alert severity="success" role="status" sx={{ alignSelf: 'stretch' }}>
            Your password has been reset.
          </Alert>
          <Typography>
            Log in with your new password. Any other sessions of your account have been logged out.
          </Typography>
          <Button component={RouterLink} to="/auth/login" variant="contained">
            Log in
          </Button>
        </Stack>
      </AuthLayout>
    );
  }
  return (
    <AuthLayout title="Choose a new password">
      <ErrorList messages={form.errors} />
      {badLink && (
        <Typography sx={{ mb: 2 }}>
          <Link component={RouterLink} to="/auth/password-reset/">
            Ask for a new reset link
          </Link>
        </Typography>
      )}
      <Box component="form" noValidate onSubmit={form.onSubmit}>
        <Stack spacing={2}>
          <NewPasswordInput
            {...form.field('newPassword1')}
            helperText={form.field('newPassword1').helperText ?? PASSWORD_HINT}
            required
            maxLength={MAX_LENGTHS.password}
          />
          <PasswordInput
            {...form.field('newPassword2')}
            autoComplete="new-password"
            required
            maxLength={MAX_LENGTHS.password}
          />
          <Button type="submit" variant="contained" size="large" loading={form.isPending}>
            Set new password
          </Button>
        </Stack>
      </Box>
    </AuthLayout>
  );
}
