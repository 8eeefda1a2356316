import { messages } from '@merit/domain';
import { fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderApp, sentBody, stubApi } from '../../test/render-app';

const BAD_LINK =
  'This password reset link is invalid, has expired or has already been used. Please ask for a new one.';

async function submitNewPassword(password: string) {
  const user = userEvent.setup();
  await screen.findByRole('heading', { name: 'Choose a new password' });
  fireEvent.change(screen.getByLabelText(/^New password/), { target: { value: password } });
  fireEvent.change(screen.getByLabelText(/^Confirm new password/), { target: { value: password } });
  await user.click(screen.getByRole('button', { name: 'Set new password' }));
}

describe('PasswordResetConfirmPage', () => {
  it('posts the uid and token from the link with the new password, then offers to log in', async () => {
    const fetchStub = stubApi({
      'POST /auth/password/reset/confirm/': {
        body: { detail: 'Password has been reset with the new password.' },
      },
    });
    renderApp('/auth/password-reset/confirm/MTI/tok-456');

    await submitNewPassword('a-new-passphrase');

    expect(await screen.findByText('Your password has been reset.')).toBeInTheDocument();
    expect(sentBody(fetchStub, 'POST /auth/password/reset/confirm/')).toEqual({
      uid: 'MTI',
      token: 'tok-456',
      newPassword1: 'a-new-passphrase',
      newPassword2: 'a-new-passphrase',
    });
    expect(screen.getByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/auth/login');
  });

  it('says once that the link is bad, and links to a new one', async () => {
    stubApi({
      'POST /auth/password/reset/confirm/': {
        status: 400,
        body: { detail: BAD_LINK, code: 'bad_request', fields: { token: [BAD_LINK] } },
      },
    });
    renderApp('/auth/password-reset/confirm/MTI/used-token');

    await submitNewPassword('a-new-passphrase');

    const alert = await screen.findByRole('alert');
    expect(
      within(alert)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([BAD_LINK]);
    expect(screen.getByRole('link', { name: 'Ask for a new reset link' })).toHaveAttribute(
      'href',
      '/auth/password-reset/',
    );
    expect(screen.queryByText(messages.validationFailed)).not.toBeInTheDocument();
  });
});
