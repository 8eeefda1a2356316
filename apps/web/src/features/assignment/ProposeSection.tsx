import type { AssignmentOverview, AssignmentRun } from '@merit/contract';
import { assignmentMessages } from '@merit/domain';
import {
  Alert,
  Box,
  Button,
  Checkbox,
  FormControlLabel,
  LinearProgress,
  Stack,
  Typography,
} from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { errorMessages, isApiError } from '../../api/client';
import { ErrorList } from '../../components/ErrorList';
import { LoadingView } from '../../components/LoadingView';
import { assignmentKeys, discardProposal, startProposal, useAssignmentRun } from './assignment.api';
import { assignmentTexts } from './assignment-texts';
import { RunPreview } from './RunPreview';

interface ProposeSectionProps {
  callId: number;
  /** The call's proposal not yet applied or discarded, as the overview says. */
  openRun: AssignmentOverview['run'];
  canChange: boolean;
}

/**
 * Propose: starts the server working out assignments, shows its progress while it runs
 * (asked every second), then its preview. The run lives on the server, so a chair who
 * leaves and comes back finds it again through the overview's `run`.
 */
export function ProposeSection({ callId, openRun, canChange }: ProposeSectionProps) {
  const queryClient = useQueryClient();
  const [redo, setRedo] = useState(false);
  // The run started here, and the runs applied or discarded here (the overview may still
  // name one until it is asked again).
  const [startedId, setStartedId] = useState<number | null>(null);
  const [closed, setClosed] = useState<ReadonlySet<number>>(new Set());
  const runId = startedId ?? (openRun && !closed.has(openRun.id) ? openRun.id : null);
  const run = useAssignmentRun(callId, runId);

  const close = (id: number) => {
    setClosed((previous) => new Set(previous).add(id));
    setStartedId(null);
  };

  const propose = useMutation({
    mutationFn: async (previous: number | null) => {
      // A failed or stale proposal is dropped first: the call keeps one open at a time.
      if (previous !== null)
        await discardProposal(callId, previous).catch((error: unknown) => {
          if (!isApiError(error, 404)) throw error;
        });
      return startProposal(callId, redo);
    },
    onSuccess: ({ id }, previous) => {
      if (previous !== null) close(previous);
      setStartedId(id);
    },
    // Refused because another tab is proposing: the overview then names that run.
    onError: () => queryClient.invalidateQueries({ queryKey: assignmentKeys.overview(callId) }),
  });
  const proposeAgain = () => propose.mutate(runId);

  // A run someone discarded or applied elsewhere is gone: the page starts afresh.
  const gone = isApiError(run.error, 404);
  const shown = runId !== null && !gone;
  const busy = propose.isPending || (shown && run.data?.state === 'running');

  return (
    <>
      <ErrorList messages={propose.isError ? errorMessages(propose.error) : []} />
      {canChange && (
        <Stack direction="row" sx={{ gap: 2, flexWrap: 'wrap', alignItems: 'center', mb: 2 }}>
          <Button
            variant="contained"
            loading={propose.isPending}
            disabled={busy || (shown && run.data?.state === 'ready')}
            onClick={() => propose.mutate(null)}
          >
            Propose assignments
          </Button>
          <FormControlLabel
            control={
              <Checkbox checked={redo} onChange={(event) => setRedo(event.target.checked)} />
            }
            label="Redo assignments that are not locked or reviewed"
          />
        </Stack>
      )}
      {shown &&
        (run.isPending ? (
          <LoadingView label="Loading the proposed assignments…" />
        ) : run.isError ? (
          <ErrorList messages={errorMessages(run.error)} />
        ) : (
          <RunState
            callId={callId}
            run={run.data}
            canChange={canChange}
            proposing={propose.isPending}
            onProposeAgain={proposeAgain}
            onClosed={() => close(run.data.id)}
          />
        ))}
    </>
  );
}

interface RunStateProps {
  callId: number;
  run: AssignmentRun;
  canChange: boolean;
  proposing: boolean;
  onProposeAgain: () => void;
  onClosed: () => void;
}

function RunState({ callId, run, canChange, proposing, onProposeAgain, onClosed }: RunStateProps) {
  if (run.state === 'running') {
    const text = assignmentTexts.progress(run.progress);
    return (
      <Box sx={{ maxWidth: 480 }}>
        <LinearProgress
          variant="determinate"
          value={Math.round(Math.min(1, Math.max(0, run.progress)) * 100)}
          aria-label="Working out assignments"
        />
        <Typography sx={{ mt: 1 }} role="status">
          {text}
        </Typography>
      </Box>
    );
  }
  if (run.state === 'failed')
    return (
      <Alert
        severity="error"
        action={
          canChange && (
            <Button color="inherit" size="small" loading={proposing} onClick={onProposeAgain}>
              Propose again
            </Button>
          )
        }
      >
        {run.error ?? assignmentMessages.failed}
      </Alert>
    );
  return (
    <RunPreview
      callId={callId}
      run={run}
      canChange={canChange}
      proposing={proposing}
      onProposeAgain={onProposeAgain}
      onClosed={onClosed}
    />
  );
}
