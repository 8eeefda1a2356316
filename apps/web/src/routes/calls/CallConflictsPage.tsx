import { NotFoundView } from '../../components/NotFoundView';
import { useIdParam } from '../../components/use-id-param';
import { CallConflicts } from '../../features/conflicts/CallConflicts';

/** /calls/{callId}/conflicts (chairs): the call's conflicts of interest (issue 26). */
export default function CallConflictsPage() {
  const callId = useIdParam('callId');
  if (callId === null) return <NotFoundView />;
  return <CallConflicts callId={callId} />;
}
