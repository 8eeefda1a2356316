import type { CallDetail, CallProgress as CallProgressBody } from '@merit/contract';
import { Box, Link, Paper, Stack, Typography } from '@mui/material';
import { Link as RouterLink } from 'react-router';
import { isApiError } from '../../api/client';
import { AccessDeniedView } from '../../components/AccessDeniedView';
import { EmptyState } from '../../components/EmptyState';
import { LoadFailedView } from '../../components/LoadFailedView';
import { LoadingView } from '../../components/LoadingView';
import { PageHeading } from '../../components/PageHeading';
import { Section } from '../../components/Section';
import { useCall } from '../calls/calls.api';
import { progressIsLive, useCallProgress } from './progress.api';
import { progressTexts } from './progress-texts';
import { ProgressMembers } from './ProgressMembers';
import { ProgressProposals } from './ProgressProposals';
import { SavesChart } from './SavesChart';

/**
 * The call's Progress page (/calls/{callId}/progress, issue 28; chairs and admins): the
 * totals with a chart of saves per day against the deadline, each member's reviews with
 * "Remind selected", and each proposal's reviews and the spread of its scores. Asked again
 * every 30 seconds while review is open.
 */
export function CallProgress({ callId }: { callId: number }) {
  const call = useCall(callId);
  const allowed = call.data?.abilities.followReview === true;
  const progress = useCallProgress(callId, allowed);

  if (call.isPending) return <LoadingView label="Loading the call…" />;
  if (call.isError)
    return <LoadFailedView error={call.error} onRetry={() => void call.refetch()} />;
  if (!allowed || isApiError(progress.error, 403)) return <AccessDeniedView />;

  return (
    <>
      <PageHeading
        actions={
          <Link component={RouterLink} to={`/calls/${callId}/reminders`}>
            Reminders
          </Link>
        }
      >
        {progressTexts.title}
      </PageHeading>
      <Typography variant="subtitle1" sx={{ mt: -2, mb: 3 }}>
        <Link component={RouterLink} to={`/calls/${callId}/`}>
          {call.data.name}
        </Link>
      </Typography>
      {progress.isPending ? (
        <LoadingView label="Loading the progress…" />
      ) : progress.isError ? (
        <LoadFailedView error={progress.error} onRetry={() => void progress.refetch()} />
      ) : (
        <ProgressBody
          call={call.data}
          progress={progress.data}
          fetchedAt={progress.dataUpdatedAt}
        />
      )}
    </>
  );
}

interface ProgressBodyProps {
  call: CallDetail;
  progress: CallProgressBody;
  /** When it was asked for: whether it is live is as of then (a render reads no clock). */
  fetchedAt: number;
}

function ProgressBody({ call, progress, fetchedAt }: ProgressBodyProps) {
  if (progress.proposals.length === 0) return <EmptyState>{progressTexts.noProposals}</EmptyState>;
  const { totals } = progress;
  return (
    <>
      <Paper
        variant="outlined"
        component="section"
        aria-label="Totals"
        sx={{ p: 2, mb: 4, display: 'flex', flexWrap: 'wrap', gap: 3, alignItems: 'center' }}
      >
        <Stack spacing={0.5} sx={{ minWidth: 220 }}>
          <Typography variant="h6" component="p">
            {progressTexts.saved(totals.saved, totals.wanted)}
          </Typography>
          <Typography>{progressTexts.withoutReview(totals.withoutReview)}</Typography>
          {progressIsLive(progress, fetchedAt) && (
            <Typography variant="body2" color="text.secondary">
              {progressTexts.live}
            </Typography>
          )}
        </Stack>
        <Box sx={{ flex: '1 1 320px', maxWidth: 480 }}>
          <SavesChart progress={progress} />
        </Box>
      </Paper>
      <Section id="progress-members" title="Members">
        <ProgressMembers
          callId={call.id}
          progress={progress}
          canRemind={call.abilities.remind}
          canAssign={call.abilities.assign}
        />
      </Section>
      <Section id="progress-proposals" title="Proposals">
        <ProgressProposals callId={call.id} progress={progress} />
      </Section>
    </>
  );
}
