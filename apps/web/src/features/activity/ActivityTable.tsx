import type { ActivityEntry } from '@merit/contract';
import { formatDateTime } from '@merit/domain';
import { Chip, Link, Stack, Typography } from '@mui/material';
import { Link as RouterLink } from 'react-router';
import { DataTable, type Column } from '../../components/table/DataTable';
import type { TableState } from '../../components/table/use-table-state';
import { ChangeList } from './ChangeList';
import { NO_VALUE } from './change-values';

/** Who did it: Merit itself (a job, the conflict detector) when the row names no one. */
export const actorName = (entry: ActivityEntry) => entry.actor?.name ?? 'Merit';

/** A row of the security log (a login, a two-step change) rather than of the audit log. */
export const isSecurityEvent = (entry: ActivityEntry) => entry.key.startsWith('security-');

interface ActivityTableProps {
  /** Names the table for screen readers. */
  label: string;
  page: { items: readonly ActivityEntry[]; total: number };
  state: TableState;
  /** The proposal each row concerns, as a link (a call's and the whole system's activity). */
  showProposal?: boolean;
  /** The request id and address of each row (administrators). */
  showRequest?: boolean;
}

/**
 * The rows of a History or Activity list, newest first as the server sends them: when
 * (in UTC, the zone of the date filters), who, what in words, the proposal, and the
 * fields changed.
 */
export function ActivityTable({
  label,
  page,
  state,
  showProposal = false,
  showRequest = false,
}: ActivityTableProps) {
  const columns: Column<ActivityEntry>[] = [
    {
      key: 'at',
      header: 'When',
      cell: (entry) => formatDateTime(new Date(entry.at)),
      cellSx: { whiteSpace: { sm: 'nowrap' } },
    },
    { key: 'who', header: 'Who', cell: actorName },
    {
      key: 'action',
      header: 'Action',
      cell: (entry) => (
        <>
          <Stack
            direction="row"
            component="span"
            sx={{ gap: 1, alignItems: 'center', flexWrap: 'wrap' }}
          >
            <span>{entry.label}</span>
            {isSecurityEvent(entry) && (
              <Chip size="small" label="Security" color="warning" variant="outlined" />
            )}
          </Stack>
          {entry.subject && (
            <Typography variant="body2" color="text.secondary">
              {`Person: ${entry.subject.name}`}
            </Typography>
          )}
        </>
      ),
    },
    ...(showProposal ? [proposalColumn] : []),
    {
      key: 'changes',
      header: 'Changes',
      cellSx: { minWidth: 220 },
      cell: (entry) => <ChangeList changes={entry.changes} />,
    },
    ...(showRequest ? [requestColumn] : []),
  ];
  return (
    <DataTable
      label={label}
      columns={columns}
      state={state}
      serverPage={page}
      rowKey={(entry) => entry.key}
    />
  );
}

const proposalColumn: Column<ActivityEntry> = {
  key: 'proposal',
  header: 'Proposal',
  cell: (entry) =>
    entry.proposalId !== null && entry.callId !== null ? (
      <Link component={RouterLink} to={`/calls/${entry.callId}/proposals/${entry.proposalId}/`}>
        {entry.proposalName ?? `Proposal ${entry.proposalId}`}
      </Link>
    ) : (
      (entry.proposalName ?? NO_VALUE)
    ),
};

const requestColumn: Column<ActivityEntry> = {
  key: 'request',
  header: 'Request',
  cellSx: { fontFamily: 'monospace', fontSize: '0.8125rem', overflowWrap: 'anywhere' },
  cell: (entry) =>
    entry.address || entry.requestId ? (
      <>
        {entry.address && <div>{`Address: ${entry.address}`}</div>}
        {entry.requestId && <div>{`Request: ${entry.requestId}`}</div>}
      </>
    ) : (
      NO_VALUE
    ),
};
