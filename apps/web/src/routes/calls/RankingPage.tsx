import { NotFoundView } from '../../components/NotFoundView';
import { useIdParam } from '../../components/use-id-param';
import { CallRanking } from '../../features/decisions/CallRanking';

/** /calls/{callId}/ranking (chairs): the call's ranking, capacities, outcomes and awards (issue 29). */
export default function RankingPage() {
  const callId = useIdParam('callId');
  if (callId === null) return <NotFoundView />;
  return <CallRanking callId={callId} />;
}
