import { messages } from '@merit/domain';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { getToken } from '../../api/session';
import { fakeAltcha, resetFakeAltcha } from '../../test/fake-altcha';
import { makeUser } from '../../test/fixtures';
import { apiCalls, renderApp, sentBody, stubApi } from '../../test/render-app';

vi.mock('../../features/auth/captcha/load-altcha', () => import('../../test/fake-altcha'));

beforeEach(resetFakeAltcha);

async function fillAndSubmit(username: string, password: string) {
  const user = userEvent.setup();
  if (username) await user.type(screen.getByLabelText(/Username/), username);
  if (password) await user.type(screen.getByLabelText(/Password/), password);
  await user.click(screen.getByRole('button', { name: 'Log in' }));
  return user;
}

describe('LoginPage', () => {
  it("lists the server's detail and field errors above the form, and clears them on edit", async () => {
    stubApi({
      'POST /auth/login/': {
        status: 400,
        body: {
          detail: 'Unable to log in with the provided credentials.',
          code: 'invalid_credentials',
          fields: { password: ['Check the password.'] },
        },
      },
    });
    renderApp('/auth/login');
    await screen.findByRole('heading', { name: 'Log in' });

    const user = await fillAndSubmit('ada', 'wrong');

    const alert = await screen.findByRole('alert');
    const items = within(alert)
      .getAllByRole('listitem')
      .map((item) => item.textContent);
    expect(items).toEqual([
      'Unable to log in with the provided credentials.',
      'Password: Check the password.',
    ]);
    expect(screen.getByLabelText(/Password/)).toHaveAttribute('aria-invalid', 'true');

    await user.type(screen.getByLabelText(/Username/), 'x');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.getByLabelText(/Password/)).toHaveAttribute('aria-invalid', 'false');
  });

  it('checks required fields with the contract before asking the server', async () => {
    const fetchStub = stubApi({});
    renderApp('/auth/login');
    await screen.findByRole('heading', { name: 'Log in' });

    await fillAndSubmit('', '');

    const alert = await screen.findByRole('alert');
    const items = within(alert)
      .getAllByRole('listitem')
      .map((item) => item.textContent);
    expect(items).toEqual([
      messages.validationFailed,
      'Username: This field may not be blank.',
      'Password: This field may not be blank.',
    ]);
    expect(apiCalls(fetchStub)).not.toContain('POST /auth/login/');
  });

  it('logs in, says so, and returns the user to next', async () => {
    const fetchStub = stubApi({
      'POST /auth/login/': { body: { key: 'new-key' } },
      'GET /user_details/': ({ headers }) =>
        headers.Authorization === 'Token new-key'
          ? { body: makeUser() }
          : { status: 401, body: { detail: 'No token.', code: 'not_authenticated' } },
    });
    const app = renderApp('/auth/login?next=%2Fcalls');
    await screen.findByRole('heading', { name: 'Log in' });

    await fillAndSubmit('ada', 'correct horse');

    expect(await screen.findByRole('heading', { name: 'Call for Proposals' })).toBeInTheDocument();
    expect(app.location()).toBe('/calls');
    expect(screen.getByRole('alert')).toHaveTextContent('Logged in.');
    expect(getToken()).toBe('new-key');
    expect(sentBody(fetchStub, 'POST /auth/login/')).toEqual({
      username: 'ada',
      password: 'correct horse',
    });
  });

  it('links to registration and password reset', async () => {
    stubApi({});
    renderApp('/auth/login');
    expect(await screen.findByRole('link', { name: 'Register' })).toHaveAttribute(
      'href',
      '/auth/register',
    );
    expect(screen.getByRole('link', { name: 'Forgot your password?' })).toHaveAttribute(
      'href',
      '/auth/password-reset/',
    );
  });
});

