import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { createQueryClient } from '../api/query-client';
import { AppProviders } from '../AppProviders';

/**
 * Renders a component that is not a page of its own (a table, a hook's harness) inside a
 * router at `path`, with the app's providers, so it can read and change the address.
 */
export function renderInRouter(element: ReactNode, path = '/') {
  const client = createQueryClient();
  client.setDefaultOptions({ queries: { retry: false } });
  const router = createMemoryRouter([{ path: '*', element }], { initialEntries: [path] });
  const view = render(
    <AppProviders client={client}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  const location = () => `${router.state.location.pathname}${router.state.location.search}`;
  return { ...view, router, client, location };
}
