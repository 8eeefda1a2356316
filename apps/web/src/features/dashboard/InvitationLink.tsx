import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import { Button, MenuItem, Stack, TextField, Typography } from '@mui/material';
import { useId, useState } from 'react';
import { errorMessages } from '../../api/client';
import { useNotify } from '../../components/notifications/notification-context';
import { invitationUrl, useInvitationLink } from './setup.api';

/**
 * The invitation link of one of `committees` (issue 30): registration, naming the committee,
 * to send to people who should join it. The account still registers and verifies as any
 * other, and gets its role from an administrator: the link only tells the newcomer that
 * they are in the right place. With several committees, a select chooses which.
 */
export function InvitationLink({ committees }: { committees: { id: number; name: string }[] }) {
  const notify = useNotify();
  const id = useId();
  const [chosen, setChosen] = useState<number | null>(committees[0]?.id ?? null);
  const committeeId = committees.some((c) => c.id === chosen)
    ? chosen
    : (committees[0]?.id ?? null);
  const link = useInvitationLink(committeeId);
  if (committeeId === null) return null;
  const url = link.data ? invitationUrl(link.data.token) : '';
  const name = committees.find((c) => c.id === committeeId)?.name ?? '';

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url);
      notify(`Invitation link to ${name} copied to the clipboard.`);
    } catch {
      // No clipboard access (an insecure origin, or the browser refused it).
      notify('The link could not be copied. Select it and copy it yourself.', 'error');
    }
  };

  return (
    <Stack spacing={1.5} sx={{ mt: 1 }}>
      {committees.length > 1 && (
        <TextField
          select
          size="small"
          label="Committee"
          value={committeeId}
          onChange={(event) => setChosen(Number(event.target.value))}
          sx={{ maxWidth: 360 }}
        >
          {committees.map((c) => (
            <MenuItem key={c.id} value={c.id}>
              {c.name}
            </MenuItem>
          ))}
        </TextField>
      )}
      {link.isError ? (
        <Typography color="error" variant="body2">
          {errorMessages(link.error).join(' ')}
        </Typography>
      ) : (
        <Stack
          direction={{ xs: 'column', sm: 'row' }}
          spacing={1}
          sx={{ alignItems: { sm: 'center' } }}
        >
          <TextField
            id={id}
            size="small"
            label={`Invitation link to ${name}`}
            value={url}
            placeholder="Making the link…"
            slotProps={{ htmlInput: { readOnly: true } }}
            onFocus={(event) => event.target.select()}
            sx={{ flex: 1, minWidth: 0 }}
          />
          <Button
            variant="outlined"
            startIcon={<ContentCopyIcon />}
            disabled={!link.data}
            onClick={() => void copy()}
          >
            Copy link
          </Button>
        </Stack>
      )}
    </Stack>
  );
}
