import type { AssignmentSettings } from '@merit/contract';
import { MAX_REVIEWS_PER_PROPOSAL } from '@merit/domain';
import { Button, FormControlLabel, Stack, Switch } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { errorMessages } from '../../api/client';
import { ErrorList } from '../../components/ErrorList';
import { useNotify } from '../../components/notifications/notification-context';
import { refreshAssignment, saveAssignmentSettings } from './assignment.api';
import { assignmentTexts } from './assignment-texts';
import { NumberField, parseWhole } from './NumberField';

const K_LABEL = 'Reviews per proposal (k)';
const kProblem = `Enter a whole number from 0 to ${MAX_REVIEWS_PER_PROPOSAL}.`;

interface AssignmentSettingsFormProps {
  callId: number;
  settings: AssignmentSettings;
  canChange: boolean;
}

/**
 * The call's k and bidding. A proposal's own k is set in the matrix, and each member's
 * cap in the members' table: both change one row, not the call.
 */
export function AssignmentSettingsForm({
  callId,
  settings,
  canChange,
}: AssignmentSettingsFormProps) {
  const queryClient = useQueryClient();
  const notify = useNotify();
  const [k, setK] = useState(String(settings.reviewsPerProposal));
  const [biddingOpen, setBiddingOpen] = useState(settings.biddingOpen);
  const [showsProposals, setShowsProposals] = useState(settings.biddingShowsProposals);
  const [checked, setChecked] = useState(false);

  const save = useMutation({
    mutationFn: (reviewsPerProposal: number) =>
      saveAssignmentSettings(callId, {
        reviewsPerProposal,
        biddingOpen,
        biddingShowsProposals: showsProposals,
      }),
    onSuccess: async () => {
      notify(assignmentTexts.settingsSaved);
      await refreshAssignment(queryClient, callId);
    },
  });

  const parsedK = parseWhole(k);
  const kValid = typeof parsedK === 'number' && parsedK <= MAX_REVIEWS_PER_PROPOSAL;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setChecked(true);
    if (kValid) save.mutate(parsedK);
  };

  return (
    <form onSubmit={submit} noValidate aria-label="Assignment settings">
      <ErrorList
        messages={save.isError ? errorMessages(save.error, { reviewsPerProposal: K_LABEL }) : []}
      />
      <Stack spacing={1} sx={{ alignItems: 'flex-start' }}>
        <NumberField
          name="reviewsPerProposal"
          label={K_LABEL}
          value={k}
          onChange={setK}
          max={MAX_REVIEWS_PER_PROPOSAL}
          disabled={!canChange}
          error={checked && !kValid}
          helperText={checked && !kValid ? kProblem : undefined}
        />
        <FormControlLabel
          control={
            <Switch
              checked={biddingOpen}
              disabled={!canChange}
              onChange={(event) => setBiddingOpen(event.target.checked)}
            />
          }
          label="Bidding open"
        />
        <FormControlLabel
          control={
            <Switch
              checked={showsProposals}
              disabled={!canChange}
              onChange={(event) => setShowsProposals(event.target.checked)}
            />
          }
          label="Bidders may open proposals"
        />
        {canChange && (
          <Button type="submit" variant="contained" loading={save.isPending}>
            Save settings
          </Button>
        )}
      </Stack>
    </form>
  );
}
