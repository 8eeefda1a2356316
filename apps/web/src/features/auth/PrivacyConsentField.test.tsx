import { PRIVACY_CONSENT_LABEL, privacyMessages } from '@merit/domain';
import { fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { resetFakeAltcha } from '../../test/fake-altcha';
import { makeUser } from '../../test/fixtures';
import { AFTER_NAVIGATION, apiCalls, renderApp, sentBody, stubApi } from '../../test/render-app';

vi.mock('./captcha/load-altcha', () => import('../../test/fake-altcha'));

beforeEach(resetFakeAltcha);

const NOTICE = 'https://merit.example.org/privacy.html';
const withNotice = { 'GET /auth/methods/': { body: { oidc: null, privacyNoticeUrl: NOTICE } } };

/** Fills every field of the register page but the consent. */
function fillRegistration() {
  const entries: [RegExp, string][] = [
    [/^Username/, 'grace'],
    [/^Email/, 'grace@example.org'],
    [/^First name/, 'Grace'],
    [/^Last name/, 'Hopper'],
    [/^Institution/, 'Navy Labs'],
    [/^Phone number/, '+61 2 9999-0000'],
    [/^Password/, 'compiler-1952'],
    [/^Confirm password/, 'compiler-1952'],
  ];
  for (const [label, value] of entries) {
    fireEvent.change(screen.getByLabelText(label), { target: { value } });
  }
  fireEvent.change(screen.getByLabelText(/^Gender/), { target: { value: 'FEMALE' } });
}

const alertItems = async () =>
  within(await screen.findByRole('alert'))
    .getAllByRole('listitem')
    .map((item) => item.textContent);

describe('privacy notice on the register page', () => {
  it('asks for the consent, with the notice opening in a new tab, and sends it', async () => {
    const fetchStub = stubApi({
      ...withNotice,
      'POST /auth/registration/': { status: 201, body: { detail: 'Verification e-mail sent.' } },
    });
    const user = userEvent.setup();
    renderApp('/auth/register');
    const consent = await screen.findByRole('checkbox', { name: PRIVACY_CONSENT_LABEL });
    expect(consent).toBeRequired();
    const link = screen.getByRole('link', { name: /privacy notice/i });
    expect(link).toHaveAttribute('href', NOTICE);
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', 'noopener');

    fillRegistration();
    await user.click(screen.getByRole('button', { name: 'Register' }));
    expect(await alertItems()).toContain(`Privacy notice: ${privacyMessages.consentRequired}`);
    expect(consent).toHaveAccessibleDescription(privacyMessages.consentRequired);
    expect(apiCalls(fetchStub)).not.toContain('POST /auth/registration/');

    await user.click(consent);
    await user.click(screen.getByRole('button', { name: 'Register' }));
    expect(
      await screen.findByRole('heading', { name: 'Check your email' }, AFTER_NAVIGATION),
    ).toBeInTheDocument();
    expect(sentBody(fetchStub, 'POST /auth/registration/')).toMatchObject({
      username: 'grace',
      privacy_consent: true,
    });
  });

  it("shows the server's refusal of a missing consent at the checkbox", async () => {
    stubApi({
      ...withNotice,
      'POST /auth/registration/': {
        status: 400,
        body: {
          detail: 'Please correct the errors below.',
          code: 'validation_error',
          fields: { privacy_consent: [privacyMessages.consentRequired] },
        },
      },
    });
    const user = userEvent.setup();
    renderApp('/auth/register');
    const consent = await screen.findByRole('checkbox', { name: PRIVACY_CONSENT_LABEL });
    fillRegistration();
    await user.click(consent);
    await user.click(screen.getByRole('button', { name: 'Register' }));
    expect(await alertItems()).toContain(`Privacy notice: ${privacyMessages.consentRequired}`);
    expect(consent).toHaveAccessibleDescription(privacyMessages.consentRequired);
  });

  it('shows no checkbox and sends no consent field when no notice is set', async () => {
    const fetchStub = stubApi({
      'POST /auth/registration/': { status: 201, body: { detail: 'Verification e-mail sent.' } },
    });
    const user = userEvent.setup();
    renderApp('/auth/register');
    await screen.findByRole('heading', { name: 'Register' });
    fillRegistration();
    await user.click(screen.getByRole('button', { name: 'Register' }));
    await screen.findByRole('heading', { name: 'Check your email' }, AFTER_NAVIGATION);
    expect(screen.queryByRole('checkbox', { name: PRIVACY_CONSENT_LABEL })).toBeNull();
    expect(sentBody(fetchStub, 'POST /auth/registration/')).not.toHaveProperty('privacy_consent');
  });
});

describe('privacy notice when completing a federated registration', () => {
  it('asks for the same consent before saving', async () => {
    const federated = makeUser({
      institution: 'University of Examples',
      gender: 'FEMALE',
      phone_number: '0412 345 678',
      is_aaf: true,
      registration_complete: false,
    });
    const fetchStub = stubApi({
      ...withNotice,
      'GET /user_details/': { body: federated },
      'POST /auth/complete_registration/': {
        body: { ...federated, registration_complete: true },
      },
    });
    const user = userEvent.setup();
    renderApp('/auth/complete_registration', { token: 'k' });
    const consent = await screen.findByRole('checkbox', { name: PRIVACY_CONSENT_LABEL });

    await user.click(screen.getByRole('button', { name: 'Save and continue' }));
    expect(await alertItems()).toContain(`Privacy notice: ${privacyMessages.consentRequired}`);
    expect(apiCalls(fetchStub)).not.toContain('POST /auth/complete_registration/');

    await user.click(consent);
    await user.click(screen.getByRole('button', { name: 'Save and continue' }));
    await expect.poll(() => apiCalls(fetchStub)).toContain('POST /auth/complete_registration/');
    expect(sentBody(fetchStub, 'POST /auth/complete_registration/')).toMatchObject({
      privacy_consent: true,
    });
  });
});
