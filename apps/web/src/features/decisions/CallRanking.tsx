import type {
  CallRanking as CallRankingBody,
  RankingLineBody,
  RankingRowBody,
} from '@merit/contract';
import { facilityLabel, formatScore } from '@merit/domain';
import DragIndicatorIcon from '@mui/icons-material/DragIndicator';
import {
  Alert,
  Box,
  Button,
  IconButton,
  Link,
  Paper,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TablePagination,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { Fragment, useState } from 'react';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { isApiError } from '../../api/client';
import { AccessDeniedView } from '../../components/AccessDeniedView';
import { EmptyState } from '../../components/EmptyState';
import { LoadFailedView } from '../../components/LoadFailedView';
import { LoadingView } from '../../components/LoadingView';
import { PageHeading } from '../../components/PageHeading';
import { PAGE_SIZES, useTableState } from '../../components/table/use-table-state';
import { useCall } from '../calls/calls.api';
import { formatAmount, resourceHeader } from '../proposals/chair/chair-columns';
import { CapacityDialog } from './CapacityDialog';
import { CapacityTable } from './CapacityTable';
import { DecisionEditor, outcomeText } from './DecisionEditor';
import {
  RANKING_FACILITY_PARAM,
  RANKING_TYPE_PARAM,
  rankingFiltersOf,
  useCallRanking,
} from './decisions.api';
import { MoveDialog } from './MoveDialog';
import { OutcomesFromLineDialog } from './OutcomesFromLineDialog';
import {
  DROP_ATTRIBUTE,
  RANK_INDEX_ATTRIBUTE,
  type DragHandleProps,
  useRankingDrag,
  type RankingDrop,
} from './ranking-drag';

const counting = new Intl.NumberFormat('en');

export const rankingTexts = {
  noProposals:
    'No proposal of this call has been submitted yet. Proposals appear here in order of their review scores once they are submitted; enter the capacities meanwhile.',
  noMatch: 'No proposal matches these filters.',
  hidden: (count: number) =>
    count === 1
      ? '1 proposal you are conflicted on is not shown.'
      : `${counting.format(count)} proposals you are conflicted on are not shown.`,
  lineReached: (facility: string) => `Capacity of ${facilityLabel(facility)} reached`,
};

/** Each facility's line: the rank of its first proposal below it (its earliest field's). */
function facilityLines(lines: readonly RankingLineBody[]): Map<string, number> {
  const first = new Map<string, number>();
  for (const line of lines) {
    if (line.firstBelow === null) continue;
    const known = first.get(line.facility);
    if (known === undefined || line.firstBelow < known) first.set(line.facility, line.firstBelow);
  }
  return first;
}

/**
 * The call's Ranking page (/calls/{callId}/ranking, issue 29; chairs): per facility the
 * capacity against what is asked for and awarded, and the submitted proposals in rank
 * order with the running totals, each facility's line, and the outcome and awards edited
 * in place. Filters (facility, type) and the table's page are in the address.
 */
export function CallRanking({ callId }: { callId: number }) {
  const call = useCall(callId);
  const [params, setParams] = useSearchParams();
  const filters = rankingFiltersOf(params);
  const allowed = call.data?.abilities.decide === true;
  const ranking = useCallRanking(callId, filters, allowed);
  const [capacityOpen, setCapacityOpen] = useState(false);
  const [fromLineOpen, setFromLineOpen] = useState(false);

  if (call.isPending) return <LoadingView label="Loading the call…" />;
  if (call.isError)
    return <LoadFailedView error={call.error} onRetry={() => void call.refetch()} />;
  if (!allowed || isApiError(ranking.error, 403)) return <AccessDeniedView />;

  const setFilter = (key: string, value: string | null) =>
    setParams((previous) => {
      const changed = new URLSearchParams(previous);
      if (value === null) changed.delete(key);
      else changed.set(key, value);
      // Other rows: from their first page.
      changed.delete('page');
      return changed;
    });

  return (
    <>
      <PageHeading
        actions={
          <Stack direction="row" sx={{ gap: 1, flexWrap: 'wrap' }}>
            <Button variant="outlined" onClick={() => setCapacityOpen(true)}>
              Capacities
            </Button>
            <Button
              variant="outlined"
              disabled={!ranking.data || ranking.data.rows.length === 0}
              onClick={() => setFromLineOpen(true)}
            >
              Set outcomes from the line
            </Button>
          </Stack>
        }
      >
        Ranking
      </PageHeading>
      <Typography variant="subtitle1" sx={{ mt: -2, mb: 3 }}>
        <Link component={RouterLink} to={`/calls/${callId}/`}>
          {call.data.name}
        </Link>
      </Typography>
      {ranking.isPending ? (
        <LoadingView label="Loading the ranking…" />
      ) : ranking.isError ? (
        <LoadFailedView error={ranking.error} onRetry={() => void ranking.refetch()} />
      ) : (
        <RankingBody
          callId={callId}
          ranking={ranking.data}
          facility={filters.facility}
          type={filters.type}
          onFacility={(next) => setFilter(RANKING_FACILITY_PARAM, next)}
          onType={(next) => setFilter(RANKING_TYPE_PARAM, next === null ? null : String(next))}
        />
      )}
      <CapacityDialog callId={callId} open={capacityOpen} onClose={() => setCapacityOpen(false)} />
      <OutcomesFromLineDialog
        callId={callId}
        open={fromLineOpen}
        rows={ranking.data?.rows ?? []}
        onClose={() => setFromLineOpen(false)}
      />
    </>
  );
}

interface RankingBodyProps {
  callId: number;
  ranking: CallRankingBody;
  facility: string | null;
  type: number | null;
  onFacility: (facility: string | null) => void;
  onType: (type: number | null) => void;
}

function RankingBody({ callId, ranking, facility, type, onFacility, onType }: RankingBodyProps) {
  const facilities = [...new Set([...ranking.lines.map((line) => line.facility)])];
  if (facility !== null && !facilities.includes(facility)) facilities.push(facility);
  const lines =
    facility === null ? ranking.lines : ranking.lines.filter((line) => line.facility === facility);
  const filtered = facility !== null || type !== null;

  return (
    <>
      {ranking.hidden > 0 && (
        <Alert severity="info" sx={{ mb: 2 }}>
          {rankingTexts.hidden(ranking.hidden)}
        </Alert>
      )}
      <CapacitySummary lines={lines} fieldTitles={ranking.fieldTitles} />
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mb: 2 }}>
        <TextField
          select
          label="Filter by Facility"
          value={facility === null ? '' : `f:${facility}`}
          onChange={(event) => onFacility(event.target.value ? event.target.value.slice(2) : null)}
          slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
          sx={{ minWidth: 220 }}
        >
          <option value="">All facilities</option>
          {facilities.map((name) => (
            <option key={name} value={`f:${name}`}>
              {facilityLabel(name)}
            </option>
          ))}
        </TextField>
        <TextField
          select
          label="Filter by Type"
          value={type === null ? '' : String(type)}
          onChange={(event) => onType(event.target.value ? Number(event.target.value) : null)}
          slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
          sx={{ minWidth: 220 }}
        >
          <option value="">All types</option>
          {ranking.proposalTypes.map((proposalType) => (
            <option key={proposalType.id} value={proposalType.id}>
              {proposalType.name}
            </option>
          ))}
        </TextField>
      </Stack>
      {ranking.rows.length === 0 ? (
        <EmptyState>{filtered ? rankingTexts.noMatch : rankingTexts.noProposals}</EmptyState>
      ) : (
        <RankingTable
          callId={callId}
          rows={ranking.rows}
          lines={lines}
          fieldTitles={ranking.fieldTitles}
        />
      )}
    </>
  );
}

