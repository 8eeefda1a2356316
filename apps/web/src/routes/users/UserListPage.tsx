import {
  Box,
  Button,
  Chip,
  Paper,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TablePagination,
  TableRow,
  Typography,
} from '@mui/material';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { EmptyState } from '../../components/EmptyState';
import { LoadFailedView } from '../../components/LoadFailedView';
import { LoadingView } from '../../components/LoadingView';
import { PageHeading } from '../../components/PageHeading';
import { SearchField } from '../../components/SearchField';
import { useDebouncedValue } from '../../components/use-debounced-value';
import { usePagedRows } from '../../components/use-paged-rows';
import { useUserList } from '../../features/admin/admin.api';
import { displayName } from '../../features/admin/role-dates';

/** How long typing must pause before the list is searched again. */
const SEARCH_DELAY_MS = 300;

/** /users (admin only): every account, searched by the server. */
export default function UserListPage() {
  const [params, setParams] = useSearchParams();
  // In the address, so Back from a user's page returns to the same search.
  const search = params.get('search') ?? '';
  const query = useDebouncedValue(search.trim(), SEARCH_DELAY_MS);
  const users = useUserList(query);
  const paged = usePagedRows(users.data ?? []);

  const setSearch = (value: string) => {
    paged.resetPage();
    setParams(value ? { search: value } : {}, { replace: true });
  };

  let content;
  if (users.isPending) {
    content = <LoadingView label="Loading users…" />;
  } else if (users.isError) {
    content = <LoadFailedView error={users.error} onRetry={() => void users.refetch()} />;
  } else if (users.data.length === 0) {
    content = (
      <EmptyState>{query ? `No user matches “${query}”.` : 'There are no users yet.'}</EmptyState>
    );
  } else {
    content = (
      <TableContainer component={Paper} variant="outlined">
        <Table aria-label="Users">
          <TableHead>
            <TableRow>
              <TableCell>User Name</TableCell>
              <TableCell>Is AAF?</TableCell>
              <TableCell>Email Address</TableCell>
              <TableCell>Institution</TableCell>
              <TableCell align="right">View</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {paged.rows.map((user) => (
              <TableRow key={user.id} hover>
                <TableCell>
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
                </TableCell>
                <TableCell>{user.is_aaf ? 'Yes' : 'No'}</TableCell>
                <TableCell sx={{ wordBreak: 'break-word' }}>{user.email}</TableCell>
                <TableCell>{user.institution}</TableCell>
                <TableCell align="right">
                  <Button
                    component={RouterLink}
                    to={`/users/${user.id}/`}
                    size="small"
                    variant="outlined"
                    aria-label={`View ${user.username}`}
                  >
                    View
                  </Button>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
        {paged.paged && <TablePagination {...paged.pagination} />}
      </TableContainer>
    );
  }

  return (
    <>
      <PageHeading>Manage Users</PageHeading>
      <Box sx={{ mb: 2 }}>
        <SearchField
          label="Search users"
          placeholder="Search by name, username, email or institution"
          value={search}
          onChange={setSearch}
        />
      </Box>
      {content}
    </>
  );
}
