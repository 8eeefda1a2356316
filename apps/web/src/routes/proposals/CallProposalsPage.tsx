import type { CallProposal, CallProposalPage } from '@merit/contract';
import { facilityLabel, formatScore, PROPOSAL_STATE } from '@merit/domain';
import AddIcon from '@mui/icons-material/Add';
import PictureAsPdfIcon from '@mui/icons-material/PictureAsPdf';
import { Box, Button, Stack } from '@mui/material';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { BackLink } from '../../components/BackLink';
import { EmptyState } from '../../components/EmptyState';
import { LoadFailedView } from '../../components/LoadFailedView';
import { LoadingView } from '../../components/LoadingView';
import { NotFoundView } from '../../components/NotFoundView';
import { PageHeading } from '../../components/PageHeading';
import { DebouncedSearchField } from '../../components/DebouncedSearchField';
import { SelectInput } from '../../components/form/SelectInput';
import { DataTable, type Column } from '../../components/table/DataTable';
import { encodeSort, useTableState, type TableState } from '../../components/table/use-table-state';
import { useIdParam } from '../../components/use-id-param';
import { useCall } from '../../features/calls/calls.api';
import { ProposalConflictBadges } from '../../features/conflicts/ProposalConflictBadges';
import { PdfStatus } from '../../features/files/PdfStatus';
import { useProposalPdf } from '../../features/files/use-proposal-pdf';
import {
  averageFieldScores,
  formatAmount,
  onlyFacility,
  pageResourceColumns,
  resourceAmount,
  resourceHeader,
  resourceKey,
  type ResourceColumn,
} from '../../features/proposals/chair/chair-columns';
import { ChairExports } from '../../features/proposals/chair/ChairExports';
import {
  ColumnPicker,
  useShownColumns,
  type PickableColumn,
} from '../../features/proposals/chair/ColumnPicker';
import { ResourceTotals } from '../../features/proposals/chair/ResourceTotals';
import {
  CALL_PROPOSALS_DEFAULT_SORT,
  callProposalsQuery,
  FACILITY_PARAM,
  sortableColumns,
} from '../../features/proposals/call-proposals-query';
import { useCallProposals } from '../../features/proposals/proposals.api';
import { scoreLabels } from '../../features/reviews/review-forms';
import { reviewListPath } from '../../features/reviews/review-paths';
import { useReviewFormOrder } from '../../features/reviews/reviews.api';

/** How long typing must pause before the list is searched again. */
const SEARCH_DELAY_MS = 300;

/**
 * The columns a chair sees until they choose others (Columns): they fit beside the side
 * menu without scrolling sideways. Reviewers, Average Field Scores and the resource columns
 * are a tick away; a facility's resource columns show while the list is filtered by it,
 * and the column the list is sorted by.
 */
const DEFAULT_CHAIR_COLUMNS = new Set(['type', 'name', 'author', 'state', 'score']);

/** The columns everyone sees; a row's name carries its conflict marks. */
const columnsOf = (callId: number): Column<CallProposal>[] => [
  { key: 'type', header: 'Type', cell: (row) => row.proposalTypeName, sort: 'server' },
  {
    key: 'name',
    header: 'Name',
    // The row's name stays in view while a wide list scrolls sideways.
    sticky: true,
    cell: (row) => (
      <>
        {row.proposalName}
        <ProposalConflictBadges row={row} callId={callId} />
      </>
    ),
    sort: 'server',
  },
  { key: 'author', header: 'Proposal Author', cell: (row) => row.author, sort: 'server' },
  { key: 'state', header: 'State', cell: (row) => row.state, sort: 'server' },
];

/**
 * The chair's columns after State (spec section 2, Proposal list): Reviewers, one column
 * per facility and data field, Average Field Scores and Review Score. A chair's own
 * proposals carry no review fields (ARCHITECTURE.md "Visibility"): their cells are empty.
 */
