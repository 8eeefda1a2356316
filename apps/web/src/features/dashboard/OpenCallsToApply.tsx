import { Button, Link, Paper, Stack, Typography } from '@mui/material';
import { Link as RouterLink } from 'react-router';
import { errorMessages } from '../../api/client';
import { EmptyState } from '../../components/EmptyState';
import { formatCallDate } from '../calls/call-dates';
import { useCallList } from '../calls/calls.api';

/**
 * What My Proposals shows a person with no proposal yet (issue 30): the open calls they may
 * apply to now, each with Apply (the call's Add Proposal), instead of an empty table.
 */
export function OpenCallsToApply() {
  const calls = useCallList('open');
  if (calls.isPending) return <EmptyState>Looking for open calls…</EmptyState>;
  if (calls.isError) return <EmptyState>{errorMessages(calls.error).join(' ')}</EmptyState>;
  // The server decided who may add a proposal, on its clock (extensions included).
  const open = calls.data.filter((call) => call.abilities.addProposal);
  if (open.length === 0)
    return (
      <EmptyState>
        You have no proposals yet, and no call accepts proposals now. The{' '}
        <Link component={RouterLink} to="/calls">
          calls for proposals
        </Link>{' '}
        list shows when the next ones open.
      </EmptyState>
    );

  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }}>
      <Typography sx={{ mb: 1.5 }}>
        You have no proposals yet. These calls accept proposals now:
      </Typography>
      <Stack component="ul" spacing={1.5} sx={{ listStyle: 'none', m: 0, p: 0 }}>
        {open.map((call) => (
          <Stack
            component="li"
            key={call.id}
            direction={{ xs: 'column', sm: 'row' }}
            sx={{ gap: 1, alignItems: { sm: 'center' }, justifyContent: 'space-between' }}
          >
            <div>
              <Link component={RouterLink} to={`/calls/${call.id}/`}>
                {call.name}
              </Link>
              <Typography variant="body2" color="text.secondary">
                {`${call.committeeName} · submission deadline ${formatCallDate(call.termination)}`}
              </Typography>
            </div>
            <Button
              component={RouterLink}
              to={`/calls/${call.id}/new`}
              variant="contained"
              size="small"
              aria-label={`Apply to ${call.name}`}
            >
              Apply
            </Button>
          </Stack>
        ))}
      </Stack>
    </Paper>
  );
}
