import { AccessDeniedView } from '../../components/AccessDeniedView';
import { BackLink } from '../../components/BackLink';
import { LoadFailedView } from '../../components/LoadFailedView';
import { LoadingView } from '../../components/LoadingView';
import { useCall } from '../calls/calls.api';
import { ActivityView } from './ActivityView';

/**
 * A call's Activity page (/calls/{callId}/activity, issue 28): what its chairs and admins
 * may read of its audit rows (a chair's conflicts left out by the server), filtered by
 * person, action, proposal and day, with the filter as CSV.
 */
export function CallActivity({ callId }: { callId: number }) {
  const call = useCall(callId);
  if (call.isPending) return <LoadingView label="Loading the call…" />;
  if (call.isError)
    return <LoadFailedView error={call.error} onRetry={() => void call.refetch()} />;
  if (!call.data.abilities.followReview) return <AccessDeniedView />;
  return (
    <ActivityView
      scope={{ callId }}
      label={`Activity of ${call.data.name}`}
      backLink={<BackLink to={`/calls/${callId}/`}>{call.data.name}</BackLink>}
      forCall
    />
  );
}
