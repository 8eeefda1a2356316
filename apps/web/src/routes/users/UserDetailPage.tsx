import type { AdminUserDetails, UserRole } from '@merit/contract';
import { GENDER_LABELS, isDeletedAccountEmail, userAdminMessages } from '@merit/domain';
import AddIcon from '@mui/icons-material/Add';
import { Button, Chip, Link, Stack, Typography } from '@mui/material';
import { Link as RouterLink } from 'react-router';
import { errorMessages } from '../../api/client';
import { BackLink } from '../../components/BackLink';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { DetailsTable } from '../../components/DetailsTable';
import { EmptyState } from '../../components/EmptyState';
import { ErrorList } from '../../components/ErrorList';
import { LoadFailedView } from '../../components/LoadFailedView';
import { LoadingView } from '../../components/LoadingView';
import { NotFoundView } from '../../components/NotFoundView';
import { PageHeading } from '../../components/PageHeading';
import { Section } from '../../components/Section';
import { DataTable, type Column } from '../../components/table/DataTable';
import { useDeleteRow } from '../../components/table/use-delete-row';
import { useTableState } from '../../components/table/use-table-state';
import { useConfirm } from '../../components/use-confirm';
import { useIdParam } from '../../components/use-id-param';
import { useCurrentUser } from '../../features/auth/session-hooks';
import { formatRoleDate, ROLE_LABELS } from '../../features/roles/role-dates';
import { deleteRole, refreshAfterRoleChange } from '../../features/roles/roles.api';
import { displayName } from '../../features/users/display-name';
import {
  useAdminUser,
  useUpdateUserFlags,
  type UserFlagsChange,
} from '../../features/users/users.api';

/** /users/{userId}/ (admin only): the account, its admin and active flags, and its roles. */
export default function UserDetailPage() {
  const userId = useIdParam('userId');
  if (userId === null) return <NotFoundView />;
  return <UserDetail userId={userId} />;
}

function UserDetail({ userId }: { userId: number }) {
  const user = useAdminUser(userId);
  if (user.isPending) return <LoadingView label="Loading the user…" />;
  if (user.isError)
    return <LoadFailedView error={user.error} onRetry={() => void user.refetch()} />;
  const details = user.data;
  const name = displayName(details);

  return (
    <>
      <BackLink to="/users">All users</BackLink>
      <PageHeading>{name}</PageHeading>
      <Section id="account-heading" title="Account">
        <DetailsTable
          labelledBy="account-heading"
          rows={[
            ['Username', details.username],
            ['Name', [details.first_name, details.last_name].filter(Boolean).join(' ')],
            ['Email', details.email],
            ['Institution', details.institution],
            ['Gender', details.gender ? GENDER_LABELS[details.gender] : ''],
            ['Phone', details.phone_number],
            ['Student', details.is_student ? 'Yes' : 'No'],
            ['Institutional login (AAF)', details.is_aaf ? 'Yes' : 'No'],
            ['Registration complete', details.registration_complete ? 'Yes' : 'No'],
            ['Admin', details.is_admin ? 'Yes' : 'No'],
            ['Account', details.is_active ? 'Active' : 'Deactivated'],
          ]}
        />
        {isDeletedAccountEmail(details.email) ? (
          // Its owner deleted it: anonymised, kept only as the author of their work.
          <Typography sx={{ mt: 2 }} color="text.secondary">
            {userAdminMessages.deletedAccount}
          </Typography>
        ) : (
          <AccountActions user={details} />
        )}
      </Section>
      <Section
        id="roles-heading"
        title="Committee roles"
        actions={
          <Button
            component={RouterLink}
            to={`/users/${userId}/roles/new`}
            variant="contained"
            startIcon={<AddIcon />}
          >
            Add Role
          </Button>
        }
      >
        <RolesTable userId={userId} userName={name} roles={details.roles} />
      </Section>
    </>
  );
}

interface FlagAction extends UserFlagsChange {
  label: string;
  title: string;
  text: string;
}

