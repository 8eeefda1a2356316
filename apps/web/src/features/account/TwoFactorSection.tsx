import type { TwoFactorSetupResponse, UserDetails } from '@merit/contract';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import {
  Alert,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Stack,
  Typography,
} from '@mui/material';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { renderSVG } from 'uqr';
import { ErrorList } from '../../components/ErrorList';
import { PasswordInput } from '../../components/form/PasswordInput';
import { TextInput } from '../../components/form/TextInput';
import { useServerForm } from '../../components/form/use-server-form';
import { useNotify } from '../../components/notifications/notification-context';
import { currentUserKey } from '../auth/session-hooks';
import { SecurityKeysSection } from './SecurityKeysSection';
import { securityKeysKey } from './security-keys.api';
import {
  confirmTwoFactor,
  disableTwoFactor,
  fetchTwoFactor,
  startTwoFactorSetup,
  twoFactorKey,
} from './two-factor.api';

/**
 * The key's QR code as an image: drawn here from the URI (no third party sees the key),
 * shown through a data: URL so no markup is ever inserted into the page.
 */
export function qrCodeDataUrl(uri: string): string {
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(renderSVG(uri, { pixelSize: 5 }))}`;
}

/** The key in groups of four, as people copy it into an app by hand. */
const grouped = (secret: string) => secret.replace(/(.{4})(?=.)/g, '$1 ');

function useCopy() {
  const notify = useNotify();
  return async (text: string, what: string) => {
    try {
      await navigator.clipboard.writeText(text);
      notify(`${what} copied to the clipboard.`);
    } catch {
      // No clipboard access (an insecure origin, or the browser refused it).
      notify(
        `The ${what.toLowerCase()} could not be copied. Select and copy them yourself.`,
        'error',
      );
    }
  };
}

/**
 * "Two-step verification" on the account page (beyond the spec; ASVS V2.8): after the
 * password, a login also asks for a code from an authenticator app. Not offered to
 * accounts that log in through their institution, whose provider has its own.
 */
export function TwoFactorSection({ user }: { user: UserDetails }) {
  const queryClient = useQueryClient();
  const [dialog, setDialog] = useState<'on' | 'off' | null>(null);
  const status = useQuery({
    queryKey: twoFactorKey,
    queryFn: ({ signal }) => fetchTwoFactor(signal),
    enabled: user.has_two_factor,
  });
  const changed = () => {
    void queryClient.invalidateQueries({ queryKey: currentUserKey });
    void queryClient.invalidateQueries({ queryKey: twoFactorKey });
    // Turning two-step verification off removes the security keys too.
    void queryClient.invalidateQueries({ queryKey: securityKeysKey });
  };

  if (user.is_aaf) {
    return (
      <Typography sx={{ maxWidth: 720 }}>
        You log in through your institution, which decides whether a second step is needed.
      </Typography>
    );
  }
  const left = status.data?.recoveryCodesLeft;
  return (
    <Stack spacing={2} sx={{ maxWidth: 720, alignItems: 'flex-start' }}>
      {user.has_two_factor ? (
        <Typography>
          Two-step verification is <strong>on</strong>: logging in with your password also asks for
          a code from your authenticator app.
          {left !== undefined &&
            ` You have ${left} unused recovery ${left === 1 ? 'code' : 'codes'}.`}
        </Typography>
      ) : (
        <Typography>
          Two-step verification is <strong>off</strong>. Turn it on to make logging in with your
          password also ask for a code from an authenticator app on your phone, so a stolen password
          alone does not open your account.
        </Typography>
      )}
      {user.has_two_factor ? (
        <Button variant="outlined" color="error" onClick={() => setDialog('off')}>
          Turn off
        </Button>
      ) : (
        <Button variant="contained" onClick={() => setDialog('on')}>
          Turn on
        </Button>
      )}
      <SecurityKeysSection twoFactorOn={user.has_two_factor} />
      <Dialog
        open={dialog === 'on'}
        fullWidth
        maxWidth="sm"
        aria-labelledby="two-factor-on-title"
        // No onClose: only its buttons close it, so the recovery codes do not vanish with
        // a stray click outside or Escape.
      >
        {dialog === 'on' && (
          <TurnOn
            onChanged={changed}
            onClose={() => setDialog(null)}
            titleId="two-factor-on-title"
          />
        )}
      </Dialog>
      <Dialog
        open={dialog === 'off'}
        onClose={() => setDialog(null)}
        fullWidth
        maxWidth="sm"
        aria-labelledby="two-factor-off-title"
      >
        {dialog === 'off' && (
          <TurnOff
            titleId="two-factor-off-title"
            onClose={() => setDialog(null)}
            onChanged={changed}
          />
        )}
      </Dialog>
    </Stack>
  );
}

interface StepProps {
  titleId: string;
  onClose: () => void;
  onChanged: () => void;
}

/** Turning on: the password, then the key and a code from the app, then the recovery codes. */
function TurnOn({ titleId, onClose, onChanged }: StepProps) {
  const [setup, setSetup] = useState<TwoFactorSetupResponse | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const copy = useCopy();
  const password = useServerForm({
    schema: (c) => c.twoFactorSetupRequest,
    initialValues: { password: '' },
    labels: { password: 'Your password' },
    submit: startTwoFactorSetup,
    onSuccess: setSetup,
  });
  const confirm = useServerForm({
    schema: (c) => c.twoFactorConfirmRequest,
    initialValues: { code: '' },
    labels: { code: 'Code from the app' },
    submit: confirmTwoFactor,
    onSuccess: ({ recoveryCodes }) => {
      setCodes(recoveryCodes);
      onChanged();
    },
  });

  if (codes) {
    return (
      <>
        <DialogTitle id={titleId}>Save your recovery codes</DialogTitle>
        <DialogContent>
          <Alert severity="success" sx={{ mb: 2 }}>
            Two-step verification is on.
          </Alert>
          <Typography sx={{ mb: 2 }}>
            If you lose your phone, each of these codes logs you in once in place of a code from the
            app. Keep them somewhere safe, such as your password manager. They are shown only now.
          </Typography>
          <Box
            component="ul"
            aria-label="Recovery codes"
            sx={{
              fontFamily: 'monospace',
              fontSize: '1.1rem',
              columns: 2,
              listStyle: 'none',
              p: 2,
              m: 0,
              bgcolor: 'action.hover',
              borderRadius: 1,
            }}
          >
            {codes.map((code) => (
              <li key={code}>{code}</li>
            ))}
          </Box>
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button
            startIcon={<ContentCopyIcon />}
            onClick={() => void copy(codes.join('\n'), 'Recovery codes')}
          >
            Copy
          </Button>
          <Button variant="contained" onClick={onClose}>
            I have saved them
          </Button>
        </DialogActions>
      </>
    );
  }

  if (setup) {
    return (
      <Box component="form" noValidate onSubmit={confirm.onSubmit}>
        <DialogTitle id={titleId}>Turn on two-step verification</DialogTitle>
        <DialogContent>
          <ErrorList messages={confirm.errors} />
          <Typography sx={{ mb: 2 }}>
            Scan this QR code with an authenticator app (such as Google Authenticator, Microsoft
            Authenticator, 1Password or FreeOTP), or type the key into it. Then enter the 6-digit
            code the app shows.
          </Typography>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={3} sx={{ alignItems: 'center' }}>
            <Box
              component="img"
              src={qrCodeDataUrl(setup.otpauthUri)}
              alt="QR code of your two-step verification key for an authenticator app"
              sx={{ width: 200, height: 200, imageRendering: 'pixelated' }}
            />
            <Stack spacing={1}>
              <Typography variant="body2" id="two-factor-key-label">
                Key
              </Typography>
              <Box
                aria-labelledby="two-factor-key-label"
                data-testid="two-factor-secret"
                sx={{ fontFamily: 'monospace', fontSize: '1.05rem', wordBreak: 'break-all' }}
              >
                {grouped(setup.secret)}
              </Box>
              <Box>
                <Button
                  size="small"
                  startIcon={<ContentCopyIcon />}
                  onClick={() => void copy(setup.secret, 'Key')}
                >
                  Copy key
                </Button>
              </Box>
            </Stack>
          </Stack>
          <Box sx={{ mt: 3 }}>
            <TextInput
              {...confirm.field('code')}
              autoComplete="one-time-code"
              inputMode="numeric"
              required
              maxLength={30}
            />
          </Box>
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="contained" loading={confirm.isPending}>
            Turn on
          </Button>
        </DialogActions>
      </Box>
    );
  }

  return (
    <Box component="form" noValidate onSubmit={password.onSubmit}>
      <DialogTitle id={titleId}>Turn on two-step verification</DialogTitle>
      <DialogContent>
        <ErrorList messages={password.errors} />
        <Typography sx={{ mb: 2 }}>Enter your password to continue.</Typography>
        <PasswordInput
          {...password.field('password')}
          autoComplete="current-password"
          required
          maxLength={1000}
        />
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onClose}>Cancel</Button>
        <Button type="submit" variant="contained" loading={password.isPending}>
          Continue
        </Button>
      </DialogActions>
    </Box>
  );
}

/** Turning off: the password and a code (or a recovery code), after a warning. */
function TurnOff({ titleId, onClose, onChanged }: StepProps) {
  const notify = useNotify();
  const hintId = useId();
  const form = useServerForm({
    schema: (c) => c.twoFactorDisableRequest,
    initialValues: { password: '', code: '' },
    labels: { password: 'Your password', code: 'Code from the app, or a recovery code' },
    submit: disableTwoFactor,
    onSuccess: () => {
      onClose();
      onChanged();
      notify('Two-step verification is off.');
    },
  });
  return (
    <Box component="form" noValidate onSubmit={form.onSubmit}>
      <DialogTitle id={titleId}>Turn off two-step verification?</DialogTitle>
      <DialogContent>
        <ErrorList messages={form.errors} />
        <Typography id={hintId} sx={{ mb: 2 }}>
          Your password alone will log in to your account again, and your recovery codes stop
          working. Enter your password and a code from your app to confirm.
        </Typography>
        <Stack spacing={2}>
          <PasswordInput
            {...form.field('password')}
            autoComplete="current-password"
            required
            maxLength={1000}
          />
          <TextInput {...form.field('code')} autoComplete="one-time-code" required maxLength={30} />
        </Stack>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onClose}>Cancel</Button>
        <Button type="submit" variant="contained" color="error" loading={form.isPending}>
          Turn off
        </Button>
      </DialogActions>
    </Box>
  );
}
