import { messages } from '@merit/domain';
import { screen, within } from '@testing-library/react';
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

// Each test walks through pages that load lazily: slow on a busy machine, not stuck.
describe('PendingReviewsPage', { timeout: 20_000 }, () => {
  it('lists what the member may review now, nearest deadline first, each with View Proposal', async () => {
    stubApi({
      'GET /user_details/': { body: member },
      'GET /pending_reviews/': {
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
    ).toEqual(['Committee', 'Call for Proposal Name', 'Proposal', 'Review Deadline', 'View']);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getAllByRole('cell')[2]!.textContent)).toEqual([
      'Spin waves',
      'Dark matter survey',
    ]);
    // The deadline in the reader's own time zone, as call dates are shown.
    expect(rows[0]).toHaveTextContent(formatCallDate('2026-04-20T00:00:00.000Z'));
    expect(rows[0]).toHaveTextContent('Neutrons');
    expect(within(table).getByRole('link', { name: 'View Proposal Spin waves' })).toHaveAttribute(
      'href',
      '/calls/14/proposals/41/',
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
      'GET /pending_reviews/': { body: [] },
    });
    renderApp('/pending_reviews/', { token: 'k' });
    expect(
      await screen.findByText(/You have no reviews to do now/, undefined, AFTER_NAVIGATION),
    ).toBeInTheDocument();
  });

  it('is for committee members only: others see the no-permission page', async () => {
    const fetchStub = stubApi({ 'GET /user_details/': { body: makeUser() } });
    renderApp('/pending_reviews/', { token: 'k' });
    expect(
      await screen.findByText(messages.noPermission, undefined, AFTER_NAVIGATION),
    ).toBeInTheDocument();
    expect(apiCalls(fetchStub)).not.toContain('GET /pending_reviews/');
    expect(screen.queryByRole('link', { name: 'My Pending Reviews' })).not.toBeInTheDocument();
  });
});
