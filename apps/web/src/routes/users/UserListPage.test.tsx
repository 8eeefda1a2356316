import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { adminUser, makeUserSummary } from '../../test/admin-fixtures';
import { apiCalls, renderApp, stubApi } from '../../test/render-app';

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

function userRows() {
  const table = screen.getByRole('table', { name: 'Users' });
  return within(table).getAllByRole('row').slice(1);
}

describe('UserListPage', () => {
  it('lists the users with the spec columns', async () => {
    stubApi({ 'GET /user_details/': { body: adminUser }, 'GET /users/': { body: [ada, grace] } });
    renderApp('/users', { token: 'k' });

    // The first render downloads (transforms) the page and the contract: allow for it.
    await screen.findByRole('table', { name: 'Users' }, { timeout: 5000 });
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
      'GET /users/': { body: [ada, grace] },
      'GET /users/?search=hop': { body: [grace] },
      'GET /users/?search=nobody': { body: [] },
    });
    const app = renderApp('/users', { token: 'k' });
    await screen.findByRole('table', { name: 'Users' }, { timeout: 5000 });
    expect(userRows()).toHaveLength(2);

    const user = userEvent.setup();
    await user.type(screen.getByRole('searchbox', { name: 'Search users' }), 'hop');

    await screen.findByText('Hopper', { exact: false });
    await expect.poll(() => userRows()).toHaveLength(1);
    expect(userRows()[0]).toHaveTextContent('grace');
    // Only the finished word was searched for, not every keystroke.
    expect(apiCalls(fetchStub).filter((call) => call.startsWith('GET /users/?'))).toEqual([
      'GET /users/?search=hop',
    ]);
    expect(app.location()).toBe('/users?search=hop');

    await user.clear(screen.getByRole('searchbox', { name: 'Search users' }));
    await user.type(screen.getByRole('searchbox', { name: 'Search users' }), 'nobody');
    expect(await screen.findByText('No user matches “nobody”.')).toBeInTheDocument();
  });
});
