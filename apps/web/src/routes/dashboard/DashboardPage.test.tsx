import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeSummary } from '../../features/calls/calls.fixtures';
import { makeUser } from '../../test/fixtures';
import { AFTER_NAVIGATION, renderApp, stubApi } from '../../test/render-app';

const memberRole = {
  id: 1,
  committeeId: 3,
  committeeName: 'Synchrotron',
  role: 'MEMBER' as const,
  commencement: '2020-01-01T00:00:00.000Z',
  termination: '2099-12-31T23:59:59.999Z',
  current: true,
};

// Each test walks through pages that load lazily: slow on a busy machine, not stuck.
describe('DashboardPage', { timeout: 20_000 }, () => {
  it('counts the open calls and links to them', async () => {
    stubApi({
      'GET /user_details/': { body: makeUser() },
      'GET /calls/open/': { body: [makeSummary({ id: 1 }), makeSummary({ id: 2 })] },
    });
    renderApp('/', { token: 'k' });
    const panel = (
      await screen.findByRole('heading', { name: 'Open calls for proposals' }, AFTER_NAVIGATION)
    ).parentElement!;
    expect(await screen.findByText('2')).toBeInTheDocument();
    expect(panel).toHaveTextContent('2');
    expect(screen.getByRole('link', { name: 'View calls' })).toHaveAttribute('href', '/calls');
  });

  it('shows committee members the review panels, and others only their proposals', async () => {
    stubApi({ 'GET /user_details/': { body: makeUser() }, 'GET /calls/open/': { body: [] } });
    const first = renderApp('/', { token: 'k' });
    expect(
      await screen.findByText('You have no proposals yet.', undefined, AFTER_NAVIGATION),
    ).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'My Reviews' })).not.toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Pending reviews' })).not.toBeInTheDocument();
    first.unmount();

    stubApi({
      'GET /user_details/': { body: makeUser({ roles: [memberRole] }) },
      'GET /calls/open/': { body: [] },
    });
    renderApp('/', { token: 'k' });
    expect(
      await screen.findByText('You have no reviews to do.', undefined, AFTER_NAVIGATION),
    ).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Pending reviews' })).toBeInTheDocument();
  });
});
