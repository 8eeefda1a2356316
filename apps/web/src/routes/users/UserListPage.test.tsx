import type { UserSummary } from '@merit/contract';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { adminUser, makeUserSummary } from '../../test/admin-fixtures';
import { AFTER_NAVIGATION, apiCalls, renderApp, stubApi } from '../../test/render-app';

const ada = makeUserSummary();
const grace = makeUserSummary({
  id: 8,
  username: 'grace',
  first_name: 'Grace',
  last_name: 'Hopper',
  email: 'grace@example.org',
  institution: 'Navy',
  is_aaf: true,
  is_active: false,
});

/** A page as GET /users/ sends it. */
const page = (items: UserSummary[], total = items.length, sort = 'username', pageNumber = 1) => ({
  body: { items, page: pageNumber, pageSize: 10, total, sort },
});
const FIRST = 'GET /users/?page=1&pageSize=10&sort=username';

function userRows() {
  const table = screen.getByRole('table', { name: 'Users' });
  return within(table).getAllByRole('row').slice(1);
}

describe('UserListPage', () => {
  it('lists the users with the spec columns', async () => {
    stubApi({ 'GET /user_details/': { body: adminUser }, [FIRST]: page([ada, grace]) });
    renderApp('/users', { token: 'k' });

    // The first render downloads (transforms) the page and the contract: allow for it.
    await screen.findByRole('table', { name: 'Users' }, AFTER_NAVIGATION);
    const headers = screen.getAllByRole('columnheader').map((cell) => cell.textContent);
    expect(headers).toEqual(['User Name', 'Is AAF?', 'Email Address', 'Institution', 'View']);
    const [first, second] = userRows();
    expect(first).toHaveTextContent('ada');
    expect(within(second!).getByText('Yes')).toBeInTheDocument();
    expect(second).toHaveTextContent('Deactivated');
    expect(within(first!).getByRole('link', { name: 'View ada' })).toHaveAttribute(
      'href',
      '/users/7/',
    );
  });

  it('searches on the server once typing pauses, and says when nothing matches', async () => {
    const fetchStub = stubApi({
      'GET /user_details/': { body: adminUser },
      [FIRST]: page([ada, grace]),
      [`${FIRST}&q=hop`]: page([grace]),
      [`${FIRST}&q=nobody`]: page([]),
    });
    const app = renderApp('/users', { token: 'k' });
    await screen.findByRole('table', { name: 'Users' }, AFTER_NAVIGATION);
    expect(userRows()).toHaveLength(2);

    const user = userEvent.setup();
    await user.type(screen.getByRole('searchbox', { name: 'Search users' }), 'hop');

    await screen.findByText('Hopper', { exact: false });
    await expect.poll(() => userRows()).toHaveLength(1);
    expect(userRows()[0]).toHaveTextContent('grace');
    // Only the finished word was searched for, not every keystroke.
    expect(apiCalls(fetchStub).filter((call) => call.includes('&q='))).toEqual([`${FIRST}&q=hop`]);
    expect(app.location()).toBe('/users?q=hop');

    await user.clear(screen.getByRole('searchbox', { name: 'Search users' }));
    await user.type(screen.getByRole('searchbox', { name: 'Search users' }), 'nobody');
    expect(await screen.findByText('No user matches “nobody”.')).toBeInTheDocument();
  });

  it('asks the server for the sort and the page, and shows its total', async () => {
    const many = Array.from({ length: 10 }, (_, i) =>
      makeUserSummary({ id: 100 + i, username: `user${i}` }),
    );
    const fetchStub = stubApi({
      'GET /user_details/': { body: adminUser },
      [FIRST]: page(many, 23),
      'GET /users/?page=1&pageSize=10&sort=email': page([ada, grace], 23, 'email'),
      'GET /users/?page=1&pageSize=10&sort=-email': page([grace, ada], 23, '-email'),
      'GET /users/?page=2&pageSize=10&sort=-email': page([ada], 23, '-email', 2),
    });
    const app = renderApp('/users', { token: 'k' });
    await screen.findByRole('table', { name: 'Users' }, AFTER_NAVIGATION);
    expect(screen.getByText('1–10 of 23')).toBeInTheDocument();

    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Email Address' }));
    await user.click(screen.getByRole('button', { name: 'Email Address' }));
    await expect.poll(() => userRows()[0]?.textContent).toContain('grace');
    expect(app.location()).toBe('/users?sort=-email');

    await user.click(screen.getByRole('button', { name: 'Go to next page' }));
    await expect.poll(() => app.location()).toBe('/users?sort=-email&page=2');
    await expect.poll(() => userRows()).toHaveLength(1);
    expect(screen.getByText('11–20 of 23')).toBeInTheDocument();
    expect(apiCalls(fetchStub)).toContain('GET /users/?page=2&pageSize=10&sort=-email');
  });
});
