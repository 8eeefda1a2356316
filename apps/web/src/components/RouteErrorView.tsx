import { isRouteErrorResponse, useRouteError } from 'react-router';
import { ErrorView } from './ErrorView';
import { NotFoundView } from './NotFoundView';

/**
 * The error boundary of the routes: react-router catches errors thrown while a page
 * renders (including a page's code failing to download after a new deployment).
 */
export function RouteErrorView({ standalone = false }: { standalone?: boolean }) {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) {
    return <NotFoundView standalone={standalone} />;
  }
  console.error(error);
  return <ErrorView standalone={standalone} />;
}

export function StandaloneRouteErrorView() {
  return <RouteErrorView standalone />;
}
