import type { CallProgress, MemberProgress, RemindNowResult } from '@merit/contract';
import { progressPercent } from '@merit/domain';
import {
  Alert,
  Box,
  Button,
  Checkbox,
  FormControlLabel,
  LinearProgress,
  Link,
  Stack,
  Typography,
} from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { errorMessages } from '../../api/client';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { EmptyState } from '../../components/EmptyState';
import { ErrorList } from '../../components/ErrorList';
import { SearchField } from '../../components/SearchField';
import { DataTable, type Column } from '../../components/table/DataTable';
import { searchRows } from '../../components/table/sort-rows';
import { useTableState } from '../../components/table/use-table-state';
import { useConfirm } from '../../components/use-confirm';
import { formatCallDate } from '../calls/call-dates';
import { refreshProgress, remindNow } from './progress.api';
import { progressTexts } from './progress-texts';

interface ProgressMembersProps {
  callId: number;
  progress: CallProgress;
  /** The call's `remind` ability: chairs, while the call is not closed. */
  canRemind: boolean;
  /** The call's `assign` ability, for the way to Assign Reviewers when nobody is assigned. */
  canAssign: boolean;
}

/**
 * The members' reviews: assigned, saved, not started, overdue, the last reminder and a bar
 * of their progress; searchable by name or username, sortable by each column, and a
 * checkbox on each row for "Remind selected".
 */
