import type { CallSummary } from '@merit/contract';
import AddIcon from '@mui/icons-material/Add';
import {
  Box,
  Button,
  Link,
  Paper,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TablePagination,
  TableRow,
  ToggleButton,
  ToggleButtonGroup,
} from '@mui/material';
import { useState } from 'react';
import { Link as RouterLink, useLocation, useNavigate } from 'react-router';
import { EmptyState } from '../../components/EmptyState';
import { LoadFailedView } from '../../components/LoadFailedView';
import { LoadingView } from '../../components/LoadingView';
import { PageHeading } from '../../components/PageHeading';
import { SearchField } from '../../components/SearchField';
import { usePagedRows } from '../../components/use-paged-rows';
import { useCurrentUser } from '../../features/auth/session-hooks';
import { canStartCall } from '../../features/calls/call-actor';
import { formatCallDate } from '../../features/calls/call-dates';
import { useCallList, type CallFilter } from '../../features/calls/calls.api';

const LISTS: readonly { filter: CallFilter; path: string; label: string; empty: string }[] = [
  {
    filter: 'open',
    path: '/calls',
    label: 'Current',
    empty: 'There are no open calls for proposals.',
  },
  {
    filter: 'closed',
    path: '/calls/closed',
    label: 'History',
    empty: 'There are no closed calls for proposals.',
  },
  {
    filter: 'all',
    path: '/calls/all/',
    label: 'All',
    empty: 'There are no calls for proposals yet.',
  },
];

/** Which list the address names: /calls/closed and /calls/all/, otherwise Current. */
function listOf(pathname: string) {
  const path = pathname.replace(/\/+$/, '');
  if (path === '/calls/closed') return LISTS[1]!;
  if (path === '/calls/all') return LISTS[2]!;
  return LISTS[0]!;
}

/** Newest opening first (spec section 2); the server sends them so, this keeps it true. */
const byOpeningDesc = (a: CallSummary, b: CallSummary) =>
  Date.parse(b.commencement) - Date.parse(a.commencement);

/** /calls, /calls/closed and /calls/all/: the calls every signed-in user may browse. */
export default function CallListPage() {
  const user = useCurrentUser();
  const list = listOf(useLocation().pathname);
  const navigate = useNavigate();
  const calls = useCallList(list.filter);
  const [search, setSearch] = useState('');
  const needle = search.trim().toLowerCase();
  const shown = (calls.data ?? [])
    .filter(
      (call) =>
        call.name.toLowerCase().includes(needle) ||
        (user.is_admin && call.committeeName.toLowerCase().includes(needle)),
    )
    .sort(byOpeningDesc);
  const paged = usePagedRows(shown);

  let content;
  if (calls.isPending) {
    content = <LoadingView label="Loading calls for proposals…" />;
  } else if (calls.isError) {
    content = <LoadFailedView error={calls.error} onRetry={() => void calls.refetch()} />;
  } else if (calls.data.length === 0) {
    content = <EmptyState>{list.empty}</EmptyState>;
  } else if (shown.length === 0) {
    content = <EmptyState>{`No call matches “${search.trim()}”.`}</EmptyState>;
  } else {
    content = (
      <TableContainer component={Paper} variant="outlined">
        <Table aria-label={`${list.label} calls for proposals`} size="small">
          <TableHead>
            <TableRow>
              <TableCell>Name</TableCell>
              {user.is_admin && <TableCell>Committee</TableCell>}
              <TableCell>My Roles</TableCell>
              <TableCell>Submission Open</TableCell>
              <TableCell>Submission Deadline</TableCell>
              <TableCell>Review Start</TableCell>
              <TableCell>Review Deadline</TableCell>
              <TableCell align="right">
                <Box component="span" sx={{ whiteSpace: 'nowrap' }}>
                  Actions
                </Box>
              </TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {paged.rows.map((call) => (
              <TableRow key={call.id} hover>
                <TableCell sx={{ fontWeight: 500 }}>
                  <Link component={RouterLink} to={`/calls/${call.id}/`}>
                    {call.name}
                  </Link>
                </TableCell>
                {user.is_admin && <TableCell>{call.committeeName}</TableCell>}
                <TableCell>{call.myRoles.length > 0 ? call.myRoles.join(', ') : '—'}</TableCell>
                <TableCell>{formatCallDate(call.commencement)}</TableCell>
                <TableCell>{formatCallDate(call.termination)}</TableCell>
                <TableCell>{formatCallDate(call.reviewCommencement)}</TableCell>
                <TableCell>{formatCallDate(call.reviewTermination)}</TableCell>
                <TableCell align="right">
                  <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
                    <Button
                      component={RouterLink}
                      to={`/calls/${call.id}/`}
                      size="small"
                      variant="outlined"
                      aria-label={`View Call ${call.name}`}
                      sx={{ whiteSpace: 'nowrap' }}
                    >
                      View Call
                    </Button>
                    <Button
                      component={RouterLink}
                      to={`/calls/${call.id}/proposals/`}
                      size="small"
                      aria-label={`View Proposals of ${call.name}`}
                      sx={{ whiteSpace: 'nowrap' }}
                    >
                      View Proposals
                    </Button>
                  </Stack>
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
      <PageHeading
        actions={
          canStartCall(user) && (
            <Button
              component={RouterLink}
              to="/calls/new"
              variant="contained"
              startIcon={<AddIcon />}
            >
              Add Call for Proposal
            </Button>
          )
        }
      >
        Call for Proposals
      </PageHeading>
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={2}
        sx={{ mb: 2, alignItems: { sm: 'center' }, justifyContent: 'space-between' }}
      >
        <ToggleButtonGroup
          exclusive
          size="small"
          color="primary"
          value={list.filter}
          aria-label="Which calls to list"
          onChange={(_event, filter: CallFilter | null) => {
            const next = LISTS.find((candidate) => candidate.filter === filter);
            if (!next) return;
            paged.resetPage();
            void navigate(next.path);
          }}
        >
          {LISTS.map(({ filter, label }) => (
            <ToggleButton key={filter} value={filter} sx={{ px: 2 }}>
              {label}
            </ToggleButton>
          ))}
        </ToggleButtonGroup>
        <SearchField
          label="Search calls"
          placeholder={user.is_admin ? 'Search by name or committee' : 'Search by name'}
          value={search}
          onChange={(value) => {
            paged.resetPage();
            setSearch(value);
          }}
        />
      </Stack>
      {content}
    </>
  );
}
