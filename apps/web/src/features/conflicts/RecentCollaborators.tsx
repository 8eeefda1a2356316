import type { RecentCollaborator } from '@merit/contract';
import { conflictScreenMessages } from '@merit/domain';
import AddIcon from '@mui/icons-material/Add';
import { Box, Button, Paper, Stack, Typography } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { errorMessages, isApiError } from '../../api/client';
import { ErrorList } from '../../components/ErrorList';
import { TextInput } from '../../components/form/TextInput';
import { LoadFailedView } from '../../components/LoadFailedView';
import { LoadingView } from '../../components/LoadingView';
import { useNotify } from '../../components/notifications/notification-context';
import { conflictKeys, saveRecentCollaborators, useRecentCollaborators } from './conflicts.api';

/** One row on screen; `key` tells rows apart while names are typed. */
interface Row {
  key: number;
  name: string;
  email: string;
}

let nextKey = 0;
const rowsOf = (list: readonly RecentCollaborator[]): Row[] =>
  list.map((person) => ({ key: ++nextKey, name: person.name, email: person.email }));

/**
 * My Account's Recent collaborators (issue 26): the people the user has worked with
 * lately, by name and email, which Merit's detection reads to suggest conflicts of
 * interest. Rows are added and removed here and saved together.
 */
export function RecentCollaborators() {
  const list = useRecentCollaborators();
  if (list.isPending) return <LoadingView label="Loading your recent collaborators…" />;
  if (list.isError)
    return <LoadFailedView error={list.error} onRetry={() => void list.refetch()} />;
  return <CollaboratorsForm saved={list.data.collaborators} />;
}

function CollaboratorsForm({ saved }: { saved: readonly RecentCollaborator[] }) {
  const queryClient = useQueryClient();
  const notify = useNotify();
  const [rows, setRows] = useState<Row[]>(() => rowsOf(saved));
  const [attempted, setAttempted] = useState(false);

  const save = useMutation({
    mutationFn: (list: RecentCollaborator[]) => saveRecentCollaborators(list),
    onSuccess: (answer) => {
      queryClient.setQueryData(conflictKeys.recentCollaborators, answer);
      setRows(rowsOf(answer.collaborators));
      setAttempted(false);
      notify(conflictScreenMessages.collaboratorsSaved);
    },
  });

  const change = (key: number, patch: Partial<Row>) => {
    save.reset();
    setRows((current) => current.map((row) => (row.key === key ? { ...row, ...patch } : row)));
  };
  // A row left wholly empty is no one: it is not sent.
  const filled = rows.filter((row) => row.name.trim() || row.email.trim());
  const missing = (row: Row, field: 'name' | 'email') =>
    attempted && (row.name.trim() || row.email.trim()) && !row[field].trim();
  const serverFields = isApiError(save.error) ? (save.error.body.fields ?? {}) : {};
  const labels = Object.fromEntries(
    filled.flatMap((row, index) => [
      [`collaborators.${index}.name`, `Collaborator ${index + 1}, name`],
      [`collaborators.${index}.email`, `Collaborator ${index + 1}, email`],
    ]),
  );

  return (
    <Box
      component="form"
      noValidate
      aria-label="Recent collaborators"
      sx={{ maxWidth: 720 }}
      onSubmit={(event) => {
        event.preventDefault();
        setAttempted(true);
        if (filled.some((row) => !row.name.trim() || !row.email.trim())) return;
        save.mutate(filled.map((row) => ({ name: row.name.trim(), email: row.email.trim() })));
      }}
    >
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {conflictScreenMessages.collaboratorsHelp}
      </Typography>
      <ErrorList messages={save.isError ? errorMessages(save.error, labels) : []} />
      {rows.length === 0 ? (
        <Paper variant="outlined" sx={{ p: 2, mb: 2 }}>
          <Typography color="text.secondary">
            {conflictScreenMessages.collaboratorsEmpty}
          </Typography>
        </Paper>
      ) : (
        <Stack component="ul" spacing={2} sx={{ listStyle: 'none', m: 0, p: 0, mb: 2 }}>
          {rows.map((row, index) => {
            const position = filled.indexOf(row);
            const fieldErrors = (field: 'name' | 'email') =>
              position === -1 ? undefined : serverFields[`collaborators.${position}.${field}`];
            const nameError = missing(row, 'name') ? ['Enter the name.'] : fieldErrors('name');
            const emailError = missing(row, 'email')
              ? ['Enter the email address.']
              : fieldErrors('email');
            return (
              <Stack
                key={row.key}
                component="li"
                direction={{ xs: 'column', sm: 'row' }}
                spacing={2}
                sx={{ alignItems: { sm: 'start' } }}
                aria-label={`Collaborator ${index + 1}`}
              >
                <TextInput
                  name={`name-${row.key}`}
                  label="Name"
                  value={row.name}
                  maxLength={100}
                  onChange={(event) => change(row.key, { name: event.target.value })}
                  error={nameError !== undefined}
                  helperText={nameError?.join(' ')}
                />
                <TextInput
                  name={`email-${row.key}`}
                  label="Email"
                  type="email"
                  value={row.email}
                  maxLength={254}
                  onChange={(event) => change(row.key, { email: event.target.value })}
                  error={emailError !== undefined}
                  helperText={emailError?.join(' ')}
                />
                <Button
                  color="error"
                  sx={{ mt: { sm: 1 }, flexShrink: 0 }}
                  aria-label={`Remove ${row.name.trim() || `collaborator ${index + 1}`}`}
                  onClick={() => {
                    save.reset();
                    setRows((current) => current.filter((other) => other.key !== row.key));
                  }}
                >
                  Remove
                </Button>
              </Stack>
            );
          })}
        </Stack>
      )}
      <Stack direction="row" spacing={2}>
        <Button
          startIcon={<AddIcon />}
          onClick={() =>
            setRows((current) => [...current, { key: ++nextKey, name: '', email: '' }])
          }
        >
          Add Collaborator
        </Button>
        <Button type="submit" variant="contained" loading={save.isPending}>
          Save Collaborators
        </Button>
      </Stack>
    </Box>
  );
}
