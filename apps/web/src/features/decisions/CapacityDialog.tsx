import type { CallCapacity } from '@merit/contract';
import {
  capacityProblems,
  decisionMessages,
  facilityFieldLabel,
  type Capacity,
} from '@merit/domain';
import {
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { errorMessages, isApiError } from '../../api/client';
import { ErrorList } from '../../components/ErrorList';
import { LoadFailedView } from '../../components/LoadFailedView';
import { LoadingView } from '../../components/LoadingView';
import { useNotify } from '../../components/notifications/notification-context';
import { StaleReloadAlert } from '../drafts/StaleReloadAlert';
import { isStale, saveErrorMessages, staleCurrent } from '../drafts/stale';
import { NOT_A_NUMBER } from './decision-form';
import {
  callCapacityQuery,
  decisionKeys,
  refreshDecisions,
  saveCapacity,
  useCallCapacity,
} from './decisions.api';

export const CAPACITIES_SAVED = 'The capacities have been saved.';

/** A facility and field as one key of the form, and as the server names its field. */
const pathOf = (facility: string, field: string) => `capacity.${facility}.${field}`;

interface Pair {
  facility: string;
  field: string;
}

/** The pairs to ask about: those the proposals ask for, then any other with a capacity. */
function pairsOf(saved: CallCapacity): Pair[] {
  const pairs = [...saved.asked];
  for (const [facility, fields] of Object.entries(saved.capacity))
    for (const field of Object.keys(fields))
      if (!pairs.some((p) => p.facility === facility && p.field === field))
        pairs.push({ facility, field });
  return pairs;
}

const valuesOf = (saved: CallCapacity) =>
  Object.fromEntries(
    pairsOf(saved).map(({ facility, field }) => {
      const amount = saved.capacity[facility]?.[field];
      return [pathOf(facility, field), amount === undefined ? '' : String(amount)];
    }),
  );

/**
 * The call's capacities: per facility and data field its proposals ask for, how much
 * there is (blank: none, so no line). Saved together from the version it opened with.
 */
export function CapacityDialog({
  callId,
  open,
  onClose,
}: {
  callId: number;
  open: boolean;
  onClose: () => void;
}) {
  const id = useId();
  const capacity = useCallCapacity(callId, open);
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby={id} fullWidth maxWidth="sm">
      <DialogTitle id={id}>Capacities</DialogTitle>
      {open &&
        (capacity.isPending ? (
          <DialogContent>
            <LoadingView label="Loading the capacities…" />
          </DialogContent>
        ) : capacity.isError ? (
          <DialogContent>
            <LoadFailedView error={capacity.error} onRetry={() => void capacity.refetch()} />
          </DialogContent>
        ) : (
          <CapacityForm callId={callId} saved={capacity.data} onClose={onClose} />
        ))}
    </Dialog>
  );
}

function CapacityForm({
  callId,
  saved,
  onClose,
}: {
  callId: number;
  saved: CallCapacity;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const notify = useNotify();
  // What the form started from: its version is the one a save is made from.
  const [base, setBase] = useState(saved);
  const [values, setValues] = useState(() => valuesOf(saved));
  const pairs = pairsOf(base);

  const start = (next: CallCapacity) => {
    setBase(next);
    setValues(valuesOf(next));
    queryClient.setQueryData(decisionKeys.capacity(callId), next);
  };

  const capacityOf = (): Capacity => {
    const capacity: Capacity = {};
    for (const { facility, field } of pairs) {
      const text = values[pathOf(facility, field)]?.trim() ?? '';
      if (text !== '') (capacity[facility] ??= {})[field] = Number(text);
    }
    return capacity;
  };
  const problems = new Map<string, string[]>();
  for (const { facility, field } of pairs) {
    const text = values[pathOf(facility, field)]?.trim() ?? '';
    if (text !== '' && Number.isNaN(Number(text)))
      problems.set(pathOf(facility, field), [NOT_A_NUMBER]);
  }
  if (problems.size === 0)
    for (const { path, message } of capacityProblems(capacityOf()))
      problems.set(path, [...(problems.get(path) ?? []), message]);

  const save = useMutation({
    mutationFn: () => saveCapacity(callId, { capacity: capacityOf(), version: base.version }),
    onSuccess: (answer) => {
      start(answer);
      notify(CAPACITIES_SAVED);
      void refreshDecisions(queryClient, callId);
      onClose();
    },
  });
  const reload = useMutation({
    mutationFn: async () =>
      (await staleCurrent(save.error, (c) => c.callCapacity)) ??
      // A 409 without the capacities saved now: ask for them.
      (await queryClient.fetchQuery({ ...callCapacityQuery(callId), staleTime: 0 })),
    onSuccess: (next) => {
      save.reset();
      start(next);
    },
  });

  const server = isApiError(save.error, 400) ? (save.error.body.fields ?? {}) : undefined;
  const messagesAt = (path: string) => [...(problems.get(path) ?? []), ...(server?.[path] ?? [])];
  const topErrors = saveErrorMessages(save.isError ? save.error : null, server ? [] : null, null);

  return (
    <>
      <DialogContent>
        <StaleReloadAlert
          error={save.error}
          message={decisionMessages.capacityStale}
          reload={reload}
        />
        <ErrorList
          messages={[...topErrors, ...(reload.isError ? errorMessages(reload.error) : [])]}
        />
        {pairs.length === 0 ? (
          <Typography>
            No submitted proposal asks for resources yet, so there is no capacity to enter.
          </Typography>
        ) : (
          <>
            <DialogContentText sx={{ mb: 2 }}>
              How much each facility has to give, per field its proposals ask for. Leave a field
              blank when it has no limit: the ranking then draws no line for it.
            </DialogContentText>
            <Stack spacing={2}>
              {pairs.map(({ facility, field }) => {
                const path = pathOf(facility, field);
                const messages = messagesAt(path);
                return (
                  <TextField
                    key={path}
                    type="number"
                    label={facilityFieldLabel(facility, field)}
                    value={values[path] ?? ''}
                    onChange={(event) => setValues({ ...values, [path]: event.target.value })}
                    error={messages.length > 0}
                    helperText={messages.join(' ') || undefined}
                    slotProps={{ htmlInput: { min: 0, step: 'any' } }}
                  />
                );
              })}
            </Stack>
          </>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        {pairs.length > 0 && (
          <Button
            variant="contained"
            loading={save.isPending}
            disabled={isStale(save.error) || problems.size > 0}
            onClick={() => save.mutate()}
          >
            Save capacities
          </Button>
        )}
      </DialogActions>
    </>
  );
}
