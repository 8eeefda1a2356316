import { BackLink } from '../../components/BackLink';
import { LoadFailedView } from '../../components/LoadFailedView';
import { LoadingView } from '../../components/LoadingView';
import { NotFoundView } from '../../components/NotFoundView';
import { PageHeading } from '../../components/PageHeading';
import { useIdParam } from '../../components/use-id-param';
import { RoleForm } from '../../features/roles/RoleForm';
import { displayName } from '../../features/users/display-name';
import { useAdminUser } from '../../features/users/users.api';

/** /users/{userId}/roles/new (admin only). */
export default function NewRolePage() {
  const userId = useIdParam('userId');
  if (userId === null) return <NotFoundView />;
  return <NewRole userId={userId} />;
}

function NewRole({ userId }: { userId: number }) {
  const user = useAdminUser(userId);
  if (user.isPending) return <LoadingView />;
  if (user.isError)
    return <LoadFailedView error={user.error} onRetry={() => void user.refetch()} />;
  const name = displayName(user.data);
  return (
    <>
      <BackLink to={`/users/${userId}/`}>{name}</BackLink>
      <PageHeading>{`Add a role for ${name}`}</PageHeading>
      <RoleForm userId={userId} />
    </>
  );
}
