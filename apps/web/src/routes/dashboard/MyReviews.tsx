import type { MyReview } from '@merit/contract';
import { formatScore } from '@merit/domain';
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
import { reviewPath } from '../../features/reviews/review-paths';
import { useMyReviews } from '../../features/reviews/reviews.api';

const COLUMNS: readonly Column<MyReview>[] = [
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
    key: 'score',
    header: 'Score',
    cell: (row) => formatScore(row.score),
    sort: (row) => row.score,
  },
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
        to={reviewPath(row.callId, row.proposalId, row.reviewId)}
        size="small"
        variant="outlined"
        aria-label={`Open the review of ${row.proposalName}`}
      >
        Open
      </Button>
    ),
  },
];

const BY_LAST_MODIFIED = { key: 'lastModified', direction: 'desc' } as const;

/**
 * My Reviews on the dashboard (spec section 2), for committee members: the reviews they
 * have written, across calls, the latest change first, each with its score.
 */
export function MyReviews() {
  const reviews = useMyReviews();
  const table = useTableState(COLUMNS, { defaultSort: BY_LAST_MODIFIED, prefix: 'reviews' });
  const shown = searchRows(reviews.data ?? [], table.q, (row) => [row.proposalName, row.callName]);

  let content;
  if (reviews.isPending) {
    content = <LoadingView label="Loading your reviews…" />;
  } else if (reviews.isError) {
    content = <LoadFailedView error={reviews.error} onRetry={() => void reviews.refetch()} />;
  } else if (reviews.data.length === 0) {
    content = (
      <EmptyState>
        You have not written any reviews yet. The proposals you can review are in{' '}
        <Link component={RouterLink} to="/pending_reviews/">
          My Pending Reviews
        </Link>
        .
      </EmptyState>
    );
  } else if (shown.length === 0) {
    content = <EmptyState>{`No review matches “${table.q.trim()}”.`}</EmptyState>;
  } else {
    content = (
      <DataTable
        labelledBy="my-reviews"
        columns={COLUMNS}
        state={table}
        rows={shown}
        rowKey={(row) => row.reviewId}
      />
    );
  }

  return (
    <Section
      id="my-reviews"
      title="My Reviews"
      actions={
        (reviews.data?.length ?? 0) > 0 && (
          <Box>
            <SearchField label="Search my reviews" value={table.q} onChange={table.setQuery} />
          </Box>
        )
      }
    >
      {content}
    </Section>
  );
}
