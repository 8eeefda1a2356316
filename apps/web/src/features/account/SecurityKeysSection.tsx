import type { SecurityKey } from '@merit/contract';
import {
  MAX_SECURITY_KEYS,
  SECURITY_KEY_NAME_MAX,
  securityKeyMessages,
  type FieldErrors,
} from '@merit/domain';
import AddIcon from '@mui/icons-material/Add';
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
import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { errorMessages } from '../../api/client';
import { ErrorList } from '../../components/ErrorList';
import { PasswordInput } from '../../components/form/PasswordInput';
import { TextInput } from '../../components/form/TextInput';
import { useServerForm } from '../../components/form/use-server-form';
import { useNotify } from '../../components/notifications/notification-context';
import { DataTable, type Column } from '../../components/table/DataTable';
import { useDeleteRow } from '../../components/table/use-delete-row';
import { useTableState } from '../../components/table/use-table-state';
import { askKeyToRegister } from '../auth/security-key-ceremony';
import { securityKeysSupported } from '../auth/security-key-support';
import { formatCallDate } from '../calls/call-dates';
import {
  addSecurityKey,
  fetchSecurityKeys,
  removeSecurityKey,
  securityKeyOptions,
  securityKeysKey,
} from './security-keys.api';
import { twoFactorKey } from './two-factor.api';

const COLUMNS: readonly Column<SecurityKey>[] = [
  { key: 'name', header: 'Name', cell: (key) => key.name, sort: (key) => key.name },
  {
    key: 'added',
    header: 'Added',
    cell: (key) => formatCallDate(key.createdAt),
    sort: (key) => new Date(key.createdAt),
  },
  {
    key: 'used',
    header: 'Last used',
    cell: (key) => (key.lastUsedAt ? formatCallDate(key.lastUsedAt) : 'Never'),
    sort: (key) => (key.lastUsedAt ? new Date(key.lastUsedAt) : null),
  },
];

/** What a key changes: its list, and the status that counts the keys. */
const refresh = (client: QueryClient) =>
  Promise.all([
    client.invalidateQueries({ queryKey: securityKeysKey }),
    client.invalidateQueries({ queryKey: twoFactorKey }),
  ]);

/**
 * "Security keys" in the two-step verification section (ASVS V2.3.2): FIDO keys that take
 * the place of the app's code at a login. Only while two-step verification is on, whose
 * recovery codes are the way back in when a key is lost.
 */
export function SecurityKeysSection({ twoFactorOn }: { twoFactorOn: boolean }) {
  const headingId = useId();
  return (
    <Box component="section" aria-labelledby={headingId} sx={{ width: '100%' }}>
      <Typography variant="subtitle1" component="h3" id={headingId} sx={{ fontWeight: 500 }}>
        Security keys
      </Typography>
      <Typography sx={{ mb: 2 }}>
        A security key (a small USB or NFC device, such as a YubiKey) can take the place of the code
        from your app when you log in: you touch the key instead of typing a code.
      </Typography>
      {twoFactorOn ? (
        <KeyList labelledBy={headingId} />
      ) : (
        <Typography>{securityKeyMessages.needsTwoFactor}</Typography>
      )}
    </Box>
  );
}

function KeyList({ labelledBy }: { labelledBy: string }) {
  const [adding, setAdding] = useState(false);
  const keys = useQuery({
    queryKey: securityKeysKey,
    queryFn: ({ signal }) => fetchSecurityKeys(signal),
  });
  const removal = useDeleteRow<SecurityKey>({
    remove: (key) => removeSecurityKey(key.id),
    name: (key) => `the security key ${key.name}`,
    verb: 'Remove',
    title: 'Remove this security key?',
    message: (key) =>
      `“${key.name}” will no longer log you in. You can add it again later with your password.`,
    done: (key) => `The security key “${key.name}” has been removed.`,
    refresh,
  });
  const columns = [...COLUMNS, removal.column];
  const table = useTableState(columns, {
    defaultSort: { key: 'added', direction: 'asc' },
    prefix: 'keys',
  });

  if (keys.isPending) return <Typography>Loading your security keys…</Typography>;
  if (keys.isError) return <ErrorList messages={errorMessages(keys.error)} />;
  const rows = keys.data;

  return (
    <Stack spacing={2} sx={{ alignItems: 'flex-start' }}>
      <ErrorList messages={removal.errors} />
      {rows.length === 0 ? (
        <Typography>You have not added a security key.</Typography>
      ) : (
        <Box sx={{ width: '100%' }}>
          <DataTable
            labelledBy={labelledBy}
            columns={columns}
            state={table}
            rows={rows}
            rowKey={(key) => key.id}
          />
        </Box>
      )}
      {!securityKeysSupported() ? (
        <Typography>{securityKeyMessages.unsupported}</Typography>
      ) : rows.length >= MAX_SECURITY_KEYS ? (
        <Typography>{securityKeyMessages.tooMany}</Typography>
      ) : (
        <Button variant="outlined" startIcon={<AddIcon />} onClick={() => setAdding(true)}>
          Add a security key
        </Button>
      )}
      {removal.dialog}
      <AddKeyDialog open={adding} onClose={() => setAdding(false)} />
    </Stack>
  );
}

function AddKeyDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const titleId = useId();
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm" aria-labelledby={titleId}>
      {/* Mounted while open only, so each opening starts with empty fields. */}
      {open && <AddKeyForm titleId={titleId} onClose={onClose} />}
    </Dialog>
  );
}

/**
 * The name and the password; then the server's challenge goes to the key through the
 * browser (which shows its own prompt), and the key's answer back to the server.
 */
function AddKeyForm({ titleId, onClose }: { titleId: string; onClose: () => void }) {
  const queryClient = useQueryClient();
  const notify = useNotify();
  const form = useServerForm({
    schema: (c) => c.securityKeyOptionsRequest.extend({ name: c.securityKeyAddRequest.shape.name }),
    initialValues: { name: '', password: '' },
    labels: { name: 'Name of the key', password: 'Your password' },
    validate: ({ name }): FieldErrors =>
      name.trim() ? {} : { name: [securityKeyMessages.nameRequired] },
    submit: async ({ name, password }) => {
      const credential = await askKeyToRegister(await securityKeyOptions({ password }));
      return addSecurityKey({ name, credential });
    },
    onSuccess: (key) => {
      onClose();
      notify(`The security key “${key.name}” has been added.`);
      void refresh(queryClient);
    },
  });
  return (
    <Box component="form" noValidate onSubmit={form.onSubmit}>
      <DialogTitle id={titleId}>Add a security key</DialogTitle>
      <DialogContent>
        <ErrorList messages={form.errors} />
        <Typography sx={{ mb: 2 }}>
          Name the key, enter your password, then choose Add and touch the key when your browser
          asks for it.
        </Typography>
        <Stack spacing={2}>
          <TextInput
            {...form.field('name')}
            autoComplete="off"
            required
            maxLength={SECURITY_KEY_NAME_MAX}
          />
          <PasswordInput
            {...form.field('password')}
            autoComplete="current-password"
            required
            maxLength={1000}
          />
        </Stack>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onClose} disabled={form.isPending}>
          Cancel
        </Button>
        <Button type="submit" variant="contained" loading={form.isPending}>
          Add
        </Button>
      </DialogActions>
    </Box>
  );
}
