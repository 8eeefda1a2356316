import { messages } from '@merit/domain';
import { Button } from '@mui/material';
import { MessageView } from './MessageView';

interface ErrorViewProps {
  /** What to tell the user beyond "Something went wrong". */
  detail?: string;
  /** Retries in place; without it the page is reloaded. */
  onRetry?: () => void;
  standalone?: boolean;
}

/**
 * The fallback when a page fails. Both actions start over from the server (a reload,
 * a plain link home) because the app's state is what may be broken.
 */
export function ErrorView({ detail, onRetry, standalone = false }: ErrorViewProps) {
  return (
    <MessageView
      standalone={standalone}
      title={messages.somethingWentWrong}
      message={detail ?? 'The page could not be shown. Reload it, or go back to the dashboard.'}
      actions={
        <>
          <Button variant="contained" onClick={onRetry ?? (() => window.location.reload())}>
            {onRetry ? 'Try again' : 'Reload'}
          </Button>
          <Button variant="outlined" href="/">
            Home
          </Button>
        </>
      }
    />
  );
}
