import { EmptyState } from '../../components/EmptyState';
import { PageHeading } from '../../components/PageHeading';

/** /calls: the open calls. The table arrives with the calls issue. */
export default function CallListPage() {
  return (
    <>
      <PageHeading>Call for Proposals</PageHeading>
      <EmptyState>There are no open calls for proposals yet.</EmptyState>
    </>
  );
}
