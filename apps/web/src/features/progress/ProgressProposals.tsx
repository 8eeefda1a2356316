import type { CallProgress, ProposalProgress } from '@merit/contract';
import { formatScore } from '@merit/domain';
import { Chip, Link, Stack, Tooltip } from '@mui/material';
import { Link as RouterLink } from 'react-router';
import { DataTable, type Column } from '../../components/table/DataTable';
import { useTableState } from '../../components/table/use-table-state';
import { progressTexts } from './progress-texts';

/** A score as the table writes it: as it is, or a dash when there is none. */
const score = (value: number | null) => (value === null ? '—' : formatScore(value));

/** Whether a proposal's scores spread enough for the committee to talk about it. */
export const isWideSpread = (sd: number | null, wideSpread: number | null) =>
  sd !== null && wideSpread !== null && sd >= wideSpread;

/** A chip that says more when hovered or focused. */
function FlagChip({
  label,
  tooltip,
  color,
}: {
  label: string;
  tooltip: string;
  color: 'warning' | 'error';
}) {
  return (
    <Tooltip title={tooltip} describeChild>
      <Chip size="small" color={color} label={label} tabIndex={0} />
    </Tooltip>
  );
}

/**
 * The submitted proposals: reviews saved against wanted, and the spread of their scores,
 * the wide ones marked for discussion; a reviewer's late conflict marked too.
 */
export function ProgressProposals({
  callId,
  progress,
}: {
  callId: number;
  progress: CallProgress;
}) {
  const { wideSpread } = progress.totals;
  const columns: Column<ProposalProgress>[] = [
    {
      key: 'name',
      header: 'Proposal',
      sort: (row) => row.name,
      cell: (row) => (
        <Stack direction="row" sx={{ gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
          <Link component={RouterLink} to={`/calls/${callId}/proposals/${row.proposalId}/`}>
            {row.name}
          </Link>
          {row.lateConflict && (
            <FlagChip
              label={progressTexts.lateConflict}
              tooltip={progressTexts.lateConflictTooltip}
              color="error"
            />
          )}
        </Stack>
      ),
    },
    {
      key: 'type',
      header: 'Type',
      sort: (row) => row.proposalTypeName,
      cell: (row) => row.proposalTypeName,
    },
    {
      key: 'reviews',
      header: 'Reviews saved',
      // The share saved, so "0 of 3" comes before "1 of 1".
      sort: (row) => (row.reviewsWanted === 0 ? 1 : row.reviewsSaved / row.reviewsWanted),
      cell: (row) => progressTexts.reviews(row.reviewsSaved, row.reviewsWanted),
    },
    {
      key: 'min',
      header: 'Min score',
      sort: (row) => row.scoreMin,
      cell: (row) => score(row.scoreMin),
    },
    {
      key: 'max',
      header: 'Max score',
      sort: (row) => row.scoreMax,
      cell: (row) => score(row.scoreMax),
    },
    {
      key: 'spread',
      header: 'Spread (sd)',
      sort: (row) => row.scoreSd,
      cell: (row) => (
        <Stack direction="row" sx={{ gap: 1, alignItems: 'center' }}>
          {row.scoreSd === null ? '—' : row.scoreSd.toFixed(1)}
          {isWideSpread(row.scoreSd, wideSpread) && (
            <FlagChip
              label={progressTexts.discuss}
              tooltip={progressTexts.discussTooltip}
              color="warning"
            />
          )}
        </Stack>
      ),
    },
  ];
  const table = useTableState(columns, {
    defaultSort: { key: 'name', direction: 'asc' },
    prefix: 'proposals',
  });
  return (
    <DataTable
      label="Proposals"
      columns={columns}
      state={table}
      rows={progress.proposals}
      rowKey={(row) => row.proposalId}
    />
  );
}
