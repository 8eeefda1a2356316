import type { UserRole } from '@merit/contract';
import type { CommitteeRoleName } from '@merit/domain';
import {
  FormControlLabel,
  Paper,
  Switch,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { useState } from 'react';

const ROLE_LABELS: Record<CommitteeRoleName, string> = { CHAIR: 'Chair', MEMBER: 'Member' };

function formatDate(iso: string): string {
  return new Date(iso).toLocaleDateString(undefined, { dateStyle: 'long' });
}

/** The user's committee roles: the current ones, or all of them with a Current column. */
export function RolesTable({ roles, labelledBy }: { roles: UserRole[]; labelledBy: string }) {
  const [showAll, setShowAll] = useState(false);
  const shown = showAll ? roles : roles.filter((role) => role.current);
  const hasOthers = roles.some((role) => !role.current);

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
        <TableContainer component={Paper} variant="outlined" sx={{ maxWidth: 900 }}>
          <Table aria-labelledby={labelledBy}>
            <TableHead>
              <TableRow>
                <TableCell>Committee</TableCell>
                <TableCell>Role</TableCell>
                <TableCell>Effective from</TableCell>
                <TableCell>Effective until</TableCell>
                {showAll && <TableCell>Current</TableCell>}
              </TableRow>
            </TableHead>
            <TableBody>
              {shown.map((role) => (
                <TableRow key={role.id}>
                  <TableCell>{role.committeeName}</TableCell>
                  <TableCell>{ROLE_LABELS[role.role]}</TableCell>
                  <TableCell>{formatDate(role.commencement)}</TableCell>
                  <TableCell>{formatDate(role.termination)}</TableCell>
                  {showAll && <TableCell>{role.current ? 'Yes' : 'No'}</TableCell>}
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
    </>
  );
}
