import type { CallSummary, CommitteeMember } from '@merit/contract';
import { Box, Chip, Link, Typography } from '@mui/material';
import { Link as RouterLink } from 'react-router';
import { BackLink } from '../../components/BackLink';
import { EmptyState } from '../../components/EmptyState';
import { LoadFailedView } from '../../components/LoadFailedView';
import { LoadingView } from '../../components/LoadingView';
import { NotFoundView } from '../../components/NotFoundView';
import { PageHeading } from '../../components/PageHeading';
import { SearchParamTabs } from '../../components/SearchParamTabs';
import { DataTable, type Column } from '../../components/table/DataTable';
import { useTableState } from '../../components/table/use-table-state';
import { useIdParam } from '../../components/use-id-param';
import { useCommittee } from '../../features/committees/committees.api';
import { InvitationLink } from '../../features/dashboard/InvitationLink';
import { formatRoleDate, ROLE_LABELS } from '../../features/roles/role-dates';
import {
  BY_OPENING_DESC,
  callDateColumns,
  callNameColumn,
} from '../../features/calls/call-columns';
import { useCallList } from '../../features/calls/calls.api';

const TABS = [
  { value: 'members', label: 'Members' },
  { value: 'calls', label: 'Calls' },
] as const;

/** /committees/{committeeId}/ (admin only): tabs Members and Calls. */
export default function CommitteeDetailPage() {
  const committeeId = useIdParam('committeeId');
  if (committeeId === null) return <NotFoundView />;
  return <CommitteeDetail committeeId={committeeId} />;
}

function CommitteeDetail({ committeeId }: { committeeId: number }) {
  const committee = useCommittee(committeeId);

  if (committee.isPending) return <LoadingView label="Loading the committee…" />;
  if (committee.isError)
    return <LoadFailedView error={committee.error} onRetry={() => void committee.refetch()} />;

  return (
    <>
      <BackLink to="/committees">All committees</BackLink>
      <PageHeading>{committee.data.name}</PageHeading>
      {/* Issue 30: the link to registration naming this committee, to send to newcomers. */}
      <Box sx={{ mb: 3, maxWidth: 720 }}>
        <InvitationLink committees={[{ id: committeeId, name: committee.data.name }]} />
      </Box>
      <SearchParamTabs label="Committee" tabs={TABS}>
        {(tab) =>
          tab === 'members' ? (
            <MembersTable members={committee.data.members} />
          ) : (
            <CommitteeCalls committeeId={committeeId} />
          )
        }
      </SearchParamTabs>
    </>
  );
}

/** The committee's calls, split into Current and Closed, with their dates. */
function CommitteeCalls({ committeeId }: { committeeId: number }) {
  const calls = useCallList('all');
  if (calls.isPending) return <LoadingView label="Loading the calls…" />;
  if (calls.isError)
    return <LoadFailedView error={calls.error} onRetry={() => void calls.refetch()} />;
  const mine = calls.data.filter((call) => call.committeeId === committeeId);
  if (mine.length === 0)
    return (
      <EmptyState>
        This committee has no calls yet. Its chairs create them with Add Call for Proposal on the
        Call for Proposals page.
      </EmptyState>
    );
  return (
    <>
      <CallsTable title="Current" calls={mine.filter((call) => !call.closed)} />
      <CallsTable title="Closed" calls={mine.filter((call) => call.closed)} />
    </>
  );
}

const CALL_COLUMNS = [callNameColumn, ...callDateColumns];

function CallsTable({ title, calls }: { title: 'Current' | 'Closed'; calls: CallSummary[] }) {
  // Two tables on one page: each keeps its own sort and page in the address.
  const table = useTableState(CALL_COLUMNS, {
    defaultSort: BY_OPENING_DESC,
    prefix: title.toLowerCase(),
  });
  return (
    <Box component="section" sx={{ mb: 3 }}>
      <Typography variant="h6" component="h2" gutterBottom>
        {title}
      </Typography>
      {calls.length === 0 ? (
        <Typography color="text.secondary">No {title.toLowerCase()} calls.</Typography>
      ) : (
        <DataTable
          label={`${title} calls`}
          columns={CALL_COLUMNS}
          state={table}
          rows={calls}
          rowKey={(call) => call.id}
        />
      )}
    </Box>
  );
}

const MEMBER_COLUMNS: readonly Column<CommitteeMember>[] = [
  {
    key: 'name',
    header: 'Name',
    cell: (member) => (
      <>
        <Link component={RouterLink} to={`/users/${member.userId}/`}>
          {member.name}
        </Link>
        {!member.is_active && <Chip size="small" label="Deactivated" sx={{ ml: 1 }} />}
      </>
    ),
    sort: (member) => member.name,
  },
  {
    key: 'email',
    header: 'Email',
    cell: (member) => member.email,
    sort: (member) => member.email,
    cellSx: { wordBreak: 'break-word' },
  },
  {
    key: 'role',
    header: 'Role',
    cell: (member) => ROLE_LABELS[member.role],
    sort: (member) => ROLE_LABELS[member.role],
  },
  {
    key: 'from',
    header: 'From',
    cell: (member) => formatRoleDate(member.commencement),
    sort: (member) => new Date(member.commencement),
  },
  {
    key: 'until',
    header: 'Until',
    cell: (member) => formatRoleDate(member.termination),
    sort: (member) => new Date(member.termination),
  },
];

function MembersTable({ members }: { members: CommitteeMember[] }) {
  const table = useTableState(MEMBER_COLUMNS, { defaultSort: { key: 'name', direction: 'asc' } });
  if (members.length === 0) {
    return (
      <EmptyState>
        This committee has no current members. Give users a role on it from{' '}
        <Link component={RouterLink} to="/users">
          Manage Users
        </Link>
        .
      </EmptyState>
    );
  }
  return (
    <DataTable
      label="Current members"
      columns={MEMBER_COLUMNS}
      state={table}
      rows={members}
      rowKey={(member) => member.roleId}
    />
  );
}
