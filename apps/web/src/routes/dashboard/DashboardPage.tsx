import { Button, Paper, Skeleton, Stack, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { errorMessages } from '../../api/client';
import { PageHeading } from '../../components/PageHeading';
import { useCurrentUser } from '../../features/auth/session-hooks';
import { isAnyMember } from '../../features/calls/call-actor';
import { useCallList } from '../../features/calls/calls.api';
import { MyProposals } from '../../features/dashboard/MyProposals';
import { ChairPanel } from '../../features/dashboard/ChairPanel';
import { MyReviews } from '../../features/dashboard/MyReviews';
import { SetupChecklist } from '../../features/dashboard/SetupChecklist';
import { usePendingReviewCount } from '../../features/reviews/reviews.api';

/**
 * `/` (spec section 2, Dashboard): a count of open calls, for committee members a count
 * of pending reviews, and the My Proposals and, for members, My Reviews tables. Above them,
 * the guided first run (issue 30): the admin's setup checklist, or a chair's first call.
 */
export default function DashboardPage() {
  const user = useCurrentUser();
  const member = isAnyMember(user);
  const name = [user.first_name, user.last_name].filter(Boolean).join(' ') || user.username;
  return (
    <>
      <PageHeading>Dashboard</PageHeading>
      <Typography sx={{ mb: 3 }}>Welcome, {name}.</Typography>
      {user.abilities.administer ? <SetupChecklist userId={user.id} /> : <ChairPanel user={user} />}
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mb: 4 }}>
        <OpenCallsPanel />
        {member && <PendingReviewsPanel />}
      </Stack>
      <MyProposals />
      {member && <MyReviews />}
    </>
  );
}

/** A count as it loads: a placeholder while counting, what went wrong if it failed. */
function countOf(
  query: { isPending: boolean; isError: boolean; error: unknown },
  count: number | undefined,
  counting: string,
): ReactNode {
  if (query.isPending) return <Skeleton width={48} role="status" aria-label={counting} />;
  if (query.isError)
    return (
      <Typography color="error" variant="body2" component="span">
        {errorMessages(query.error).join(' ')}
      </Typography>
    );
  return count ?? 0;
}

function OpenCallsPanel() {
  const calls = useCallList('open');
  return (
    <CountPanel
      title="Open calls for proposals"
      count={countOf(calls, calls.data?.length, 'Counting open calls…')}
      to="/calls"
      linkLabel="View calls"
    >
      Calls you can browse, and submit to while they are open.
    </CountPanel>
  );
}

function PendingReviewsPanel() {
  // Counted on the server: the list itself can be every proposal of every open call.
  const pending = usePendingReviewCount();
  return (
    <CountPanel
      title="Pending reviews"
      count={countOf(pending, pending.data?.total, 'Counting pending reviews…')}
      to="/pending_reviews/"
      linkLabel="View pending reviews"
    >
      Proposals you can review now and have not reviewed yet.
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
