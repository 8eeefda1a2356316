import type { ProposalReviewList, ReviewSummary } from '@merit/contract';
import { formatScore, RESULT_SCORE } from '@merit/domain';
import DownloadIcon from '@mui/icons-material/Download';
import {
  Box,
  Button,
  List,
  ListItem,
  ListItemText,
  Paper,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
} from '@mui/material';
import { Link as RouterLink } from 'react-router';
import { BackLink } from '../../components/BackLink';
import { EmptyState } from '../../components/EmptyState';
import { LoadFailedView } from '../../components/LoadFailedView';
import { LoadingView } from '../../components/LoadingView';
import { NotFoundView } from '../../components/NotFoundView';
import { PageHeading } from '../../components/PageHeading';
import { Section } from '../../components/Section';
import { DataTable, type Column } from '../../components/table/DataTable';
import { useTableState } from '../../components/table/use-table-state';
import { useIdParam } from '../../components/use-id-param';
import { formatCallDate } from '../../features/calls/call-dates';
import { isDeclarationRequired } from '../../features/conflicts/conflicts.api';
import { DeclarationGate } from '../../features/conflicts/DeclarationGate';
import { useCall } from '../../features/calls/calls.api';
import { csvBlob } from '../../features/files/csv';
import { saveBlob } from '../../features/files/downloads';
import { reviewPath } from '../../features/reviews/review-paths';
import { scoreLabels } from '../../features/reviews/review-forms';
import {
  reviewSummaryCsv,
  reviewSummaryFileName,
  scoreFieldsOf,
} from '../../features/reviews/review-summary-csv';
import { useProposalReviews, useReviewFormOrder } from '../../features/reviews/reviews.api';

/**
 * /calls/{callId}/proposals/{proposalId}/reviews/ (spec section 2, Reviews): the reviews
 * of a proposal that the caller may see, each with Edit or View; its reviewers; and for
 * chairs (the server sends them `totals`) each review's scores, the Review Totals and the
 * Review Summary CSV.
 */
export default function ReviewListPage() {
  const callId = useIdParam('callId');
  const proposalId = useIdParam('proposalId');
  if (callId === null || proposalId === null) return <NotFoundView />;
  return <ReviewListView callId={callId} proposalId={proposalId} />;
}

function ReviewListView({ callId, proposalId }: { callId: number; proposalId: number }) {
  const list = useProposalReviews(callId, proposalId);
  // Only to name the score fields as their forms do: the list works without it.
  const order = useReviewFormOrder(callId);

  if (list.isPending || order.isPending) return <LoadingView label="Loading the reviews…" />;
  // A member who must first say whether they have a conflict of interest with it.
  if (list.isError && isDeclarationRequired(list.error))
    return <DeclarationGate proposalId={proposalId} callId={callId} />;
  if (list.isError)
    return <LoadFailedView error={list.error} onRetry={() => void list.refetch()} />;
  return <ReviewList data={list.data} labels={scoreLabels(order.data)} />;
}

function ReviewList({
  data,
  labels,
}: {
  data: ProposalReviewList;
  labels: ReadonlyMap<string, string>;
}) {
  const { callId, proposalId, reviews, reviewers, totals } = data;
  const chair = totals !== undefined;
  // The download is named by the call (its page has loaded it already, most often); if
  // the call cannot be read, by the proposal alone.
  const call = useCall(callId);
  const callName = call.data?.name ?? '';
  const fields = scoreFieldsOf(reviews);
  const label = (field: string) => labels.get(field) ?? field;

  const columns: Column<ReviewSummary>[] = [
    { key: 'reviewer', header: 'Reviewer', cell: (row) => row.author, sort: (row) => row.author },
    // Scores are for chairs (spec section 2): the others see who reviewed, not how.
    ...(chair
      ? [
          ...fields.map((field): Column<ReviewSummary> => ({
            key: `score-${field}`,
            header: label(field),
            cell: (row) => formatScore(row.scores.find((score) => score.name === field)?.value),
            sort: (row) => row.scores.find((score) => score.name === field)?.value ?? null,
          })),
          {
            key: 'score',
            header: 'Score',
            cell: (row: ReviewSummary) => formatScore(row.score),
            sort: (row: ReviewSummary) => row.score,
          },
        ]
      : []),
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
      cell: (row) => {
        const action = row.abilities.edit ? 'Edit' : 'View';
        return (
          <Button
            component={RouterLink}
            to={reviewPath(callId, proposalId, row.id)}
            size="small"
            variant="outlined"
            aria-label={`${action} the review by ${row.author}`}
          >
            {action}
          </Button>
        );
      },
    },
  ];
  const table = useTableState(columns, { defaultSort: { key: 'reviewer', direction: 'asc' } });
  const reviewed = new Set(reviews.map((review) => review.authorId));

  return (
    <>
      <BackLink to={`/calls/${callId}/proposals/${proposalId}/`}>Proposal</BackLink>
      <PageHeading
        actions={
          chair &&
          reviews.length > 0 && (
            <Button
              variant="contained"
              startIcon={<DownloadIcon />}
              disabled={call.isPending}
              onClick={() =>
                saveBlob(
                  csvBlob(reviewSummaryCsv(reviews, labels)),
                  reviewSummaryFileName(callName, data.proposalName),
                )
              }
            >
              Download Review Summary CSV
            </Button>
          )
        }
      >
        {`Reviews of ${data.proposalName}`}
      </PageHeading>

      <Section id="reviews" title="Reviews">
        {reviews.length === 0 ? (
          <EmptyState>This proposal has no reviews yet.</EmptyState>
        ) : (
          <DataTable
            labelledBy="reviews"
            columns={columns}
            state={table}
            rows={reviews}
            rowKey={(row) => row.id}
          />
        )}
      </Section>

      {chair && reviews.length > 0 && (
        <Section id="review-totals" title="Review Totals">
          <TableContainer component={Paper} variant="outlined" sx={{ maxWidth: 480 }}>
            <Table size="small" aria-labelledby="review-totals">
              <TableHead>
                <TableRow>
                  <TableCell>Score field</TableCell>
                  <TableCell align="right">Average</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {totals.map((total) => (
                  <TableRow key={total.name}>
                    <TableCell component="th" scope="row">
                      {total.name === RESULT_SCORE ? 'Score' : label(total.name)}
                    </TableCell>
                    <TableCell align="right">{formatScore(total.value)}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
        </Section>
      )}

      {(chair || reviewers.length > 0) && (
        <Section id="reviewers" title="Reviewers">
          {reviewers.length === 0 ? (
            <EmptyState>No reviewers are assigned to this proposal.</EmptyState>
          ) : (
            <Box component={Paper} variant="outlined" sx={{ maxWidth: 480 }}>
              <List dense aria-labelledby="reviewers" disablePadding>
                {reviewers.map((person) => (
                  <ListItem key={person.id} divider>
                    <ListItemText
                      primary={person.name}
                      secondary={reviewed.has(person.id) ? 'Reviewed' : 'Not reviewed yet'}
                    />
                  </ListItem>
                ))}
              </List>
            </Box>
          )}
        </Section>
      )}
    </>
  );
}
