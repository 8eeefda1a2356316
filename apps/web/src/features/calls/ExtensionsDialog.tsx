import type { CallDetail, Extension, UserLookupEntry } from '@merit/contract';
import {
  extensionErrors,
  MAX_LENGTHS,
  USER_LOOKUP_MIN_LENGTH,
  userLookupMessages,
  type FieldErrors,
} from '@merit/domain';
import {
  Autocomplete,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { errorMessages } from '../../api/client';
import { EmptyState } from '../../components/EmptyState';
import { ErrorList } from '../../components/ErrorList';
import { DateTimeInput } from '../../components/form/DateTimeInput';
import { TextInput } from '../../components/form/TextInput';
import { useServerForm } from '../../components/form/use-server-form';
import { useNotify } from '../../components/notifications/notification-context';
import { DataTable, type Column } from '../../components/table/DataTable';
import { useDeleteRow } from '../../components/table/use-delete-row';
import { useLocalTableState } from '../../components/table/use-table-state';
import { useDebouncedValue } from '../../components/use-debounced-value';
import { formatCallDate, fromLocalInputValue } from './call-dates';
import { callKeys, createExtension, deleteExtension, useUserLookup } from './calls.api';

const LABELS = {
  user: 'User',
  commencement: 'Extension from',
  termination: 'Extension until',
  reason: 'Reason',
};

type ExtensionValues = Record<keyof typeof LABELS, string>;

const EMPTY: ExtensionValues = { user: '', commencement: '', termination: '', reason: '' };

/**
 * The server's rules for an extension (the domain's `extensionErrors`), checked as the
 * chair types: a user, both dates in order, a short reason, and no overlap with another
 * extension the same person has on this call.
 */
function formErrors(values: ExtensionValues, existing: readonly Extension[]): FieldErrors {
  const user = values.user ? Number(values.user) : null;
  return extensionErrors(
    {
      user,
      commencement: fromLocalInputValue(values.commencement),
      termination: fromLocalInputValue(values.termination),
      reason: values.reason,
    },
    existing
      .filter((extension) => extension.userId === user)
      .map((extension) => ({
        commencement: new Date(extension.commencement),
        termination: new Date(extension.termination),
      })),
  );
}

const SEARCH_DELAY_MS = 300;

/** One answer of GET /users/lookup/. */
type FoundUser = UserLookupEntry;

interface ExtensionsDialogProps {
  call: CallDetail;
  open: boolean;
  onClose: () => void;
}

/**
 * Manage Extensions (spec section 2, Call detail): the chair's list of per-user
 * submission windows, with Delete, and a form to add one.
 */
export default function ExtensionsDialog({ call, open, onClose }: ExtensionsDialogProps) {
  const titleId = useId();
  const queryClient = useQueryClient();
  const notify = useNotify();

  return (
    <Dialog open={open} onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="md">
      <DialogTitle id={titleId}>Manage Extensions</DialogTitle>
      <DialogContent>
        <Typography color="text.secondary" sx={{ mb: 2 }}>
          An extension lets one user submit proposals to “{call.name}” in their own window, whatever
          the call’s dates.
        </Typography>
        <ExtensionTable callId={call.id} extensions={call.extensions} />
        <Typography variant="h6" component="h3" sx={{ mt: 3, mb: 1 }}>
          Add an extension
        </Typography>
        <ExtensionForm
          callId={call.id}
          existing={call.extensions}
          onAdded={(extension) => {
            notify(`${extension.userName} has an extension now.`);
            void queryClient.invalidateQueries({ queryKey: callKeys.detail(call.id) });
          }}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}

const EXTENSION_COLUMNS: readonly Column<Extension>[] = [
  {
    key: 'user',
    header: 'User',
    cell: (extension) => extension.userName,
    sort: (extension) => extension.userName,
  },
  {
    key: 'commencement',
    header: 'From',
    cell: (extension) => formatCallDate(extension.commencement),
    sort: (extension) => new Date(extension.commencement),
    cellSx: { whiteSpace: 'nowrap' },
  },
  {
    key: 'termination',
    header: 'Until',
    cell: (extension) => formatCallDate(extension.termination),
    sort: (extension) => new Date(extension.termination),
    cellSx: { whiteSpace: 'nowrap' },
  },
  {
    key: 'reason',
    header: 'Reason',
    cell: (extension) => extension.reason || '—',
    sort: (extension) => extension.reason,
    cellSx: { wordBreak: 'break-word' },
  },
];

/**
 * The call's extensions in the shared table, with Delete after a confirmation. Its sort
 * and page live in the dialog, not the address: the address names the call's page, not
 * this dialog.
 */
function ExtensionTable({
  callId,
  extensions,
}: {
  callId: number;
  extensions: readonly Extension[];
}) {
  const deletion = useDeleteRow<Extension>({
    remove: (extension) => deleteExtension(callId, extension.id),
    name: (extension) => `the extension of ${extension.userName}`,
    title: 'Delete this extension?',
    message: (extension) =>
      `${extension.userName} will no longer be able to submit from ` +
      `${formatCallDate(extension.commencement)} until ` +
      `${formatCallDate(extension.termination)}.`,
    done: (extension) => `The extension of ${extension.userName} has been deleted.`,
    refresh: (client) => client.invalidateQueries({ queryKey: callKeys.detail(callId) }),
  });
  const columns = [...EXTENSION_COLUMNS, deletion.column];
  // The order the server sends them in: the earliest window first.
  const table = useLocalTableState(columns, {
    defaultSort: { key: 'commencement', direction: 'asc' },
  });

  return (
    <>
      <ErrorList messages={deletion.errors} />
      {extensions.length === 0 ? (
        <EmptyState>This call has no extensions.</EmptyState>
      ) : (
        <DataTable
          label="Extensions"
          columns={columns}
          state={table}
          rows={extensions}
          rowKey={(extension) => extension.id}
        />
      )}
      {deletion.dialog}
    </>
  );
}

function ExtensionForm({
  callId,
  existing,
  onAdded,
}: {
  callId: number;
  existing: readonly Extension[];
  onAdded: (extension: Extension) => void;
}) {
  const [picked, setPicked] = useState<FoundUser | null>(null);
  const form = useServerForm({
    initialValues: EMPTY,
    labels: LABELS,
    validate: (values: ExtensionValues) => formErrors(values, existing),
    submit: (values: ExtensionValues) =>
      createExtension({
        callId,
        user: Number(values.user),
        commencement: fromLocalInputValue(values.commencement)!.toISOString(),
        termination: fromLocalInputValue(values.termination)!.toISOString(),
        reason: values.reason.trim(),
      }),
    onSuccess: (extension) => {
      setPicked(null);
      onAdded(extension);
    },
    resetOnSuccess: true,
  });

  /** Dates are checked as they are picked: their order is what the user needs to see. */
  const dateField = (name: 'commencement' | 'termination') => {
    const field = form.field(name);
    return {
      ...field,
      onChange: (event: Parameters<typeof field.onChange>[0]) => {
        field.onChange(event);
        field.onBlur();
      },
    };
  };

  return (
    <Box component="form" noValidate onSubmit={form.onSubmit}>
      <ErrorList messages={form.errors} />
      <Stack spacing={2}>
        <UserPicker
          value={picked}
          error={form.field('user').error}
          helperText={form.field('user').helperText}
          onBlur={form.field('user').onBlur}
          onChange={(user) => {
            setPicked(user);
            form.setValue('user', user ? String(user.id) : '');
          }}
        />
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          <DateTimeInput {...dateField('commencement')} required />
          <DateTimeInput {...dateField('termination')} required />
        </Stack>
        <TextInput {...form.field('reason')} maxLength={MAX_LENGTHS.extensionReason} />
        <Box>
          <Button type="submit" variant="contained" loading={form.isPending}>
            Add Extension
          </Button>
        </Box>
      </Stack>
    </Box>
  );
}

/**
 * Finds a user by name or username, or by their whole email address, as the server's
 * lookup for chairs does. It shows an address only for the one that was typed in full.
 */
function UserPicker({
  value,
  onChange,
  onBlur,
  error,
  helperText,
}: {
  value: FoundUser | null;
  onChange: (user: FoundUser | null) => void;
  onBlur: () => void;
  error: boolean;
  helperText: string | undefined;
}) {
  const [input, setInput] = useState('');
  const label = (user: FoundUser) =>
    `${user.name} (${user.username}${user.email ? `, ${user.email}` : ''})`;
  // Once a user is chosen the box shows their label, which is not a search.
  const search = useDebouncedValue(
    value && input === label(value) ? '' : input.trim(),
    SEARCH_DELAY_MS,
  );
  const users = useUserLookup(search);
  const failure = users.isError ? errorMessages(users.error).join(' ') : null;

  return (
    <Autocomplete
      options={search.length >= USER_LOOKUP_MIN_LENGTH ? (users.data ?? []) : []}
      value={value}
      onChange={(_event, user) => onChange(user)}
      inputValue={input}
      onInputChange={(_event, text) => setInput(text)}
      getOptionLabel={label}
      isOptionEqualToValue={(option, chosen) => option.id === chosen.id}
      // The server searched already.
      filterOptions={(options) => options}
      loading={users.isFetching}
      noOptionsText={
        search.length >= USER_LOOKUP_MIN_LENGTH ? 'No user matches.' : userLookupMessages.tooShort
      }
      onBlur={onBlur}
      renderInput={(params) => (
        <TextField
          {...params}
          label="User"
          required
          error={error || Boolean(failure)}
          helperText={
            failure
              ? `Users could not be searched: ${failure}`
              : (helperText ?? 'Search by name or username, or type a whole email address.')
          }
        />
      )}
    />
  );
}
