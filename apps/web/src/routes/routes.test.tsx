import { messages } from '@merit/domain';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { getToken } from '../api/session';
import { makeUser } from '../test/fixtures';
import { apiCalls, renderApp, stubApi } from '../test/render-app';

const member = makeUser();
const admin = makeUser({ username: 'root', is_admin: true });
const unfinished = makeUser({ registration_complete: false });

describe('route guards (spec section 2, access rules)', () => {
  it('sends a visitor to login, remembering where they were going', async () => {
    const fetchStub = stubApi({});
    const app = renderApp('/calls?page=2');

    expect(await screen.findByRole('button', { name: 'Log in' })).toBeInTheDocument();
    expect(app.location()).toBe('/auth/login?next=%2Fcalls%3Fpage%3D2');
    // Nobody is logged in, so nothing was asked of the server but how one may log in.
    expect(apiCalls(fetchStub).filter((call) => call !== 'GET /auth/methods/')).toEqual([]);
  });

  it('shows a loading view while the user details load', async () => {
    stubApi({ 'GET /user_details/': { body: member } });
    renderApp('/calls', { token: 'k' });
    expect(screen.getByRole('progressbar', { name: 'Loading…' })).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Call for Proposals' })).toBeInTheDocument();
  });

  it('sends a user with an incomplete registration to complete it, from any page', async () => {
    stubApi({ 'GET /user_details/': { body: unfinished } });
    const app = renderApp('/account', { token: 'k' });

    expect(
      await screen.findByRole('heading', { name: 'Complete Registration' }),
    ).toBeInTheDocument();
    expect(app.location()).toBe('/auth/complete_registration');
  });

  it('does not keep a complete registration on the complete-registration page', async () => {
    stubApi({ 'GET /user_details/': { body: member } });
    const app = renderApp('/auth/complete_registration', { token: 'k' });
    expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeInTheDocument();
    expect(app.location()).toBe('/');
  });

  it.each(['/users', '/committees', '/forms/'])(
    'shows a non-admin the access-denied view at %s',
    async (path) => {
      stubApi({ 'GET /user_details/': { body: member } });
      renderApp(path, { token: 'k' });
      expect(await screen.findByText(messages.noPermission)).toBeInTheDocument();
      expect(screen.getByRole('link', { name: 'Home' })).toHaveAttribute('href', '/');
    },
  );

  it.each([
    ['/users', 'Manage Users'],
    ['/committees', 'Manage Committees'],
    ['/forms/', 'Form Builder'],
  ])('lets an admin into %s', async (path, heading) => {
    stubApi({ 'GET /user_details/': { body: admin } });
    renderApp(path, { token: 'k' });
    expect(await screen.findByRole('heading', { name: heading })).toBeInTheDocument();
    expect(screen.queryByText(messages.noPermission)).not.toBeInTheDocument();
  });

  it('shows a visitor the plain not-found page at an unknown path, not the login', async () => {
    const fetchStub = stubApi({});
    const app = renderApp('/no/such/page');
    expect(await screen.findByText(messages.notFoundPage)).toBeInTheDocument();
    expect(app.location()).toBe('/no/such/page');
    expect(screen.getByRole('main')).toHaveTextContent('Page not found');
    expect(screen.queryByRole('navigation', { name: 'Main navigation' })).not.toBeInTheDocument();
    expect(apiCalls(fetchStub)).toEqual([]);
  });

  it('keeps the app frame around the not-found page for a signed-in user', async () => {
    stubApi({ 'GET /user_details/': { body: member } });
    const app = renderApp('/calls/unknown/deeper', { token: 'k' });
    expect(await screen.findByText(messages.notFoundPage)).toBeInTheDocument();
    expect(app.location()).toBe('/calls/unknown/deeper');
    expect(screen.getByRole('link', { name: 'Home' })).toHaveAttribute('href', '/');
    // The side menu and the top bar's user menu, to go on from here.
    expect(screen.getByRole('navigation', { name: 'Main navigation' })).toHaveTextContent(
      'Call for Proposals',
    );
    expect(screen.getByRole('button', { name: 'ada' })).toHaveAttribute('aria-haspopup', 'menu');
    // One main landmark: the frame's, holding the message.
    expect(screen.getByRole('main')).toHaveTextContent('Page not found');
  });

  it('sends a signed-in user with an incomplete registration to complete it from an unknown path', async () => {
    stubApi({ 'GET /user_details/': { body: unfinished } });
    const app = renderApp('/no/such/page', { token: 'k' });
    expect(
      await screen.findByRole('heading', { name: 'Complete Registration' }),
    ).toBeInTheDocument();
    expect(app.location()).toBe('/auth/complete_registration');
  });

  it('logs the user out when the token is refused (401), and returns them after login', async () => {
    stubApi({
      'GET /user_details/': {
        status: 401,
        body: { detail: messages.notAuthenticated, code: 'not_authenticated' },
      },
    });
    const app = renderApp('/account', { token: 'revoked' });

    expect(await screen.findByRole('button', { name: 'Log in' })).toBeInTheDocument();
    expect(app.location()).toBe('/auth/login?next=%2Faccount');
    expect(getToken()).toBeNull();
    expect(screen.getByText(/session has ended/)).toBeInTheDocument();
  });

  it('sends a signed-in user away from the login page to next', async () => {
    stubApi({ 'GET /user_details/': { body: member } });
    const app = renderApp('/auth/login?next=%2Faccount', { token: 'k' });
    expect(await screen.findByRole('heading', { name: 'My Account' })).toBeInTheDocument();
    expect(app.location()).toBe('/account');
  });

  it('ignores a next that points off the site', async () => {
    stubApi({ 'GET /user_details/': { body: member } });
    const app = renderApp('/auth/login?next=%2F%2Fevil.example', { token: 'k' });
    await waitFor(() => expect(app.location()).toBe('/'));
  });
});

describe('the shell', () => {
  it('shows admins the admin menu and highlights the current page', async () => {
    stubApi({ 'GET /user_details/': { body: admin } });
    renderApp('/committees', { token: 'k' });
    await screen.findByRole('heading', { name: 'Manage Committees' });

    const nav = screen.getByRole('navigation', { name: 'Main navigation' });
    expect(nav).toHaveTextContent('Manage Users');
    expect(screen.getByRole('link', { name: 'Manage Committees' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    expect(screen.getByRole('link', { name: 'Dashboard' })).not.toHaveAttribute('aria-current');
  });

  it('hides the admin menu from members', async () => {
    stubApi({ 'GET /user_details/': { body: member } });
    renderApp('/', { token: 'k' });
    expect(await screen.findByText('Welcome, Ada Lovelace.')).toBeInTheDocument();
    const nav = screen.getByRole('navigation', { name: 'Main navigation' });
    expect(nav).toHaveTextContent('Call for Proposals');
    expect(nav).not.toHaveTextContent('Manage Users');
  });

  it('links Help to the manual in a new tab', async () => {
    stubApi({ 'GET /user_details/': { body: member } });
    renderApp('/', { token: 'k' });
    const help = await screen.findByRole('link', { name: /Help/ });
    expect(help).toHaveAttribute('href', '/help/manual.pdf');
    expect(help).toHaveAttribute('target', '_blank');
  });
});
