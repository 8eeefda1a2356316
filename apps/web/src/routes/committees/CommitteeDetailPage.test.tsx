import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeSummary } from '../../features/calls/calls.fixtures';
import { adminUser, makeCommittee } from '../../test/admin-fixtures';
import { renderApp, stubApi } from '../../test/render-app';

describe('CommitteeDetailPage, Calls tab', () => {
  it("splits the committee's calls into Current and Closed and leaves other committees' out", async () => {
    stubApi({
      'GET /user_details/': { body: adminUser },
      'GET /committees/3/': {
        body: { ...makeCommittee({ id: 3, name: 'Astronomy' }), members: [] },
      },
      'GET /calls/': {
        body: [
          makeSummary({ id: 1, name: 'Telescope 2026', committeeId: 3, closed: false }),
          makeSummary({ id: 2, name: 'Telescope 2025', committeeId: 3, closed: true }),
          makeSummary({ id: 5, name: 'Biology 2026', committeeId: 4, closed: false }),
        ],
      },
    });
    renderApp('/committees/3/?tab=calls', { token: 'k' });

    const current = await screen.findByRole('table', { name: 'Current calls' }, { timeout: 5000 });
    expect(within(current).getByRole('link', { name: 'Telescope 2026' })).toHaveAttribute(
      'href',
      '/calls/1/',
    );
    const closed = screen.getByRole('table', { name: 'Closed calls' });
    expect(within(closed).getByRole('link', { name: 'Telescope 2025' })).toBeInTheDocument();
    expect(screen.queryByText('Biology 2026')).not.toBeInTheDocument();
  });
});
