import { errorMessages, isApiError } from '../api/client';
import { ErrorView } from './ErrorView';
import { NotFoundView } from './NotFoundView';

/**
 * A page whose data could not be loaded: "not found" for a 404 (a deleted or mistyped
 * id), otherwise what went wrong with a retry in place.
 */
export function LoadFailedView({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  if (isApiError(error, 404)) return <NotFoundView />;
  return <ErrorView detail={errorMessages(error).join(' ')} onRetry={onRetry} />;
}
