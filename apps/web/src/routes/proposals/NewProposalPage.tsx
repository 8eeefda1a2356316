import type { CallDetail } from '@merit/contract';
import { MAX_LENGTHS } from '@merit/domain';
import { Box, Button, Paper, Stack, Typography } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { Link as RouterLink, useNavigate } from 'react-router';
import { BackLink } from '../../components/BackLink';
import { ErrorList } from '../../components/ErrorList';
import { SelectInput } from '../../components/form/SelectInput';
import { TextInput } from '../../components/form/TextInput';
import { useServerForm } from '../../components/form/use-server-form';
import { LoadFailedView } from '../../components/LoadFailedView';
import { LoadingView } from '../../components/LoadingView';
import { NotFoundView } from '../../components/NotFoundView';
import { PageHeading } from '../../components/PageHeading';
import { useIdParam } from '../../components/use-id-param';
import { refreshCalls, useCall } from '../../features/calls/calls.api';
import { newProposalErrors } from '../../features/proposals/proposal-fields';
import { proposalKeys, saveProposalName } from '../../features/proposals/proposals.api';

const LABELS = { name: 'Proposal Name', type: 'Proposal Type' };

/** /calls/{callId}/new: the Create Proposal panel (spec section 2, Proposal editor). */
export default function NewProposalPage() {
  const callId = useIdParam('callId');
  if (callId === null) return <NotFoundView />;
  return <NewProposalView callId={callId} />;
}

function NewProposalView({ callId }: { callId: number }) {
  const call = useCall(callId);
  if (call.isPending) return <LoadingView label="Loading the call…" />;
  if (call.isError)
    return <LoadFailedView error={call.error} onRetry={() => void call.refetch()} />;

  return (
    <>
      <BackLink to={`/calls/${callId}/`}>{call.data.name}</BackLink>
      <PageHeading>Create Proposal</PageHeading>
      {call.data.abilities.addProposal ? (
        <CreateProposalForm call={call.data} />
      ) : (
        <Paper variant="outlined" sx={{ p: 3, maxWidth: 640 }}>
          <Typography>
            “{call.data.name}” is not accepting proposals from you now. The call’s page shows when
            submission is open.
          </Typography>
        </Paper>
      )}
    </>
  );
}

function CreateProposalForm({ call }: { call: CallDetail }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const types = call.proposalTypes;
  const form = useServerForm({
    // One type needs no choosing.
    initialValues: { name: '', type: types.length === 1 ? String(types[0]!.typeId) : '' },
    labels: LABELS,
    validate: newProposalErrors,
    submit: ({ name, type }) =>
      saveProposalName({
        callId: call.id,
        isNew: true,
        proposalId: null,
        name: name.trim(),
        type: Number(type),
      }),
    onSuccess: (proposal) => {
      // The editor opens on the proposal just made, without asking for it again.
      queryClient.setQueryData(proposalKeys.detail(proposal.id), proposal);
      void queryClient.invalidateQueries({ queryKey: proposalKeys.lists });
      // The call's "my roles" now include Author.
      void refreshCalls(queryClient);
      // Back from the editor leads to the call, not to a second proposal.
      void navigate(`/calls/${call.id}/proposals/${proposal.id}/`, { replace: true });
    },
  });

  return (
    <Box component="form" noValidate onSubmit={form.onSubmit} sx={{ maxWidth: 560 }}>
      <Typography color="text.secondary" sx={{ mb: 3 }}>
        A new proposal to “{call.name}”. Name it and choose its type; its forms open next. You can
        change the name later, but not the type.
      </Typography>
      <ErrorList messages={form.errors} />
      <Stack spacing={3}>
        <TextInput {...form.field('name')} required maxLength={MAX_LENGTHS.proposalName} />
        <SelectInput
          {...form.field('type')}
          required
          options={types.map((type) => ({ value: String(type.typeId), label: type.typeName }))}
          placeholder="Choose a proposal type…"
        />
        <Stack direction="row" spacing={2}>
          <Button type="submit" variant="contained" loading={form.isPending}>
            Create
          </Button>
          <Button component={RouterLink} to={`/calls/${call.id}/`}>
            Cancel
          </Button>
        </Stack>
      </Stack>
    </Box>
  );
}
