import { NotFoundView } from '../../components/NotFoundView';
import { useIdParam } from '../../components/use-id-param';
import { CallProgress } from '../../features/progress/CallProgress';

/** /calls/{callId}/progress (chairs, admins): the call's review progress (issue 28). */
export default function ProgressPage() {
  const callId = useIdParam('callId');
  if (callId === null) return <NotFoundView />;
  return <CallProgress callId={callId} />;
}
