import type { CallSummary } from '@merit/contract';
import { Link } from '@mui/material';
import { Link as RouterLink } from 'react-router';
import type { Column } from '../../components/table/DataTable';
import { formatCallDate } from './call-dates';

/** The call's name, linking to its page. */
export const callNameColumn: Column<CallSummary> = {
  key: 'name',
  header: 'Name',
  cell: (call) => (
    <Link component={RouterLink} to={`/calls/${call.id}/`} sx={{ fontWeight: 500 }}>
      {call.name}
    </Link>
  ),
  sort: (call) => call.name,
};

function dateColumn(
  key: 'commencement' | 'termination' | 'reviewCommencement' | 'reviewTermination',
  header: string,
): Column<CallSummary> {
  return {
    key,
    header,
    cell: (call) => formatCallDate(call[key]),
    sort: (call) => new Date(call[key]),
  };
}

/** The four dates of a call, in the long style of call tables (spec section 9). */
export const callDateColumns: readonly Column<CallSummary>[] = [
  dateColumn('commencement', 'Submission Open'),
  dateColumn('termination', 'Submission Deadline'),
  dateColumn('reviewCommencement', 'Review Start'),
  dateColumn('reviewTermination', 'Review Deadline'),
];

/** Newest opening first: how call lists are sorted until someone chooses otherwise (spec section 2). */
export const BY_OPENING_DESC = { key: 'commencement', direction: 'desc' } as const;
