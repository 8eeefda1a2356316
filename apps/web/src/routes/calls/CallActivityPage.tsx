import { NotFoundView } from '../../components/NotFoundView';
import { useIdParam } from '../../components/use-id-param';
import { CallActivity } from '../../features/activity/CallActivity';

/** /calls/{callId}/activity (chairs and admins): the call's Activity (issue 28). */
export default function CallActivityPage() {
  const callId = useIdParam('callId');
  if (callId === null) return <NotFoundView />;
  return <CallActivity callId={callId} />;
}
