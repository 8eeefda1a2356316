import type { MyProposal } from '@merit/contract';
import { Button, Link } from '@mui/material';
import { Link as RouterLink } from 'react-router';
import type { Column } from '../../components/table/DataTable';
import { formatCallDate } from '../calls/call-dates';
import { useMyProposals } from '../proposals/proposals.api';
import { DashboardTable } from './DashboardTable';
import { OpenCallsToApply } from './OpenCallsToApply';

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

/**
 * My Proposals on the dashboard (spec section 2): the proposals the user writes, as
 * author or collaborator, across calls. With none yet, the open calls to apply to.
 */
export function MyProposals() {
  return (
    <DashboardTable
      id="my-proposals"
      title="My Proposals"
      noun="proposal"
      query={useMyProposals()}
      columns={COLUMNS}
      rowKey={(row) => row.id}
      searchText={(row) => [row.proposalName, row.callName, row.proposalTypeName]}
      emptyView={<OpenCallsToApply />}
    />
  );
}
