import type { CallDetail } from '@merit/contract';
import { callMessages } from '@merit/domain';
import { Alert, Box, Button, Paper, Stack, Typography } from '@mui/material';
import { useState } from 'react';
import { errorMessages, isApiError } from '../../api/client';
import { AccessDeniedView } from '../../components/AccessDeniedView';
import { BackLink } from '../../components/BackLink';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ErrorList } from '../../components/ErrorList';
import { LoadFailedView } from '../../components/LoadFailedView';
import { LoadingView } from '../../components/LoadingView';
import { NotFoundView } from '../../components/NotFoundView';
import { PageHeading } from '../../components/PageHeading';
import { useIdParam } from '../../components/use-id-param';
import { formatCallDate } from '../../features/calls/call-dates';
import { useCall, useCallManagement, useCloseCall } from '../../features/calls/calls.api';
import { CallCapacitySection } from '../../features/decisions/CallCapacitySection';

/** /calls/{callId}/manage (chairs): the call's numbers, its capacities' use, and closing it. */
export default function ManageCallPage() {
  const callId = useIdParam('callId');
  if (callId === null) return <NotFoundView />;
  return <ManageCall callId={callId} />;
}

function ManageCall({ callId }: { callId: number }) {
  const call = useCall(callId);
  const counts = useCallManagement(callId, call.data?.abilities.manage === true);

  if (call.isPending) return <LoadingView label="Loading the call…" />;
  if (call.isError)
    return <LoadFailedView error={call.error} onRetry={() => void call.refetch()} />;
  if (!call.data.abilities.manage || isApiError(counts.error, 403)) return <AccessDeniedView />;
  if (counts.isPending) return <LoadingView label="Counting proposals…" />;
  if (counts.isError)
    return <LoadFailedView error={counts.error} onRetry={() => void counts.refetch()} />;

  const { submitted, awaitingReview } = counts.data;
  return (
    <>
      <BackLink to={`/calls/${callId}/`}>{call.data.name}</BackLink>
      <PageHeading>Manage Call for Proposal</PageHeading>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mb: 3 }}>
        <Count label="Proposals submitted" value={submitted} />
        <Count label="Proposals awaiting review" value={awaitingReview} />
      </Stack>
      {awaitingReview > 0 && (
        <Alert severity="warning" sx={{ mb: 3, maxWidth: 720 }}>
          {awaitingReview === 1
            ? '1 proposal still lacks reviews.'
            : `${awaitingReview} proposals still lack reviews.`}
        </Alert>
      )}
      {call.data.abilities.decide && <CallCapacitySection callId={callId} />}
      <CloseCall call={call.data} />
    </>
  );
}

function Count({ label, value }: { label: string; value: number }) {
  return (
    <Paper variant="outlined" sx={{ p: 2.5, minWidth: 220 }}>
      <Typography color="text.secondary">{label}</Typography>
      <Typography variant="h4" component="p">
        {value}
      </Typography>
    </Paper>
  );
}

/** Why the Close button is disabled, or null when the call can be closed. */
function closeBlocker(call: CallDetail): string | null {
  if (call.abilities.close) return null;
  if (call.closed) return callMessages.alreadyClosed;
  return callMessages.notYetClosable(formatCallDate(call.reviewTermination));
}

function CloseCall({ call }: { call: CallDetail }) {
  const [asking, setAsking] = useState(false);
  const closing = useCloseCall(call, { onSettled: () => setAsking(false) });
  const blocker = closeBlocker(call);

  return (
    <Box sx={{ maxWidth: 720 }}>
      <ErrorList messages={closing.isError ? errorMessages(closing.error) : []} />
      <Button
        variant="contained"
        color="error"
        disabled={blocker !== null}
        onClick={() => {
          closing.reset();
          setAsking(true);
        }}
        aria-describedby={blocker ? 'close-blocker' : undefined}
      >
        Close Call for Proposal
      </Button>
      {blocker && (
        <Typography id="close-blocker" color="text.secondary" sx={{ mt: 1 }}>
          {blocker}
        </Typography>
      )}
      <ConfirmDialog
        open={asking}
        title="Close this call for proposals?"
        confirmLabel="Close Call"
        onConfirm={() => closing.mutate()}
        onCancel={() => setAsking(false)}
        pending={closing.isPending}
      >
        {`Once “${call.name}” is closed it can no longer be changed, and authors can read the decision summaries of their proposals.`}
      </ConfirmDialog>
    </Box>
  );
}