/** Per facility and field: capacity, requested and awarded, and both over the capacity. */
function CapacitySummary({
  lines,
  fieldTitles,
}: {
  lines: readonly RankingLineBody[];
  fieldTitles: Readonly<Record<string, string>>;
}) {
  if (lines.length === 0) return null;
  return (
    <Box component="section" aria-labelledby="ranking-capacity" sx={{ mb: 3 }}>
      <Typography id="ranking-capacity" variant="h6" component="h2" sx={{ mb: 1 }}>
        Capacity and awards
      </Typography>
      <CapacityTable lines={lines} fieldTitles={fieldTitles} labelledBy="ranking-capacity" />
    </Box>
  );
}

/** The table's page and page size live in the address, as DataTable's do; the order is the ranking's. */
const NO_SORTING: never[] = [];

function RankingTable({
  callId,
  rows,
  lines,
  fieldTitles,
}: {
  callId: number;
  rows: readonly RankingRowBody[];
  lines: readonly RankingLineBody[];
  fieldTitles: Readonly<Record<string, string>>;
}) {
  const table = useTableState(NO_SORTING, { defaultSort: { key: 'rank', direction: 'asc' } });
  // From the Move button (no place yet) or from a drop (the place it was dropped on).
  const [moving, setMoving] = useState<
    RankingDrop | { row: RankingRowBody; after?: undefined } | null
  >(null);
  const drag = useRankingDrag(rows, setMoving);
  const lastPage = Math.max(0, Math.ceil(rows.length / table.pageSize) - 1);
  const page = Math.min(table.page, lastPage);
  const start = page * table.pageSize;
  // Only a page of rows is drawn: a call of 10,000 proposals stays quick to edit.
  const shown = rows.slice(start, start + table.pageSize);
  const lineAt = facilityLines(lines);
  const columnCount = 4 + lines.length * 2 + 3;

  return (
    <Paper variant="outlined">
      <TableContainer>
        <Table
          size="small"
          aria-label="Ranking"
          sx={(theme) => ({
            // The drop indicator: a line on the edge of the row where the dragged one lands.
            [`& tr[${DROP_ATTRIBUTE}="above"] > td`]: {
              boxShadow: `inset 0 3px 0 ${theme.palette.primary.main}`,
            },
            [`& tr[${DROP_ATTRIBUTE}="below"] > td`]: {
              boxShadow: `inset 0 -3px 0 ${theme.palette.primary.main}`,
            },
          })}
        >
          <TableHead>
            <TableRow>
              <TableCell>Rank</TableCell>
              <TableCell>Proposal</TableCell>
              <TableCell>Type</TableCell>
              <TableCell align="right">Score</TableCell>
              {lines.map((line) => (
                <Fragment key={`${line.facility}\u0000${line.field}`}>
                  <TableCell align="right">{`${resourceHeader(line, fieldTitles)} asked`}</TableCell>
                  <TableCell align="right">{`${resourceHeader(line, fieldTitles)} running total`}</TableCell>
                </Fragment>
              ))}
              <TableCell>Outcome</TableCell>
              <TableCell>Awards</TableCell>
              <TableCell align="right">Actions</TableCell>
            </TableRow>
          </TableHead>
          <TableBody {...drag.bodyProps}>
            {shown.map((row, index) => {
              const previous = index === 0 ? rows[start - 1] : shown[index - 1];
              const previousRank = previous?.rank ?? 0;
              // Where a facility's line falls between this row and the one before.
              const reached = [...lineAt].filter(
                ([, firstBelow]) => previousRank < firstBelow && firstBelow <= row.rank,
              );
              return (
                <Fragment key={row.proposalId}>
                  {reached.map(([facility]) => (
                    <TableRow key={`line-${facility}`} data-line={facility}>
                      <TableCell
                        colSpan={columnCount}
                        sx={{
                          borderTop: 3,
                          borderTopColor: 'error.main',
                          color: 'error.main',
                          fontWeight: 500,
                          py: 0.5,
                        }}
                      >
                        {rankingTexts.lineReached(facility)}
                      </TableCell>
                    </TableRow>
                  ))}
                  <RankingTableRow
                    callId={callId}
                    row={row}
                    index={start + index}
                    lines={lines}
                    dragHandle={drag.handleProps(start + index)}
                    onMove={(moved) => setMoving({ row: moved })}
                  />
                </Fragment>
              );
            })}
          </TableBody>
        </Table>
      </TableContainer>
      {rows.length > PAGE_SIZES[0] && (
        <TablePagination
          component="div"
          count={rows.length}
          page={page}
          rowsPerPage={table.pageSize}
          rowsPerPageOptions={[...PAGE_SIZES]}
          onPageChange={(_event, next) => table.setPage(next)}
          onRowsPerPageChange={(event) => table.setPageSize(Number(event.target.value))}
          labelDisplayedRows={({ from, to, count }) =>
            `${counting.format(from)}–${counting.format(to)} of ${counting.format(count)}`
          }
        />
      )}
      <MoveDialog
        callId={callId}
        row={moving?.row ?? null}
        rows={rows}
        after={moving?.after}
        onClose={() => setMoving(null)}
      />
    </Paper>
  );
}

