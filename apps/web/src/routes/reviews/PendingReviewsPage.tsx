import type { PendingReview } from '@merit/contract';
import { Box, Button, Stack, Typography } from '@mui/material';
import { Link as RouterLink } from 'react-router';
import { errorMessages } from '../../api/client';
import { AccessDeniedView } from '../../components/AccessDeniedView';
import { EmptyState } from '../../components/EmptyState';
import { LoadFailedView } from '../../components/LoadFailedView';
import { LoadingView } from '../../components/LoadingView';
import { PageHeading } from '../../components/PageHeading';
import { SearchField } from '../../components/SearchField';
import { DataTable, type Column } from '../../components/table/DataTable';
import { searchRows } from '../../components/table/sort-rows';
import { useTableState } from '../../components/table/use-table-state';
import { useCurrentUser } from '../../features/auth/session-hooks';
import { isAnyMember } from '../../features/calls/call-actor';
import { formatCallDate } from '../../features/calls/call-dates';
import { newReviewPath } from '../../features/reviews/review-paths';
import { usePendingReviewCount, usePendingReviews } from '../../features/reviews/reviews.api';

const COLUMNS: readonly Column<PendingReview>[] = [
  {
    key: 'committee',
    header: 'Committee',
    cell: (row) => row.committeeName,
    sort: (row) => row.committeeName,
  },
  {
    key: 'call',
    header: 'Call for Proposal Name',
    cell: (row) => row.callName,
    sort: (row) => row.callName,
  },
  {
    key: 'proposal',
    header: 'Proposal',
    cell: (row) => row.proposalName,
    sort: (row) => row.proposalName,
  },
  {
    key: 'deadline',
    header: 'Review Deadline',
    cell: (row) => formatCallDate(row.reviewDeadline),
    sort: (row) => new Date(row.reviewDeadline),
  },
  {
    // Every row is a review not written yet (a saved one leaves the list): the link opens
    // the review page, which shows the proposal above the review forms (issue 30).
    key: 'review',
    header: 'Review',
    action: true,
    cell: (row) => (
      <Button
        component={RouterLink}
        to={newReviewPath(row.callId, row.proposalId)}
        size="small"
        variant="outlined"
        aria-label={`Write Review ${row.proposalName}`}
        sx={{ whiteSpace: 'nowrap' }}
      >
        Write Review
      </Button>
    ),
  },
];

/** The nearest deadline first: what a reviewer has to do next. */
const BY_DEADLINE = { key: 'deadline', direction: 'asc' } as const;

/**
 * /pending_reviews/ (spec section 2, Reviews): My Pending Reviews, every proposal the
 * member may review now and has not. For committee members only; the server decides who
 * is one now (the `review` ability of their details).
 */
export default function PendingReviewsPage() {
  const user = useCurrentUser();
  if (!isAnyMember(user)) return <AccessDeniedView />;
  return <PendingReviews />;
}

function PendingReviews() {
  const pending = usePendingReviews();
  // Only when there is more than a page: how many in all.
  const count = usePendingReviewCount(pending.hasNextPage);
  const table = useTableState(COLUMNS, { defaultSort: BY_DEADLINE });
  const rows = pending.data ?? [];
  const shown = searchRows(rows, table.q, (row) => [
    row.committeeName,
    row.callName,
    row.proposalName,
  ]);

  let content;
  if (pending.isPending) {
    content = <LoadingView label="Loading your pending reviews…" />;
  } else if (pending.isError && !pending.isFetchNextPageError) {
    content = <LoadFailedView error={pending.error} onRetry={() => void pending.refetch()} />;
  } else if (rows.length === 0) {
    content = (
      <EmptyState>
        You have no reviews to do now. Proposals appear here once they are submitted, while their
        call’s review period is open. The reviews you wrote are in My Reviews on the Dashboard.
      </EmptyState>
    );
  } else if (shown.length === 0) {
    content = <EmptyState>{`No pending review matches “${table.q.trim()}”.`}</EmptyState>;
  } else {
    content = (
      <DataTable
        label="My Pending Reviews"
        columns={COLUMNS}
        state={table}
        rows={shown}
        rowKey={(row) => row.proposalId}
      />
    );
  }

  return (
    <>
      <PageHeading>My Pending Reviews</PageHeading>
      {rows.length > 0 && (
        <Box sx={{ mb: 2 }}>
          <SearchField label="Search pending reviews" value={table.q} onChange={table.setQuery} />
        </Box>
      )}
      {content}
      {pending.hasNextPage && (
        <Stack direction="row" spacing={2} sx={{ mt: 2, alignItems: 'center', flexWrap: 'wrap' }}>
          <Typography variant="body2" color="text.secondary">
            {count.data
              ? `Showing ${rows.length} of ${count.data.total} pending reviews.`
              : `Showing the first ${rows.length} pending reviews.`}
          </Typography>
          <Button
            variant="outlined"
            size="small"
            onClick={() => void pending.fetchNextPage()}
            disabled={pending.isFetchingNextPage}
          >
            {pending.isFetchingNextPage ? 'Loading more…' : 'Show more'}
          </Button>
          {pending.isFetchNextPageError && (
            <Typography variant="body2" color="error" role="alert">
              {errorMessages(pending.error).join(' ')}
            </Typography>
          )}
        </Stack>
      )}
    </>
  );
}
