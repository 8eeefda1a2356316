import { NotFoundView } from '../../components/NotFoundView';
import { useIdParam } from '../../components/use-id-param';
import { CallLetters } from '../../features/letters/CallLetters';

/** /calls/{callId}/letters (chairs): the call's letter templates, preview and release (issue 29). */
export default function LettersPage() {
  const callId = useIdParam('callId');
  if (callId === null) return <NotFoundView />;
  return <CallLetters callId={callId} />;
}