function RankingTableRow({
  callId,
  row,
  index,
  lines,
  dragHandle,
  onMove,
}: {
  callId: number;
  row: RankingRowBody;
  /** Its place in the ranking as shown, where a drop finds it. */
  index: number;
  lines: readonly RankingLineBody[];
  dragHandle: DragHandleProps;
  onMove: (row: RankingRowBody) => void;
}) {
  return (
    <TableRow hover sx={{ verticalAlign: 'top' }} {...{ [RANK_INDEX_ATTRIBUTE]: index }}>
      <TableCell>
        <Stack direction="row" sx={{ alignItems: 'center', gap: 0.5 }}>
          {row.decide ? (
            // By hand only: the keyboard moves a row through the Move button's dialog, so
            // the handle is no extra tab stop; a click opens that dialog too.
            <IconButton
              size="small"
              tabIndex={-1}
              aria-label={`Drag ${row.name} to another rank`}
              sx={{ cursor: 'grab', p: 0.25 }}
              onClick={() => onMove(row)}
              {...dragHandle}
            >
              <DragIndicatorIcon fontSize="small" />
            </IconButton>
          ) : (
            // Keeps the ranks of the rows without a handle in line with the others.
            <Box component="span" aria-hidden sx={{ width: 24, flexShrink: 0 }} />
          )}
          {row.rank}
        </Stack>
      </TableCell>
      <TableCell>
        <Link component={RouterLink} to={`/calls/${callId}/proposals/${row.proposalId}/`}>
          {row.name}
        </Link>
        {row.moved && (
          <Typography variant="body2" color="text.secondary">
            {`Moved${row.moved.by ? ` by ${row.moved.by}` : ''}: ${row.moved.reason}`}
          </Typography>
        )}
      </TableCell>
      <TableCell>{row.proposalTypeName}</TableCell>
      <TableCell align="right">{row.score === null ? '—' : formatScore(row.score)}</TableCell>
      {lines.map((line) => (
        <Fragment key={`${line.facility}\u0000${line.field}`}>
          <TableCell align="right">
            {formatAmount(row.requested[line.facility]?.[line.field])}
          </TableCell>
          <TableCell align="right">
            {formatAmount(row.running[line.facility]?.[line.field])}
          </TableCell>
        </Fragment>
      ))}
      {row.decide ? (
        <DecisionEditor
          key={row.proposalId}
          proposalId={row.proposalId}
          callId={callId}
          name={row.name}
          saved={row}
          requested={row.requested}
          layout="cells"
        />
      ) : (
        <>
          <TableCell>{outcomeText(row.outcome)}</TableCell>
          <TableCell>
            <ReadOnlyAwards awards={row.awards} />
          </TableCell>
        </>
      )}
      <TableCell align="right">
        {row.decide && (
          <Button size="small" aria-label={`Move ${row.name}`} onClick={() => onMove(row)}>
            Move
          </Button>
        )}
      </TableCell>
    </TableRow>
  );
}

/** Awards as text, for a row the chair may not change. */
function ReadOnlyAwards({ awards }: { awards: RankingRowBody['awards'] }) {
  const entries = Object.entries(awards).flatMap(([facility, fields]) =>
    Object.entries(fields).map(([field, amount]) => ({ facility, field, amount })),
  );
  if (entries.length === 0) return <>—</>;
  return (
    <Box component="ul" sx={{ m: 0, pl: 0, listStyle: 'none' }}>
      {entries.map(({ facility, field, amount }) => (
        <li key={`${facility}\u0000${field}`}>
          {`${facilityLabel(facility)}: ${field} ${formatAmount(amount)}`}
        </li>
      ))}
    </Box>
  );
}
