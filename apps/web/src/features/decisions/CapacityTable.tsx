import type { RankingLineBody } from '@merit/contract';
import { facilityLabel, formatAmount, resourceFieldTitle } from '@merit/domain';
import ErrorOutlineIcon from '@mui/icons-material/ErrorOutlineOutlined';
import { Stack, Table, TableBody, TableCell, TableHead, TableRow } from '@mui/material';
import { TableScroller } from '../../components/table/TableScroller';

const counting = new Intl.NumberFormat('en');

export const capacityTableTexts = {
  aboveCapacity: 'above capacity',
  noCapacity: 'None',
} as const;

/** A share of the capacity in words: "130 %, above capacity"; a dash without a capacity. */
function shareText(share: number | null, over: boolean): string {
  const parts = [
    share === null ? null : `${counting.format(Math.round(share * 100))} %`,
    over ? capacityTableTexts.aboveCapacity : null,
  ].filter((part) => part !== null);
  return parts.length > 0 ? parts.join(', ') : '—';
}

/** A ratio cell: red, with an icon and the words, above the capacity. */
function ShareCell({ share, over }: { share: number | null; over: boolean }) {
  const text = shareText(share, over);
  if (!over) return <TableCell align="right">{text}</TableCell>;
  return (
    <TableCell align="right" sx={{ color: 'error.main', fontWeight: 500 }}>
      <Stack
        direction="row"
        component="span"
        sx={{ gap: 0.5, alignItems: 'center', justifyContent: 'flex-end' }}
      >
        <ErrorOutlineIcon fontSize="small" aria-hidden />
        {text}
      </Stack>
    </TableCell>
  );
}

const requestedOver = (line: RankingLineBody) =>
  line.capacity !== null && line.requested > line.capacity;

/**
 * Per facility and data field of a call's ranking (issue 29): its capacity, what is asked
 * for and awarded, and both over the capacity, red with an icon and words above it. On the
 * Ranking page and in Manage Call's Capacity section.
 */
export function CapacityTable({
  lines,
  fieldTitles,
  labelledBy,
}: {
  lines: readonly RankingLineBody[];
  /** The data fields' titles by key (the answer's `fieldTitles`). */
  fieldTitles: Readonly<Record<string, string>>;
  /** The id of the heading that names the table. */
  labelledBy: string;
}) {
  return (
    <TableScroller labelledBy={labelledBy} sx={{ maxWidth: 900 }}>
      <Table size="small" aria-labelledby={labelledBy}>
        <TableHead>
          <TableRow>
            <TableCell>Facility</TableCell>
            <TableCell>Field</TableCell>
            <TableCell align="right">Capacity</TableCell>
            <TableCell align="right">Requested</TableCell>
            <TableCell align="right">Awarded</TableCell>
            <TableCell align="right">Requested / capacity</TableCell>
            <TableCell align="right">Awarded / capacity</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {lines.map((line) => (
            <TableRow key={`${line.facility}\u0000${line.field}`}>
              <TableCell>{facilityLabel(line.facility)}</TableCell>
              <TableCell>{resourceFieldTitle(fieldTitles, line.field)}</TableCell>
              <TableCell align="right">
                {line.capacity === null
                  ? capacityTableTexts.noCapacity
                  : formatAmount(line.capacity)}
              </TableCell>
              <TableCell align="right">{formatAmount(line.requested)}</TableCell>
              <TableCell align="right">{formatAmount(line.awarded)}</TableCell>
              <ShareCell share={line.oversubscription} over={requestedOver(line)} />
              <ShareCell share={line.awardedShare} over={line.overAwarded} />
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableScroller>
  );
}
