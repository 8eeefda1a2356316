import { Box, Button, Link, Stack, Typography } from '@mui/material';
import { useState } from 'react';
import { isApiError } from '../../api/client';
import { ErrorList } from '../../components/ErrorList';
import { TextInput } from '../../components/form/TextInput';
import { useServerForm } from '../../components/form/use-server-form';
import { loginTwoFactor } from './auth.api';

interface TwoFactorStepProps {
  /** From the password step: works once, for 5 minutes and 5 wrong codes. */
  ticket: string;
  onLoggedIn: (key: string) => void;
  /** The ticket has ended: the login starts again from the password. */
  onStartAgain: () => void;
}

/**
 * The second step of a password login, for an account with two-step verification on: a
 * code from the authenticator app, or one of the recovery codes.
 */
export function TwoFactorStep({ ticket, onLoggedIn, onStartAgain }: TwoFactorStepProps) {
  const [recovery, setRecovery] = useState(false);
  const form = useServerForm({
    initialValues: { code: '' },
    labels: { code: recovery ? 'Recovery code' : 'Code' },
    submit: ({ code }) => loginTwoFactor({ ticket, code }),
    onSuccess: ({ key }) => onLoggedIn(key),
  });
  const expired = isApiError(form.error) && form.error.body.code === 'two_factor_expired';

  return (
    <Box component="form" noValidate onSubmit={form.onSubmit}>
      <ErrorList messages={form.errors} />
      <Stack spacing={2}>
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
          <Button type="submit" variant="contained" size="large" loading={form.isPending}>
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
