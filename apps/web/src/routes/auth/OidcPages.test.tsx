import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { getToken } from '../../api/session';
import { makeUser } from '../../test/fixtures';
import { AFTER_NAVIGATION, renderApp, sentBody, stubApi } from '../../test/render-app';

describe('OidcCompletePage', () => {
  it('exchanges the one-time code for a token and goes on to next', async () => {
    const fetchStub = stubApi({
      'POST /auth/oidc/exchange/': { body: { key: 'federated-key' } },
      'GET /user_details/': ({ headers }) =>
        headers.Authorization === 'Token federated-key'
          ? { body: makeUser() }
          : { status: 401, body: { detail: 'No token.', code: 'not_authenticated' } },
    });
    const app = renderApp('/auth/oidc/complete?code=one-time&next=%2Fcalls');

    expect(
      await screen.findByRole('heading', { name: 'Call for Proposals' }, AFTER_NAVIGATION),
    ).toBeInTheDocument();
    expect(app.location()).toBe('/calls');
    expect(getToken()).toBe('federated-key');
    expect(sentBody(fetchStub, 'POST /auth/oidc/exchange/')).toEqual({ code: 'one-time' });
  });

  it('sends a new federated user on to complete their registration', async () => {
    stubApi({
      'POST /auth/oidc/exchange/': { body: { key: 'federated-key' } },
      'GET /user_details/': { body: makeUser({ registration_complete: false, is_aaf: true }) },
    });
    const app = renderApp('/auth/oidc/complete?code=one-time&next=%2F');

    expect(
      await screen.findByRole('heading', { name: 'Complete Registration' }, AFTER_NAVIGATION),
    ).toBeInTheDocument();
    expect(app.location()).toBe('/auth/complete_registration');
  });

  it('ignores a next that leaves the site', async () => {
    stubApi({
      'POST /auth/oidc/exchange/': { body: { key: 'federated-key' } },
      'GET /user_details/': { body: makeUser() },
    });
    const app = renderApp('/auth/oidc/complete?code=c&next=https%3A%2F%2Fevil.example%2F');
    await waitFor(() => expect(app.location()).toBe('/'), AFTER_NAVIGATION);
  });

  it('explains a used or expired code, with a way back to login', async () => {
    stubApi({
      'POST /auth/oidc/exchange/': {
        status: 400,
        body: {
          detail: 'This login link has expired or was already used. Please log in again.',
          code: 'bad_request',
        },
      },
    });
    renderApp('/auth/oidc/complete?code=old');

    expect(await screen.findByRole('alert')).toHaveTextContent(
      'This login link has expired or was already used. Please log in again.',
    );
    expect(getToken()).toBeNull();
    expect(screen.getByRole('link', { name: 'Back to log in' })).toHaveAttribute(
      'href',
      '/auth/login',
    );
  });
});

describe('OidcErrorPage', () => {
  it.each([
    [
      'email-in-use',
      "A Merit account already uses this email address. Log in with your username and password, then link your institution's login from My Account.",
    ],
    ['inactive', 'This account has been deactivated. Contact the Merit administrators for help.'],
    ['state', 'This login attempt has expired or was already completed.'],
    ['unknown-reason', 'The login through your institution did not succeed.'],
  ])('explains the reason %s', async (reason, text) => {
    stubApi({});
    renderApp(`/auth/oidc/error?reason=${reason}`);
    expect(await screen.findByRole('alert')).toHaveTextContent(text);
    expect(screen.getByRole('link', { name: 'Back to log in' })).toHaveAttribute(
      'href',
      '/auth/login',
    );
  });
});
