import { messages } from '@merit/domain';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { formatCallDate } from '../../features/calls/call-dates';
import { makePendingReview } from '../../features/reviews/reviews.fixtures';
import { makeUser } from '../../test/fixtures';
import { AFTER_NAVIGATION, apiCalls, renderApp, stubApi } from '../../test/render-app';

const member = makeUser({
  roles: [
    {
      id: 1,
      committeeId: 3,
      committeeName: 'Synchrotron',
      role: 'MEMBER',
      commencement: '2020-01-01T00:00:00.000Z',
      termination: '2099-12-31T23:59:59.999Z',
      current: true,
    },
  ],
});

describe('PendingReviewsPage', () => {
  it('lists what the member may review now, nearest deadline first, each with Write Review', async () => {
    stubApi({
      'GET /user_details/': { body: member },
      'GET /pending_reviews/?limit=100&offset=0': {
        body: [
          makePendingReview(),
          makePendingReview({
            committeeName: 'Neutrons',
            callId: 14,
            callName: 'Reactor time 2026',
            proposalId: 41,
            proposalName: 'Spin waves',
            reviewDeadline: '2026-04-20T00:00:00.000Z',
          }),
        ],
      },
    });
    renderApp('/pending_reviews/', { token: 'k' });
    const table = await screen.findByRole(
      'table',
      { name: 'My Pending Reviews' },
      AFTER_NAVIGATION,
    );
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Committee', 'Call for Proposal Name', 'Proposal', 'Review Deadline', 'Review']);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getAllByRole('cell')[2]!.textContent)).toEqual([
      'Spin waves',
      'Dark matter survey',
    ]);
    // The deadline in the reader's own time zone, as call dates are shown.
    expect(rows[0]).toHaveTextContent(formatCallDate('2026-04-20T00:00:00.000Z'));
    expect(rows[0]).toHaveTextContent('Neutrons');
    // None is written yet: each opens the review page, with the proposal to read above it.
    expect(within(table).getByRole('link', { name: 'Write Review Spin waves' })).toHaveAttribute(
      'href',
      '/calls/14/proposals/41/review/',
    );
    // The side menu leads here too.
    expect(screen.getByRole('link', { name: 'My Pending Reviews' })).toHaveAttribute(
      'aria-current',
      'page',
    );
  });

  it('says so when there is nothing to review', async () => {
    stubApi({
      'GET /user_details/': { body: member },
      'GET /pending_reviews/?limit=100&offset=0': { body: [] },
    });
    renderApp('/pending_reviews/', { token: 'k' });
    expect(
      await screen.findByText(/You have no reviews to do now/, undefined, AFTER_NAVIGATION),
    ).toBeInTheDocument();
  });

  it('lists a page, says how many there are, and shows more on asking', async () => {
    const row = (i: number) =>
      makePendingReview({ proposalId: 1000 + i, proposalName: `Proposal ${1000 + i}` });
    const fetchStub = stubApi({
      'GET /user_details/': { body: member },
      'GET /pending_reviews/?limit=100&offset=0': {
        body: Array.from({ length: 100 }, (_, i) => row(i)),
      },
      'GET /pending_reviews/count/': { body: { total: 105 } },
      // The first row again (a review saved meanwhile shifts the pages): shown once.
      'GET /pending_reviews/?limit=100&offset=100': {
        body: [row(99), ...Array.from({ length: 5 }, (_, i) => row(100 + i))],
      },
    });
    renderApp('/pending_reviews/', { token: 'k' });
    expect(
      await screen.findByText('Showing 100 of 105 pending reviews.', undefined, AFTER_NAVIGATION),
    ).toBeInTheDocument();
    const search = screen.getByRole('searchbox', { name: 'Search pending reviews' });
    await userEvent.type(search, 'Proposal 1104');
    expect(
      await screen.findByText('No pending review matches “Proposal 1104”.'),
    ).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Show more' }));
    const table = await screen.findByRole('table', { name: 'My Pending Reviews' });
    expect(within(table).getByText('Proposal 1104')).toBeInTheDocument();
    expect(within(table).getAllByRole('row')).toHaveLength(2);
    // The last page was short: nothing more to ask for.
    expect(screen.queryByRole('button', { name: 'Show more' })).not.toBeInTheDocument();
    expect(screen.queryByText(/Showing/)).not.toBeInTheDocument();
    expect(apiCalls(fetchStub).filter((call) => call.includes('/pending_reviews/'))).toEqual([
      'GET /pending_reviews/?limit=100&offset=0',
      'GET /pending_reviews/count/',
      'GET /pending_reviews/?limit=100&offset=100',
    ]);
  });

  it('is for committee members only: others see the no-permission page', async () => {
    const fetchStub = stubApi({ 'GET /user_details/': { body: makeUser() } });
    renderApp('/pending_reviews/', { token: 'k' });
    expect(
      await screen.findByText(messages.noPermission, undefined, AFTER_NAVIGATION),
    ).toBeInTheDocument();
    expect(apiCalls(fetchStub).filter((call) => call.includes('/pending_reviews/'))).toEqual([]);
    expect(screen.queryByRole('link', { name: 'My Pending Reviews' })).not.toBeInTheDocument();
  });
});
