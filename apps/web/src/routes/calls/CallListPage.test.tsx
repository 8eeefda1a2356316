import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { makeSummary } from '../../features/calls/calls.fixtures';
import { makeUser } from '../../test/fixtures';
import { AFTER_NAVIGATION, apiCalls, renderApp, stubApi } from '../../test/render-app';

const member = makeUser();
const admin = makeUser({ username: 'root', is_admin: true });
const chair = makeUser({
  roles: [
    {
      id: 1,
      committeeId: 3,
      committeeName: 'Synchrotron',
      role: 'CHAIR',
      commencement: '2020-01-01T00:00:00.000Z',
      termination: '2099-12-31T23:59:59.999Z',
      current: true,
    },
  ],
});

const openCall = makeSummary({ id: 12, name: 'Beamtime 2026', myRoles: ['Author'] });
const closedCall = makeSummary({
  id: 5,
  name: 'Beamtime 2024',
  closed: true,
  committeeName: 'Neutrons',
});

function serve(user = member) {
  return stubApi({
    'GET /user_details/': { body: user },
    'GET /calls/open/': { body: [openCall] },
    'GET /calls/closed/': { body: [closedCall] },
    'GET /calls/': { body: [openCall, closedCall] },
  });
}

const table = () => screen.findByRole('table', undefined, AFTER_NAVIGATION);

// Each test walks through pages that load lazily: slow on a busy machine, not stuck.
describe('CallListPage', { timeout: 20_000 }, () => {
  it('switches between the open and closed lists with the toggle', async () => {
    const fetchStub = serve();
    const app = renderApp('/calls', { token: 'k' });

    expect(await table()).toHaveAccessibleName('Current calls for proposals');
    expect(screen.getByRole('link', { name: 'Beamtime 2026' })).toHaveAttribute(
      'href',
      '/calls/12/',
    );
    expect(screen.queryByText('Beamtime 2024')).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'History' }));
    expect(await screen.findByRole('link', { name: 'Beamtime 2024' })).toBeInTheDocument();
    expect(screen.queryByText('Beamtime 2026')).not.toBeInTheDocument();
    expect(app.location()).toBe('/calls/closed');
    expect(screen.getByRole('button', { name: 'History' })).toHaveAttribute('aria-pressed', 'true');
    expect(apiCalls(fetchStub)).toContain('GET /calls/closed/');

    await userEvent.click(screen.getByRole('button', { name: 'All' }));
    await waitFor(() => expect(screen.getAllByRole('row')).toHaveLength(3));
    expect(app.location()).toBe('/calls/all/');
  });

  it('links each call to its page and its proposals, and lists my roles', async () => {
    serve();
    renderApp('/calls', { token: 'k' });
    const row = (await screen.findByRole('link', { name: 'Beamtime 2026' })).closest('tr')!;
    expect(within(row).getByRole('link', { name: 'View Call Beamtime 2026' })).toHaveAttribute(
      'href',
      '/calls/12/',
    );
    expect(
      within(row).getByRole('link', { name: 'View Proposals of Beamtime 2026' }),
    ).toHaveAttribute('href', '/calls/12/proposals/');
    expect(row).toHaveTextContent('Author');
  });

  it('shows the committee column to admins only', async () => {
    serve(member);
    const first = renderApp('/calls/all/', { token: 'k' });
    await table();
    expect(screen.queryByRole('columnheader', { name: 'Committee' })).not.toBeInTheDocument();
    expect(screen.queryByText('Neutrons')).not.toBeInTheDocument();
    first.unmount();

    serve(admin);
    renderApp('/calls/all/', { token: 'k' });
    await table();
    expect(screen.getByRole('columnheader', { name: 'Committee' })).toBeInTheDocument();
    expect(screen.getByText('Neutrons')).toBeInTheDocument();
  });

  it('offers Add Call for Proposal to chairs, not to other members', async () => {
    serve(member);
    const first = renderApp('/calls', { token: 'k' });
    await table();
    expect(screen.queryByRole('link', { name: 'Add Call for Proposal' })).not.toBeInTheDocument();
    first.unmount();

    serve(chair);
    renderApp('/calls', { token: 'k' });
    await table();
    expect(screen.getByRole('link', { name: 'Add Call for Proposal' })).toHaveAttribute(
      'href',
      '/calls/new',
    );
  });

  it('searches by name, and says when nothing matches or nothing is there', async () => {
    stubApi({
      'GET /user_details/': { body: member },
      'GET /calls/open/': { body: [openCall, makeSummary({ id: 13, name: 'Cryo-EM round' })] },
      'GET /calls/closed/': { body: [] },
    });
    renderApp('/calls', { token: 'k' });
    await table();
    await userEvent.type(screen.getByRole('searchbox', { name: 'Search calls' }), 'cryo');
    expect(screen.getByRole('link', { name: 'Cryo-EM round' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Beamtime 2026' })).not.toBeInTheDocument();
    await userEvent.type(screen.getByRole('searchbox', { name: 'Search calls' }), 'zzz');
    expect(screen.getByText('No call matches “cryozzz”.')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'History' }));
    expect(await screen.findByText('There are no closed calls for proposals.')).toBeInTheDocument();
  });
});
