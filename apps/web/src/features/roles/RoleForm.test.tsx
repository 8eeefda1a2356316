import type { AdminUserDetails, CommitteeRole } from '@merit/contract';
import { MAX_EXPERTISE_ITEM_LENGTH, expertiseMessages, roleMessages } from '@merit/domain';
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
  facilities: [],
  keywords: [],
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
    await screen.findByRole('heading', { name: 'Add a role for Ada Lovelace' }, AFTER_NAVIGATION);
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
        facilities: [],
        keywords: [],
        userId: 7,
      }),
    );
  });

  it('edits a role from its saved whole days, and returns to the user', async () => {
    const fetchStub = roleServer();
    const app = renderApp('/users/7/roles/21/', { token: 'k' });
    await screen.findByRole('heading', { name: "Edit Ada Lovelace's role" }, AFTER_NAVIGATION);

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
      facilities: [],
      keywords: [],
      userId: 7,
    });
  });

  it("shows the member's expertise as comma-separated text and sends it back as lists", async () => {
    const fetchStub = roleServer({
      'GET /roles/7/': { body: [{ ...role, facilities: ['MX2', 'SAXS'], keywords: ['optics'] }] },
    });
    const app = renderApp('/users/7/roles/21/', { token: 'k' });
    await screen.findByRole('heading', { name: "Edit Ada Lovelace's role" }, AFTER_NAVIGATION);

    const facilities = await screen.findByLabelText('Facilities');
    const keywords = screen.getByLabelText('Keywords');
    expect(facilities).toHaveValue('MX2, SAXS');
    expect(keywords).toHaveValue('optics');
    expect(facilities).toHaveAccessibleDescription(
      "Used to suggest proposals that match this member's expertise when reviewers are assigned automatically. Separate with commas.",
    );

    // A keyword too long is named under the field as soon as it is left, and nothing is sent.
    const long = 'k'.repeat(MAX_EXPERTISE_ITEM_LENGTH + 1);
    fireEvent.change(keywords, { target: { value: `optics, ${long}` } });
    fireEvent.blur(keywords);
    const tooLong = expertiseMessages.tooLong('keywords', long);
    expect(keywords).toHaveAccessibleDescription(tooLong);
    expect(keywords).toHaveAttribute('aria-invalid', 'true');
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(`Keywords: ${tooLong}`);
    expect(apiCalls(fetchStub)).not.toContain('PATCH /roles/7/');

    // Spaces, blanks and a second spelling of the same facility are left out.
    fireEvent.change(keywords, { target: { value: ' optics , lasers,, ' } });
    fireEvent.change(facilities, { target: { value: 'MX2, SAXS, mx2, Small-angle X-ray' } });
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(app.location()).toBe('/users/7/'));
    expect(sentBody(fetchStub, 'PATCH /roles/7/')).toMatchObject({
      facilities: ['MX2', 'SAXS', 'Small-angle X-ray'],
      keywords: ['optics', 'lasers'],
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
