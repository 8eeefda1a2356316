import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeSummary } from '../../features/calls/calls.fixtures';
import { makeMyProposal } from '../../features/proposals/proposals.fixtures';
import { makeMyReview } from '../../features/reviews/reviews.fixtures';
import { makeUser } from '../../test/fixtures';
import { AFTER_NAVIGATION, apiCalls, renderApp, stubApi } from '../../test/render-app';

const memberRole = {
  id: 1,
  committeeId: 3,
  committeeName: 'Synchrotron',
  role: 'MEMBER' as const,
  commencement: '2020-01-01T00:00:00.000Z',
  termination: '2099-12-31T23:59:59.999Z',
  current: true,
};

describe('DashboardPage', () => {
  it('counts the open calls and links to them', async () => {
    stubApi({
      'GET /user_details/': { body: makeUser() },
      'GET /calls/open/': { body: [makeSummary({ id: 1 }), makeSummary({ id: 2 })] },
      'GET /proposals/': { body: [] },
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
    stubApi({
      'GET /user_details/': { body: makeUser() },
      'GET /calls/open/': { body: [] },
      'GET /proposals/': { body: [] },
    });
    const first = renderApp('/', { token: 'k' });
    expect(
      await screen.findByRole('heading', { name: 'My Proposals' }, AFTER_NAVIGATION),
    ).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'My Reviews' })).not.toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Pending reviews' })).not.toBeInTheDocument();
    first.unmount();

    stubApi({
      'GET /user_details/': { body: makeUser({ roles: [memberRole] }) },
      'GET /calls/open/': { body: [] },
      'GET /proposals/': { body: [] },
      'GET /pending_reviews/count/': { body: { total: 0 } },
      'GET /reviews/': { body: [] },
    });
    renderApp('/', { token: 'k' });
    expect(
      await screen.findByText(/You have not written any reviews yet/, undefined, AFTER_NAVIGATION),
    ).toBeInTheDocument();
    // The side menu leads to them too.
    expect(
      within(screen.getByRole('navigation', { name: 'Main navigation' })).getByRole('link', {
        name: 'My Pending Reviews',
      }),
    ).toHaveAttribute('href', '/pending_reviews/');
    expect(screen.getByRole('heading', { name: 'Pending reviews' })).toBeInTheDocument();
  });

  it('counts a member’s pending reviews and lists the reviews they wrote', async () => {
    const fetchStub = stubApi({
      'GET /user_details/': { body: makeUser({ roles: [memberRole] }) },
      'GET /calls/open/': { body: [] },
      'GET /proposals/': { body: [] },
      // Counted on the server: the dashboard never reads the list itself.
      'GET /pending_reviews/count/': { body: { total: 1234 } },
      'GET /reviews/': {
        body: [
          makeMyReview(),
          makeMyReview({
            reviewId: 91,
            proposalId: 33,
            proposalName: 'Comet dust',
            score: null,
            lastModified: '2026-04-12T09:00:00.000Z',
          }),
        ],
      },
    });
    renderApp('/', { token: 'k' });
    const panel = (
      await screen.findByRole('heading', { name: 'Pending reviews' }, AFTER_NAVIGATION)
    ).parentElement!;
    expect(await within(panel).findByText('1234')).toBeInTheDocument();
    expect(apiCalls(fetchStub).filter((call) => call.includes('/pending_reviews/'))).toEqual([
      'GET /pending_reviews/count/',
    ]);
    expect(within(panel).getByRole('link', { name: 'View pending reviews' })).toHaveAttribute(
      'href',
      '/pending_reviews/',
    );

    const table = await screen.findByRole('table', { name: 'My Reviews' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Call for Proposal', 'Proposal', 'Score', 'Last modified', 'Open']);
    const rows = within(table).getAllByRole('row').slice(1);
    // The latest change first; a review without a score shows N/A.
    expect(rows.map((row) => within(row).getAllByRole('cell')[1]!.textContent)).toEqual([
      'Comet dust',
      'Dark matter survey',
    ]);
    expect(rows[0]).toHaveTextContent('N/A');
    expect(rows[1]).toHaveTextContent('3.50');
    expect(
      within(table).getByRole('link', { name: 'Open the review of Comet dust' }),
    ).toHaveAttribute('href', '/calls/12/proposals/33/reviews/91/');
  });

  it('lists my proposals, newest change first, each with a link to open it', async () => {
    stubApi({
      'GET /user_details/': { body: makeUser() },
      'GET /calls/open/': { body: [] },
      'GET /proposals/': {
        body: [
          makeMyProposal(),
          makeMyProposal({
            id: 31,
            callId: 14,
            callName: 'Cluster time 2026',
            proposalName: 'Lattice QCD',
            proposalTypeName: 'Rapid access',
            state: 'Submitted',
            stateVal: 1,
            role: 'Collaborator',
            lastModified: '2026-03-05T00:00:00.000Z',
          }),
        ],
      },
    });
    renderApp('/', { token: 'k' });
    const table = await screen.findByRole('table', { name: 'My Proposals' }, AFTER_NAVIGATION);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getAllByRole('cell')[1]!.textContent)).toEqual([
      'Lattice QCD',
      'Dark matter survey',
    ]);
    expect(rows[0]).toHaveTextContent('Cluster time 2026');
    expect(rows[0]).toHaveTextContent('Collaborator');
    expect(rows[0]).toHaveTextContent('Submitted');
    expect(within(table).getByRole('link', { name: 'Open Lattice QCD' })).toHaveAttribute(
      'href',
      '/calls/14/proposals/31/',
    );
    expect(within(table).getByRole('link', { name: 'Cluster time 2026' })).toHaveAttribute(
      'href',
      '/calls/14/',
    );
  });

  it('points to the calls list while there are no proposals and no call is open', async () => {
    stubApi({
      'GET /user_details/': { body: makeUser() },
      'GET /calls/open/': { body: [] },
      'GET /proposals/': { body: [] },
    });
    renderApp('/', { token: 'k' });
    expect(
      await screen.findByText(
        /You have no proposals yet, and no call accepts proposals now/,
        undefined,
        AFTER_NAVIGATION,
      ),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'calls for proposals' })).toHaveAttribute(
      'href',
      '/calls',
    );
  });
});
