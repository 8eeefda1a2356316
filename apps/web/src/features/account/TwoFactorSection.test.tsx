import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { makeUser } from '../../test/fixtures';
import { AFTER_NAVIGATION, renderApp, sentBody, stubApi } from '../../test/render-app';

const URI = 'otpauth://totp/Merit:ada?secret=JBSWY3DPEHPK3PXP&issuer=Merit';
const CODES = Array.from({ length: 10 }, (_, i) => `abcd${i + 2}-efghj`);

async function openAccount(answers: Parameters<typeof stubApi>[0], on = false) {
  let enabled = on;
  const fetchStub = stubApi({
    'GET /user_details/': () => ({ body: makeUser({ has_two_factor: enabled }) }),
    'GET /auth/sessions/': { body: [] },
    'GET /auth/two-factor/': () => ({
      body: {
        enabled,
        enabledAt: enabled ? '2026-11-20T09:00:00.000Z' : null,
        recoveryCodesLeft: 7,
        securityKeys: 0,
      },
    }),
    // The keys part of the section (SecurityKeysSection.test.tsx tests it).
    'GET /auth/security-keys/': { body: [] },
    'POST /auth/two-factor/confirm/': () => {
      enabled = true;
      return { body: { recoveryCodes: CODES } };
    },
    'POST /auth/two-factor/disable/': () => {
      enabled = false;
      return { status: 204 };
    },
    ...answers,
  });
  renderApp('/account/', { token: 'k' });
  await screen.findByRole('heading', { name: 'Two-step verification' }, AFTER_NAVIGATION);
  return { fetchStub, user: userEvent.setup() };
}

describe('TwoFactorSection', () => {
  it('turns on: password, QR code and key, a code, then the recovery codes once', async () => {
    const { fetchStub, user } = await openAccount({
      'POST /auth/two-factor/setup/': { body: { secret: 'JBSWY3DPEHPK3PXP', otpauthUri: URI } },
    });
    expect(screen.getByText(/Two-step verification is/)).toHaveTextContent('off');
    await user.click(screen.getByRole('button', { name: 'Turn on' }));
    let dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText(/Your password/), 'pw');
    await user.click(within(dialog).getByRole('button', { name: 'Continue' }));
    expect(sentBody(fetchStub, 'POST /auth/two-factor/setup/')).toEqual({ password: 'pw' });

    const qr = await within(dialog).findByRole('img', { name: /QR code/ });
    const src = qr.getAttribute('src')!;
    expect(src.startsWith('data:image/svg+xml;charset=utf-8,')).toBe(true);
    expect(decodeURIComponent(src.slice(src.indexOf(',') + 1))).toMatch(/^<svg[\s\S]*<\/svg>$/);
    expect(within(dialog).getByText('JBSW Y3DP EHPK 3PXP')).toBeVisible();
    const code = within(dialog).getByLabelText(/Code from the app/);
    expect(code).toHaveAttribute('autocomplete', 'one-time-code');
    expect(code).toHaveAttribute('inputmode', 'numeric');
    await user.type(code, '123456');
    await user.click(within(dialog).getByRole('button', { name: 'Turn on' }));

    dialog = await screen.findByRole('dialog', { name: 'Save your recovery codes' });
    const list = within(dialog).getByRole('list', { name: 'Recovery codes' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(CODES);
    await user.click(within(dialog).getByRole('button', { name: 'I have saved them' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await screen.findByText(/7 unused recovery codes/)).toBeVisible();
    expect(screen.getByRole('button', { name: 'Turn off' })).toBeVisible();
    // Shown once: nothing on the page holds them any more.
    expect(screen.queryByText(CODES[0]!)).not.toBeInTheDocument();
  });

  it('shows a wrong password beside the field', async () => {
    const { user } = await openAccount({
      'POST /auth/two-factor/setup/': {
        status: 400,
        body: {
          detail: 'Please correct the errors below.',
          code: 'validation_error',
          fields: { password: ['Your password was entered incorrectly. Please enter it again.'] },
        },
      },
    });
    await user.click(screen.getByRole('button', { name: 'Turn on' }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText(/Your password/), 'nope');
    await user.click(within(dialog).getByRole('button', { name: 'Continue' }));
    expect(
      await within(dialog).findByText(/Your password was entered incorrectly/, { selector: 'li' }),
    ).toBeVisible();
    expect(within(dialog).queryByRole('img')).not.toBeInTheDocument();
  });

  it('turns off with the password and a code', async () => {
    const { fetchStub, user } = await openAccount({}, true);
    await user.click(await screen.findByRole('button', { name: 'Turn off' }));
    const dialog = await screen.findByRole('dialog', { name: 'Turn off two-step verification?' });
    await user.type(within(dialog).getByLabelText(/Your password/), 'pw');
    await user.type(within(dialog).getByLabelText(/recovery code/), '654321');
    await user.click(within(dialog).getByRole('button', { name: 'Turn off' }));
    expect(await screen.findByText('Two-step verification is off.')).toBeVisible();
    expect(sentBody(fetchStub, 'POST /auth/two-factor/disable/')).toEqual({
      password: 'pw',
      code: '654321',
    });
    expect(await screen.findByRole('button', { name: 'Turn on' })).toBeVisible();
  });
});
