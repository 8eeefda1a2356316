import type { AssignmentRun } from '@merit/contract';
import { assignmentMessages } from '@merit/domain';
import { Alert, Box, Button, Stack, Tab, Tabs, Typography } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { errorMessages } from '../../api/client';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { EmptyState } from '../../components/EmptyState';
import { ErrorList } from '../../components/ErrorList';
import { useNotify } from '../../components/notifications/notification-context';
import { DataTable, type Column } from '../../components/table/DataTable';
import { useLocalTableState } from '../../components/table/use-table-state';
import { applyProposal, discardProposal, isStale, refreshAssignment } from './assignment.api';
import { assignmentTexts } from './assignment-texts';
import { PreferenceChip } from './PreferenceChip';

type Added = AssignmentRun['added'][number];
type Load = AssignmentRun['loads'][number];
type Unfilled = AssignmentRun['unfilled'][number];

interface RunPreviewProps {
  callId: number;
  run: AssignmentRun;
  canChange: boolean;
  proposing: boolean;
  onProposeAgain: () => void;
  /** Applied or discarded: the page no longer shows it. */
  onClosed: () => void;
}

/**
 * What Propose worked out, before anything is saved: per member, per proposal, and the
 * proposals that stay short with the reason. Apply saves it all at once; Discard drops it.
 */
export function RunPreview({
  callId,
  run,
  canChange,
  proposing,
  onProposeAgain,
  onClosed,
}: RunPreviewProps) {
  const queryClient = useQueryClient();
  const notify = useNotify();
  const headingId = useId();
  const [tab, setTab] = useState<'members' | 'proposals' | 'short'>('members');
  const [confirmingDiscard, setConfirmingDiscard] = useState(false);

  const apply = useMutation({
    mutationFn: () => applyProposal(callId, run.id),
    onSuccess: async ({ added, mailed }) => {
      notify(assignmentTexts.applied(added, mailed));
      onClosed();
      await refreshAssignment(queryClient, callId);
    },
  });
  const discard = useMutation({
    mutationFn: () => discardProposal(callId, run.id),
    onSuccess: async () => {
      notify(assignmentTexts.discarded);
      setConfirmingDiscard(false);
      onClosed();
      await refreshAssignment(queryClient, callId);
    },
  });

  const tabIds = (value: typeof tab) => ({
    id: `${headingId}-${value}`,
    'aria-controls': `${headingId}-${value}-panel`,
  });
  const empty = run.added.length === 0 && run.removed.length === 0;
  return (
    <Box component="section" aria-labelledby={headingId}>
      <Typography variant="h6" component="h3" id={headingId}>
        Proposed assignments
      </Typography>
      <Typography sx={{ mb: 2 }}>
        {assignmentTexts.previewSummary(run.added.length, run.removed.length, run.unfilled.length)}
      </Typography>
      {isStale(apply.error) ? (
        <Alert
          severity="warning"
          sx={{ mb: 2 }}
          action={
            <Button color="inherit" size="small" loading={proposing} onClick={onProposeAgain}>
              Propose again
            </Button>
          }
        >
          {apply.error.body.detail}
        </Alert>
      ) : (
        <ErrorList
          messages={[
            ...(apply.isError ? errorMessages(apply.error) : []),
            ...(discard.isError ? errorMessages(discard.error) : []),
          ]}
        />
      )}
      {canChange && (
        <Stack direction="row" sx={{ gap: 1, mb: 2 }}>
          <Button
            variant="contained"
            loading={apply.isPending}
            disabled={empty || discard.isPending || isStale(apply.error)}
            onClick={() => apply.mutate()}
          >
            Apply
          </Button>
          <Button
            variant="outlined"
            disabled={apply.isPending}
            onClick={() => {
              discard.reset();
              setConfirmingDiscard(true);
            }}
          >
            Discard
          </Button>
        </Stack>
      )}
      <Box sx={{ borderBottom: 1, borderColor: 'divider', mb: 2 }}>
        <Tabs
          value={tab}
          onChange={(_event, value: typeof tab) => setTab(value)}
          aria-label="Proposed assignments"
          variant="scrollable"
          scrollButtons="auto"
        >
          <Tab value="members" label="By member" {...tabIds('members')} />
          <Tab value="proposals" label="By proposal" {...tabIds('proposals')} />
          <Tab value="short" label={`Short (${run.unfilled.length})`} {...tabIds('short')} />
        </Tabs>
      </Box>
      <Box role="tabpanel" id={`${headingId}-${tab}-panel`} aria-labelledby={`${headingId}-${tab}`}>
        {tab === 'members' && <ByMember run={run} />}
        {tab === 'proposals' && <ByProposal run={run} />}
        {tab === 'short' && <Short unfilled={run.unfilled} />}
      </Box>
      <ConfirmDialog
        open={confirmingDiscard}
        title="Discard the proposed assignments?"
        confirmLabel="Discard"
        pending={discard.isPending}
        onCancel={() => setConfirmingDiscard(false)}
        onConfirm={() => discard.mutate()}
      >
        {assignmentTexts.discardConfirm}
      </ConfirmDialog>
    </Box>
  );
}

