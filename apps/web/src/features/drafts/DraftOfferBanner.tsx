import { draftMessages } from '@merit/domain';
import { Alert, Button, Stack } from '@mui/material';
import { localTime } from './draft-time';

interface DraftOfferBannerProps {
  /** When the unsaved work was last typed (ms since the epoch). */
  typedAt: number;
  onRestore: () => void;
  onDiscard: () => void;
  /** The sentence, given the local time; the editors' "You have unsaved answers from …". */
  offer?: (when: string) => string;
  /** For tests: what "today" is. */
  now?: Date;
}

/**
 * Offers back the unsaved work kept on this computer (local-drafts) when an editor opens:
 * "You have unsaved answers from 14:32 CET on this computer. Restore / Discard". Shared by the
 * editors that keep drafts; the editor decides what each button does.
 */
export function DraftOfferBanner({
  typedAt,
  onRestore,
  onDiscard,
  offer = draftMessages.offer,
  now,
}: DraftOfferBannerProps) {
  return (
    <Alert
      severity="info"
      role="status"
      sx={{ mb: 2, alignItems: 'center' }}
      action={
        <Stack direction="row" spacing={1}>
          <Button color="inherit" variant="outlined" size="small" onClick={onRestore}>
            Restore
          </Button>
          <Button color="inherit" size="small" onClick={onDiscard}>
            Discard
          </Button>
        </Stack>
      }
    >
      {offer(localTime(typedAt, now))}
    </Alert>
  );
}
