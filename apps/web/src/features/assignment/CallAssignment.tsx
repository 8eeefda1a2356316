import type { AssignmentOverview } from '@merit/contract';
import { assignmentMessages } from '@merit/domain';
import { Alert, Link, Typography } from '@mui/material';
import { Link as RouterLink } from 'react-router';
import { isApiError } from '../../api/client';
import { AccessDeniedView } from '../../components/AccessDeniedView';
import { LoadFailedView } from '../../components/LoadFailedView';
import { LoadingView } from '../../components/LoadingView';
import { PageHeading } from '../../components/PageHeading';
import { Section } from '../../components/Section';
import { useCall } from '../calls/calls.api';
import { AssignmentMembers } from './AssignmentMembers';
import { AssignmentSettingsForm } from './AssignmentSettingsForm';
import { useAssignmentOverview } from './assignment.api';
import { assignmentTexts } from './assignment-texts';
import { AssignmentTools } from './AssignmentTools';
import { ProposeSection } from './ProposeSection';

/**
 * The call's Assignment page (/calls/{callId}/assignment, issue 27; chairs and admins):
 * k and bidding, the counts with a warning when the caps cannot hold the reviews wanted,
 * the members' loads and caps, Propose with its preview, and the ways to the matrix and
 * the CSV.
 */
export function CallAssignment({ callId }: { callId: number }) {
  const call = useCall(callId);
  const allowed = call.data?.abilities.assign === true;
  const overview = useAssignmentOverview(callId, allowed);

  if (call.isPending) return <LoadingView label="Loading the call…" />;
  if (call.isError)
    return <LoadFailedView error={call.error} onRetry={() => void call.refetch()} />;
  if (!allowed || isApiError(overview.error, 403)) return <AccessDeniedView />;

  return (
    <>
      <PageHeading>Assign Reviewers</PageHeading>
      <Typography variant="subtitle1" sx={{ mt: -2, mb: 3 }}>
        <Link component={RouterLink} to={`/calls/${callId}/`}>
          {call.data.name}
        </Link>
      </Typography>
      {overview.isPending ? (
        <LoadingView label="Loading the assignment…" />
      ) : overview.isError ? (
        <LoadFailedView error={overview.error} onRetry={() => void overview.refetch()} />
      ) : (
        <AssignmentBody callId={callId} overview={overview.data} />
      )}
    </>
  );
}

function AssignmentBody({ callId, overview }: { callId: number; overview: AssignmentOverview }) {
  // Reading stays open to chairs once the call is closed; changing does not.
  const canChange = overview.abilities.manage;
  return (
    <>
      <Typography sx={{ mb: 1 }}>{assignmentTexts.counts(overview.counts)}</Typography>
      {overview.counts.short > 0 && (
        <Alert severity="warning" sx={{ mb: 2 }}>
          {assignmentMessages.capacityShort(overview.counts.short)}
        </Alert>
      )}
      <AssignmentTools callId={callId} canUpload={canChange} />
      <Section id="assignment-settings" title="Settings">
        <AssignmentSettingsForm
          // A fresh form whenever the saved settings change (here or in another tab).
          key={`${overview.reviewsPerProposal}/${overview.biddingOpen}/${overview.biddingShowsProposals}`}
          callId={callId}
          settings={overview}
          canChange={canChange}
        />
      </Section>
      <Section id="assignment-propose" title="Propose assignments">
        <ProposeSection callId={callId} openRun={overview.run} canChange={canChange} />
      </Section>
      <Section id="assignment-members" title="Members">
        <AssignmentMembers callId={callId} overview={overview} canChange={canChange} />
      </Section>
    </>
  );
}
