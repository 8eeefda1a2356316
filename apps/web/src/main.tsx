import '@fontsource/roboto/400.css';
import '@fontsource/roboto/500.css';
import '@fontsource/roboto/700.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
// RouterProvider from 'react-router' rather than 'react-router/dom': the tests render
// the same one, and two entry points can load two copies of the router's context.
import { createBrowserRouter, RouterProvider } from 'react-router';
import { createQueryClient } from './api/query-client';
import { getToken } from './api/session';
import { AppProviders } from './AppProviders';
import { preloadFirstRoute, routes } from './routes/routes';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element to render into.');

// Before anything renders: the first page's code downloads while React starts.
preloadFirstRoute(window.location.pathname, getToken() !== null);

const client = createQueryClient();
const router = createBrowserRouter(routes);

createRoot(root).render(
  <StrictMode>
    <AppProviders client={client}>
      <RouterProvider router={router} />
    </AppProviders>
  </StrictMode>,
);
