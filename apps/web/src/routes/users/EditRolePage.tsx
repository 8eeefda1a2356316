import { BackLink } from '../../components/BackLink';
import { LoadFailedView } from '../../components/LoadFailedView';
import { LoadingView } from '../../components/LoadingView';
import { NotFoundView } from '../../components/NotFoundView';
import { PageHeading } from '../../components/PageHeading';
import { useIdParam } from '../../components/use-id-param';
import { RoleForm } from '../../features/roles/RoleForm';
import { useUserRoles } from '../../features/roles/roles.api';
import { displayName } from '../../features/users/display-name';
import { useAdminUser } from '../../features/users/users.api';

/** /users/{userId}/roles/{roleId}/ (admin only). */
export default function EditRolePage() {
  const userId = useIdParam('userId');
  const roleId = useIdParam('roleId');
  if (userId === null || roleId === null) return <NotFoundView />;
  return <EditRole userId={userId} roleId={roleId} />;
}

function EditRole({ userId, roleId }: { userId: number; roleId: number }) {
  const user = useAdminUser(userId);
  const roles = useUserRoles(userId);
  if (user.isPending || roles.isPending) return <LoadingView />;
  if (user.isError)
    return <LoadFailedView error={user.error} onRetry={() => void user.refetch()} />;
  if (roles.isError)
    return <LoadFailedView error={roles.error} onRetry={() => void roles.refetch()} />;
  const role = roles.data.find((candidate) => candidate.id === roleId);
  if (!role) return <NotFoundView />;
  const name = displayName(user.data);
  return (
    <>
      <BackLink to={`/users/${userId}/`}>{name}</BackLink>
      <PageHeading>{`Edit ${name}'s role`}</PageHeading>
      {/* Keyed: a role loaded afresh starts the form from its saved values. */}
      <RoleForm key={role.id} userId={userId} role={role} />
    </>
  );
}
