import type { MatrixRow } from '@merit/contract';
import { Box, Stack, ToggleButton, ToggleButtonGroup, Typography } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { errorMessages, isApiError } from '../../api/client';
import { AccessDeniedView } from '../../components/AccessDeniedView';
import { BackLink } from '../../components/BackLink';
import { DebouncedSearchField } from '../../components/DebouncedSearchField';
import { EmptyState } from '../../components/EmptyState';
import { ErrorList } from '../../components/ErrorList';
import { SelectInput } from '../../components/form/SelectInput';
import { LoadFailedView } from '../../components/LoadFailedView';
import { LoadingView } from '../../components/LoadingView';
import { useNotify } from '../../components/notifications/notification-context';
import { PageHeading } from '../../components/PageHeading';
import { idOf } from '../../components/use-id-param';
import { useConfirm } from '../../components/use-confirm';
import { useCall } from '../calls/calls.api';
import { assignReviewer, refreshReviews, removeReviewer } from '../reviews/reviews.api';
import {
  assignmentKeys,
  isOverCap,
  patchMatrixCell,
  patchMatrixLock,
  setAssignmentLock,
  useMatrix,
  type MatrixFilters,
} from './assignment.api';
import { assignmentTexts } from './assignment-texts';
import { AssignedCellDialog } from './AssignedCellDialog';
import { MatrixGrid, type MatrixCell, type MatrixMember } from './MatrixGrid';
import { OverCapDialog } from './OverCapDialog';
import { WantedDialog } from './WantedDialog';

const SHOW_CHOICES = [
  { value: 'all', label: 'All' },
  { value: 'unassigned', label: 'Unassigned' },
  { value: 'under', label: 'Under k' },
] as const;

/** The address's filters: `q`, `type`, `facility` and `show`; anything else reads as none. */
function readFilters(params: URLSearchParams): MatrixFilters {
  const show = params.get('show');
  return {
    search: params.get('q') ?? '',
    type: idOf(params.get('type') ?? undefined),
    facility: params.get('facility') || null,
    show: show === 'unassigned' || show === 'under' ? show : 'all',
  };
}

/** A click on a cell: assign (past the cap once the chair said so) or take back. */
interface CellChange {
  row: MatrixRow;
  member: MatrixMember;
  assign: boolean;
  overCap?: boolean;
}

/**
 * The Assignment Matrix (/calls/{callId}/assignment/matrix, issue 27): every submitted
 * proposal against every member, filtered by name, type, facility and how short it is,
 * a page of rows at a time as the chair scrolls. A click assigns or (after asking) takes
 * back one review; a proposal's own k is set from its count.
 */
export function AssignmentMatrix({ callId }: { callId: number }) {
  const call = useCall(callId);
  const allowed = call.data?.abilities.assign === true;
  const [params, setParams] = useSearchParams();
  const filters = readFilters(params);
  const matrix = useMatrix(callId, filters, allowed);

  if (call.isPending) return <LoadingView label="Loading the call…" />;
  if (call.isError)
    return <LoadFailedView error={call.error} onRetry={() => void call.refetch()} />;
  if (!allowed || isApiError(matrix.error, 403)) return <AccessDeniedView />;

  const setFilter = (key: 'q' | 'type' | 'facility' | 'show', value: string | null) =>
    setParams(
      (previous) => {
        const next = new URLSearchParams(previous);
        if (value === null || value === '' || (key === 'show' && value === 'all')) next.delete(key);
        else next.set(key, value);
        return next;
      },
      // Typing replaces the history entry, so Back does not step through every letter.
      { replace: key === 'q' },
    );

  const first = matrix.data?.pages[0];
  return (
    <>
      <BackLink to={`/calls/${callId}/assignment`}>Assign Reviewers</BackLink>
      <PageHeading>Assignment Matrix</PageHeading>
      <Typography variant="subtitle1" sx={{ mt: -2, mb: 3 }}>
        {call.data.name}
      </Typography>
      <Stack
        direction={{ xs: 'column', md: 'row' }}
        sx={{ gap: 2, mb: 2, alignItems: { md: 'center' }, flexWrap: 'wrap' }}
      >
        <DebouncedSearchField
          label="Search proposals"
          value={filters.search}
          onChange={(value) => setFilter('q', value)}
          delayMs={300}
        />
        <Box sx={{ minWidth: 180 }}>
          <SelectInput
            name="type"
            label="Type"
            placeholder="All types"
            value={filters.type === null ? '' : String(filters.type)}
            onChange={(event) => setFilter('type', event.target.value)}
            options={(first?.types ?? []).map((type) => ({
              value: String(type.id),
              label: type.name,
            }))}
          />
        </Box>
        <Box sx={{ minWidth: 180 }}>
          <SelectInput
            name="facility"
            label="Facility"
            placeholder="All facilities"
            value={filters.facility ?? ''}
            onChange={(event) => setFilter('facility', event.target.value)}
            options={(first?.facilities ?? []).map((facility) => ({
              value: facility,
              label: facility,
            }))}
          />
        </Box>
        <ToggleButtonGroup
          exclusive
          size="small"
          aria-label="Show"
          value={filters.show}
          onChange={(_event, value: string | null) => value && setFilter('show', value)}
        >
          {SHOW_CHOICES.map((choice) => (
            <ToggleButton key={choice.value} value={choice.value}>
              {choice.label}
            </ToggleButton>
          ))}
        </ToggleButtonGroup>
      </Stack>
      {matrix.isPending ? (
        <LoadingView label="Loading the matrix…" />
      ) : matrix.isError ? (
        <LoadFailedView error={matrix.error} onRetry={() => void matrix.refetch()} />
      ) : (
        <MatrixBody
          callId={callId}
          callName={call.data.name}
          pages={matrix.data.pages}
          filtered={
            filters.search.trim() !== '' ||
            filters.type !== null ||
            filters.facility !== null ||
            filters.show !== 'all'
          }
          hasMore={matrix.hasNextPage}
          loadMore={matrix.isFetchingNextPage ? undefined : matrix.fetchNextPage}
        />
      )}
    </>
  );
}

