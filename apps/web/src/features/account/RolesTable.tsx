import type { UserRole } from '@merit/contract';
import { FormControlLabel, Switch, Typography } from '@mui/material';
import { useState } from 'react';
import { DataTable, type Column } from '../../components/table/DataTable';
import { useTableState } from '../../components/table/use-table-state';
import { formatRoleDate, ROLE_LABELS } from '../roles/role-dates';

const COLUMNS: readonly Column<UserRole>[] = [
  {
    key: 'committee',
    header: 'Committee',
    cell: (role) => role.committeeName,
    sort: (role) => role.committeeName,
  },
  {
    key: 'role',
    header: 'Role',
    cell: (role) => ROLE_LABELS[role.role],
    sort: (role) => ROLE_LABELS[role.role],
  },
  {
    key: 'from',
    header: 'Effective from',
    cell: (role) => formatRoleDate(role.commencement),
    sort: (role) => new Date(role.commencement),
  },
  {
    key: 'until',
    header: 'Effective until',
    cell: (role) => formatRoleDate(role.termination),
    sort: (role) => new Date(role.termination),
  },
];

const CURRENT_COLUMN: Column<UserRole> = {
  key: 'current',
  header: 'Current',
  cell: (role) => (role.current ? 'Yes' : 'No'),
  sort: (role) => (role.current ? 'Yes' : 'No'),
};

/** The user's committee roles: the current ones, or all of them with a Current column. */
export function RolesTable({ roles, labelledBy }: { roles: UserRole[]; labelledBy: string }) {
  const [showAll, setShowAll] = useState(false);
  const shown = showAll ? roles : roles.filter((role) => role.current);
  const hasOthers = roles.some((role) => !role.current);
  const columns = showAll ? [...COLUMNS, CURRENT_COLUMN] : COLUMNS;
  const table = useTableState(columns, { defaultSort: { key: 'committee', direction: 'asc' } });

  return (
    <>
      {hasOthers && (
        <FormControlLabel
          sx={{ mb: 1 }}
          control={
            <Switch checked={showAll} onChange={(event) => setShowAll(event.target.checked)} />
          }
          label="Include past and future roles"
        />
      )}
      {shown.length === 0 ? (
        <Typography>You have no current committee roles.</Typography>
      ) : (
        <DataTable
          labelledBy={labelledBy}
          columns={columns}
          state={table}
          rows={shown}
          rowKey={(role) => role.id}
        />
      )}
    </>
  );
}
