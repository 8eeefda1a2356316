import { NotFoundView } from '../../components/NotFoundView';
import { useIdParam } from '../../components/use-id-param';
import { BidList } from '../../features/assignment/BidList';

/** /calls/{callId}/bids (the committee's members): bidding on the call's proposals (issue 27). */
export default function BidsPage() {
  const callId = useIdParam('callId');
  if (callId === null) return <NotFoundView />;
  return <BidList callId={callId} />;
}
