import type { TwoFactorRequiredResponse } from '@merit/contract';
import { Alert, Box, Button, Link, Stack, Typography } from '@mui/material';
import { useRef, useState } from 'react';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { isApiError } from '../../api/client';
import { getLastEndReason, setToken } from '../../api/session';
import { AuthLayout } from '../../components/AuthLayout';
import { ErrorList } from '../../components/ErrorList';
import { PasswordInput } from '../../components/form/PasswordInput';
import { TextInput } from '../../components/form/TextInput';
import { useServerForm } from '../../components/form/use-server-form';
import { useNotify } from '../../components/notifications/notification-context';
import { login } from '../../features/auth/auth.api';
import { CaptchaWidget, type CaptchaHandle } from '../../features/auth/captcha/CaptchaWidget';
import { safeNext } from '../../features/auth/safe-next';
import { TwoFactorStep } from '../../features/auth/TwoFactorStep';
import { useAuthMethods } from '../../features/auth/use-auth-methods';

const RESEND_VERIFICATION_PATH = '/auth/register/resend';

/**
 * /auth/login. After a successful login the route's guard (RedirectIfSignedIn) sends
 * the user on to `next` once their details have loaded.
 */
export default function LoginPage() {
  const notify = useNotify();
  const [params] = useSearchParams();
  const methods = useAuthMethods();
  const [sessionEnded] = useState(() => getLastEndReason() === 'expired');
  const captcha = useRef<CaptchaHandle>(null);
  // Set when the server first asks for a human check (after a few attempts for one
  // username); it goes on asking until its window ends, so the check stays on screen.
  const [captchaNeeded, setCaptchaNeeded] = useState(false);
  // Set when the password was right and the account asks for a second step.
  const [secondStep, setSecondStep] = useState<TwoFactorRequiredResponse | null>(null);
  const loggedIn = (key: string) => {
    setToken(key);
    notify('Logged in.');
  };
  const form = useServerForm({
    schema: (c) => c.loginRequest,
    initialValues: { username: '', password: '' },
    labels: { username: 'Username', password: 'Password', captcha: 'Human check' },
    // The widget has usually solved its challenge by now; if not, it does so here.
    prepare: async (values) =>
      captchaNeeded ? { ...values, captcha: (await captcha.current?.solve()) ?? '' } : values,
    submit: login,
    onSuccess: (answer) => {
      if ('ticket' in answer) setSecondStep(answer);
      else loggedIn(answer.key);
    },
    onError: (error) => {
      if (!isApiError(error) || error.status === 0) return;
      if (error.body.code === 'captcha_required') setCaptchaNeeded(true);
      // The server may have used up the solution it was sent (it accepts each once).
      captcha.current?.renew();
    },
  });
  const notVerified = isApiError(form.error) && form.error.body.code === 'email_not_verified';
  const oidc = methods.data?.oidc;
  // The server checks `next` again; sending only a safe one keeps the round trip honest.
  const federatedHref = oidc
    ? `${oidc.loginUrl}?${new URLSearchParams({ next: safeNext(params.get('next')) ?? '/' })}`
    : null;

  if (secondStep) {
    return (
      <AuthLayout title="Two-step verification">
        <TwoFactorStep
          ticket={secondStep.ticket}
          securityKeys={secondStep.securityKeys}
          onLoggedIn={loggedIn}
          onStartAgain={() => {
            form.setValue('password', '');
            setSecondStep(null);
          }}
        />
      </AuthLayout>
    );
  }

  return (
    <AuthLayout title="Log in">
      {sessionEnded && form.errors.length === 0 && (
        <Alert severity="info" sx={{ mb: 2 }}>
          Your session has ended. Log in again to continue.
        </Alert>
      )}
      <ErrorList messages={form.errors} />
      {notVerified && (
        <Box sx={{ mb: 2 }}>
          <Button component={RouterLink} to={RESEND_VERIFICATION_PATH} variant="outlined">
            Resend verification email
          </Button>
        </Box>
      )}
      <Box component="form" noValidate onSubmit={form.onSubmit}>
        <Stack spacing={2}>
          <TextInput {...form.field('username')} autoComplete="username" required maxLength={150} />
          <PasswordInput
            {...form.field('password')}
            autoComplete="current-password"
            required
            maxLength={1000}
          />
          {captchaNeeded && (
            <Stack spacing={1}>
              <Typography variant="body2">
                After several attempts to log in to this account, Merit asks you to confirm that you
                are not a robot.
              </Typography>
              <CaptchaWidget ref={captcha} />
            </Stack>
          )}
          <Button type="submit" variant="contained" size="large" loading={form.isPending}>
            Log in
          </Button>
        </Stack>
      </Box>
      {oidc && federatedHref && (
        <>
          {/* Not MUI's Divider: the login page's JavaScript budget is tight. */}
          <Typography align="center" color="text.secondary" sx={{ my: 2 }}>
            or
          </Typography>
          <Button href={federatedHref} variant="outlined" size="large" fullWidth>
            Log in with {oidc.displayName}
          </Button>
        </>
      )}
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
      {!notVerified && (
        <Box sx={{ mt: 1 }}>
          <Link component={RouterLink} to={RESEND_VERIFICATION_PATH} variant="body2">
            Resend verification email
          </Link>
        </Box>
      )}
    </AuthLayout>
  );
}
