import { NotFoundView } from '../../components/NotFoundView';
import { useIdParam } from '../../components/use-id-param';
import { AssignmentMatrix } from '../../features/assignment/AssignmentMatrix';

/** /calls/{callId}/assignment/matrix (chairs, admins): proposals by members (issue 27). */
export default function AssignmentMatrixPage() {
  const callId = useIdParam('callId');
  if (callId === null) return <NotFoundView />;
  return <AssignmentMatrix callId={callId} />;
}
