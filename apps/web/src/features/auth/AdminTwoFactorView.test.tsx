import { adminTwoFactorMessages, messages } from '@merit/domain';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { makeUser } from '../../test/fixtures';
import { AFTER_NAVIGATION, apiCalls, renderApp, stubApi } from '../../test/render-app';
import { currentUserKey } from './session-hooks';

/**
 * ADMIN_TWO_FACTOR=required (ASVS V4.3.1): an admin who logs in with a password and has
 * not turned on two-step verification is refused the admin routes; the admin pages say
 * why and lead to the setting instead of offering buttons that fail.
 */
const admin = makeUser({ username: 'root', is_admin: true });
const mustTurnOn = { ...admin, abilities: { ...admin.abilities, administer: false } };

describe('an admin who must turn on two-step verification first', () => {
  it.each(['/users', '/committees', '/forms/'])(
    'sees why at %s, and the way to the setting, and the page asks nothing of the server',
    async (path) => {
      const fetchStub = stubApi({ 'GET /user_details/': { body: mustTurnOn } });
      renderApp(path, { token: 'k' });

      expect(
        await screen.findByRole('heading', { name: 'Turn on two-step verification' }),
      ).toBeInTheDocument();
      expect(screen.getByText(adminTwoFactorMessages.required)).toBeInTheDocument();
      expect(screen.getByRole('link', { name: 'Go to two-step verification' })).toHaveAttribute(
        'href',
        '/account#two-factor-heading',
      );
      expect(screen.queryByText(messages.noPermission)).not.toBeInTheDocument();
      // The admin menu stays, so the admin finds this explanation where they look.
      expect(screen.getByRole('navigation', { name: 'Main navigation' })).toHaveTextContent(
        'Manage Users',
      );
      expect(apiCalls(fetchStub).filter((call) => call !== 'GET /auth/methods/')).toEqual([
        'GET /user_details/',
      ]);
    },
  );

  it('goes to the two-step verification section of My Account', async () => {
    stubApi({ 'GET /user_details/': { body: mustTurnOn } });
    const app = renderApp('/users', { token: 'k' });
    await userEvent
      .setup()
      .click(await screen.findByRole('link', { name: 'Go to two-step verification' }));

    expect(
      await screen.findByRole('heading', { name: 'Two-step verification' }, AFTER_NAVIGATION),
    ).toBeInTheDocument();
    expect(app.location()).toBe('/account');
    expect(app.router.state.location.hash).toBe('#two-factor-heading');
  });

  it('opens the admin page once the details say two-step verification is on, with no new login', async () => {
    let turnedOn = false;
    stubApi({
      'GET /user_details/': () => ({
        body: turnedOn ? { ...admin, has_two_factor: true } : mustTurnOn,
      }),
    });
    const app = renderApp('/committees', { token: 'k' });
    await screen.findByRole('heading', { name: 'Turn on two-step verification' });

    // What turning it on does (TwoFactorSection): the details are read again.
    turnedOn = true;
    await app.client.invalidateQueries({ queryKey: currentUserKey });

    expect(await screen.findByRole('heading', { name: 'Manage Committees' })).toBeInTheDocument();
    await waitFor(() =>
      expect(
        screen.queryByRole('heading', { name: 'Turn on two-step verification' }),
      ).not.toBeInTheDocument(),
    );
    expect(app.location()).toBe('/committees');
  });

  it('leaves a non-admin with the access-denied view', async () => {
    stubApi({ 'GET /user_details/': { body: makeUser() } });
    renderApp('/users', { token: 'k' });
    expect(await screen.findByText(messages.noPermission)).toBeInTheDocument();
    expect(screen.queryByText(adminTwoFactorMessages.required)).not.toBeInTheDocument();
  });
});
