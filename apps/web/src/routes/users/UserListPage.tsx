import { EmptyState } from '../../components/EmptyState';
import { PageHeading } from '../../components/PageHeading';

/** /users (admin only). */
export default function UserListPage() {
  return (
    <>
      <PageHeading>Manage Users</PageHeading>
      <EmptyState>
        Registered users will appear here, with their institution and committee roles.
      </EmptyState>
    </>
  );
}
