import type { RankingRowBody } from '@merit/contract';
import { decisionMessages, OUTCOME_LABELS, OUTCOMES } from '@merit/domain';
import {
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { errorMessages } from '../../api/client';
import { ErrorList } from '../../components/ErrorList';
import { LoadingView } from '../../components/LoadingView';
import { useNotify } from '../../components/notifications/notification-context';
import { useDebouncedValue } from '../../components/use-debounced-value';
import { outcomeText } from './DecisionEditor';
import { decisionKeys, outcomesFromLine, refreshDecisions } from './decisions.api';

/** The changes a preview lists before it says how many more there are. */
const LISTED = 100;
/** The preview follows the number once typing pauses. */
const PREVIEW_DELAY_MS = 300;
const counting = new Intl.NumberFormat('en');
export const WHOLE_NUMBER = 'Enter a whole number.';

interface OutcomesFromLineDialogProps {
  callId: number;
  open: boolean;
  /** The ranking as loaded: the proposals' names. */
  rows: readonly RankingRowBody[];
  onClose: () => void;
}

/**
 * "Set outcomes from the line": Approved above the line, Waitlisted for the next N,
 * Declined below. A preview (`apply: false`) of what would change; nothing is saved
 * until Apply, and Discard sends nothing.
 */
export function OutcomesFromLineDialog({
  callId,
  open,
  rows,
  onClose,
}: OutcomesFromLineDialogProps) {
  const id = useId();
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby={id} fullWidth maxWidth="sm">
      <DialogTitle id={id}>Set outcomes from the line</DialogTitle>
      {open && <OutcomesForm callId={callId} rows={rows} onClose={onClose} />}
    </Dialog>
  );
}

function OutcomesForm({ callId, rows, onClose }: Omit<OutcomesFromLineDialogProps, 'open'>) {
  const queryClient = useQueryClient();
  const notify = useNotify();
  const [typed, setTyped] = useState('0');
  const waitlist = useDebouncedValue(typed, PREVIEW_DELAY_MS);
  const count = /^\d+$/.test(waitlist.trim()) ? Number(waitlist) : null;
  const typedError =
    typed.trim() === '' || /^\d+$/.test(typed.trim())
      ? undefined
      : Number(typed) < 0
        ? decisionMessages.waitlistNegative
        : WHOLE_NUMBER;

  // A preview writes nothing, so it is read as a query: asked again as the number changes.
  const preview = useQuery({
    queryKey: decisionKeys.fromLine(callId, count),
    queryFn: () => outcomesFromLine(callId, count ?? 0, false),
    enabled: count !== null,
    staleTime: 0,
    gcTime: 0,
  });
  const apply = useMutation({
    mutationFn: () => outcomesFromLine(callId, count ?? 0, true),
    onSuccess: (answer) => {
      notify(
        answer.changed === 1
          ? '1 outcome was set from the line.'
          : `${counting.format(answer.changed)} outcomes were set from the line.`,
      );
      void refreshDecisions(queryClient, callId);
      onClose();
    },
  });

  const names = new Map(rows.map((row) => [row.proposalId, row.name]));
  const changes = preview.data?.proposals.filter((p) => p.outcome !== p.current) ?? [];

  return (
    <>
      <DialogContent>
        <DialogContentText sx={{ mb: 2 }}>
          Proposals above the line are approved, the next ones below it waitlisted, and the rest
          declined. Only the proposals you may decide on change.
        </DialogContentText>
        <ErrorList messages={apply.isError ? errorMessages(apply.error) : []} />
        <TextField
          type="number"
          label="How many to waitlist"
          value={typed}
          onChange={(event) => setTyped(event.target.value)}
          error={typedError !== undefined}
          helperText={typedError}
          slotProps={{ htmlInput: { min: 0, step: 1, inputMode: 'numeric' } }}
          sx={{ width: 220, mb: 2 }}
        />
        {preview.isError ? (
          <ErrorList messages={errorMessages(preview.error)} />
        ) : preview.isPending || preview.isFetching ? (
          <LoadingView label="Working out the outcomes…" />
        ) : (
          <Box component="section" aria-label="Preview">
            <Stack
              direction="row"
              component="ul"
              sx={{ gap: 2, flexWrap: 'wrap', p: 0, m: 0, mb: 2, listStyle: 'none' }}
            >
              {OUTCOMES.map((outcome) => (
                <li
                  key={outcome}
                >{`${OUTCOME_LABELS[outcome]}: ${counting.format(preview.data.counts[outcome] ?? 0)}`}</li>
              ))}
            </Stack>
            <Typography variant="subtitle2" component="h3">
              {changes.length === 0
                ? 'Nothing would change.'
                : changes.length === 1
                  ? '1 outcome would change:'
                  : `${counting.format(changes.length)} outcomes would change:`}
            </Typography>
            <Box component="ul" aria-label="What would change" sx={{ pl: 2.5, my: 1 }}>
              {changes.slice(0, LISTED).map((change) => (
                <li key={change.proposalId}>
                  {`${names.get(change.proposalId) ?? `Proposal ${change.proposalId}`}: ${outcomeText(change.current)} → ${OUTCOME_LABELS[change.outcome]}`}
                </li>
              ))}
            </Box>
            {changes.length > LISTED && (
              <Typography variant="body2" color="text.secondary">
                {`and ${counting.format(changes.length - LISTED)} more.`}
              </Typography>
            )}
          </Box>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Discard</Button>
        <Button
          variant="contained"
          loading={apply.isPending}
          // Only what the preview on screen shows: not while a new number waits for its own.
          disabled={
            typed !== waitlist || !preview.isSuccess || preview.isFetching || changes.length === 0
          }
          onClick={() => apply.mutate()}
        >
          Apply
        </Button>
      </DialogActions>
    </>
  );
}
