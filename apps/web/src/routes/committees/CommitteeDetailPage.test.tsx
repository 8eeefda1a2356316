import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { makeSummary } from '../../features/calls/calls.fixtures';
import { adminUser, makeCommittee } from '../../test/admin-fixtures';
import { AFTER_NAVIGATION, renderApp, stubApi } from '../../test/render-app';

/** The committee's invitation link (issue 30), shown above its tabs. */
const INVITATION = { token: '3.signed', committeeName: 'Astronomy' };

describe('CommitteeDetailPage, Calls tab', () => {
  it("splits the committee's calls into Current and Closed and leaves other committees' out", async () => {
    stubApi({
      'GET /user_details/': { body: adminUser },
      'GET /committees/3/invitation/': { body: INVITATION },
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

    const current = await screen.findByRole('table', { name: 'Current calls' }, AFTER_NAVIGATION);
    expect(within(current).getByRole('link', { name: 'Telescope 2026' })).toHaveAttribute(
      'href',
      '/calls/1/',
    );
    const closed = screen.getByRole('table', { name: 'Closed calls' });
    expect(within(closed).getByRole('link', { name: 'Telescope 2025' })).toBeInTheDocument();
    expect(screen.queryByText('Biology 2026')).not.toBeInTheDocument();
    // The link to registration naming the committee, to send to newcomers.
    expect(
      await screen.findByRole('textbox', { name: 'Invitation link to Astronomy' }),
    ).toHaveValue(`${window.location.origin}/auth/register?invite=3.signed`);
  });
});

describe('CommitteeDetailPage tables', () => {
  it('sorts the Current and Closed calls each on its own, apart in the address', async () => {
    stubApi({
      'GET /user_details/': { body: adminUser },
      'GET /committees/3/invitation/': { body: INVITATION },
      'GET /committees/3/': {
        body: { ...makeCommittee({ id: 3, name: 'Astronomy' }), members: [] },
      },
      'GET /calls/': {
        body: [
          makeSummary({ id: 1, name: 'Telescope B', committeeId: 3 }),
          makeSummary({ id: 2, name: 'Telescope A', committeeId: 3 }),
          makeSummary({ id: 3, name: 'Old B', committeeId: 3, closed: true }),
          makeSummary({ id: 4, name: 'Old A', committeeId: 3, closed: true }),
        ],
      },
    });
    const app = renderApp('/committees/3/?tab=calls', { token: 'k' });
    const closed = await screen.findByRole('table', { name: 'Closed calls' }, AFTER_NAVIGATION);
    const current = screen.getByRole('table', { name: 'Current calls' });
    const names = (table: HTMLElement) =>
      within(table)
        .getAllByRole('link')
        .map((link) => link.textContent);

    await userEvent.click(within(closed).getByRole('button', { name: 'Name' }));
    expect(names(closed)).toEqual(['Old A', 'Old B']);
    expect(names(current)).toEqual(['Telescope B', 'Telescope A']);
    expect(app.location()).toBe('/committees/3/?tab=calls&closed.sort=name');

    await userEvent.click(within(current).getByRole('button', { name: 'Name' }));
    expect(names(current)).toEqual(['Telescope A', 'Telescope B']);
    expect(names(closed)).toEqual(['Old A', 'Old B']);
    expect(app.location()).toBe('/committees/3/?tab=calls&closed.sort=name&current.sort=name');
  });

  it('links to Manage Users when the committee has no members yet', async () => {
    stubApi({
      'GET /user_details/': { body: adminUser },
      'GET /committees/3/invitation/': { body: INVITATION },
      'GET /committees/3/': {
        body: { ...makeCommittee({ id: 3, name: 'Astronomy' }), members: [] },
      },
    });
    renderApp('/committees/3/', { token: 'k' });
    const empty = (
      await screen.findByText(/This committee has no current members/, undefined, AFTER_NAVIGATION)
    ).closest('p')!;
    // Not the side menu's link: the one in the sentence that says what to do.
    expect(within(empty).getByRole('link', { name: 'Manage Users' })).toHaveAttribute(
      'href',
      '/users',
    );
  });
});
