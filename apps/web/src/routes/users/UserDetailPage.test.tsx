import type { AdminUserDetails } from '@merit/contract';
import { userAdminMessages } from '@merit/domain';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { adminUser } from '../../test/admin-fixtures';
import { AFTER_NAVIGATION, renderApp, sentBody, stubApi } from '../../test/render-app';

const self: AdminUserDetails = {
  ...adminUser,
  is_active: true,
  roles: [
    {
      id: 21,
      committeeId: 4,
      committeeName: 'Beamline',
      role: 'CHAIR',
      commencement: '2026-01-01T00:00:00.000Z',
      termination: '2026-12-31T23:59:59.999Z',
      current: true,
    },
  ],
};

describe('UserDetailPage', () => {
  it('asks before removing admin rights, and shows why the server refused', async () => {
    const fetchStub = stubApi({
      'GET /user_details/': { body: adminUser },
      'GET /users/1/': { body: self },
      'PATCH /users/1/': {
        status: 409,
        body: { detail: userAdminMessages.lastActiveAdmin, code: 'conflict' },
      },
    });
    renderApp('/users/1/', { token: 'k' });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Remove admin' }, AFTER_NAVIGATION));
    const dialog = await screen.findByRole('dialog', { name: 'Remove admin rights?' });
    await user.click(within(dialog).getByRole('button', { name: 'Remove admin' }));

    expect(await screen.findByText(userAdminMessages.lastActiveAdmin)).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(sentBody(fetchStub, 'PATCH /users/1/')).toEqual({ is_admin: false });
  });

  it('offers nothing to change on an account its owner deleted, and says why', async () => {
    const deleted: AdminUserDetails = {
      ...self,
      id: 7,
      username: 'deleted#7',
      email: 'deleted#7@deleted.invalid',
      first_name: 'Deleted',
      last_name: 'user 7',
      is_admin: false,
      is_active: false,
      roles: [],
    };
    stubApi({ 'GET /user_details/': { body: adminUser }, 'GET /users/7/': { body: deleted } });
    renderApp('/users/7/', { token: 'k' });
    expect(
      await screen.findByText(userAdminMessages.deletedAccount, undefined, AFTER_NAVIGATION),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Reactivate' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Make admin' })).not.toBeInTheDocument();
  });

  it('lists the committee roles with their whole days and links to edit them', async () => {
    stubApi({ 'GET /user_details/': { body: adminUser }, 'GET /users/1/': { body: self } });
    renderApp('/users/1/', { token: 'k' });
    const table = await screen.findByRole('table', { name: 'Committee roles' }, AFTER_NAVIGATION);
    const row = within(table).getAllByRole('row')[1]!;
    expect(row).toHaveTextContent('Beamline');
    expect(row).toHaveTextContent('Chair');
    expect(row).toHaveTextContent(/31.*2026|2026.*31/);
    expect(within(row).getByRole('link', { name: 'Edit role: Chair of Beamline' })).toHaveAttribute(
      'href',
      '/users/1/roles/21/',
    );
    expect(screen.getByRole('link', { name: 'Add Role' })).toHaveAttribute(
      'href',
      '/users/1/roles/new',
    );
  });
});
