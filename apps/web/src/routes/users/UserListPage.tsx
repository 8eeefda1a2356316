import type { UserSummary } from '@merit/contract';
import { Box, Button, Chip, Stack, Typography } from '@mui/material';
import { Link as RouterLink } from 'react-router';
import { EmptyState } from '../../components/EmptyState';
import { LoadFailedView } from '../../components/LoadFailedView';
import { LoadingView } from '../../components/LoadingView';
import { PageHeading } from '../../components/PageHeading';
import { SearchField } from '../../components/SearchField';
import { DataTable, type Column } from '../../components/table/DataTable';
import { useTableState } from '../../components/table/use-table-state';
import { useDebouncedValue } from '../../components/use-debounced-value';
import { displayName } from '../../features/users/display-name';
import { useUserList } from '../../features/users/users.api';

/** How long typing must pause before the list is searched again. */
const SEARCH_DELAY_MS = 300;

const COLUMNS: readonly Column<UserSummary>[] = [
  {
    key: 'username',
    header: 'User Name',
    cell: (user) => (
      <>
        <Typography component="span" sx={{ fontWeight: 500 }}>
          {user.username}
        </Typography>
        {displayName(user) !== user.username && (
          <Typography component="span" color="text.secondary" sx={{ ml: 1 }}>
            {displayName(user)}
          </Typography>
        )}
        <Stack direction="row" spacing={1} component="span" sx={{ ml: 1 }}>
          {user.is_admin && <Chip size="small" label="Admin" color="primary" />}
          {!user.is_active && <Chip size="small" label="Deactivated" />}
        </Stack>
      </>
    ),
    sort: 'server',
  },
  {
    key: 'aaf',
    header: 'Is AAF?',
    cell: (user) => (user.is_aaf ? 'Yes' : 'No'),
    sort: 'server',
  },
  {
    key: 'email',
    header: 'Email Address',
    cell: (user) => user.email,
    sort: 'server',
    cellSx: { wordBreak: 'break-word' },
  },
  {
    key: 'institution',
    header: 'Institution',
    cell: (user) => user.institution,
    sort: 'server',
  },
  {
    key: 'view',
    header: 'View',
    action: true,
    cell: (user) => (
      <Button
        component={RouterLink}
        to={`/users/${user.id}/`}
        size="small"
        variant="outlined"
        aria-label={`View ${user.username}`}
      >
        View
      </Button>
    ),
  },
];

/**
 * /users (admin only): every account, a page at a time. The server searches, sorts and
 * pages (a university's users run to thousands); the address keeps all of it, so Back
 * from a user's page returns to the same rows.
 */
export default function UserListPage() {
  const table = useTableState(COLUMNS, { defaultSort: { key: 'username', direction: 'asc' } });
  const q = useDebouncedValue(table.q.trim(), SEARCH_DELAY_MS);
  const users = useUserList({ ...table.serverQuery, q });

  let content;
  if (users.isPending) {
    content = <LoadingView label="Loading users…" />;
  } else if (users.isError) {
    content = <LoadFailedView error={users.error} onRetry={() => void users.refetch()} />;
  } else if (users.data.total === 0) {
    content = (
      <EmptyState>
        {q
          ? `No user matches “${q}”.`
          : 'There are no users yet. People register from the login page, or from the invitation link on the Dashboard.'}
      </EmptyState>
    );
  } else {
    content = (
      <DataTable
        label="Users"
        columns={COLUMNS}
        state={table}
        serverPage={users.data}
        rowKey={(user) => user.id}
      />
    );
  }

  return (
    <>
      <PageHeading>Manage Users</PageHeading>
      <Box sx={{ mb: 2 }}>
        <SearchField
          label="Search users"
          placeholder="Search by name, username, email or institution"
          value={table.q}
          onChange={table.setQuery}
        />
      </Box>
      {content}
    </>
  );
}
