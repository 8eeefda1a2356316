import { Box, Button, Paper, Stack } from '@mui/material';
import { ErrorList } from '../../components/ErrorList';
import { TextInput } from '../../components/form/TextInput';
import { useServerForm } from '../../components/form/use-server-form';
import { useNotify } from '../../components/notifications/notification-context';
import { PageHeading } from '../../components/PageHeading';
import { changePassword } from '../../features/auth/account.api';

/** /account/change-password/ (spec section 5, Change password). */
export default function ChangePasswordPage() {
  const notify = useNotify();
  const form = useServerForm({
    schema: (c) => c.passwordChangeRequest,
    initialValues: { oldPassword: '', newPassword1: '', newPassword2: '' },
    labels: {
      oldPassword: 'Current password',
      newPassword1: 'Password',
      newPassword2: 'Confirm password',
    },
    submit: changePassword,
    resetOnSuccess: true,
    onSuccess: ({ detail }) => notify(detail || 'Your password has been changed.'),
  });

  return (
    <>
      <PageHeading>Change Password</PageHeading>
      <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 }, maxWidth: 560 }}>
        <ErrorList messages={form.errors} />
        <Box component="form" noValidate onSubmit={form.onSubmit}>
          <Stack spacing={2}>
            <TextInput
              {...form.field('oldPassword')}
              type="password"
              autoComplete="current-password"
              required
              maxLength={1000}
            />
            <TextInput
              {...form.field('newPassword1')}
              type="password"
              autoComplete="new-password"
              required
              maxLength={1000}
            />
            <TextInput
              {...form.field('newPassword2')}
              type="password"
              autoComplete="new-password"
              required
              maxLength={1000}
            />
            <Box>
              <Button type="submit" variant="contained" loading={form.isPending}>
                Change Password
              </Button>
            </Box>
          </Stack>
        </Box>
      </Paper>
    </>
  );
}
