import type { ProposalDetail } from '@merit/contract';
import { MAX_LENGTHS } from '@merit/domain';
import { Box, Button, Stack } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { ErrorList } from '../../../components/ErrorList';
import { TextInput } from '../../../components/form/TextInput';
import { useServerForm } from '../../../components/form/use-server-form';
import { useNotify } from '../../../components/notifications/notification-context';
import { proposalNameErrors } from '../proposal-fields';
import { proposalKeys, refreshProposals, saveProposalName } from '../proposals.api';

const LABELS = { name: 'Proposal Name' };

/** The proposal's name with Update (spec section 2, Proposal editor). */
export function ProposalNameForm({ proposal }: { proposal: ProposalDetail }) {
  const queryClient = useQueryClient();
  const notify = useNotify();
  const form = useServerForm({
    initialValues: { name: proposal.proposalName },
    labels: LABELS,
    validate: proposalNameErrors,
    submit: ({ name }) =>
      saveProposalName({
        callId: proposal.callId,
        isNew: false,
        proposalId: proposal.id,
        name: name.trim(),
        type: proposal.proposalTypeId,
      }),
    onSuccess: (renamed) => {
      queryClient.setQueryData(proposalKeys.detail(proposal.id), renamed);
      void refreshProposals(queryClient);
      notify('The proposal name has been updated.');
    },
  });
  const unchanged = form.values.name.trim() === proposal.proposalName;

  return (
    <Box component="form" noValidate onSubmit={form.onSubmit} sx={{ mb: 3, maxWidth: 720 }}>
      <ErrorList messages={form.errors} />
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: 'start' }}>
        <TextInput {...form.field('name')} required maxLength={MAX_LENGTHS.proposalName} />
        <Button
          type="submit"
          variant="outlined"
          loading={form.isPending}
          disabled={unchanged}
          sx={{ mt: 1 }}
        >
          Update
        </Button>
      </Stack>
    </Box>
  );
}
