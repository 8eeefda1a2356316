import { Button, Stack, Typography } from '@mui/material';
import { AuthLayout } from '../../components/AuthLayout';
import { useCurrentUser } from '../../features/auth/session-hooks';
import { useLogout } from '../../features/auth/use-logout';

/**
 * /auth/complete_registration. Every other page sends a user with an incomplete
 * registration here. The form itself arrives with federated login.
 */
export default function CompleteRegistrationPage() {
  const user = useCurrentUser();
  const { logout, isPending } = useLogout();
  return (
    <AuthLayout title="Complete Registration">
      <Stack spacing={2}>
        <Typography>
          Your registration must be completed before you can use Merit, {user.username}.
        </Typography>
        <Typography color="text.secondary">
          Signed in with the email address {user.email || 'that your organisation provided'}.
        </Typography>
        <div>
          <Button variant="outlined" onClick={logout} loading={isPending}>
            Logout
          </Button>
        </div>
      </Stack>
    </AuthLayout>
  );
}
