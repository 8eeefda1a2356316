import { AccessDeniedView } from '../../components/AccessDeniedView';
import { BackLink } from '../../components/BackLink';
import { LoadFailedView } from '../../components/LoadFailedView';
import { LoadingView } from '../../components/LoadingView';
import { NotFoundView } from '../../components/NotFoundView';
import { PageHeading } from '../../components/PageHeading';
import { useIdParam } from '../../components/use-id-param';
import { useCall } from '../../features/calls/calls.api';
import { CallWizard } from '../../features/calls/wizard/CallWizard';

/** /calls/{callId}/update: a chair of the call's committee edits it while it is open. */
export default function EditCallPage() {
  const callId = useIdParam('callId');
  if (callId === null) return <NotFoundView />;
  return <EditCall callId={callId} />;
}

function EditCall({ callId }: { callId: number }) {
  const call = useCall(callId);
  if (call.isPending) return <LoadingView label="Loading the call…" />;
  if (call.isError)
    return <LoadFailedView error={call.error} onRetry={() => void call.refetch()} />;
  // Non-chairs, and everyone once the call is closed (spec section 2).
  if (!call.data.abilities.edit) return <AccessDeniedView />;
  return (
    <>
      <BackLink to={`/calls/${callId}/`}>{call.data.name}</BackLink>
      <PageHeading>Edit Call for Proposal</PageHeading>
      {/* Keyed so a different call starts a fresh draft. */}
      <CallWizard key={call.data.id} call={call.data} committees={[]} />
    </>
  );
}
