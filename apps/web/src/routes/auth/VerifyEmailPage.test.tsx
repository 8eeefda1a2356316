import { messages } from '@merit/domain';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { apiCalls, renderApp, sentBody, stubApi } from '../../test/render-app';

const PATH = '/auth/registration/account-confirm-email/key-123/';

describe('VerifyEmailPage', () => {
  it('verifies the key from the link once, and offers to log in', async () => {
    const fetchStub = stubApi({
      'POST /auth/registration/verify-email/': {
        body: { detail: 'Your email address is verified.' },
      },
    });
    renderApp(PATH);

    expect(await screen.findByText('Your email address has been verified.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/auth/login');
    expect(sentBody(fetchStub, 'POST /auth/registration/verify-email/')).toEqual({
      key: 'key-123',
    });
    expect(
      apiCalls(fetchStub).filter((call) => call === 'POST /auth/registration/verify-email/'),
    ).toHaveLength(1);
  });

  it("shows the spec's message when the key is unknown, used or expired", async () => {
    stubApi({
      'POST /auth/registration/verify-email/': {
        status: 404,
        body: { detail: messages.verificationFailed, code: 'not_found' },
      },
    });
    renderApp(PATH);

    expect(await screen.findByRole('alert')).toHaveTextContent(
      /^There was an error verifying your account\.$/,
    );
    expect(screen.queryByText('Your email address has been verified.')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Resend verification email' })).toHaveAttribute(
      'href',
      '/auth/register/resend',
    );
  });

  it('leads a signed-in user (confirming a new address) back to their account', async () => {
    stubApi({ 'POST /auth/registration/verify-email/': { body: { detail: 'Verified.' } } });
    renderApp(PATH, { token: 'k' });

    expect(await screen.findByText('Your email address has been verified.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to My Account' })).toHaveAttribute(
      'href',
      '/account',
    );
  });
});
