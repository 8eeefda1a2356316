import {
  Box,
  Button,
  Paper,
  Skeleton,
  Stack,
  Table,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { errorMessages } from '../../api/client';
import { EmptyState } from '../../components/EmptyState';
import { PageHeading } from '../../components/PageHeading';
import { Section } from '../../components/Section';
import { useCurrentUser } from '../../features/auth/session-hooks';
import { isAnyMember } from '../../features/calls/call-actor';
import { useCallList } from '../../features/calls/calls.api';
import { MyProposals } from './MyProposals';

/**
 * `/` (spec section 2, Dashboard): a count of open calls, for committee members a count
 * of pending reviews, and the My Proposals and My Reviews tables. Reviews arrive with
 * their own feature; until then nobody can have any, so the panels say so.
 */
export default function DashboardPage() {
  const user = useCurrentUser();
  const member = isAnyMember(user);
  const name = [user.first_name, user.last_name].filter(Boolean).join(' ') || user.username;
  return (
    <>
      <PageHeading>Dashboard</PageHeading>
      <Typography sx={{ mb: 3 }}>Welcome, {name}.</Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mb: 4 }}>
        <OpenCallsPanel />
        {member && (
          <CountPanel title="Pending reviews" count={0} to="/pending_reviews/" linkLabel="View">
            Reviews you can do now.
          </CountPanel>
        )}
      </Stack>
      <MyProposals />
      {member && (
        <Section id="my-reviews" title="My Reviews">
          <TableLayout
            label="My Reviews"
            columns={['Call for Proposal', 'Proposal', 'Review Deadline', 'View']}
            empty="You have no reviews to do."
          />
        </Section>
      )}
    </>
  );
}

function OpenCallsPanel() {
  const calls = useCallList('open');
  let count: ReactNode;
  if (calls.isPending)
    count = <Skeleton width={48} role="status" aria-label="Counting open calls…" />;
  else if (calls.isError)
    count = (
      <Typography color="error" variant="body2" component="span">
        {errorMessages(calls.error).join(' ')}
      </Typography>
    );
  else count = calls.data.length;
  return (
    <CountPanel title="Open calls for proposals" count={count} to="/calls" linkLabel="View calls">
      Calls you can browse, and submit to while they are open.
    </CountPanel>
  );
}

function CountPanel({
  title,
  count,
  to,
  linkLabel,
  children,
}: {
  title: string;
  count: ReactNode;
  to: string;
  linkLabel: string;
  children: string;
}) {
  return (
    <Paper variant="outlined" sx={{ p: 2.5, flex: 1, maxWidth: { sm: 360 } }}>
      <Typography color="text.secondary" component="h2" variant="subtitle1">
        {title}
      </Typography>
      <Typography variant="h3" component="p" sx={{ my: 1 }}>
        {count}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {children}
      </Typography>
      <Button component={RouterLink} to={to} variant="outlined" size="small">
        {linkLabel}
      </Button>
    </Paper>
  );
}

/** A table's columns above its empty state, so the layout is there before its data. */
function TableLayout({
  label,
  columns,
  empty,
}: {
  label: string;
  columns: readonly string[];
  empty: string;
}) {
  return (
    <Box>
      <TableContainer component={Paper} variant="outlined" sx={{ mb: 1 }}>
        <Table size="small" aria-label={label}>
          <TableHead>
            <TableRow>
              {columns.map((column) => (
                <TableCell key={column}>{column}</TableCell>
              ))}
            </TableRow>
          </TableHead>
        </Table>
      </TableContainer>
      <EmptyState>{empty}</EmptyState>
    </Box>
  );
}
