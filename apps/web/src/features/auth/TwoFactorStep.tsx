import { securityKeyMessages } from '@merit/domain';
import { Alert, Box, Button, Link, Stack, Typography } from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { errorMessages, isApiError, loadCode } from '../../api/client';
import { ErrorList } from '../../components/ErrorList';
import { TextInput } from '../../components/form/TextInput';
import { useServerForm } from '../../components/form/use-server-form';
import { loginSecurityKey, loginTwoFactor, securityKeyLoginOptions } from './auth.api';
import { securityKeysSupported } from './security-key-support';

interface TwoFactorStepProps {
  /** From the password step: works once, for 5 minutes and 5 wrong codes. */
  ticket: string;
  /** Whether the account has security keys, which the server takes instead of a code. */
  securityKeys: boolean;
  onLoggedIn: (key: string) => void;
  /** The ticket has ended: the login starts again from the password. */
  onStartAgain: () => void;
}

/**
 * The second step of a password login, for an account with two-step verification on: a
 * code from the authenticator app, or one of the recovery codes, or, for an account that
 * has them, one of its security keys (offered first: a touch, nothing to type).
 */
export function TwoFactorStep({
  ticket,
  securityKeys,
  onLoggedIn,
  onStartAgain,
}: TwoFactorStepProps) {
  const [recovery, setRecovery] = useState(false);
  const form = useServerForm({
    initialValues: { code: '' },
    labels: { code: recovery ? 'Recovery code' : 'Code' },
    submit: ({ code }) => loginTwoFactor({ ticket, code }),
    onSuccess: ({ key }) => onLoggedIn(key),
  });
  // A fresh challenge for each try: the server takes each answer once.
  const keyLogin = useMutation({
    mutationFn: async () => {
      const [options, { askKeyToSignIn }] = await Promise.all([
        securityKeyLoginOptions({ ticket }),
        loadCode(() => import('./security-key-ceremony')),
      ]);
      const credential = await askKeyToSignIn(options);
      return loginSecurityKey({ ticket, credential });
    },
    onSuccess: ({ key }) => onLoggedIn(key),
  });
  const offerKey = securityKeys && securityKeysSupported();
  // Only the latest try's failure shows: each way clears the other's when it starts.
  const failure = keyLogin.isError ? keyLogin.error : form.error;
  const expired = isApiError(failure) && failure.body.code === 'two_factor_expired';

  return (
    <Box
      component="form"
      noValidate
      onSubmit={(event) => {
        keyLogin.reset();
        form.onSubmit(event);
      }}
    >
      <ErrorList messages={keyLogin.isError ? errorMessages(keyLogin.error) : form.errors} />
      <Stack spacing={2}>
        {offerKey && !expired && (
          <>
            <Typography>
              Insert one of the security keys you added to your account, choose the button, then
              touch the key.
            </Typography>
            <Button
              variant="contained"
              size="large"
              loading={keyLogin.isPending}
              onClick={() => {
                // Clears the code form's failure along with the half-typed code.
                form.setValue('code', '');
                keyLogin.mutate();
              }}
            >
              Use your security key
            </Button>
            <Typography align="center" color="text.secondary">
              or
            </Typography>
          </>
        )}
        {securityKeys && !offerKey && (
          <Alert severity="info">{securityKeyMessages.unsupported}</Alert>
        )}
        <Typography>
          {recovery
            ? 'Enter one of the recovery codes you saved when you turned on two-step verification. Each works once.'
            : 'Enter the 6-digit code from your authenticator app.'}
        </Typography>
        {/* Keyed, so switching kinds starts with an empty field of the right kind. */}
        <TextInput
          key={recovery ? 'recovery' : 'code'}
          {...form.field('code')}
          autoComplete="one-time-code"
          inputMode={recovery ? 'text' : 'numeric'}
          required
          maxLength={30}
        />
        {expired ? (
          <Button variant="contained" size="large" onClick={onStartAgain}>
            Log in again
          </Button>
        ) : (
          <Button
            type="submit"
            variant={offerKey ? 'outlined' : 'contained'}
            size="large"
            loading={form.isPending}
          >
            Verify
          </Button>
        )}
        <Stack direction="row" sx={{ justifyContent: 'space-between', flexWrap: 'wrap', gap: 1 }}>
          <Link
            component="button"
            type="button"
            onClick={() => {
              setRecovery((was) => !was);
              form.setValue('code', '');
            }}
          >
            {recovery ? 'Use a code from the app instead' : 'Use a recovery code instead'}
          </Link>
          <Link component="button" type="button" onClick={onStartAgain}>
            Cancel
          </Link>
        </Stack>
      </Stack>
    </Box>
  );
}
