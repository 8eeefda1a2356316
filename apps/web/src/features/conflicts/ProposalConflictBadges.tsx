import type { CallProposal } from '@merit/contract';
import { Chip, Stack } from '@mui/material';
import { Link as RouterLink } from 'react-router';

/**
 * A row's conflict marks in a call's proposal list: "Conflict" when the caller has one
 * with it (its review columns are then left out for them); for chairs, its confirmed and
 * suggested conflicts, and "No declarations" when its applicants declared none, each a
 * link to the call's Conflicts page for that proposal. Nothing when the server sent none.
 */
export function ProposalConflictBadges({ row, callId }: { row: CallProposal; callId: number }) {
  const counts = row.conflicts;
  const chips = [];
  if (row.myConflict)
    chips.push(
      <Chip
        key="mine"
        size="small"
        color="error"
        label="Conflict"
        title="You have a conflict of interest with this proposal."
      />,
    );
  if (counts) {
    const link = { component: RouterLink, to: `/calls/${callId}/conflicts?proposal=${row.id}` };
    if (counts.confirmed > 0)
      chips.push(
        <Chip
          key="confirmed"
          size="small"
          color="error"
          variant="outlined"
          clickable
          {...link}
          label={counts.confirmed === 1 ? '1 conflict' : `${counts.confirmed} conflicts`}
        />,
      );
    if (counts.suggested > 0)
      chips.push(
        <Chip
          key="suggested"
          size="small"
          color="warning"
          variant="outlined"
          clickable
          {...link}
          label={
            counts.suggested === 1
              ? '1 possible conflict'
              : `${counts.suggested} possible conflicts`
          }
        />,
      );
    if (!counts.declaredByApplicants && row.stateVal > 0)
      chips.push(<Chip key="undeclared" size="small" variant="outlined" label="No declarations" />);
  }
  if (chips.length === 0) return null;
  return (
    <Stack direction="row" sx={{ gap: 0.5, flexWrap: 'wrap', mt: 0.5 }}>
      {chips}
    </Stack>
  );
}
