import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { createQueryClient } from '../api/query-client';
import { setToken } from '../api/session';
import { AppProviders } from '../AppProviders';
import { makeCall } from '../features/calls/calls.fixtures';
import { makeCallProposal } from '../features/proposals/proposals.fixtures';
import { makeUser } from '../test/fixtures';
import { AFTER_NAVIGATION, apiCalls, stubApi } from '../test/render-app';
import { prefetchFirstRoute, routes } from './routes';

/** As main.tsx starts the app at `address`: the first route's reads asked, then the render. */
function startApp(address: string) {
  // The app's own defaults: a test's retry: false would replace its staleTime too.
  const client = createQueryClient();
  const url = new URL(address, 'http://merit.test');
  prefetchFirstRoute(client, url);
  const router = createMemoryRouter(routes, { initialEntries: [address] });
  render(
    <AppProviders client={client}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
}

const rows = {
  body: { items: [makeCallProposal()], page: 1, pageSize: 10, total: 1, sort: 'name' },
};

describe('prefetchFirstRoute', () => {
  // The page must ask for exactly what the app asked as it started, or the early read is
  // wasted and the page asks again: each read goes out once, and before anything renders.
  it.each([
    ['/calls/12/proposals', '/calls/12/proposals/?page=1&pageSize=10&sort=name'],
    [
      '/calls/12/proposals/?q=+dark+&sort=-author&page=2&size=25',
      '/calls/12/proposals/?page=2&pageSize=25&sort=-author&q=dark',
    ],
    [
      // An unknown sort and page size read as the defaults, on the page and here.
      '/calls/12/proposals?sort=colour&size=7',
      '/calls/12/proposals/?page=1&pageSize=10&sort=name',
    ],
    [
      // Sorted by a resource column with Filter by Facility on: that facility's column, of
      // that facility's proposals.
      `/calls/12/proposals?sort=-${encodeURIComponent('resource.["ATCA","hours"]')}&facility=Parkes`,
      '/calls/12/proposals/?page=1&pageSize=10&sort=-resource&sortFacility=Parkes&sortField=hours&facility=Parkes',
    ],
  ])('at %s asks the page’s own reads, once each', async (address, listPath) => {
    setToken('k');
    const fetchStub = stubApi({
      'GET /user_details/': { body: makeUser() },
      'GET /calls/12/': { body: makeCall() },
      [`GET ${listPath}`]: rows,
    });
    startApp(address);
    // Asked before the first render, in the order the browser should send them.
    expect(apiCalls(fetchStub)).toEqual([
      'GET /user_details/',
      'GET /calls/12/',
      `GET ${listPath}`,
    ]);

    expect(
      await screen.findByRole('table', { name: 'Proposals of Beamtime 2026' }, AFTER_NAVIGATION),
    ).toBeInTheDocument();
    expect(apiCalls(fetchStub).sort()).toEqual(
      ['GET /user_details/', 'GET /calls/12/', `GET ${listPath}`].sort(),
    );
  });

  it('asks for nothing for a visitor', () => {
    const fetchStub = stubApi({});
    prefetchFirstRoute(createQueryClient(), new URL('http://merit.test/calls/12/proposals'));
    expect(apiCalls(fetchStub)).toEqual([]);
  });

  it('asks only for the user’s details on a page that names no reads, or a bad id', () => {
    setToken('k');
    const fetchStub = stubApi({ 'GET /user_details/': { body: makeUser() } });
    prefetchFirstRoute(createQueryClient(), new URL('http://merit.test/calls/abc/proposals'));
    expect(apiCalls(fetchStub)).toEqual(['GET /user_details/']);
  });
});
