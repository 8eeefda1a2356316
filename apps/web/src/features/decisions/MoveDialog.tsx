import type { RankingRowBody } from '@merit/contract';
import { decisionMessages, MAX_RANK_REASON } from '@merit/domain';
import {
  Alert,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Stack,
  TextField,
} from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { errorMessages, isApiError } from '../../api/client';
import { ErrorList } from '../../components/ErrorList';
import { useNotify } from '../../components/notifications/notification-context';
import { isStale } from '../drafts/stale';
import { moveInRanking, refreshDecisions } from './decisions.api';

const TOP = 'top';
export const CHOOSE_PLACE = 'Choose where it goes.';

interface MoveDialogProps {
  callId: number;
  /** The proposal to move; null: the dialog is closed. */
  row: RankingRowBody | null;
  /** The ranking as shown: the places it can go. */
  rows: readonly RankingRowBody[];
  /** Where it was dropped: below this proposal (null: at the top); unset: not chosen yet. */
  after?: number | null;
  onClose: () => void;
}

/**
 * Moving a proposal in the ranking, by keyboard as well as by hand: below which proposal
 * (or to the top), and why, which the ranking shows and the history keeps. A drag on the
 * Ranking page opens it with the place where the row was dropped.
 */
export function MoveDialog({ callId, row, rows, after, onClose }: MoveDialogProps) {
  const id = useId();
  return (
    <Dialog open={row !== null} onClose={onClose} aria-labelledby={id} fullWidth maxWidth="sm">
      <DialogTitle id={id}>{row ? `Move ${row.name}` : 'Move'}</DialogTitle>
      {row && (
        <MoveForm
          key={`${row.proposalId}:${String(after)}`}
          callId={callId}
          row={row}
          rows={rows}
          after={after}
          onClose={onClose}
        />
      )}
    </Dialog>
  );
}

function MoveForm({
  callId,
  row,
  rows,
  after,
  onClose,
}: MoveDialogProps & { row: RankingRowBody }) {
  const queryClient = useQueryClient();
  const notify = useNotify();
  const [place, setPlace] = useState(
    after === undefined ? '' : after === null ? TOP : String(after),
  );
  const [reason, setReason] = useState('');
  const [checked, setChecked] = useState(false);

  const move = useMutation({
    mutationFn: () =>
      moveInRanking(callId, {
        proposalId: row.proposalId,
        after: place === TOP ? null : Number(place),
        reason: reason.trim(),
        version: row.version,
      }),
    onSuccess: () => {
      notify(`${row.name} has been moved.`);
      void refreshDecisions(queryClient, callId);
      onClose();
    },
    // The order changed under the chair: show the new one behind the dialog.
    onError: (error) => {
      if (isStale(error)) void refreshDecisions(queryClient, callId);
    },
  });

  const placeError = checked && place === '' ? CHOOSE_PLACE : undefined;
  const server = isApiError(move.error, 400) ? (move.error.body.fields ?? {}) : {};
  const reasonError =
    (checked && reason.trim() === '' ? decisionMessages.rankReasonMissing : undefined) ??
    server.reason?.join(' ');
  const submit = () => {
    setChecked(true);
    move.reset();
    if (place !== '' && reason.trim() !== '') move.mutate();
  };

  return (
    <>
      <DialogContent>
        {isStale(move.error) ? (
          <Alert severity="warning" sx={{ mb: 2 }}>
            {decisionMessages.rankStale}
          </Alert>
        ) : (
          move.isError && (
            <ErrorList
              messages={errorMessages(move.error).filter((m) => m !== server.reason?.[0])}
            />
          )
        )}
        <Stack spacing={2} sx={{ pt: 1 }}>
          <TextField
            select
            required
            label="Put it"
            value={place}
            onChange={(event) => setPlace(event.target.value)}
            error={placeError !== undefined}
            helperText={placeError}
            slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
          >
            <option value="">Choose…</option>
            <option value={TOP}>At the top</option>
            {rows
              .filter((other) => other.proposalId !== row.proposalId)
              .map((other) => (
                <option key={other.proposalId} value={other.proposalId}>
                  {`Below ${other.rank}. ${other.name}`}
                </option>
              ))}
          </TextField>
          <TextField
            required
            multiline
            minRows={2}
            label="Reason"
            value={reason}
            onChange={(event) => setReason(event.target.value)}
            error={reasonError !== undefined}
            helperText={reasonError}
            slotProps={{ htmlInput: { maxLength: MAX_RANK_REASON } }}
          />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button variant="contained" loading={move.isPending} onClick={submit}>
          Move
        </Button>
      </DialogActions>
    </>
  );
}