function chairColumns(
  resources: readonly ResourceColumn[],
  labels: ReadonlyMap<string, string>,
  titles: Readonly<Record<string, string>>,
): Column<CallProposal>[] {
  const reviewed = (row: CallProposal, text: (row: CallProposal) => string) =>
    row.reviewers === undefined ? '' : text(row);
  return [
    {
      key: 'reviewers',
      header: 'Reviewers',
      cell: (row) =>
        reviewed(row, (r) => r.reviewers!.map((person) => person.name).join(', ') || 'None'),
    },
    ...resources.map((column): Column<CallProposal> => ({
      key: resourceKey(column),
      header: resourceHeader(column, titles),
      cell: (row) => formatAmount(resourceAmount(row.resourceValues, column)),
      // The server sorts the whole call by it: numbers as numbers, N/A last either way.
      sort: 'server',
    })),
    {
      key: 'averageFieldScores',
      header: 'Average Field Scores',
      cell: (row) => reviewed(row, (r) => averageFieldScores(r, labels)),
      cellSx: { minWidth: 160 },
    },
    {
      key: 'score',
      header: 'Review Score',
      cell: (row) => reviewed(row, (r) => formatScore(r.score)),
      sort: 'server',
    },
  ];
}

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
  const [params, setParams] = useSearchParams();
  const table = useTableState(sortableColumns(params.get('sort')), {
    defaultSort: CALL_PROPOSALS_DEFAULT_SORT,
  });
  // The field reports the search once typing pauses (DebouncedSearchField).
  const q = table.q.trim();
  const facilityParam = params.get(FACILITY_PARAM);
  // The query the app asked for as it started, when it started here (call-proposals-query.ts);
  // sortColumn is a resource column the server sorts the whole call by.
  const { query, sortColumn } = callProposalsQuery(table, facilityParam);
  const proposals = useCallProposals(callId, query);
  const pdf = useProposalPdf();
  const data: CallProposalPage | undefined = proposals.data;
  // Only chairs' pages carry the call's totals: the sign of the chair's view.
  const chair = data?.resourceTotals !== undefined;
  const reviewOrder = useReviewFormOrder(callId, chair);
  const labels = scoreLabels(chair ? reviewOrder.data : undefined);
  const shownColumns = useShownColumns(callId);

  if (call.isPending) return <LoadingView label="Loading the call…" />;
  if (call.isError)
    return <LoadFailedView error={call.error} onRetry={() => void call.refetch()} />;

  const facilities = data?.facilities ?? [];
  const facility =
    facilityParam !== null && facilities.includes(facilityParam) ? facilityParam : null;
  const resources = data && chair ? onlyFacility(pageResourceColumns(data), facility) : [];
  const titles = data?.resourceTitles ?? {};
  // Sorted by a resource column, the sort follows the filter to the same field of the
  // facility chosen, so the address names the column the list shows sorted.
  const setFacility = (next: string | null) =>
    setParams((previous) => {
      const changed = new URLSearchParams(previous);
      if (next === null) changed.delete(FACILITY_PARAM);
      else changed.set(FACILITY_PARAM, next);
      if (sortColumn && next !== null) {
        const sort = { key: resourceKey({ facility: next, field: sortColumn.field }) };
        changed.set(table.keys.sort, encodeSort({ ...sort, direction: table.sort.direction }));
      }
      // Other rows (only the facility's proposals): from their first page.
      changed.delete(table.keys.page);
      return changed;
    });
  // The header marked sorted is the column the server sorted by, and a click on it turns
  // that column's order round.
  const shownSort = sortColumn ? { ...table.sort, key: resourceKey(sortColumn) } : table.sort;
  // A facility's resource columns show while the list is filtered by it, and the column
  // the list is sorted by, unless the chair unticked them.
  const filteredKeys = new Set(facility === null ? [] : resources.map(resourceKey));
  const isShown = (key: string) =>
    shownColumns.choice(key) ??
    (DEFAULT_CHAIR_COLUMNS.has(key) || filteredKeys.has(key) || key === shownSort.key);
  const shownTable: TableState = {
    ...table,
    sort: shownSort,
    toggleSort: (key) =>
      table.setSort({
        key,
        direction: key === shownSort.key && shownSort.direction === 'asc' ? 'desc' : 'asc',
      }),
  };

  const allColumns: Column<CallProposal>[] = [
    ...columnsOf(callId),
    ...(chair ? chairColumns(resources, labels, titles) : []),
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
                never on their own proposals. A draft has none to see, unless its author
                retracted it after it was reviewed. */}
            {row.reviewers !== undefined &&
              (row.stateVal !== PROPOSAL_STATE.draft || (row.allReviewScores?.length ?? 0) > 0) && (
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

  // The chair picks the columns to show (the name and the buttons always show).
  const pickable: PickableColumn[] = allColumns
    .filter((column) => !column.action)
    .map((column) => ({ key: column.key, header: column.header, locked: column.key === 'name' }));
  const columns = chair
    ? allColumns.filter((column) => column.action || column.key === 'name' || isShown(column.key))
    : allColumns;

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
        state={shownTable}
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
      {chair && data && (
        <ChairExports
          callId={callId}
          callName={call.data.name}
          types={call.data.proposalTypes}
          labels={labels}
        />
      )}
      {chair && data?.resourceTotals && (
        <ResourceTotals
          totals={data.resourceTotals}
          columns={onlyFacility(pageResourceColumns(data), facility)}
          titles={titles}
        />
      )}
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mb: 2 }}>
        <DebouncedSearchField
          label="Search proposals"
          value={table.q}
          onChange={table.setQuery}
          delayMs={SEARCH_DELAY_MS}
        />
        {chair && (
          <Box>
            <ColumnPicker columns={pickable} isShown={isShown} onToggle={shownColumns.toggle} />
          </Box>
        )}
        {chair && facilities.length > 1 && (
          <Box sx={{ minWidth: 220 }}>
            <SelectInput
              name="facility"
              label="Filter by Facility"
              placeholder="All facilities"
              value={facility === null ? '' : `f:${facility}`}
              onChange={(event) =>
                setFacility(event.target.value ? event.target.value.slice(2) : null)
              }
              options={facilities.map((name) => ({
                value: `f:${name}`,
                label: facilityLabel(name),
              }))}
            />
          </Box>
        )}
      </Stack>
      <PdfStatus progress={pdf.progress} />
      {content}
    </>
  );
}
