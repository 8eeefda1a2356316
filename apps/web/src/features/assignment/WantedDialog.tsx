import type { MatrixRow } from '@merit/contract';
import { MAX_REVIEWS_PER_PROPOSAL } from '@merit/domain';
import {
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Typography,
} from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { errorMessages } from '../../api/client';
import { ErrorList } from '../../components/ErrorList';
import { useNotify } from '../../components/notifications/notification-context';
import { assignmentKeys, patchMatrixWanted, saveAssignmentSettings } from './assignment.api';
import { NumberField, parseWhole } from './NumberField';

interface WantedDialogProps {
  callId: number;
  /** The proposal whose k is set; the dialog is open while there is one. */
  row: MatrixRow | null;
  onClose: () => void;
}

/**
 * One proposal's k, against the call's: a proposal may want more reviews (it asks for
 * much) or fewer. Empty gives it the call's k again.
 */
export function WantedDialog({ callId, row, onClose }: WantedDialogProps) {
  const titleId = useId();
  return (
    <Dialog open={row !== null} onClose={onClose} aria-labelledby={titleId} maxWidth="xs" fullWidth>
      <DialogTitle id={titleId}>Reviews wanted</DialogTitle>
      {row && <WantedForm key={row.proposalId} callId={callId} row={row} onClose={onClose} />}
    </Dialog>
  );
}

function WantedForm({
  callId,
  row,
  onClose,
}: {
  callId: number;
  row: MatrixRow;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const notify = useNotify();
  const [text, setText] = useState(String(row.wanted));
  const [checked, setChecked] = useState(false);
  const save = useMutation({
    mutationFn: (wanted: number | null) =>
      saveAssignmentSettings(callId, { perProposal: { [row.proposalId]: wanted } }),
    onSuccess: async (settings) => {
      const wanted = settings.perProposal[row.proposalId] ?? settings.reviewsPerProposal;
      patchMatrixWanted(queryClient, callId, row.proposalId, wanted);
      notify(`“${row.name}” now wants ${wanted} ${wanted === 1 ? 'review' : 'reviews'}.`);
      onClose();
      await queryClient.invalidateQueries({ queryKey: assignmentKeys.overview(callId) });
    },
  });
  const wanted = parseWhole(text);
  const valid = wanted !== undefined && (wanted === null || wanted <= MAX_REVIEWS_PER_PROPOSAL);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setChecked(true);
    if (valid) save.mutate(wanted);
  };
  return (
    <form onSubmit={submit} noValidate>
      <DialogContent>
        <Typography sx={{ mb: 2 }}>{row.name}</Typography>
        <ErrorList messages={save.isError ? errorMessages(save.error) : []} />
        <NumberField
          name="wanted"
          label="Reviews wanted for this proposal"
          value={text}
          onChange={setText}
          max={MAX_REVIEWS_PER_PROPOSAL}
          error={checked && !valid}
          helperText={
            checked && !valid
              ? `Enter a whole number from 0 to ${MAX_REVIEWS_PER_PROPOSAL}.`
              : 'Leave it empty for the call’s k.'
          }
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={save.isPending}>
          Cancel
        </Button>
        <Button type="submit" variant="contained" loading={save.isPending}>
          Save
        </Button>
      </DialogActions>
    </form>
  );
}
