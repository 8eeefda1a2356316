import { EmptyState } from '../../components/EmptyState';
import { PageHeading } from '../../components/PageHeading';

/** /committees (admin only). */
export default function CommitteeListPage() {
  return (
    <>
      <PageHeading>Manage Committees</PageHeading>
      <EmptyState>Committees will appear here, with their members and calls.</EmptyState>
    </>
  );
}
