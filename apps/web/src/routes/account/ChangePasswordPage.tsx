import { MAX_LENGTHS, validatePasswordChange, type PasswordOwner } from '@merit/domain';
import { Alert, Box, Button, Paper, Stack } from '@mui/material';
import { ErrorList } from '../../components/ErrorList';
import { NewPasswordInput } from '../../components/form/NewPasswordInput';
import { PasswordInput } from '../../components/form/PasswordInput';
import { useServerForm } from '../../components/form/use-server-form';
import { useNotify } from '../../components/notifications/notification-context';
import { PageHeading } from '../../components/PageHeading';
import { changePassword } from '../../features/account/account.api';
import { PASSWORD_HINT } from '../../features/account/profile-fields';
import { useCurrentUser } from '../../features/auth/session-hooks';

/** /account/change-password/ (spec section 5, Change password). */
export default function ChangePasswordPage() {
  const user = useCurrentUser();
  return (
    <>
      <PageHeading>Change Password</PageHeading>
      <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 }, maxWidth: 560 }}>
        {user.is_aaf ? (
          <Alert severity="info">
            Your account logs in through your institution and has no Merit password. To change your
            password, change it with your institution.
          </Alert>
        ) : (
          <ChangePasswordForm
            owner={{
              username: user.username,
              email: user.email,
              firstName: user.first_name,
              lastName: user.last_name,
            }}
          />
        )}
      </Paper>
    </>
  );
}

function ChangePasswordForm({ owner }: { owner: PasswordOwner & { username: string } }) {
  const notify = useNotify();
  const form = useServerForm({
    schema: (c) => c.passwordChangeRequest,
    initialValues: { oldPassword: '', newPassword1: '', newPassword2: '' },
    labels: {
      oldPassword: 'Current password',
      newPassword1: 'Password',
      newPassword2: 'Confirm password',
    },
    validate: (values) => validatePasswordChange(values, { username: owner.username }),
    submit: changePassword,
    resetOnSuccess: true,
    onSuccess: ({ detail }) => notify(detail || 'Your password has been changed.'),
  });

  return (
    <>
      <ErrorList messages={form.errors} />
      <Box component="form" noValidate onSubmit={form.onSubmit}>
        <Stack spacing={2}>
          <PasswordInput
            {...form.field('oldPassword')}
            autoComplete="current-password"
            required
            maxLength={MAX_LENGTHS.password}
          />
          <NewPasswordInput
            {...form.field('newPassword1')}
            helperText={form.field('newPassword1').helperText ?? PASSWORD_HINT}
            owner={owner}
            required
            maxLength={MAX_LENGTHS.password}
          />
          <PasswordInput
            {...form.field('newPassword2')}
            autoComplete="new-password"
            required
            maxLength={MAX_LENGTHS.password}
          />
          <Box>
            <Button type="submit" variant="contained" loading={form.isPending}>
              Change Password
            </Button>
          </Box>
        </Stack>
      </Box>
    </>
  );
}