interface MemberRow extends Load {
  added: string[];
}

function ByMember({ run }: { run: AssignmentRun }) {
  const addedOf = new Map<number, string[]>();
  for (const pair of run.added) {
    const names = addedOf.get(pair.userId);
    if (names) names.push(pair.proposalName);
    else addedOf.set(pair.userId, [pair.proposalName]);
  }
  const rows: MemberRow[] = run.loads.map((load) => ({
    ...load,
    added: addedOf.get(load.userId) ?? [],
  }));
  const columns: Column<MemberRow>[] = [
    { key: 'name', header: 'Member', sort: (row) => row.userName, cell: (row) => row.userName },
    {
      key: 'load',
      header: 'Before → after',
      sort: (row) => row.after,
      cell: (row) => `${row.before} → ${row.after}`,
    },
    { key: 'cap', header: 'Cap', sort: (row) => row.cap, cell: (row) => row.cap },
    {
      key: 'added',
      header: 'Proposals added',
      cell: (row) => (row.added.length === 0 ? '—' : row.added.join(', ')),
    },
  ];
  const table = useLocalTableState(columns, { defaultSort: { key: 'name', direction: 'asc' } });
  if (rows.length === 0) return <EmptyState>{assignmentTexts.previewNothing}</EmptyState>;
  return (
    <DataTable
      label="Proposed assignments by member"
      columns={columns}
      state={table}
      rows={rows}
      rowKey={(row) => row.userId}
    />
  );
}

interface ProposalRow {
  proposalId: number;
  name: string;
  added: Added[];
  removed: string[];
}

function ByProposal({ run }: { run: AssignmentRun }) {
  const byId = new Map<number, ProposalRow>();
  const rowOf = (proposalId: number, name: string) => {
    const row = byId.get(proposalId) ?? { proposalId, name, added: [], removed: [] };
    byId.set(proposalId, row);
    return row;
  };
  for (const pair of run.added) rowOf(pair.proposalId, pair.proposalName).added.push(pair);
  for (const pair of run.removed)
    rowOf(pair.proposalId, pair.proposalName).removed.push(pair.userName);
  const rows = [...byId.values()];

  const columns: Column<ProposalRow>[] = [
    { key: 'name', header: 'Proposal', sort: (row) => row.name, cell: (row) => row.name },
    {
      key: 'added',
      header: 'Reviewers added',
      cell: (row) =>
        row.added.length === 0 ? (
          '—'
        ) : (
          <Stack component="ul" sx={{ listStyle: 'none', m: 0, p: 0, gap: 0.5 }}>
            {row.added.map((pair) => (
              <Stack
                component="li"
                key={pair.userId}
                direction="row"
                sx={{ gap: 1, alignItems: 'center' }}
              >
                {pair.userName}
                <PreferenceChip preference={pair.preference} />
              </Stack>
            ))}
          </Stack>
        ),
    },
    ...(run.removed.length > 0
      ? [
          {
            key: 'removed',
            header: 'Taken back',
            cell: (row: ProposalRow) => (row.removed.length === 0 ? '—' : row.removed.join(', ')),
          },
        ]
      : []),
  ];
  const table = useLocalTableState(columns, { defaultSort: { key: 'name', direction: 'asc' } });
  if (rows.length === 0) return <EmptyState>{assignmentTexts.previewNothing}</EmptyState>;
  return (
    <DataTable
      label="Proposed assignments by proposal"
      columns={columns}
      state={table}
      rows={rows}
      rowKey={(row) => row.proposalId}
    />
  );
}

function Short({ unfilled }: { unfilled: Unfilled[] }) {
  const columns: Column<Unfilled>[] = [
    {
      key: 'name',
      header: 'Proposal',
      sort: (row) => row.proposalName,
      cell: (row) => row.proposalName,
    },
    { key: 'missing', header: 'Missing', sort: (row) => row.missing, cell: (row) => row.missing },
    {
      key: 'reason',
      header: 'Reason',
      cell: (row) => row.message || assignmentMessages.unfilled[row.reason],
    },
  ];
  const table = useLocalTableState(columns, { defaultSort: { key: 'name', direction: 'asc' } });
  if (unfilled.length === 0) return <EmptyState>{assignmentTexts.previewNoneShort}</EmptyState>;
  return (
    <DataTable
      label="Proposals short of reviews"
      columns={columns}
      state={table}
      rows={unfilled}
      rowKey={(row) => row.proposalId}
    />
  );
}
