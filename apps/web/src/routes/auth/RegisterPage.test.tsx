import { messages, validationMessages } from '@merit/domain';
import { fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeAltcha, resetFakeAltcha } from '../../test/fake-altcha';
import { AFTER_NAVIGATION, apiCalls, renderApp, sentBody, stubApi } from '../../test/render-app';

vi.mock('../../features/auth/captcha/load-altcha', () => import('../../test/fake-altcha'));

beforeEach(resetFakeAltcha);

const validEntries: [RegExp, string][] = [
  [/^Username/, 'grace'],
  [/^Email/, 'grace@example.org'],
  [/^First name/, 'Grace'],
  [/^Last name/, 'Hopper'],
  [/^Institution/, 'Navy Labs'],
  [/^Phone number/, '+61 2 9999-0000'],
  [/^Password/, 'compiler-1952'],
  [/^Confirm password/, 'compiler-1952'],
];

/** Fills the form at once: typing it a key at a time takes seconds in jsdom. */
function fillValidForm() {
  for (const [label, value] of validEntries) {
    fireEvent.change(screen.getByLabelText(label), { target: { value } });
  }
  fireEvent.change(screen.getByLabelText(/^Gender/), { target: { value: 'FEMALE' } });
  fireEvent.click(screen.getByLabelText('I am a student'));
}

async function openRegisterPage() {
  const user = userEvent.setup();
  const view = renderApp('/auth/register');
  await screen.findByRole('heading', { name: 'Register' });
  return { user, ...view };
}

describe('RegisterPage', () => {
  it("shows the domain's rules under a field once it has been left, as the user types", async () => {
    stubApi({});
    const { user } = await openRegisterPage();
    const email = screen.getByLabelText(/^Email/);

    await user.type(email, 'g@');
    // Not while the user is still on their first go at the field.
    expect(screen.queryByText(validationMessages.email)).not.toBeInTheDocument();

    await user.tab();
    expect(screen.getByText(validationMessages.email)).toBeInTheDocument();
    expect(email).toHaveAttribute('aria-invalid', 'true');

    await user.type(email, 'x.io');
    expect(screen.queryByText(validationMessages.email)).not.toBeInTheDocument();
    expect(email).toHaveAttribute('aria-invalid', 'false');

    await user.type(screen.getByLabelText(/^Password/), '1234');
    await user.tab();
    expect(
      screen.getByText(
        `${validationMessages.passwordTooShort} ${validationMessages.passwordNumeric}`,
      ),
    ).toBeInTheDocument();

    await user.type(screen.getByLabelText(/^Confirm password/), '12345');
    await user.tab();
    expect(screen.getByText(validationMessages.passwordMismatch)).toBeInTheDocument();

    await user.type(screen.getByLabelText(/^First name/), 'G(r)');
    await user.tab();
    expect(screen.getByText(validationMessages.restricted)).toBeInTheDocument();
  });

  it('lists every rule the form breaks on submit, without asking the server', async () => {
    const fetchStub = stubApi({});
    const { user } = await openRegisterPage();

    await user.click(screen.getByRole('button', { name: 'Register' }));

    const items = within(await screen.findByRole('alert'))
      .getAllByRole('listitem')
      .map((item) => item.textContent);
    expect(items).toEqual([
      messages.validationFailed,
      `Username: ${validationMessages.required}`,
      `Email: ${validationMessages.required}`,
      `First name: ${validationMessages.required}`,
      `Last name: ${validationMessages.required}`,
      `Institution: ${validationMessages.required}`,
      `Phone number: ${validationMessages.required}`,
      `Gender: ${validationMessages.required}`,
      `Password: ${validationMessages.required}`,
      `Confirm password: ${validationMessages.required}`,
    ]);
    expect(apiCalls(fetchStub)).not.toContain('POST /auth/registration/');
  });

  it("shows the server's field errors, and renews the used captcha for the next try", async () => {
    const fetchStub = stubApi({
      'POST /auth/registration/': {
        status: 400,
        body: {
          detail: messages.validationFailed,
          code: 'validation_error',
          fields: {
            username: [validationMessages.usernameTaken],
            captcha: [validationMessages.captcha],
          },
        },
      },
    });
    const { user, location } = await openRegisterPage();
    // The widget's script loads on its own, after the page: wait for it.
    await expect
      .poll(() => document.querySelector('altcha-widget')?.getAttribute('challenge'))
      .toBe('/api/v1/auth/captcha/');

    fillValidForm();
    await user.click(screen.getByRole('button', { name: 'Register' }));

    const alert = await screen.findByRole('alert');
    const items = within(alert)
      .getAllByRole('listitem')
      .map((item) => item.textContent);
    expect(items).toEqual([
      messages.validationFailed,
      `Username: ${validationMessages.usernameTaken}`,
      `Human check: ${validationMessages.captcha}`,
    ]);
    expect(screen.getByLabelText(/^Username/)).toHaveAttribute('aria-invalid', 'true');
    // Under the field too, where the user fixes it.
    expect(screen.getByLabelText(/^Username/)).toHaveAccessibleDescription(
      validationMessages.usernameTaken,
    );
    expect(sentBody(fetchStub, 'POST /auth/registration/')).toEqual({
      username: 'grace',
      email: 'grace@example.org',
      first_name: 'Grace',
      last_name: 'Hopper',
      institution: 'Navy Labs',
      gender: 'FEMALE',
      phone_number: '+61 2 9999-0000',
      password1: 'compiler-1952',
      password2: 'compiler-1952',
      is_student: true,
      captcha: 'solution-1',
    });
    // The solution went to the server, which accepts each once: a new one is solved.
    expect(fakeAltcha.calls).toEqual(['verify', 'reset', 'verify']);
    expect(location()).toBe('/auth/register');
  });

  it('sends the new solution next time, and on success says to check the email', async () => {
    let attempts = 0;
    const fetchStub = stubApi({
      'POST /auth/registration/': () =>
        ++attempts === 1
          ? {
              status: 400,
              body: {
                detail: messages.validationFailed,
                code: 'validation_error',
                fields: { captcha: [validationMessages.captcha] },
              },
            }
          : { status: 201, body: { detail: 'Verification e-mail sent.' } },
    });
    const { user, location } = await openRegisterPage();
    fillValidForm();

    await user.click(screen.getByRole('button', { name: 'Register' }));
    await screen.findByRole('alert');
    await user.click(screen.getByRole('button', { name: 'Register' }));

    expect(
      await screen.findByRole('heading', { name: 'Check your email' }, AFTER_NAVIGATION),
    ).toBeInTheDocument();
    expect(location()).toBe('/auth/register/complete');
    expect(screen.getByText('grace@example.org')).toBeInTheDocument();
    const bodies = fetchStub.mock.calls
      .filter(([url]) => String(url).endsWith('/auth/registration/'))
      .map(([, init]) => JSON.parse(String(init?.body)) as { captcha: string });
    expect(bodies.map((body) => body.captcha)).toEqual(['solution-1', 'solution-2']);
  });

  it('offers the spec labels for gender', async () => {
    stubApi({});
    await openRegisterPage();
    const options = within(screen.getByLabelText(/^Gender/))
      .getAllByRole('option')
      .map((option) => option.textContent);
    expect(options).toEqual(['Select…', 'Male', 'Female', 'Other/Prefer not to say']);
  });
});