interface MatrixBodyProps {
  callId: number;
  callName: string;
  pages: NonNullable<ReturnType<typeof useMatrix>['data']>['pages'];
  filtered: boolean;
  hasMore: boolean;
  /** Asks for the next page; undefined while one is on its way. */
  loadMore: (() => unknown) | undefined;
}

function MatrixBody({ callId, callName, pages, filtered, hasMore, loadMore }: MatrixBodyProps) {
  const queryClient = useQueryClient();
  const rows = useMemo(() => pages.flatMap((page) => page.rows), [pages]);
  const members = pages[0]?.members ?? [];
  const total = pages[0]?.count ?? 0;
  const notify = useNotify();
  const [wantedRow, setWantedRow] = useState<MatrixRow | null>(null);
  const assigned = useConfirm<{ row: MatrixRow; member: MatrixMember; locked: boolean }>();
  const overCap = useConfirm<{ change: CellChange; message: string }>();

  const change = useMutation({
    mutationFn: ({ row, member, assign, overCap: insist }: CellChange) =>
      assign
        ? assignReviewer(row.proposalId, member.userId, { overCap: insist })
        : removeReviewer(row.proposalId, member.userId),
    onSuccess: async (_result, { row, member, assign }) => {
      patchMatrixCell(queryClient, callId, {
        proposalId: row.proposalId,
        userId: member.userId,
        assigned: assign,
      });
      assigned.close();
      overCap.close();
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: assignmentKeys.overview(callId) }),
        refreshReviews(queryClient),
      ]);
    },
    onError: (error, variables) => {
      assigned.close();
      if (variables.assign && !variables.overCap && isOverCap(error))
        overCap.ask({ change: variables, message: error.body.detail });
      else overCap.close();
    },
  });

  const lock = useMutation({
    mutationFn: ({
      row,
      member,
      locked,
    }: {
      row: MatrixRow;
      member: MatrixMember;
      locked: boolean;
    }) => setAssignmentLock(callId, { proposalId: row.proposalId, userId: member.userId, locked }),
    onSuccess: ({ proposalId, userId, locked }, { row, member }) => {
      patchMatrixLock(queryClient, callId, { proposalId, userId, locked });
      notify((locked ? assignmentTexts.locked : assignmentTexts.unlocked)(member.name, row.name));
    },
    onSettled: () => assigned.close(),
  });

  const onCell = (row: MatrixRow, member: MatrixMember, cell: MatrixCell | undefined) => {
    change.reset();
    lock.reset();
    if (cell?.assigned) assigned.ask({ row, member, locked: cell.locked });
    else change.mutate({ row, member, assign: true });
  };
  const stableLoadMore = useCallback(() => void loadMore?.(), [loadMore]);

  if (total === 0)
    return (
      <EmptyState>{filtered ? assignmentTexts.noMatch : assignmentTexts.noProposals}</EmptyState>
    );
  return (
    <>
      <ErrorList
        messages={[
          ...(change.isError && !isOverCap(change.error) ? errorMessages(change.error) : []),
          ...(lock.isError ? errorMessages(lock.error) : []),
        ]}
      />
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {assignmentTexts.matrixRows(rows.length, total)}
      </Typography>
      <MatrixGrid
        label={`Reviewers of ${callName}`}
        rows={rows}
        members={members}
        total={total}
        hasMore={hasMore}
        loadMore={stableLoadMore}
        onCell={onCell}
        onWanted={setWantedRow}
      />
      <WantedDialog callId={callId} row={wantedRow} onClose={() => setWantedRow(null)} />
      <AssignedCellDialog
        open={assigned.open}
        member={assigned.subject?.member.name ?? ''}
        proposal={assigned.subject?.row.name ?? ''}
        locked={assigned.subject?.locked ?? false}
        pending={change.isPending ? 'remove' : lock.isPending ? 'lock' : null}
        onCancel={assigned.close}
        onRemove={() => assigned.subject && change.mutate({ ...assigned.subject, assign: false })}
        onToggleLock={() =>
          assigned.subject && lock.mutate({ ...assigned.subject, locked: !assigned.subject.locked })
        }
      />
      <OverCapDialog
        open={overCap.open}
        message={overCap.subject?.message ?? ''}
        pending={change.isPending}
        onCancel={() => {
          overCap.close();
          change.reset();
        }}
        onAssign={() =>
          overCap.subject && change.mutate({ ...overCap.subject.change, overCap: true })
        }
      />
    </>
  );
}
