import { createEvent, fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { makeUser } from '../test/fixtures';
import { resetFakeAltcha } from '../test/fake-altcha';
import { renderApp, stubApi } from '../test/render-app';

vi.mock('../features/auth/captcha/load-altcha', () => import('../test/fake-altcha'));

beforeEach(resetFakeAltcha);

/**
 * OWASP ASVS V2.1.11: every password field of the web app lets people paste and lets
 * browsers and password managers fill it in (an `autocomplete` that says which password
 * it is, nothing that turns the helpers away).
 */
const pages: [string, string, string, string[]][] = [
  ['the login page', '/auth/login', 'Log in', ['current-password']],
  ['registration', '/auth/register', 'Register', ['new-password', 'new-password']],
  [
    'the password reset',
    '/auth/password-reset/confirm/MTI/tok-456',
    'Choose a new password',
    ['new-password', 'new-password'],
  ],
  [
    'the password change',
    '/account/change-password/',
    'Change Password',
    ['current-password', 'new-password', 'new-password'],
  ],
];

describe('V2.1.11 password fields work with paste and password managers', () => {
  it.each(pages)(
    'lets %s take a pasted password and name its autocomplete',
    async (_name, path, heading, autocompletes) => {
      stubApi({ 'GET /user_details/': { body: makeUser() } });
      renderApp(path, { token: path.startsWith('/account') ? 'k' : undefined });
      await screen.findByRole('heading', { name: heading });
      const fields = [...document.querySelectorAll<HTMLInputElement>('input[type="password"]')];
      expect(fields.map((field) => field.getAttribute('autocomplete'))).toEqual(autocompletes);

      const user = userEvent.setup();
      for (const [i, field] of fields.entries()) {
        expect(field.readOnly).toBe(false);
        expect(field).not.toHaveAttribute('onpaste');
        // Nothing cancels a paste, copy or drop into the field.
        for (const make of [createEvent.paste, createEvent.drop, createEvent.contextMenu]) {
          const event = make(field);
          fireEvent(field, event);
          expect(event.defaultPrevented).toBe(false);
        }
        const pasted = `pasted pass phrase ${i} 🔑`;
        await user.click(field);
        await user.paste(pasted);
        expect(field).toHaveValue(pasted);
      }
    },
  );
});

describe('V2.1.12 and V2.1.8 every password field can be shown; new ones have a meter', () => {
  it.each(pages)(
    'gives each field of %s a show button, and a meter under a new password only',
    async (_name, path, heading, autocompletes) => {
      stubApi({ 'GET /user_details/': { body: makeUser() } });
      renderApp(path, { token: path.startsWith('/account') ? 'k' : undefined });
      await screen.findByRole('heading', { name: heading });
      expect(screen.getAllByRole('button', { name: 'Show password' })).toHaveLength(
        autocompletes.length,
      );
      const fields = [...document.querySelectorAll<HTMLInputElement>('input[type="password"]')];
      for (const field of fields) fireEvent.change(field, { target: { value: 'password1234' } });
      // The first new-password field has the meter; its confirmation and the login do not.
      const meters = screen.queryAllByRole('progressbar', { name: 'Password strength' });
      expect(meters).toHaveLength(autocompletes.includes('new-password') ? 1 : 0);
      if (meters.length > 0) expect(meters[0]).toHaveAttribute('aria-valuetext', 'Weak');
    },
  );
});
