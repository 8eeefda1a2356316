import { MAX_CAP } from '@merit/domain';
import { Button, Stack, Typography } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { errorMessages, isApiError } from '../../api/client';
import { ErrorList } from '../../components/ErrorList';
import { useNotify } from '../../components/notifications/notification-context';
import { assignmentKeys, saveMyCap } from './assignment.api';
import { assignmentTexts } from './assignment-texts';
import { NumberField, parseWhole } from './NumberField';

interface MyCapFormProps {
  callId: number;
  /** The cap the member set for themselves, or null. */
  cap: number | null;
  /** The chairs' cap for them: the most they may set. */
  chairCap: number | null;
  load: number;
}

/** A member lowers their own cap in this call (never above the chairs'); empty takes the chairs'. */
export function MyCapForm({ callId, cap, chairCap, load }: MyCapFormProps) {
  const queryClient = useQueryClient();
  const notify = useNotify();
  const [text, setText] = useState(cap === null ? '' : String(cap));
  const [checked, setChecked] = useState(false);
  const save = useMutation({
    mutationFn: (value: number | null) => saveMyCap(callId, value),
    onSuccess: async (saved) => {
      notify(assignmentTexts.myCapSaved(saved.cap));
      await queryClient.invalidateQueries({ queryKey: assignmentKeys.bids(callId) });
    },
  });

  const value = parseWhole(text);
  const valid = value !== undefined && (value === null || value <= MAX_CAP);
  // The server's word on the field (above the chairs' cap), under the field itself.
  const fieldError =
    isApiError(save.error, 400) && save.error.body.fields?.cap?.length
      ? save.error.body.fields.cap.join(' ')
      : null;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setChecked(true);
    save.reset();
    if (valid) save.mutate(value);
  };

  return (
    <form onSubmit={submit} noValidate aria-label="Your cap">
      {save.isError && fieldError === null && <ErrorList messages={errorMessages(save.error)} />}
      <Stack direction="row" sx={{ gap: 2, alignItems: 'flex-start', flexWrap: 'wrap', mb: 3 }}>
        <NumberField
          name="cap"
          label="Your cap"
          value={text}
          onChange={setText}
          max={MAX_CAP}
          placeholder={chairCap === null ? undefined : String(chairCap)}
          error={(checked && !valid) || fieldError !== null}
          helperText={
            fieldError ??
            (checked && !valid
              ? 'Enter a whole number, or leave it empty.'
              : assignmentTexts.myCapHint(chairCap))
          }
        />
        <Button type="submit" variant="outlined" loading={save.isPending} sx={{ mt: 1 }}>
          Save cap
        </Button>
        <Typography sx={{ mt: 2 }} color="text.secondary">
          {`You review ${load} ${load === 1 ? 'proposal' : 'proposals'} of this call now.`}
        </Typography>
      </Stack>
    </form>
  );
}
