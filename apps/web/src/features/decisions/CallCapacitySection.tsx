import type { RankingLineBody } from '@merit/contract';
import { facilityLabel, formatAmount } from '@merit/domain';
import ErrorOutlineIcon from '@mui/icons-material/ErrorOutlineOutlined';
import {
  Button,
  Paper,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { Link as RouterLink } from 'react-router';
import { errorMessages } from '../../api/client';
import { ErrorList } from '../../components/ErrorList';
import { Section } from '../../components/Section';
import { callCapacityQuery } from './decisions.api';

const counting = new Intl.NumberFormat('en');

export const capacitySectionTexts = {
  title: 'Capacity',
  aboveCapacity: 'above capacity',
  noCapacity: 'None',
  noneEntered:
    'No capacity is entered yet: enter each facility’s capacity on the Ranking page to see how far it is oversubscribed.',
  toRanking: 'Open the Ranking page',
} as const;

/** A share of the capacity in words: "130 %, above capacity"; a dash without a capacity. */
function shareText(share: number | null, over: boolean): string {
  const parts = [
    share === null ? null : `${counting.format(Math.round(share * 100))} %`,
    over ? capacitySectionTexts.aboveCapacity : null,
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
 * The call's oversubscription for its manage page (issue 29), for those who may decide:
 * per facility and field the capacity, what is asked for and awarded, and both over the
 * capacity, from GET .../capacity/ (the ranking's totals without its rows). Shown once a
 * capacity is entered or resources are asked for.
 */
export function CallCapacitySection({ callId }: { callId: number }) {
  // Every award changes the totals: asked for afresh each time the page opens.
  const capacity = useQuery({ ...callCapacityQuery(callId), staleTime: 0 });
  const rankingLink = (
    <Button component={RouterLink} to={`/calls/${callId}/ranking`} variant="outlined" size="small">
      {capacitySectionTexts.toRanking}
    </Button>
  );

  if (capacity.isPending) return null;
  if (capacity.isError)
    return (
      <Section id="call-capacity" title={capacitySectionTexts.title} actions={rankingLink}>
        <ErrorList messages={errorMessages(capacity.error)} />
      </Section>
    );
  const { lines } = capacity.data;
  if (lines.length === 0) return null;
  const entered = lines.some((line) => line.capacity !== null);

  return (
    <Section id="call-capacity" title={capacitySectionTexts.title} actions={rankingLink}>
      {!entered && (
        <Typography color="text.secondary" sx={{ mb: 1 }}>
          {capacitySectionTexts.noneEntered}
        </Typography>
      )}
      <TableContainer component={Paper} variant="outlined" sx={{ maxWidth: 900 }}>
        <Table size="small" aria-labelledby="call-capacity">
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
                <TableCell>{line.field}</TableCell>
                <TableCell align="right">
                  {line.capacity === null
                    ? capacitySectionTexts.noCapacity
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
      </TableContainer>
    </Section>
  );
}
