import type { AccountDeletionRequest, UserDetails } from '@merit/contract';
import { accountDeletionMessages, deletionConfirmationOf } from '@merit/domain';
import DeleteForeverIcon from '@mui/icons-material/DeleteForever';
import {
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Stack,
  Typography,
} from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useNavigate } from 'react-router';
import { apiRequest } from '../../api/client';
import { endSession } from '../../api/session';
import { ErrorList } from '../../components/ErrorList';
import { PasswordInput } from '../../components/form/PasswordInput';
import { TextInput } from '../../components/form/TextInput';
import { useServerForm } from '../../components/form/use-server-form';
import { useNotify } from '../../components/notifications/notification-context';
import { clearUserDrafts } from '../drafts/local-drafts';

function deleteMyAccount(body: AccountDeletionRequest) {
  return apiRequest('/auth/account/delete/', {
    method: 'POST',
    body,
    schema: (c) => c.detailResponse,
  });
}

/**
 * "Delete my account" at the bottom of the account page (beyond the spec; ASVS V8.3.2):
 * a dialog that says what goes and what stays (the rules of @merit/domain
 * account-deletion.ts) and asks for the password, or the username for an account that
 * logs in only through its institution. Once deleted, the session ends here too and the
 * login page says so.
 */
export function DeleteAccount({ user }: { user: UserDetails }) {
  const [open, setOpen] = useState(false);
  const titleId = useId();
  return (
    <Stack spacing={2} sx={{ maxWidth: 720, alignItems: 'flex-start' }}>
      <Typography>
        Deleting your account removes your details and logins for good. Proposals you submitted or
        share with collaborators, and the reviews you wrote, stay with their committees under the
        name “Deleted user”.
      </Typography>
      <Button
        variant="outlined"
        color="error"
        startIcon={<DeleteForeverIcon />}
        onClick={() => setOpen(true)}
      >
        Delete my account
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} aria-labelledby={titleId} maxWidth="sm">
        {open && <ConfirmDeletion user={user} titleId={titleId} onClose={() => setOpen(false)} />}
      </Dialog>
    </Stack>
  );
}

function ConfirmDeletion({
  user,
  titleId,
  onClose,
}: {
  user: UserDetails;
  titleId: string;
  onClose: () => void;
}) {
  const navigate = useNavigate();
  const notify = useNotify();
  const queryClient = useQueryClient();
  // The server decides by whether the account has a password; `is_aaf` is how the page
  // knows an account that logs in only through its institution, as two-step verification does.
  const confirmation = deletionConfirmationOf({ isAaf: user.is_aaf, hasPassword: !user.is_aaf });
  const field = confirmation === 'password' ? 'password' : 'username';
  const form = useServerForm({
    // Both fields, one shown: the server reads the one its rule asks for.
    initialValues: { password: '', username: '' },
    labels: { password: 'Your password', username: 'Your username' },
    validate: (values) =>
      values[field].trim() ? {} : { [field]: [accountDeletionMessages.required] },
    // Only the field the rule asks for: the request holds no password it does not need.
    submit: (values) => deleteMyAccount({ [field]: values[field] }),
    onSuccess: () => {
      onClose();
      void clearUserDrafts(user.id);
      endSession('logout');
      queryClient.clear();
      void navigate('/auth/login', { replace: true });
      notify('Your account has been deleted.');
    },
  });

  return (
    <Box component="form" noValidate onSubmit={form.onSubmit}>
      <DialogTitle id={titleId}>Delete your account?</DialogTitle>
      <DialogContent>
        <ErrorList messages={form.errors} />
        <Typography sx={{ mb: 1 }}>This cannot be undone. Once you confirm:</Typography>
        <Box component="ul" sx={{ mt: 0, pl: 3, '& li': { mb: 0.5 } }}>
          <li>
            You are logged out everywhere and cannot log in to this account again, with a password
            or through your institution.
          </li>
          <li>
            Your details, committee roles, two-step verification and the reviews assigned to you
            that you have not written are removed.
          </li>
          <li>
            Drafts only you work on (no collaborators, no reviews) are deleted with their answers
            and files.
          </li>
          <li>
            Proposals you submitted, drafts you share with collaborators, and the reviews and scores
            you wrote stay with their committees, shown as written by “Deleted user”.
          </li>
          <li>
            We send a last email to {user.email}. Your email address and username are free to
            register again.
          </li>
        </Box>
        <Typography sx={{ mb: 2 }}>
          {confirmation === 'password'
            ? 'Enter your password to confirm.'
            : `Your account has no Merit password: type your username, ${user.username}, to confirm.`}
        </Typography>
        {confirmation === 'password' ? (
          <PasswordInput
            {...form.field('password')}
            autoComplete="current-password"
            required
            maxLength={1000}
          />
        ) : (
          <TextInput {...form.field('username')} autoComplete="off" required maxLength={150} />
        )}
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onClose}>Cancel</Button>
        <Button type="submit" variant="contained" color="error" loading={form.isPending}>
          Delete my account
        </Button>
      </DialogActions>
    </Box>
  );
}
