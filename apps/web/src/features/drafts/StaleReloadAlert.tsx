import { Alert, Button } from '@mui/material';
import { isStale } from './stale';

/**
 * What an editor of a whole set (reminders, capacities, letter templates) shows when its
 * save was refused as stale: who saved first, in the editor's words, and Reload to take
 * what is saved now. The person's own values stay in the fields until they reload.
 */
export function StaleReloadAlert({
  error,
  message,
  reload,
}: {
  /** The save's error: nothing shows unless it is a 409 `stale`. */
  error: unknown;
  message: string;
  reload: { isPending: boolean; mutate: () => void };
}) {
  if (!isStale(error)) return null;
  return (
    <Alert
      severity="warning"
      sx={{ mb: 2 }}
      action={
        <Button color="inherit" loading={reload.isPending} onClick={() => reload.mutate()}>
          Reload
        </Button>
      }
    >
      {message}
    </Alert>
  );
}
