import type { CallSummary, CommitteeMember } from '@merit/contract';
import {
  Box,
  Chip,
  Link,
  Paper,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { Link as RouterLink } from 'react-router';
import { BackLink } from '../../components/BackLink';
import { EmptyState } from '../../components/EmptyState';
import { LoadFailedView } from '../../components/LoadFailedView';
import { LoadingView } from '../../components/LoadingView';
import { NotFoundView } from '../../components/NotFoundView';
import { PageHeading } from '../../components/PageHeading';
import { SearchParamTabs } from '../../components/SearchParamTabs';
import { useIdParam } from '../../components/use-id-param';
import { useCommittee } from '../../features/admin/admin.api';
import { formatRoleDate, ROLE_LABELS } from '../../features/admin/role-dates';
import { useCallList } from '../../features/calls/calls.api';
import { formatCallDate } from '../../features/calls/call-dates';

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
  if (mine.length === 0) return <EmptyState>This committee has no calls yet.</EmptyState>;
  return (
    <>
      <CallsTable title="Current" calls={mine.filter((call) => !call.closed)} />
      <CallsTable title="Closed" calls={mine.filter((call) => call.closed)} />
    </>
  );
}

function CallsTable({ title, calls }: { title: string; calls: CallSummary[] }) {
  return (
    <Box component="section" sx={{ mb: 3 }}>
      <Typography variant="h6" component="h2" gutterBottom>
        {title}
      </Typography>
      {calls.length === 0 ? (
        <Typography color="text.secondary">No {title.toLowerCase()} calls.</Typography>
      ) : (
        <TableContainer component={Paper} variant="outlined">
          <Table aria-label={`${title} calls`}>
            <TableHead>
              <TableRow>
                <TableCell>Name</TableCell>
                <TableCell>Submission open</TableCell>
                <TableCell>Submission deadline</TableCell>
                <TableCell>Review start</TableCell>
                <TableCell>Review deadline</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {calls.map((call) => (
                <TableRow key={call.id}>
                  <TableCell>
                    <Link component={RouterLink} to={`/calls/${call.id}/`}>
                      {call.name}
                    </Link>
                  </TableCell>
                  <TableCell>{formatCallDate(call.commencement)}</TableCell>
                  <TableCell>{formatCallDate(call.termination)}</TableCell>
                  <TableCell>{formatCallDate(call.reviewCommencement)}</TableCell>
                  <TableCell>{formatCallDate(call.reviewTermination)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
    </Box>
  );
}

function MembersTable({ members }: { members: CommitteeMember[] }) {
  if (members.length === 0) {
    return (
      <EmptyState>
        This committee has no current members. Give users a role on it from Manage Users.
      </EmptyState>
    );
  }
  return (
    <TableContainer component={Paper} variant="outlined">
      <Table aria-label="Current members">
        <TableHead>
          <TableRow>
            <TableCell>Name</TableCell>
            <TableCell>Email</TableCell>
            <TableCell>Role</TableCell>
            <TableCell>From</TableCell>
            <TableCell>Until</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {members.map((member) => (
            <TableRow key={member.roleId}>
              <TableCell>
                <Link component={RouterLink} to={`/users/${member.userId}/`}>
                  {member.name}
                </Link>
                {!member.is_active && <Chip size="small" label="Deactivated" sx={{ ml: 1 }} />}
              </TableCell>
              <TableCell sx={{ wordBreak: 'break-word' }}>{member.email}</TableCell>
              <TableCell>{ROLE_LABELS[member.role]}</TableCell>
              <TableCell>{formatRoleDate(member.commencement)}</TableCell>
              <TableCell>{formatRoleDate(member.termination)}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
