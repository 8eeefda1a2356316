import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { makeCall, makeSummary } from '../../features/calls/calls.fixtures';
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

describe('CallListPage', () => {
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
    // What to do next: a member cannot create a call, so they are told where calls come from.
    expect(
      await screen.findByText(
        'There are no closed calls for proposals. Calls appear here once they close; Current lists the open ones.',
      ),
    ).toBeInTheDocument();
  });
});

describe('CallListPage sorting and the address', () => {
  const january = makeSummary({
    id: 1,
    name: 'Round 10',
    commencement: '2026-01-05T00:00:00.000Z',
    myRoles: [],
  });
  const march = makeSummary({
    id: 2,
    name: 'Round 9',
    commencement: '2026-03-05T00:00:00.000Z',
    myRoles: [],
  });
  const february = makeSummary({
    id: 3,
    name: 'Beamline',
    commencement: '2026-02-05T00:00:00.000Z',
    myRoles: [],
  });

  function serveRounds() {
    return stubApi({
      'GET /user_details/': { body: member },
      'GET /calls/open/': { body: [january, march, february] },
      'GET /calls/closed/': { body: [] },
      'GET /calls/2/': { body: makeCall({ id: 2, name: 'Round 9' }) },
    });
  }

  const callNames = () =>
    within(screen.getByRole('table'))
      .getAllByRole('row')
      .slice(1)
      .map((row) => within(row).getAllByRole('cell')[0]!.textContent);

  it('lists the newest opening first, and sorts by the column a person chooses', async () => {
    serveRounds();
    const app = renderApp('/calls', { token: 'k' });
    await table();
    expect(callNames()).toEqual(['Round 9', 'Beamline', 'Round 10']);
    expect(screen.getByRole('columnheader', { name: 'Submission Open' })).toHaveAttribute(
      'aria-sort',
      'descending',
    );

    await userEvent.click(screen.getByRole('button', { name: 'Name' }));
    // Numbers in names sort as numbers: Round 9 before Round 10.
    expect(callNames()).toEqual(['Beamline', 'Round 9', 'Round 10']);
    expect(app.location()).toBe('/calls?sort=name');
  });

  it('keeps the search and sort in the address, so Back from a call finds them again', async () => {
    serveRounds();
    const app = renderApp('/calls?sort=-name', { token: 'k' });
    await table();
    expect(callNames()).toEqual(['Round 10', 'Round 9', 'Beamline']);

    const user = userEvent.setup();
    await user.type(screen.getByRole('searchbox', { name: 'Search calls' }), 'round');
    expect(app.location()).toBe('/calls?sort=-name&q=round');
    expect(callNames()).toEqual(['Round 10', 'Round 9']);

    await user.click(screen.getByRole('link', { name: 'Round 9' }));
    await screen.findByRole('heading', { level: 1, name: 'Round 9' }, AFTER_NAVIGATION);
    await act(() => app.router.navigate(-1));

    await table();
    expect(screen.getByRole('searchbox', { name: 'Search calls' })).toHaveValue('round');
    expect(callNames()).toEqual(['Round 10', 'Round 9']);
  });

  it('carries the search and sort over to History, on its first page', async () => {
    stubApi({
      'GET /user_details/': { body: member },
      'GET /calls/open/': { body: [january, march, february] },
      'GET /calls/closed/': { body: [makeSummary({ id: 9, name: 'Round 1', closed: true })] },
    });
    const app = renderApp('/calls?q=round&sort=name&page=2', { token: 'k' });
    await table();
    await userEvent.click(screen.getByRole('button', { name: 'History' }));
    expect(await screen.findByRole('link', { name: 'Round 1' })).toBeInTheDocument();
    expect(app.location()).toBe('/calls/closed?q=round&sort=name');
  });
});
