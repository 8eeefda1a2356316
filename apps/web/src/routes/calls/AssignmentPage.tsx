import { NotFoundView } from '../../components/NotFoundView';
import { useIdParam } from '../../components/use-id-param';
import { CallAssignment } from '../../features/assignment/CallAssignment';

/** /calls/{callId}/assignment (chairs, admins): the call's reviewer assignment (issue 27). */
export default function AssignmentPage() {
  const callId = useIdParam('callId');
  if (callId === null) return <NotFoundView />;
  return <CallAssignment callId={callId} />;
}
