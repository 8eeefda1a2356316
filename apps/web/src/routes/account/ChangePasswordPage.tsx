import { MAX_LENGTHS, validatePasswordChange } from '@merit/domain';
import { Alert, Box, Button, Paper, Stack } from '@mui/material';
import { ErrorList } from '../../components/ErrorList';
import { TextInput } from '../../components/form/TextInput';
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
          <ChangePasswordForm username={user.username} />
        )}
      </Paper>
    </>
  );
}

function ChangePasswordForm({ username }: { username: string }) {
  const notify = useNotify();
  const form = useServerForm({
    schema: (c) => c.passwordChangeRequest,
    initialValues: { oldPassword: '', newPassword1: '', newPassword2: '' },
    labels: {
      oldPassword: 'Current password',
      newPassword1: 'Password',
      newPassword2: 'Confirm password',
    },
    validate: (values) => validatePasswordChange(values, { username }),
    submit: changePassword,
    resetOnSuccess: true,
    onSuccess: ({ detail }) => notify(detail || 'Your password has been changed.'),
  });

  return (
    <>
      <ErrorList messages={form.errors} />
      <Box component="form" noValidate onSubmit={form.onSubmit}>
        <Stack spacing={2}>
          <TextInput
            {...form.field('oldPassword')}
            type="password"
            autoComplete="current-password"
            required
            maxLength={MAX_LENGTHS.password}
          />
          <TextInput
            {...form.field('newPassword1')}
            helperText={form.field('newPassword1').helperText ?? PASSWORD_HINT}
            type="password"
            autoComplete="new-password"
            required
            maxLength={MAX_LENGTHS.password}
          />
          <TextInput
            {...form.field('newPassword2')}
            type="password"
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
