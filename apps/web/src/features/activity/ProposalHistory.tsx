import type { ProposalDetail } from '@merit/contract';
import { Typography } from '@mui/material';
import { EmptyState } from '../../components/EmptyState';
import { LoadFailedView } from '../../components/LoadFailedView';
import { LoadingView } from '../../components/LoadingView';
import { useTableState } from '../../components/table/use-table-state';
import { useProposalHistory } from './activity.api';
import { ActivityTable } from './ActivityTable';

/** Said to the proposal's team above their timeline, which holds only their own actions. */
export const TEAM_HISTORY_NOTE = 'This is what you and your collaborators did to this proposal.';

/**
 * The History tab of a proposal (issue 28), for those its `viewHistory` ability names:
 * who did what when, newest first, a page at a time. The server decides what each reader
 * sees: its team their own timeline, chairs every row but a review's text, administrators
 * everything.
 */
export function ProposalHistory({ proposal }: { proposal: ProposalDetail }) {
  // Its own keys in the address (`history.page`), beside the editor's `tab`.
  const table = useTableState([], {
    defaultSort: { key: 'at', direction: 'desc' },
    prefix: 'history',
  });
  const history = useProposalHistory(proposal.id, {
    page: table.page + 1,
    pageSize: table.pageSize,
  });
  if (history.isPending) return <LoadingView label="Loading the history…" />;
  if (history.isError)
    return <LoadFailedView error={history.error} onRetry={() => void history.refetch()} />;
  return (
    <>
      {history.data.reader === 'team' && (
        <Typography sx={{ mb: 2 }}>{TEAM_HISTORY_NOTE}</Typography>
      )}
      {history.data.total === 0 ? (
        <EmptyState>Nothing has been recorded for this proposal yet.</EmptyState>
      ) : (
        <ActivityTable
          label={`History of ${proposal.proposalName}`}
          page={history.data}
          state={table}
        />
      )}
    </>
  );
}
