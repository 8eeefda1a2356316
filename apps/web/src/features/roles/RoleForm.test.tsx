import type { AdminUserDetails, CommitteeRole } from '@merit/contract';
import { roleMessages } from '@merit/domain';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { adminUser, makeCommittee } from '../../test/admin-fixtures';
import { makeUser } from '../../test/fixtures';
import { AFTER_NAVIGATION, apiCalls, renderApp, sentBody, stubApi } from '../../test/render-app';

const target: AdminUserDetails = { ...makeUser({ id: 7 }), is_active: true };
const committees = [makeCommittee(), makeCommittee({ id: 4, name: 'Beamline', canDelete: false })];
const role: CommitteeRole = {
  id: 21,
  userId: 7,
  committeeId: 4,
  committeeName: 'Beamline',
  role: 'MEMBER',
  commencement: '2026-01-01T00:00:00.000Z',
  termination: '2026-12-31T23:59:59.999Z',
  current: true,
};

function roleServer(extra: Parameters<typeof stubApi>[0] = {}) {
  return stubApi({
    'GET /user_details/': { body: adminUser },
    'GET /users/7/': { body: target },
    'GET /committees/': { body: committees },
    'GET /roles/7/': { body: [role] },
    'POST /roles/7/': { status: 201, body: role },
    'PATCH /roles/7/': { body: role },
    ...extra,
  });
}

const dateInput = (label: RegExp) => screen.getByLabelText(label);

describe('role form', () => {
  it('says as soon as the dates are picked that the role ends before it starts, and sends nothing', async () => {
    const fetchStub = roleServer();
    renderApp('/users/7/roles/new', { token: 'k' });
    await screen.findByRole('heading', { name: 'Add a role for Ada Lovelace' }, { timeout: 5000 });
    await screen.findByRole('option', { name: 'Telescope Time' });

    fireEvent.change(screen.getByLabelText(/^Committee/), { target: { value: '3' } });
    fireEvent.change(screen.getByLabelText(/^Role/), { target: { value: 'CHAIR' } });
    fireEvent.change(dateInput(/^Effective from/), { target: { value: '2026-07-01' } });
    expect(screen.queryByText(roleMessages.terminationBeforeCommencement)).not.toBeInTheDocument();
    fireEvent.change(dateInput(/^Effective until/), { target: { value: '2026-06-30' } });

    // Shown under the field while choosing, before any attempt to save.
    expect(screen.getByText(roleMessages.terminationBeforeCommencement)).toBeInTheDocument();
    expect(dateInput(/^Effective until/)).toHaveAttribute('aria-invalid', 'true');

    await userEvent.setup().click(screen.getByRole('button', { name: 'Add Role' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      `Effective until: ${roleMessages.terminationBeforeCommencement}`,
    );
    expect(apiCalls(fetchStub)).not.toContain('POST /roles/7/');

    // The same day is fine: the role lasts that one day.
    fireEvent.change(dateInput(/^Effective until/), { target: { value: '2026-07-01' } });
    expect(screen.queryByText(roleMessages.terminationBeforeCommencement)).not.toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Add Role' }));
    await waitFor(() =>
      expect(sentBody(fetchStub, 'POST /roles/7/')).toEqual({
        committeeId: 3,
        role: 'CHAIR',
        commencement: '2026-07-01',
        termination: '2026-07-01',
        userId: 7,
      }),
    );
  });

  it('edits a role from its saved whole days, and returns to the user', async () => {
    const fetchStub = roleServer();
    const app = renderApp('/users/7/roles/21/', { token: 'k' });
    await screen.findByRole('heading', { name: "Edit Ada Lovelace's role" }, { timeout: 5000 });

    // The last millisecond of 31 December in UTC is still 31 December.
    expect(await screen.findByLabelText(/^Effective until/)).toHaveValue('2026-12-31');
    expect(dateInput(/^Effective from/)).toHaveValue('2026-01-01');
    fireEvent.change(screen.getByLabelText(/^Role/), { target: { value: 'CHAIR' } });
    await userEvent.setup().click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(app.location()).toBe('/users/7/'));
    expect(sentBody(fetchStub, 'PATCH /roles/7/')).toEqual({
      id: 21,
      committeeId: 4,
      role: 'CHAIR',
      commencement: '2026-01-01',
      termination: '2026-12-31',
      userId: 7,
    });
  });

  it('links to Add Committee when there is no committee to give a role on', async () => {
    roleServer({ 'GET /committees/': { body: [] } });
    renderApp('/users/7/roles/new', { token: 'k' });
    const link = await screen.findByRole(
      'link',
      { name: 'Add a committee first.' },
      AFTER_NAVIGATION,
    );
    expect(link).toHaveAttribute('href', '/committees/new');
  });
});
