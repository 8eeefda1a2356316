import { NotFoundView } from '../../components/NotFoundView';
import { useIdParam } from '../../components/use-id-param';
import { CallReminders } from '../../features/reminders/CallReminders';

/** /calls/{callId}/reminders (chairs, admins): the call's reminder rules (issue 28). */
export default function RemindersPage() {
  const callId = useIdParam('callId');
  if (callId === null) return <NotFoundView />;
  return <CallReminders callId={callId} />;
}
