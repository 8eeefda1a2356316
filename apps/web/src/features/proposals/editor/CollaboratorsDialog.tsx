import type { Collaborator, ProposalDetail } from '@merit/contract';
import { addErrors, checkText, MAX_LENGTHS, type FieldErrors } from '@merit/domain';
import {
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  List,
  ListItem,
  ListItemText,
  Stack,
  Typography,
} from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId } from 'react';
import { errorMessages } from '../../../api/client';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { ErrorList } from '../../../components/ErrorList';
import { TextInput } from '../../../components/form/TextInput';
import { useServerForm } from '../../../components/form/use-server-form';
import { useNotify } from '../../../components/notifications/notification-context';
import { useConfirm } from '../../../components/use-confirm';
import { addCollaborator, refreshProposals, removeCollaborator } from '../proposals.api';

const LABELS = { hash: 'Collaborator hash' };

interface CollaboratorsDialogProps {
  proposal: ProposalDetail;
  open: boolean;
  onClose: () => void;
}

/**
 * Manage Collaborators (spec section 2): the people who may edit the draft with its
 * author, each with Remove, and a form to add one by the hash on their My Account page.
 * A refusal shows as the red list above the form (spec section 8).
 */
export function CollaboratorsDialog({ proposal, open, onClose }: CollaboratorsDialogProps) {
  const titleId = useId();
  const queryClient = useQueryClient();
  const notify = useNotify();
  const confirm = useConfirm<Collaborator>();
  const removal = useMutation({
    mutationFn: (person: Collaborator) => removeCollaborator(proposal.id, person.id),
    onSuccess: (_result, person) =>
      notify(`${person.name} is no longer a collaborator on this proposal.`),
    onSettled: async () => {
      await refreshProposals(queryClient);
      confirm.close();
    },
  });

  const form = useServerForm({
    initialValues: { hash: '' },
    labels: LABELS,
    validate: ({ hash }) => {
      const errors: FieldErrors = {};
      addErrors(
        errors,
        'hash',
        checkText(hash, { required: true, max: MAX_LENGTHS.collaboratorHash }),
      );
      return errors;
    },
    submit: ({ hash }) => addCollaborator(proposal.id, hash.trim()),
    onSuccess: (person) => {
      notify(`${person.name} is now a collaborator on this proposal.`);
      void refreshProposals(queryClient);
    },
    resetOnSuccess: true,
  });

  return (
    <Dialog open={open} onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="sm">
      <DialogTitle id={titleId}>Manage Collaborators</DialogTitle>
      <DialogContent>
        <Typography color="text.secondary" sx={{ mb: 2 }}>
          Collaborators can see this proposal and change it while it is a draft.
        </Typography>
        <ErrorList messages={removal.isError ? errorMessages(removal.error) : []} />
        {proposal.collaborators.length === 0 ? (
          <Typography sx={{ py: 1 }}>This proposal has no collaborators yet.</Typography>
        ) : (
          <List dense aria-label="Collaborators" disablePadding>
            {proposal.collaborators.map((person) => (
              <ListItem
                key={person.id}
                divider
                secondaryAction={
                  <Button
                    size="small"
                    color="error"
                    aria-label={`Remove ${person.name}`}
                    onClick={() => {
                      removal.reset();
                      confirm.ask(person);
                    }}
                  >
                    Remove
                  </Button>
                }
              >
                <ListItemText primary={person.name} secondary={person.email} />
              </ListItem>
            ))}
          </List>
        )}
        <Typography variant="h6" component="h3" sx={{ mt: 3, mb: 1 }}>
          Add a collaborator
        </Typography>
        <Box component="form" noValidate onSubmit={form.onSubmit}>
          <ErrorList messages={form.errors} />
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: 'start' }}>
            <TextInput
              {...form.field('hash')}
              required
              autoComplete="off"
              maxLength={MAX_LENGTHS.collaboratorHash}
              helperText={
                form.field('hash').helperText ??
                'The 10-character hash shown on their My Account page.'
              }
            />
            <Button type="submit" variant="contained" loading={form.isPending} sx={{ mt: 1 }}>
              Add
            </Button>
          </Stack>
        </Box>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
      <ConfirmDialog
        open={confirm.open}
        title="Remove this collaborator?"
        confirmLabel="Remove"
        onConfirm={() => confirm.subject && removal.mutate(confirm.subject)}
        onCancel={confirm.close}
        pending={removal.isPending}
      >
        {confirm.subject
          ? `${confirm.subject.name} will no longer be able to see or change this proposal.`
          : ''}
      </ConfirmDialog>
    </Dialog>
  );
}
