import { Paper, Table, TableBody, TableCell, TableContainer, TableRow } from '@mui/material';
import type { ReactNode } from 'react';

/** Label and value pairs of one record, as a two-column table with row headers. */
export function DetailsTable({
  rows,
  labelledBy,
}: {
  rows: readonly (readonly [string, ReactNode])[];
  labelledBy: string;
}) {
  return (
    <TableContainer component={Paper} variant="outlined" sx={{ maxWidth: 720 }}>
      <Table aria-labelledby={labelledBy} size="small">
        <TableBody>
          {rows.map(([label, value]) => (
            <TableRow key={label}>
              <TableCell component="th" scope="row" sx={{ width: 220, fontWeight: 500 }}>
                {label}
              </TableCell>
              <TableCell>{value === '' || value == null ? '—' : value}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
