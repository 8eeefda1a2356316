import { Button, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { Link as RouterLink } from 'react-router';
import { errorMessages } from '../../api/client';
import { ErrorList } from '../../components/ErrorList';
import { Section } from '../../components/Section';
import { CapacityTable } from './CapacityTable';
import { callCapacityQuery } from './decisions.api';

export const capacitySectionTexts = {
  title: 'Capacity',
  noneEntered:
    'No capacity is entered yet: enter each facility’s capacity on the Ranking page to see how far it is oversubscribed.',
  toRanking: 'Open the Ranking page',
} as const;

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
  const { lines, fieldTitles } = capacity.data;
  if (lines.length === 0) return null;
  const entered = lines.some((line) => line.capacity !== null);

  return (
    <Section id="call-capacity" title={capacitySectionTexts.title} actions={rankingLink}>
      {!entered && (
        <Typography color="text.secondary" sx={{ mb: 1 }}>
          {capacitySectionTexts.noneEntered}
        </Typography>
      )}
      <CapacityTable lines={lines} fieldTitles={fieldTitles} labelledBy="call-capacity" />
    </Section>
  );
}