describe('LoginPage, other ways in', () => {
  it('offers federated login when the server has it, carrying a safe next', async () => {
    stubApi({
      'GET /auth/methods/': {
        body: {
          oidc: { displayName: 'Example Federation', loginUrl: '/api/v1/auth/oidc/login/' },
        },
      },
    });
    renderApp('/auth/login?next=%2Fcalls%3Fpage%3D2');

    expect(
      await screen.findByRole('link', { name: 'Log in with Example Federation' }),
    ).toHaveAttribute('href', '/api/v1/auth/oidc/login/?next=%2Fcalls%3Fpage%3D2');
  });

  it('shows no federated login when the server has none', async () => {
    const fetchStub = stubApi({});
    renderApp('/auth/login');
    await screen.findByRole('heading', { name: 'Log in' });
    await waitFor(() => expect(apiCalls(fetchStub)).toContain('GET /auth/methods/'));
    expect(screen.queryByRole('link', { name: /Log in with/ })).not.toBeInTheDocument();
  });

  it('offers to resend the verification email when the address is not verified', async () => {
    stubApi({
      'POST /auth/login/': {
        status: 400,
        body: { detail: messages.emailNotVerified, code: 'email_not_verified' },
      },
    });
    renderApp('/auth/login');
    await screen.findByRole('heading', { name: 'Log in' });

    await fillAndSubmit('ada', 'secret');

    expect(await screen.findByRole('alert')).toHaveTextContent(messages.emailNotVerified);
    expect(screen.getByRole('link', { name: 'Resend verification email' })).toHaveAttribute(
      'href',
      '/auth/register/resend',
    );
  });

  it('shows why logging in is refused for a while (rate limit)', async () => {
    stubApi({
      'POST /auth/login/': {
        status: 429,
        body: {
          detail: 'Too many failed logins. Try again in 15 minutes.',
          code: 'rate_limited',
        },
      },
    });
    renderApp('/auth/login');
    await screen.findByRole('heading', { name: 'Log in' });

    await fillAndSubmit('ada', 'secret');

    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Too many failed logins. Try again in 15 minutes.',
    );
  });
});

describe('LoginPage, after several attempts for one username', () => {
  const CAPTCHA_REQUIRED = {
    status: 400,
    body: {
      detail: 'Please confirm you are not a robot, then log in again.',
      code: 'captcha_required',
    },
  };
  const INVALID_CREDENTIALS = {
    status: 400,
    body: { detail: messages.invalidCredentials, code: 'invalid_credentials' },
  };

  it('shows the human check when the server asks for it, and sends a fresh solution with each attempt', async () => {
    const answers = [CAPTCHA_REQUIRED, INVALID_CREDENTIALS, { body: { key: 'new-key' } }];
    const fetchStub = stubApi({
      'POST /auth/login/': () => answers.shift()!,
      'GET /user_details/': { body: makeUser() },
    });
    renderApp('/auth/login?next=%2Fcalls');
    await screen.findByRole('heading', { name: 'Log in' });
    expect(screen.queryByText(/confirm that you are not a robot/)).not.toBeInTheDocument();

    const user = await fillAndSubmit('ada', 'correct horse');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Please confirm you are not a robot, then log in again.',
    );
    expect(
      screen.getByText(
        'After several attempts to log in to this account, Merit asks you to confirm that you are not a robot.',
      ),
    ).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(messages.invalidCredentials);
    await user.click(screen.getByRole('button', { name: 'Log in' }));

    expect(await screen.findByRole('heading', { name: 'Call for Proposals' })).toBeInTheDocument();
    const sent = fetchStub.mock.calls
      .filter(([url]) => String(url).endsWith('/auth/login/'))
      .map(([, init]) => JSON.parse(String(init?.body)) as unknown);
    const credentials = { username: 'ada', password: 'correct horse' };
    // The server uses up each solution it is sent, so the widget starts over after each.
    expect(sent).toEqual([
      credentials,
      { ...credentials, captcha: 'solution-1' },
      { ...credentials, captcha: 'solution-2' },
    ]);
    expect(fakeAltcha.calls).toEqual(['verify', 'reset', 'verify']);
  });
});

describe('logout', () => {
  it('revokes the token on the server, forgets it, and goes to the login page', async () => {
    const fetchStub = stubApi({
      'GET /user_details/': { body: makeUser() },
      'POST /auth/logout/': { body: { detail: 'Successfully logged out.' } },
    });
    const app = renderApp('/calls', { token: 'k' });
    const user = userEvent.setup();

    await user.click(await screen.findByRole('button', { name: 'ada' }));
    await user.click(screen.getByRole('menuitem', { name: 'Logout' }));

    expect(await screen.findByRole('button', { name: 'Log in' })).toBeInTheDocument();
    await waitFor(() => expect(app.location()).toBe('/auth/login'));
    expect(getToken()).toBeNull();
    expect(screen.getByRole('alert')).toHaveTextContent('Logged out.');
    const logoutCall = fetchStub.mock.calls.find(([url]) => String(url).endsWith('/logout/'));
    expect(logoutCall?.[1]?.headers).toMatchObject({ Authorization: 'Token k' });
  });
});
