import type { CallProposal, ConflictCandidate } from '@merit/contract';
import {
  CONFLICT_REASON_MAX,
  conflictScreenMessages,
  type DeclaredConflictType,
} from '@merit/domain';
import {
  Autocomplete,
  Button,
  Checkbox,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  FormHelperText,
  Stack,
  TextField,
} from '@mui/material';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { errorMessages } from '../../api/client';
import { ErrorList } from '../../components/ErrorList';
import { SelectInput } from '../../components/form/SelectInput';
import { TextInput } from '../../components/form/TextInput';
import { useNotify } from '../../components/notifications/notification-context';
import { useDebouncedValue } from '../../components/use-debounced-value';
import { fetchCallProposals } from '../proposals/proposal-queries';
import { DECLARED_TYPE_OPTIONS, isDeclaredType } from './conflict-words';
import { createConflict, refreshConflicts } from './conflicts.api';

/** How long typing must pause before the call's proposals are searched. */
const SEARCH_DELAY_MS = 300;
/** The proposals a search offers at most. */
const PROPOSAL_CHOICES = 20;

type FoundProposal = Pick<CallProposal, 'id' | 'proposalName' | 'author'>;

interface AddConflictDialogProps {
  callId: number;
  /** The committee's members, as the Conflicts page has them. */
  members: readonly ConflictCandidate[];
  open: boolean;
  onClose: () => void;
}

/**
 * Add Conflict (chairs, the call's Conflicts page): a proposal of the call, a member of
 * its committee, the kind, an optional reason, and whether to pin it. Recorded confirmed.
 */
export function AddConflictDialog({ callId, members, open, onClose }: AddConflictDialogProps) {
  return (
    <Dialog
      open={open}
      onClose={onClose}
      aria-labelledby="add-conflict-title"
      fullWidth
      maxWidth="sm"
    >
      {/* Mounted while open: each opening starts empty. */}
      {open && <AddConflictForm callId={callId} members={members} onClose={onClose} />}
    </Dialog>
  );
}

function AddConflictForm({ callId, members, onClose }: Omit<AddConflictDialogProps, 'open'>) {
  const queryClient = useQueryClient();
  const notify = useNotify();
  const [proposal, setProposal] = useState<FoundProposal | null>(null);
  const [member, setMember] = useState('');
  const [type, setType] = useState<DeclaredConflictType | ''>('');
  const [reason, setReason] = useState('');
  const [pinned, setPinned] = useState(false);
  const [attempted, setAttempted] = useState(false);

  const add = useMutation({
    mutationFn: () =>
      createConflict(proposal!.id, {
        userId: Number(member),
        type: type as DeclaredConflictType,
        reason: reason.trim(),
        pinned,
      }),
    onSuccess: async (item) => {
      notify(`The conflict of ${item.userName} with “${item.proposalName}” has been added.`);
      onClose();
      await refreshConflicts(queryClient);
    },
  });

  const missing = {
    proposal: attempted && proposal === null,
    member: attempted && member === '',
    type: attempted && type === '',
  };

  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        setAttempted(true);
        if (proposal === null || member === '' || type === '') return;
        add.mutate();
      }}
    >
      <DialogTitle id="add-conflict-title">Add Conflict</DialogTitle>
      <DialogContent>
        <ErrorList messages={add.isError ? errorMessages(add.error) : []} />
        <Stack spacing={2} sx={{ pt: 1 }}>
          <ProposalPicker
            callId={callId}
            value={proposal}
            onChange={(next) => {
              setProposal(next);
              add.reset();
            }}
            error={missing.proposal}
          />
          <SelectInput
            name="member"
            label="Member"
            required
            placeholder="Choose a member"
            value={member}
            onChange={(event) => {
              setMember(event.target.value);
              add.reset();
            }}
            options={members.map((person) => ({
              value: String(person.userId),
              label: person.institution ? `${person.name} (${person.institution})` : person.name,
            }))}
            error={missing.member}
            helperText={missing.member ? 'Choose the member.' : undefined}
          />
          <SelectInput
            name="type"
            label="Kind of conflict"
            required
            placeholder="Choose the kind"
            value={type}
            onChange={(event) => {
              setType(isDeclaredType(event.target.value) ? event.target.value : '');
              add.reset();
            }}
            options={DECLARED_TYPE_OPTIONS}
            error={missing.type}
            helperText={missing.type ? 'Choose the kind of conflict.' : undefined}
          />
          <TextInput
            name="reason"
            label="Reason (optional)"
            value={reason}
            maxLength={CONFLICT_REASON_MAX}
            onChange={(event) => setReason(event.target.value)}
          />
          <div>
            <FormControlLabel
              control={
                <Checkbox
                  name="pinned"
                  checked={pinned}
                  onChange={(event) => setPinned(event.target.checked)}
                />
              }
              label="Pinned"
            />
            <FormHelperText sx={{ mt: -0.5, ml: 4 }}>
              {conflictScreenMessages.pinnedHelp}
            </FormHelperText>
          </div>
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={add.isPending}>
          Cancel
        </Button>
        <Button type="submit" variant="contained" loading={add.isPending}>
          Add Conflict
        </Button>
      </DialogActions>
    </form>
  );
}

/** A proposal of the call, found by the server's search of its list (a call may have thousands). */
function ProposalPicker({
  callId,
  value,
  onChange,
  error,
}: {
  callId: number;
  value: FoundProposal | null;
  onChange: (proposal: FoundProposal | null) => void;
  error: boolean;
}) {
  const [input, setInput] = useState('');
  const label = (proposal: FoundProposal) => `${proposal.proposalName} (${proposal.author})`;
  // Once a proposal is chosen the box shows its label, which is not a search.
  const search = useDebouncedValue(
    value && input === label(value) ? '' : input.trim(),
    SEARCH_DELAY_MS,
  );
  const found = useQuery({
    queryKey: ['conflicts', 'proposal-choices', callId, search],
    queryFn: ({ signal }) =>
      fetchCallProposals(
        callId,
        { page: 1, pageSize: PROPOSAL_CHOICES, sort: 'name', q: search },
        signal,
      ),
    placeholderData: keepPreviousData,
  });
  const failure = found.isError ? errorMessages(found.error).join(' ') : null;
  return (
    <Autocomplete
      options={found.data?.items ?? []}
      value={value}
      onChange={(_event, proposal) => onChange(proposal)}
      inputValue={input}
      onInputChange={(_event, text) => setInput(text)}
      getOptionLabel={label}
      isOptionEqualToValue={(option, chosen) => option.id === chosen.id}
      // The server searched already.
      filterOptions={(options) => options}
      loading={found.isFetching}
      noOptionsText="No proposal matches."
      renderInput={(params) => (
        <TextField
          {...params}
          label="Proposal"
          required
          error={error || failure !== null}
          helperText={
            failure
              ? `Proposals could not be searched: ${failure}`
              : error
                ? 'Choose the proposal.'
                : 'Search the call’s proposals.'
          }
        />
      )}
    />
  );
}
