import { securityKeyMessages, twoFactorMessages } from '@merit/domain';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { getToken } from '../../api/session';
import { base64url, fakeAssertion, notAllowed, stubWebAuthn, text } from '../../test/fake-webauthn';
import { makeUser } from '../../test/fixtures';
import { apiCalls, renderApp, sentBody, stubApi } from '../../test/render-app';

/** As @simplewebauthn/server makes them: the account's keys, and a challenge bound to the ticket. */
const REQUEST_OPTIONS = {
  challenge: base64url('login-challenge'),
  rpId: 'localhost',
  timeout: 300000,
  userVerification: 'discouraged',
  allowCredentials: [
    { id: base64url('blue-key'), type: 'public-key', transports: ['usb'] },
    { id: base64url('green-key'), type: 'public-key', transports: ['nfc'] },
  ],
};

const expiredTicket = {
  status: 400,
  body: { detail: twoFactorMessages.ticketExpired, code: 'two_factor_expired' },
};

/** The password step of an account with two-step verification on and `securityKeys`. */
async function passwordStep(answers: Parameters<typeof stubApi>[0], securityKeys = true) {
  const fetchStub = stubApi({
    'POST /auth/login/': { body: { twoFactorRequired: true, ticket: 'tkt', securityKeys } },
    'POST /auth/login/security-key/options/': { body: { options: REQUEST_OPTIONS } },
    'GET /user_details/': ({ headers }) =>
      headers.Authorization === 'Token new-key'
        ? { body: makeUser() }
        : { status: 401, body: { detail: 'No token.', code: 'not_authenticated' } },
    ...answers,
  });
  const app = renderApp('/auth/login?next=%2Fcalls');
  await screen.findByRole('heading', { name: 'Log in' });
  const user = userEvent.setup();
  await user.type(screen.getByLabelText(/Username/), 'ada');
  await user.type(screen.getByLabelText(/Password/), 'correct horse');
  await user.click(screen.getByRole('button', { name: 'Log in' }));
  await screen.findByRole('heading', { name: 'Two-step verification' });
  return { app, fetchStub, user };
}

const keyButton = () => screen.getByRole('button', { name: 'Use your security key' });

describe('LoginPage, the second step with a security key', () => {
  it('offers the key first, passes the server’s options to it, and logs in with its answer', async () => {
    const credentials = stubWebAuthn({ get: () => Promise.resolve(fakeAssertion('blue-key')) });
    const { app, fetchStub, user } = await passwordStep({
      'POST /auth/login/security-key/': { body: { key: 'new-key' } },
    });
    // Above the code, which stays as the other way.
    const code = screen.getByLabelText(/Code/);
    expect(keyButton().compareDocumentPosition(code)).toBe(Node.DOCUMENT_POSITION_FOLLOWING);
    expect(getToken()).toBeNull();

    await user.click(keyButton());

    expect(await screen.findByRole('heading', { name: 'Call for Proposals' })).toBeVisible();
    expect(app.location()).toBe('/calls');
    expect(getToken()).toBe('new-key');
    expect(sentBody(fetchStub, 'POST /auth/login/security-key/options/')).toEqual({
      ticket: 'tkt',
    });
    expect(credentials.get).toHaveBeenCalledTimes(1);
    const { publicKey } = credentials.get.mock.calls[0]![0];
    expect(text(publicKey!.challenge)).toBe('login-challenge');
    expect(publicKey!.rpId).toBe('localhost');
    expect(publicKey!.allowCredentials!.map((key) => text(key.id))).toEqual([
      'blue-key',
      'green-key',
    ]);
    expect(sentBody(fetchStub, 'POST /auth/login/security-key/')).toEqual({
      ticket: 'tkt',
      credential: {
        id: base64url('blue-key'),
        rawId: base64url('blue-key'),
        type: 'public-key',
        authenticatorAttachment: 'cross-platform',
        response: {
          clientDataJSON: base64url('client-data'),
          authenticatorData: base64url('authenticator-data'),
          signature: base64url('signature'),
        },
        clientExtensionResults: {},
      },
    });
  });

  it('says so when the key does not answer; a code still logs in', async () => {
    stubWebAuthn({ get: () => Promise.reject(notAllowed()) });
    const { fetchStub, user } = await passwordStep({
      'POST /auth/login/two-factor/': { body: { key: 'new-key' } },
    });
    await user.click(keyButton());
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText(securityKeyMessages.cancelled)).toBeVisible();
    expect(apiCalls(fetchStub)).not.toContain('POST /auth/login/security-key/');

    await user.type(screen.getByLabelText(/Code/), '123456');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByRole('heading', { name: 'Call for Proposals' })).toBeVisible();
    expect(getToken()).toBe('new-key');
  });

  it('shows the server’s word when it refuses the answer, and lets the person try again', async () => {
    let tries = 0;
    const credentials = stubWebAuthn({ get: () => Promise.resolve(fakeAssertion('blue-key')) });
    const { user } = await passwordStep({
      'POST /auth/login/security-key/': () =>
        ++tries === 1
          ? {
              status: 400,
              body: { detail: securityKeyMessages.notVerified, code: 'two_factor' },
            }
          : { body: { key: 'new-key' } },
    });
    await user.click(keyButton());
    expect(await screen.findByText(securityKeyMessages.notVerified)).toBeVisible();
    expect(getToken()).toBeNull();

    await user.click(keyButton());
    expect(await screen.findByRole('heading', { name: 'Call for Proposals' })).toBeVisible();
    expect(credentials.get).toHaveBeenCalledTimes(2);
  });

  it('sends the person back to the password when the ticket has ended, as a code does', async () => {
    const credentials = stubWebAuthn();
    const { fetchStub, user } = await passwordStep({
      'POST /auth/login/security-key/options/': expiredTicket,
    });
    await user.click(keyButton());
    expect(await screen.findByText(twoFactorMessages.ticketExpired)).toBeVisible();
    expect(credentials.get).not.toHaveBeenCalled();
    expect(screen.queryByRole('button', { name: 'Use your security key' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Log in again' }));
    expect(await screen.findByRole('heading', { name: 'Log in' })).toBeVisible();
    expect(screen.getByLabelText(/Password/)).toHaveValue('');
    expect(apiCalls(fetchStub).filter((call) => call === 'POST /auth/login/')).toHaveLength(1);
  });

  it('offers no key to an account without one', async () => {
    stubWebAuthn();
    await passwordStep({}, false);
    expect(screen.getByLabelText(/Code/)).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Use your security key' })).not.toBeInTheDocument();
    expect(screen.queryByText(securityKeyMessages.unsupported)).not.toBeInTheDocument();
  });

  it('says a browser without WebAuthn cannot use the keys, and asks for the code', async () => {
    await passwordStep({});
    expect(screen.getByText(securityKeyMessages.unsupported)).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Use your security key' })).not.toBeInTheDocument();
    expect(screen.getByLabelText(/Code/)).toBeVisible();
  });
});
