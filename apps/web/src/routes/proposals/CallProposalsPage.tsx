import type { CallProposal } from '@merit/contract';
import AddIcon from '@mui/icons-material/Add';
import PictureAsPdfIcon from '@mui/icons-material/PictureAsPdf';
import { Box, Button, Stack } from '@mui/material';
import { Link as RouterLink } from 'react-router';
import { BackLink } from '../../components/BackLink';
import { EmptyState } from '../../components/EmptyState';
import { LoadFailedView } from '../../components/LoadFailedView';
import { LoadingView } from '../../components/LoadingView';
import { NotFoundView } from '../../components/NotFoundView';
import { PageHeading } from '../../components/PageHeading';
import { SearchField } from '../../components/SearchField';
import { DataTable, type Column } from '../../components/table/DataTable';
import { useTableState } from '../../components/table/use-table-state';
import { useDebouncedValue } from '../../components/use-debounced-value';
import { useIdParam } from '../../components/use-id-param';
import { useCall } from '../../features/calls/calls.api';
import { PdfStatus } from '../../features/files/PdfStatus';
import { useProposalPdf } from '../../features/files/use-proposal-pdf';
import { reviewListPath } from '../../features/reviews/review-paths';
import { useCallProposals } from '../../features/proposals/proposals.api';

/** How long typing must pause before the list is searched again. */
const SEARCH_DELAY_MS = 300;

const COLUMNS: readonly Column<CallProposal>[] = [
  { key: 'type', header: 'Type', cell: (row) => row.proposalTypeName, sort: 'server' },
  { key: 'name', header: 'Name', cell: (row) => row.proposalName, sort: 'server' },
  { key: 'author', header: 'Proposal Author', cell: (row) => row.author, sort: 'server' },
  { key: 'state', header: 'State', cell: (row) => row.state, sort: 'server' },
];

/**
 * /calls/{callId}/proposals/: the proposals of the call that the caller may see. The
 * server searches, sorts (by name until asked otherwise) and pages; the address keeps all
 * of it, so Back from a proposal returns to the same rows.
 */
export default function CallProposalsPage() {
  const callId = useIdParam('callId');
  if (callId === null) return <NotFoundView />;
  return <CallProposalsView callId={callId} />;
}

function CallProposalsView({ callId }: { callId: number }) {
  const call = useCall(callId);
  const table = useTableState(COLUMNS, { defaultSort: { key: 'name', direction: 'asc' } });
  const q = useDebouncedValue(table.q.trim(), SEARCH_DELAY_MS);
  const proposals = useCallProposals(callId, { ...table.serverQuery, q });
  const pdf = useProposalPdf();

  if (call.isPending) return <LoadingView label="Loading the call…" />;
  if (call.isError)
    return <LoadFailedView error={call.error} onRetry={() => void call.refetch()} />;

  const columns: Column<CallProposal>[] = [
    ...COLUMNS,
    {
      // One column for the row's buttons, which stays in view as the table scrolls.
      key: 'actions',
      header: 'Actions',
      action: true,
      cell: (row) => {
        // Spec section 2, Proposal list: Edit or View, as the server says the caller may.
        const label = row.editable ? 'Edit Proposal' : 'View Proposal';
        return (
          <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
            <Button
              component={RouterLink}
              to={`/calls/${callId}/proposals/${row.id}/`}
              size="small"
              variant="outlined"
              aria-label={`${label} ${row.proposalName}`}
              sx={{ whiteSpace: 'nowrap' }}
            >
              {label}
            </Button>
            {/* A row carries its reviewers only for those who see its reviews: chairs,
                never on their own proposals. */}
            {row.reviewers !== undefined && (
              <Button
                component={RouterLink}
                to={reviewListPath(callId, row.id)}
                size="small"
                variant="outlined"
                aria-label={`View Reviews of ${row.proposalName}`}
                sx={{ whiteSpace: 'nowrap' }}
              >
                View Reviews
              </Button>
            )}
            <Button
              size="small"
              startIcon={<PictureAsPdfIcon />}
              loading={pdf.progress?.proposalId === row.id}
              // One PDF at a time: each is made on the server.
              disabled={pdf.progress !== null}
              aria-label={`PDF of ${row.proposalName}`}
              onClick={() => pdf.save(row)}
            >
              PDF
            </Button>
          </Stack>
        );
      },
    },
  ];

  let content;
  if (proposals.isPending) {
    content = <LoadingView label="Loading proposals…" />;
  } else if (proposals.isError) {
    content = <LoadFailedView error={proposals.error} onRetry={() => void proposals.refetch()} />;
  } else if (proposals.data.total === 0) {
    content = (
      <EmptyState>
        {q ? `No proposal matches “${q}”.` : 'There are no proposals here that you can see yet.'}
      </EmptyState>
    );
  } else {
    content = (
      <DataTable
        label={`Proposals of ${call.data.name}`}
        columns={columns}
        state={table}
        serverPage={proposals.data}
        rowKey={(row) => row.id}
      />
    );
  }

  return (
    <>
      <BackLink to={`/calls/${callId}/`}>{call.data.name}</BackLink>
      <PageHeading
        actions={
          call.data.abilities.addProposal && (
            <Button
              component={RouterLink}
              to={`/calls/${callId}/new`}
              variant="contained"
              startIcon={<AddIcon />}
            >
              Add Proposal
            </Button>
          )
        }
      >
        {`Proposals of ${call.data.name}`}
      </PageHeading>
      <Box sx={{ mb: 2 }}>
        <SearchField label="Search proposals" value={table.q} onChange={table.setQuery} />
      </Box>
      <PdfStatus progress={pdf.progress} />
      {content}
    </>
  );
}
