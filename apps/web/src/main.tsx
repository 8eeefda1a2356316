import '@fontsource/roboto/400.css';
import '@fontsource/roboto/500.css';
import '@fontsource/roboto/700.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
// RouterProvider from 'react-router' rather than 'react-router/dom': the tests render
// the same one, and two entry points can load two copies of the router's context.
import { createBrowserRouter, RouterProvider } from 'react-router';
import { createQueryClient } from './api/query-client';
import { maySignIn, whenSessionKnown } from './api/session';
import { AppProviders } from './AppProviders';
import { prefetchFirstRoute, preloadFirstRoute, routes } from './routes/routes';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element to render into.');

const client = createQueryClient();
// Signed in, the first page's data is asked for first, then its code: the requests go out
// in that order, and the browser's six connections to the server take them in turn.
prefetchFirstRoute(client, window.location);
// Before anything renders: the first page's code downloads while React starts, and while
// a new tab asks the open ones for the session (api/session.ts).
preloadFirstRoute(window.location.pathname, maySignIn());

// The router starts the first route as it is made, so both wait until the tab knows
// whether it is signed in: a new tab of a signed-in user shows its page, not the login
// page and then its page. A visitor signed in nowhere does not wait.
void whenSessionKnown().then(() => {
  // A new tab signed in by another asks for its data now (for any other, TanStack Query
  // finds the same queries already asked).
  prefetchFirstRoute(client, window.location);
  const router = createBrowserRouter(routes);

  createRoot(root).render(
    <StrictMode>
      <AppProviders client={client}>
        <RouterProvider router={router} />
      </AppProviders>
    </StrictMode>,
  );
});