export function ProgressMembers({ callId, progress, canRemind, canAssign }: ProgressMembersProps) {
  const queryClient = useQueryClient();
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  // The members asked about stay with the dialog while it fades out.
  const confirm = useConfirm<readonly number[]>();
  const [result, setResult] = useState<RemindNowResult | null>(null);
  const remind = useMutation({
    mutationFn: (userIds: readonly number[]) => remindNow(callId, userIds),
    onSuccess: async (answer) => {
      setResult(answer);
      setSelected(new Set());
      confirm.close();
      await refreshProgress(queryClient, callId);
    },
  });

  const toggle = (userId: number, on: boolean) => {
    const next = new Set(selected);
    if (on) next.add(userId);
    else next.delete(userId);
    setSelected(next);
  };

  const columns: Column<MemberProgress>[] = [
    {
      // The row's checkbox beside the name: on a phone the first column is the card's title.
      key: 'name',
      header: 'Name',
      sort: (row) => row.name,
      cell: (row) => (
        <Stack direction="row" sx={{ alignItems: 'center' }}>
          <Checkbox
            size="small"
            sx={{ ml: -1 }}
            checked={selected.has(row.userId)}
            onChange={(event) => toggle(row.userId, event.target.checked)}
            slotProps={{ input: { 'aria-label': `Select ${row.name}` } }}
          />
          {row.name}
        </Stack>
      ),
    },
    {
      key: 'assigned',
      header: 'Assigned',
      sort: (row) => row.assigned,
      cell: (row) => row.assigned,
    },
    { key: 'saved', header: 'Saved', sort: (row) => row.saved, cell: (row) => row.saved },
    {
      key: 'notStarted',
      header: 'Not started',
      sort: (row) => row.notStarted,
      cell: (row) => row.notStarted,
    },
    { key: 'overdue', header: 'Overdue', sort: (row) => row.overdue, cell: (row) => row.overdue },
    {
      key: 'lastReminded',
      header: 'Last reminder',
      // "Never" sorts as the oldest: the member reminded longest ago comes first.
      sort: (row) => (row.lastReminded ? new Date(row.lastReminded) : new Date(0)),
      cell: (row) => (row.lastReminded ? formatCallDate(row.lastReminded) : progressTexts.never),
    },
    {
      key: 'progress',
      header: 'Progress',
      sort: (row) => progressPercent(row),
      cell: (row) => {
        const percent = progressPercent(row);
        return (
          <Stack direction="row" sx={{ alignItems: 'center', gap: 1, minWidth: 120 }}>
            <LinearProgress
              variant="determinate"
              value={percent}
              aria-label={`Progress of ${row.name}`}
              sx={{ flex: 1, height: 8, borderRadius: 1 }}
            />
            <Typography variant="body2" sx={{ minWidth: '3.5em', textAlign: 'right' }}>
              {`${percent} %`}
            </Typography>
          </Stack>
        );
      },
    },
  ];
  const table = useTableState(columns, {
    defaultSort: { key: 'name', direction: 'asc' },
    prefix: 'members',
  });

  const nobodyAssigned = progress.members.every((member) => member.assigned === 0);
  if (nobodyAssigned)
    return (
      <EmptyState>
        {progressTexts.nobodyAssigned}{' '}
        {canAssign ? (
          <Link component={RouterLink} to={`/calls/${callId}/assignment`}>
            Assign Reviewers
          </Link>
        ) : (
          'Assign Reviewers, in the call’s Manage menu.'
        )}
      </EmptyState>
    );

  const shown = searchRows(progress.members, table.q, (row) => [row.name, row.username]);
  const allShown = shown.length > 0 && shown.every((row) => selected.has(row.userId));
  const nameOf = new Map(progress.members.map((member) => [member.userId, member.name]));

  return (
    <>
      {result && (
        <Alert
          severity={result.sent.length > 0 ? 'success' : 'info'}
          sx={{ mb: 2 }}
          onClose={() => setResult(null)}
        >
          {progressTexts.reminded(result.sent.length)}
          {result.skipped.length > 0 &&
            ` ${progressTexts.skipped(result.skipped.map((id) => nameOf.get(id) ?? `#${id}`))}`}
        </Alert>
      )}
      <ErrorList messages={remind.isError && !confirm.open ? errorMessages(remind.error) : []} />
      <Stack
        direction={{ xs: 'column', md: 'row' }}
        sx={{ gap: 2, mb: 1, alignItems: { md: 'center' } }}
      >
        <SearchField label="Search members" value={table.q} onChange={table.setQuery} />
        <Stack
          direction="row"
          role="toolbar"
          aria-label="Selected members"
          sx={{ gap: 1, flexWrap: 'wrap', alignItems: 'center' }}
        >
          <FormControlLabel
            control={
              <Checkbox
                checked={allShown}
                indeterminate={!allShown && selected.size > 0}
                disabled={shown.length === 0}
                onChange={(event) =>
                  setSelected(
                    event.target.checked ? new Set(shown.map((row) => row.userId)) : new Set(),
                  )
                }
              />
            }
            label="Select all"
          />
          <Typography variant="body2" color="text.secondary" sx={{ mr: 1 }}>
            {progressTexts.selected(selected.size)}
          </Typography>
          <Button
            variant="contained"
            disabled={!canRemind || selected.size === 0}
            onClick={() => {
              remind.reset();
              setResult(null);
              confirm.ask([...selected]);
            }}
          >
            Remind selected
          </Button>
        </Stack>
      </Stack>
      {shown.length === 0 ? (
        <EmptyState>{progressTexts.noMemberMatches(table.q)}</EmptyState>
      ) : (
        <DataTable
          label="Members"
          columns={columns}
          state={table}
          rows={shown}
          rowKey={(row) => row.userId}
        />
      )}
      <ConfirmDialog
        open={confirm.open}
        title={progressTexts.remindTitle(confirm.subject?.length ?? 0)}
        confirmLabel="Send reminder"
        pending={remind.isPending}
        onCancel={confirm.close}
        onConfirm={() => confirm.subject && remind.mutate(confirm.subject)}
      >
        {progressTexts.remindText(confirm.subject?.length ?? 0)}
        {remind.isError && (
          <Box component="span" sx={{ display: 'block', mt: 2, color: 'error.main' }}>
            {errorMessages(remind.error).join(' ')}
          </Box>
        )}
      </ConfirmDialog>
    </>
  );
}
