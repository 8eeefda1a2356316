import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { getToken } from '../../api/session';
import { makeUser } from '../../test/fixtures';
import { apiCalls, renderApp, sentBody, stubApi } from '../../test/render-app';

const wrongCode = {
  status: 400,
  body: { detail: 'That code is not right.', code: 'two_factor' },
};

async function passwordStep(answers: Parameters<typeof stubApi>[0]) {
  const fetchStub = stubApi({
    'POST /auth/login/': { body: { twoFactorRequired: true, ticket: 'tkt', securityKeys: false } },
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

describe('LoginPage, two-step verification', () => {
  it('asks for the code after the password, then logs in with the key it gets', async () => {
    const { app, fetchStub, user } = await passwordStep({
      'POST /auth/login/two-factor/': { body: { key: 'new-key' } },
    });
    expect(screen.getByText('Enter the 6-digit code from your authenticator app.')).toBeVisible();
    const field = screen.getByLabelText(/Code/);
    expect(field).toHaveAttribute('autocomplete', 'one-time-code');
    expect(field).toHaveAttribute('inputmode', 'numeric');
    expect(getToken()).toBeNull();

    await user.type(field, '123456');
    await user.click(screen.getByRole('button', { name: 'Verify' }));

    expect(await screen.findByRole('heading', { name: 'Call for Proposals' })).toBeVisible();
    expect(app.location()).toBe('/calls');
    expect(getToken()).toBe('new-key');
    expect(sentBody(fetchStub, 'POST /auth/login/two-factor/')).toEqual({
      ticket: 'tkt',
      code: '123456',
    });
  });

  it('shows a wrong code as the other login errors, and takes a recovery code instead', async () => {
    let calls = 0;
    const { fetchStub, user } = await passwordStep({
      'POST /auth/login/two-factor/': () =>
        ++calls === 1 ? wrongCode : { body: { key: 'new-key' } },
    });
    await user.type(screen.getByLabelText(/Code/), '000000');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('That code is not right.')).toBeVisible();

    await user.click(screen.getByRole('button', { name: 'Use a recovery code instead' }));
    const field = screen.getByLabelText(/Recovery code/);
    expect(field).toHaveValue('');
    expect(field).toHaveAttribute('inputmode', 'text');
    await user.type(field, 'abcde-fghjk');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByRole('heading', { name: 'Call for Proposals' })).toBeVisible();
    const sent = fetchStub.mock.calls
      .filter(([input]) => String(input).endsWith('/auth/login/two-factor/'))
      .map(([, init]) => JSON.parse(String(init?.body)) as { code: string });
    expect(sent.map((body) => body.code)).toEqual(['000000', 'abcde-fghjk']);
  });

  it('sends the user back to the password when the ticket has ended', async () => {
    const { fetchStub, user } = await passwordStep({
      'POST /auth/login/two-factor/': {
        status: 400,
        body: { detail: 'Your login has timed out.', code: 'two_factor_expired' },
      },
    });
    await user.type(screen.getByLabelText(/Code/), '123456');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('Your login has timed out.')).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Log in again' }));
    expect(await screen.findByRole('heading', { name: 'Log in' })).toBeVisible();
    expect(screen.getByLabelText(/Password/)).toHaveValue('');
    expect(apiCalls(fetchStub).filter((call) => call === 'POST /auth/login/')).toHaveLength(1);
  });
});
