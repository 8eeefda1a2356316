import { Alert, Box, Button, Link, Stack } from '@mui/material';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { getLastEndReason, setToken } from '../../api/session';
import { AuthLayout } from '../../components/AuthLayout';
import { ErrorList } from '../../components/ErrorList';
import { TextInput } from '../../components/form/TextInput';
import { useServerForm } from '../../components/form/use-server-form';
import { useNotify } from '../../components/notifications/notification-context';
import { login } from '../../features/auth/auth.api';

/**
 * /auth/login. After a successful login the route's guard (RedirectIfSignedIn) sends
 * the user on to `next` once their details have loaded.
 */
export default function LoginPage() {
  const notify = useNotify();
  const [sessionEnded] = useState(() => getLastEndReason() === 'expired');
  const form = useServerForm({
    schema: (c) => c.loginRequest,
    initialValues: { username: '', password: '' },
    labels: { username: 'Username', password: 'Password' },
    submit: login,
    onSuccess: ({ key }) => {
      setToken(key);
      notify('Logged in.');
    },
  });

  return (
    <AuthLayout title="Log in">
      {sessionEnded && form.errors.length === 0 && (
        <Alert severity="info" sx={{ mb: 2 }}>
          Your session has ended. Log in again to continue.
        </Alert>
      )}
      <ErrorList messages={form.errors} />
      <Box component="form" noValidate onSubmit={form.onSubmit}>
        <Stack spacing={2}>
          <TextInput {...form.field('username')} autoComplete="username" required maxLength={150} />
          <TextInput
            {...form.field('password')}
            type="password"
            autoComplete="current-password"
            required
            maxLength={1000}
          />
          <Button type="submit" variant="contained" size="large" loading={form.isPending}>
            Log in
          </Button>
        </Stack>
      </Box>
      <Stack
        direction="row"
        sx={{ mt: 3, justifyContent: 'space-between', flexWrap: 'wrap', gap: 1 }}
      >
        <Link component={RouterLink} to="/auth/register">
          Register
        </Link>
        <Link component={RouterLink} to="/auth/password-reset/">
          Forgot your password?
        </Link>
      </Stack>
    </AuthLayout>
  );
}
