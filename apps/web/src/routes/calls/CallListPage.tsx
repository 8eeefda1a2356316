import type { CallSummary } from '@merit/contract';
import AddIcon from '@mui/icons-material/Add';
import { Button, Stack, ToggleButton, ToggleButtonGroup } from '@mui/material';
import { Link as RouterLink, useLocation, useNavigate, useSearchParams } from 'react-router';
import { EmptyState } from '../../components/EmptyState';
import { LoadFailedView } from '../../components/LoadFailedView';
import { LoadingView } from '../../components/LoadingView';
import { PageHeading } from '../../components/PageHeading';
import { SearchField } from '../../components/SearchField';
import { DataTable, type Column } from '../../components/table/DataTable';
import { searchRows } from '../../components/table/sort-rows';
import { useTableState } from '../../components/table/use-table-state';
import { useCurrentUser } from '../../features/auth/session-hooks';
import { canStartCall } from '../../features/calls/call-actor';
import {
  BY_OPENING_DESC,
  callDateColumns,
  callNameColumn,
} from '../../features/calls/call-columns';
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

/** What a person who cannot create calls does when a list is empty. */
const NEXT_FOR_APPLICANTS: Record<CallFilter, string> = {
  open: 'Calls appear here when a committee opens one; History lists the closed ones.',
  closed: 'Calls appear here once they close; Current lists the open ones.',
  all: 'Calls appear here when a committee opens one.',
};

/** Which list the address names: /calls/closed and /calls/all/, otherwise Current. */
function listOf(pathname: string) {
  const path = pathname.replace(/\/+$/, '');
  if (path === '/calls/closed') return LISTS[1]!;
  if (path === '/calls/all') return LISTS[2]!;
  return LISTS[0]!;
}

const committeeColumn: Column<CallSummary> = {
  key: 'committee',
  header: 'Committee',
  cell: (call) => call.committeeName,
  sort: (call) => call.committeeName,
};

const myRolesColumn: Column<CallSummary> = {
  key: 'roles',
  header: 'My Roles',
  cell: (call) => (call.myRoles.length > 0 ? call.myRoles.join(', ') : '—'),
  sort: (call) => call.myRoles.join(', '),
};

const actionsColumn: Column<CallSummary> = {
  key: 'actions',
  header: 'Actions',
  action: true,
  cell: (call) => (
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
  ),
};

/** /calls, /calls/closed and /calls/all/: the calls every signed-in user may browse. */
export default function CallListPage() {
  const user = useCurrentUser();
  const list = listOf(useLocation().pathname);
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const calls = useCallList(list.filter);
  const columns = [
    callNameColumn,
    ...(user.is_admin ? [committeeColumn] : []),
    myRolesColumn,
    ...callDateColumns,
    actionsColumn,
  ];
  const table = useTableState(columns, { defaultSort: BY_OPENING_DESC });
  const shown = searchRows(calls.data ?? [], table.q, (call) => [
    call.name,
    user.is_admin ? call.committeeName : null,
  ]);

  let content;
  if (calls.isPending) {
    content = <LoadingView label="Loading calls for proposals…" />;
  } else if (calls.isError) {
    content = <LoadFailedView error={calls.error} onRetry={() => void calls.refetch()} />;
  } else if (calls.data.length === 0) {
    content = (
      <EmptyState>
        {`${list.empty} ${canStartCall(user) ? 'Create one with Add Call for Proposal.' : NEXT_FOR_APPLICANTS[list.filter]}`}
      </EmptyState>
    );
  } else if (shown.length === 0) {
    content = <EmptyState>{`No call matches “${table.q.trim()}”.`}</EmptyState>;
  } else {
    content = (
      <DataTable
        label={`${list.label} calls for proposals`}
        columns={columns}
        state={table}
        rows={shown}
        rowKey={(call) => call.id}
      />
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
            // The search and sort carry over to the other list; its first page opens.
            const search = new URLSearchParams(params);
            search.delete(table.keys.page);
            void navigate({ pathname: next.path, search: search.toString() });
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
          value={table.q}
          onChange={table.setQuery}
        />
      </Stack>
      {content}
    </>
  );
}
