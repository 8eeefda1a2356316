import type { MyReview } from '@merit/contract';
import { formatScore } from '@merit/domain';
import { Button, Link } from '@mui/material';
import { Link as RouterLink } from 'react-router';
import type { Column } from '../../components/table/DataTable';
import { formatCallDate } from '../calls/call-dates';
import { reviewPath } from '../reviews/review-paths';
import { useMyReviews } from '../reviews/reviews.api';
import { DashboardTable } from './DashboardTable';

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

/**
 * My Reviews on the dashboard (spec section 2), for committee members: the reviews they
 * have written, across calls, the latest change first, each with its score.
 */
export function MyReviews() {
  return (
    <DashboardTable
      id="my-reviews"
      title="My Reviews"
      noun="review"
      query={useMyReviews()}
      columns={COLUMNS}
      rowKey={(row) => row.reviewId}
      searchText={(row) => [row.proposalName, row.callName]}
      empty={
        <>
          You have not written any reviews yet. The proposals you can review are in{' '}
          <Link component={RouterLink} to="/pending_reviews/">
            My Pending Reviews
          </Link>
          .
        </>
      }
    />
  );
}
