import { messages, validationMessages } from '@merit/domain';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { makeUser } from '../../test/fixtures';
import { apiCalls, renderApp, stubApi } from '../../test/render-app';

describe('ChangePasswordPage', () => {
  it('posts the three fields under their API names and confirms the change', async () => {
    const fetchStub = stubApi({
      'GET /user_details/': { body: makeUser() },
      'POST /auth/password/change/': { body: { detail: 'New password has been saved.' } },
    });
    renderApp('/account/change-password/', { token: 'k' });
    const user = userEvent.setup();
    await screen.findByRole('heading', { name: 'Change Password' });

    await user.type(screen.getByLabelText(/Current password/), 'old');
    await user.type(screen.getByLabelText(/^Password/), 'new-secret-phrase');
    await user.type(screen.getByLabelText(/Confirm password/), 'new-secret-phrase');
    await user.click(screen.getByRole('button', { name: 'Change Password' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('New password has been saved.');
    const call = fetchStub.mock.calls.find(([url]) => String(url).endsWith('/password/change/'));
    expect(JSON.parse(String(call?.[1]?.body))).toEqual({
      oldPassword: 'old',
      newPassword1: 'new-secret-phrase',
      newPassword2: 'new-secret-phrase',
    });
    // Passwords do not stay on screen after a success.
    expect(screen.getByLabelText(/Current password/)).toHaveValue('');
  });

  it("shows the server's errors as a list", async () => {
    stubApi({
      'GET /user_details/': { body: makeUser() },
      'POST /auth/password/change/': {
        status: 400,
        body: {
          detail: 'The request is not valid.',
          code: 'validation_error',
          fields: {
            oldPassword: ['Your old password was entered incorrectly. Please enter it again.'],
          },
        },
      },
    });
    renderApp('/account/change-password/', { token: 'k' });
    const user = userEvent.setup();
    await screen.findByRole('heading', { name: 'Change Password' });

    await user.type(screen.getByLabelText(/Current password/), 'old');
    await user.type(screen.getByLabelText(/^Password/), 'new-secret-phrase');
    await user.type(screen.getByLabelText(/Confirm password/), 'new-secret-phrase');
    await user.click(screen.getByRole('button', { name: 'Change Password' }));

    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Current password: Your old password was entered incorrectly. Please enter it again.',
    );
  });

  it('checks the new password as the user types, before asking the server', async () => {
    const fetchStub = stubApi({ 'GET /user_details/': { body: makeUser() } });
    renderApp('/account/change-password/', { token: 'k' });
    const user = userEvent.setup();
    await screen.findByRole('heading', { name: 'Change Password' });

    await user.type(screen.getByLabelText(/^Password/), 'ada');
    await user.tab();
    expect(
      screen.getByText(
        `${validationMessages.passwordTooShort} ${validationMessages.passwordSimilar}`,
      ),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Change Password' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(messages.validationFailed);
    expect(apiCalls(fetchStub)).not.toContain('POST /auth/password/change/');
  });

  it('tells a federated user there is no password to change', async () => {
    stubApi({ 'GET /user_details/': { body: makeUser({ is_aaf: true }) } });
    renderApp('/account/change-password/', { token: 'k' });
    expect(
      await screen.findByText(/logs in through your institution and has no Merit password/),
    ).toBeInTheDocument();
    expect(screen.queryByLabelText(/Current password/)).not.toBeInTheDocument();
  });
});
