import type { ResourceValues } from '@merit/domain';
import { facilityLabel, resourceFieldTitle } from '@merit/domain';
import {
  Paper,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { formatAmount, resourceAmount, type ResourceColumn } from './chair-columns';

/**
 * Resource Totals (chairs): per facility and data field, the sum over the call's
 * submitted and reviewed proposals, the whole call's and not the page's; N/A where no
 * counted proposal gave a number. `columns` are those the facility filter keeps: the
 * totals of the proposals it lists. Each field by its form's title (`titles`).
 */
export function ResourceTotals({
  totals,
  columns,
  titles = {},
}: {
  totals: ResourceValues;
  columns: readonly ResourceColumn[];
  titles?: Readonly<Record<string, string>>;
}) {
  return (
    <section aria-labelledby="resource-totals-heading">
      <Typography id="resource-totals-heading" variant="h6" component="h2" sx={{ mb: 1 }}>
        Resource Totals
      </Typography>
      {columns.length === 0 ? (
        <Typography color="text.secondary" sx={{ mb: 2 }}>
          No proposal asks for resources yet.
        </Typography>
      ) : (
        <TableContainer component={Paper} variant="outlined" sx={{ mb: 2, maxWidth: 560 }}>
          <Table size="small" aria-labelledby="resource-totals-heading">
            <TableHead>
              <TableRow>
                <TableCell>Facility</TableCell>
                <TableCell>Field</TableCell>
                <TableCell align="right">Total</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {columns.map((column) => (
                <TableRow key={`${column.facility}\u0000${column.field}`}>
                  <TableCell>{facilityLabel(column.facility)}</TableCell>
                  <TableCell>{resourceFieldTitle(titles, column.field)}</TableCell>
                  <TableCell align="right">
                    {formatAmount(resourceAmount(totals, column))}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
    </section>
  );
}
