import type { UserDetails, UserDetailsUpdate } from '@merit/contract';
import { checkEmail, MAX_LENGTHS, validateProfile, type FieldErrors } from '@merit/domain';
import {
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Stack,
} from '@mui/material';
import { useId } from 'react';
import { ErrorList } from '../../components/ErrorList';
import { TextInput } from '../../components/form/TextInput';
import { useServerForm } from '../../components/form/use-server-form';
import { updateUserDetails } from './account.api';
import { PROFILE_LABELS } from './profile-fields';
import { ProfileFields } from './ProfileFields';

type AccountValues = ReturnType<typeof valuesOf>;

function valuesOf(user: UserDetails) {
  return {
    first_name: user.first_name,
    last_name: user.last_name,
    institution: user.institution,
    gender_choice: user.gender ?? '',
    phone_number: user.phone_number,
    is_student: user.is_student,
    email: user.email,
  };
}

/** The fields the user changed, and nothing else: the PATCH body. */
export function changedFields(before: AccountValues, after: AccountValues): UserDetailsUpdate {
  const changes: UserDetailsUpdate = {};
  for (const key of Object.keys(after) as (keyof AccountValues)[]) {
    const value = after[key];
    if (typeof value === 'string') {
      if (value.trim() !== String(before[key]).trim()) Object.assign(changes, { [key]: value });
    } else if (value !== before[key]) {
      Object.assign(changes, { [key]: value });
    }
  }
  return changes;
}

/**
 * The server checks only the fields an edit sends (an old account may lack a field that
 * is required now), so the dialog does the same.
 */
function validateChanges(before: AccountValues, after: AccountValues): FieldErrors {
  const changes = changedFields(before, after);
  const problems = validateProfile({ ...after, gender: after.gender_choice }, {}, 'gender_choice');
  if ('email' in changes) {
    const emailProblems = checkEmail(after.email);
    if (emailProblems.length > 0) problems.email = emailProblems;
  }
  return Object.fromEntries(Object.entries(problems).filter(([field]) => field in changes));
}

interface EditAccountDialogProps {
  user: UserDetails;
  open: boolean;
  onClose: () => void;
  /** The details after a save: the dialog has closed by then. */
  onSaved: (details: UserDetails, changes: UserDetailsUpdate) => void;
}

/** Spec section 4, Account: editing a field closes the dialog and reloads the details. */
export function EditAccountDialog({ user, open, onClose, onSaved }: EditAccountDialogProps) {
  const titleId = useId();
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="sm">
      <DialogTitle id={titleId}>Edit your details</DialogTitle>
      {/* Mounted afresh on every opening, so it starts from the latest details. */}
      <EditAccountForm user={user} onClose={onClose} onSaved={onSaved} />
    </Dialog>
  );
}

function EditAccountForm({ user, onClose, onSaved }: Omit<EditAccountDialogProps, 'open'>) {
  const initial = valuesOf(user);
  const form = useServerForm({
    initialValues: initial,
    labels: PROFILE_LABELS,
    validate: (values) => validateChanges(initial, values),
    submit: async (values) => {
      const changes = changedFields(initial, values);
      // Nothing changed: nothing to send.
      if (Object.keys(changes).length === 0) return null;
      return { details: await updateUserDetails(changes), changes };
    },
    onSuccess: (saved) => {
      onClose();
      if (saved) onSaved(saved.details, saved.changes);
    },
  });

  return (
    <Box component="form" noValidate onSubmit={form.onSubmit}>
      <DialogContent sx={{ pt: 0 }}>
        <ErrorList messages={form.errors} />
        <Stack spacing={2} sx={{ pt: 1 }}>
          {user.is_aaf ? (
            <TextInput
              name="email"
              label="Email"
              value={user.email}
              readOnly
              helperText="Your account logs in through your institution, which provides this address. It cannot be changed here."
            />
          ) : (
            <TextInput
              {...form.field('email')}
              helperText={
                form.field('email').helperText ??
                'A new address takes effect once you follow the confirmation link we email to it.'
              }
              type="email"
              autoComplete="email"
              required
              maxLength={MAX_LENGTHS.email}
            />
          )}
          <ProfileFields form={form} gender="gender_choice" names />
        </Stack>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onClose}>Cancel</Button>
        <Button type="submit" variant="contained" loading={form.isPending}>
          Save
        </Button>
      </DialogActions>
    </Box>
  );
}
