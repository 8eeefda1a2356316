import type { MyProposal } from '@merit/contract';
import { Box, Button, Link } from '@mui/material';
import { Link as RouterLink } from 'react-router';
import { EmptyState } from '../../components/EmptyState';
import { LoadFailedView } from '../../components/LoadFailedView';
import { LoadingView } from '../../components/LoadingView';
import { SearchField } from '../../components/SearchField';
import { Section } from '../../components/Section';
import { DataTable, type Column } from '../../components/table/DataTable';
import { searchRows } from '../../components/table/sort-rows';
import { useTableState } from '../../components/table/use-table-state';
import { formatCallDate } from '../../features/calls/call-dates';
import { useMyProposals } from '../../features/proposals/proposals.api';

const editorPath = (row: MyProposal) => `/calls/${row.callId}/proposals/${row.id}/`;

const COLUMNS: readonly Column<MyProposal>[] = [
  {
    key: 'call',
    header: 'Call for Proposal',
    cell: (row) => (
      <Link component={RouterLink} to={`/calls/${row.callId}/`}>
        {row.callName}
      </Link>
    ),
    sort: (row) => row.callName,
  },
  {
    key: 'proposal',
    header: 'Proposal',
    cell: (row) => row.proposalName,
    sort: (row) => row.proposalName,
  },
  {
    key: 'type',
    header: 'Type',
    cell: (row) => row.proposalTypeName,
    sort: (row) => row.proposalTypeName,
  },
  { key: 'role', header: 'My Role', cell: (row) => row.role, sort: (row) => row.role },
  { key: 'state', header: 'State', cell: (row) => row.state, sort: (row) => row.state },
  {
    key: 'lastModified',
    header: 'Last modified',
    cell: (row) => formatCallDate(row.lastModified),
    sort: (row) => new Date(row.lastModified),
  },
  {
    key: 'open',
    header: 'Open',
    action: true,
    cell: (row) => (
      <Button
        component={RouterLink}
        to={editorPath(row)}
        size="small"
        variant="outlined"
        aria-label={`Open ${row.proposalName}`}
      >
        Open
      </Button>
    ),
  },
];

/** The latest work first: what an author returns to the dashboard for. */
const BY_LAST_MODIFIED = { key: 'lastModified', direction: 'desc' } as const;

/**
 * My Proposals on the dashboard (spec section 2): the proposals the user writes, as
 * author or collaborator, across calls. With none yet, it points to the open calls.
 */
export function MyProposals() {
  const proposals = useMyProposals();
  const table = useTableState(COLUMNS, { defaultSort: BY_LAST_MODIFIED, prefix: 'proposals' });
  const shown = searchRows(proposals.data ?? [], table.q, (row) => [
    row.proposalName,
    row.callName,
    row.proposalTypeName,
  ]);

  let content;
  if (proposals.isPending) {
    content = <LoadingView label="Loading your proposals…" />;
  } else if (proposals.isError) {
    content = <LoadFailedView error={proposals.error} onRetry={() => void proposals.refetch()} />;
  } else if (proposals.data.length === 0) {
    content = (
      <EmptyState>
        You have no proposals yet. To start one, choose a call among the{' '}
        <Link component={RouterLink} to="/calls">
          open calls for proposals
        </Link>{' '}
        and use Add Proposal.
      </EmptyState>
    );
  } else if (shown.length === 0) {
    content = <EmptyState>{`No proposal matches “${table.q.trim()}”.`}</EmptyState>;
  } else {
    content = (
      <DataTable
        labelledBy="my-proposals"
        columns={COLUMNS}
        state={table}
        rows={shown}
        rowKey={(row) => row.id}
      />
    );
  }

  return (
    <Section
      id="my-proposals"
      title="My Proposals"
      actions={
        (proposals.data?.length ?? 0) > 0 && (
          <Box>
            <SearchField label="Search my proposals" value={table.q} onChange={table.setQuery} />
          </Box>
        )
      }
    >
      {content}
    </Section>
  );
}