/** Make admin / Remove admin, Deactivate / Reactivate: each asks first. */
function AccountActions({ user }: { user: AdminUserDetails }) {
  const me = useCurrentUser();
  const confirm = useConfirm<FlagAction>();
  const asking = confirm.subject;
  const name = displayName(user);
  const self = me.id === user.id;

  const mutation = useUpdateUserFlags(user.id, { onSettled: confirm.close });

  const actions: FlagAction[] = [
    user.is_admin
      ? {
          label: 'Remove admin',
          title: 'Remove admin rights?',
          text: self
            ? 'You will no longer be able to manage users, committees and forms.'
            : `${name} will no longer be able to manage users, committees and forms.`,
          change: { is_admin: false },
          done: `${name} is no longer an admin.`,
        }
      : {
          label: 'Make admin',
          title: 'Make this user an admin?',
          text: `${name} will be able to manage users, committees, roles and forms.`,
          change: { is_admin: true },
          done: `${name} is now an admin.`,
        },
    user.is_active
      ? {
          label: 'Deactivate',
          title: 'Deactivate this account?',
          text: `${name} will be logged out everywhere and cannot log in until the account is reactivated. Their proposals, reviews and roles stay.`,
          change: { is_active: false },
          done: `${name}'s account has been deactivated.`,
        }
      : {
          label: 'Reactivate',
          title: 'Reactivate this account?',
          text: `${name} will be able to log in again.`,
          change: { is_active: true },
          done: `${name}'s account has been reactivated.`,
        },
  ];

  return (
    <>
      <Stack direction="row" spacing={2} sx={{ mt: 2, mb: 1 }}>
        {actions.map((action) => (
          <Button
            key={action.label}
            variant="outlined"
            color={action.change.is_active === false ? 'error' : 'primary'}
            onClick={() => {
              mutation.reset();
              confirm.ask(action);
            }}
          >
            {action.label}
          </Button>
        ))}
      </Stack>
      {/* A refusal (409: the last active admin) stays on the page after the dialog closes. */}
      <ErrorList messages={mutation.isError ? errorMessages(mutation.error) : []} />
      <ConfirmDialog
        open={confirm.open}
        title={asking?.title ?? ''}
        confirmLabel={asking?.label ?? ''}
        onConfirm={() => asking && mutation.mutate(asking)}
        onCancel={confirm.close}
        pending={mutation.isPending}
      >
        {asking?.text ?? ''}
      </ConfirmDialog>
    </>
  );
}

const roleName = (role: UserRole) => `${ROLE_LABELS[role.role]} of ${role.committeeName}`;

const ROLE_COLUMNS: readonly Column<UserRole>[] = [
  {
    key: 'committee',
    header: 'Committee',
    cell: (role) => (
      <Link component={RouterLink} to={`/committees/${role.committeeId}/`}>
        {role.committeeName}
      </Link>
    ),
    sort: (role) => role.committeeName,
  },
  {
    key: 'role',
    header: 'Role',
    cell: (role) => ROLE_LABELS[role.role],
    sort: (role) => ROLE_LABELS[role.role],
  },
  {
    key: 'from',
    header: 'From',
    cell: (role) => formatRoleDate(role.commencement),
    sort: (role) => new Date(role.commencement),
  },
  {
    key: 'until',
    header: 'Until',
    cell: (role) => formatRoleDate(role.termination),
    sort: (role) => new Date(role.termination),
  },
  {
    key: 'current',
    header: 'Current',
    cell: (role) =>
      role.current ? (
        <Chip size="small" color="success" label="Current" />
      ) : (
        <Typography component="span" color="text.secondary">
          No
        </Typography>
      ),
    sort: (role) => (role.current ? 'Current' : 'No'),
  },
];

function RolesTable({
  userId,
  userName,
  roles,
}: {
  userId: number;
  userName: string;
  roles: UserRole[];
}) {
  const deletion = useDeleteRow<UserRole>({
    remove: (role) => deleteRole(role.id),
    name: (role) => `role: ${roleName(role)}`,
    title: 'Delete this role?',
    message: (role) =>
      `${userName} will no longer be ${roleName(role)}. To end a role but keep its history, edit its dates instead.`,
    done: () => 'The role has been deleted.',
    refresh: refreshAfterRoleChange,
  });
  const columns: readonly Column<UserRole>[] = [
    ...ROLE_COLUMNS,
    {
      key: 'edit',
      header: 'Edit',
      action: true,
      cell: (role) => (
        <Button
          component={RouterLink}
          to={`/users/${userId}/roles/${role.id}/`}
          size="small"
          aria-label={`Edit role: ${roleName(role)}`}
        >
          Edit
        </Button>
      ),
    },
    deletion.column,
  ];
  const table = useTableState(columns, { defaultSort: { key: 'committee', direction: 'asc' } });

  if (roles.length === 0) {
    return (
      <EmptyState>
        This user has no committee roles. Give one with Add Role: Chair to create calls, Member to
        review.
      </EmptyState>
    );
  }
  return (
    <>
      <ErrorList messages={deletion.errors} />
      <DataTable
        labelledBy="roles-heading"
        columns={columns}
        state={table}
        rows={roles}
        rowKey={(role) => role.id}
      />
      {deletion.dialog}
    </>
  );
}
