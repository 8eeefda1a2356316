import type { SecurityKey } from '@merit/contract';
import { MAX_SECURITY_KEYS, securityKeyMessages, twoFactorMessages } from '@merit/domain';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import {
  alreadyRegistered,
  base64url,
  fakeRegistration,
  notAllowed,
  stubWebAuthn,
  text,
} from '../../test/fake-webauthn';
import { makeUser } from '../../test/fixtures';
import { formatCallDate } from '../calls/call-dates';
import { AFTER_NAVIGATION, apiCalls, renderApp, sentBody, stubApi } from '../../test/render-app';

const BLUE: SecurityKey = {
  id: 3,
  name: 'Blue USB key',
  createdAt: '2026-11-01T09:00:00.000Z',
  lastUsedAt: '2026-11-20T10:30:00.000Z',
};
const GREEN: SecurityKey = {
  id: 4,
  name: 'Green NFC key',
  createdAt: '2026-11-02T09:00:00.000Z',
  lastUsedAt: null,
};

/** As @simplewebauthn/server makes them: the options' binary fields in base64url. */
const CREATION_OPTIONS = {
  challenge: base64url('challenge-1'),
  rp: { name: 'Merit', id: 'localhost' },
  user: { id: base64url('user-handle'), name: 'ada', displayName: 'ada' },
  pubKeyCredParams: [{ type: 'public-key', alg: -7 }],
  timeout: 300000,
  attestation: 'none',
  excludeCredentials: [{ id: base64url('blue-key'), type: 'public-key', transports: ['usb'] }],
  authenticatorSelection: { residentKey: 'discouraged', userVerification: 'discouraged' },
};

const refusal = (status: number, detail: string, code: string, fields?: object) => ({
  status,
  body: { detail, code, ...(fields ? { fields } : {}) },
});

/** The account page of a user with two-step verification `on`, and a server that keeps its keys. */
async function openAccount({
  on = true,
  keys: initial = [BLUE],
  answers = {},
}: {
  on?: boolean;
  keys?: SecurityKey[];
  answers?: Parameters<typeof stubApi>[0];
} = {}) {
  let keys = initial;
  const fetchStub = stubApi({
    'GET /user_details/': { body: makeUser({ has_two_factor: on }) },
    'GET /auth/sessions/': { body: [] },
    'GET /auth/two-factor/': () => ({
      body: {
        enabled: on,
        enabledAt: on ? '2026-10-01T09:00:00.000Z' : null,
        recoveryCodesLeft: 10,
        securityKeys: keys.length,
      },
    }),
    'GET /auth/security-keys/': () => ({ body: keys }),
    'POST /auth/security-keys/options/': { body: { options: CREATION_OPTIONS } },
    'POST /auth/security-keys/': ({ body }) => {
      const added = {
        id: 9,
        name: (body as { name: string }).name,
        createdAt: '2026-11-24T09:00:00.000Z',
        lastUsedAt: null,
      };
      keys = [...keys, added];
      return { status: 201, body: added };
    },
    'DELETE /auth/security-keys/3/': () => {
      keys = keys.filter((key) => key.id !== 3);
      return { status: 204 };
    },
    ...answers,
  });
  renderApp('/account/', { token: 'k' });
  const section = await screen.findByRole('region', { name: 'Security keys' }, AFTER_NAVIGATION);
  return { fetchStub, section, user: userEvent.setup() };
}

const count = (fetchStub: ReturnType<typeof stubApi>, call: string) =>
  apiCalls(fetchStub).filter((made) => made === call).length;

async function fillAddDialog(
  user: ReturnType<typeof userEvent.setup>,
  { name = 'Red key', password = 'pw' } = {},
) {
  await user.click(await screen.findByRole('button', { name: 'Add a security key' }));
  const dialog = await screen.findByRole('dialog', { name: 'Add a security key' });
  if (name) await user.type(within(dialog).getByLabelText(/Name of the key/), name);
  if (password) await user.type(within(dialog).getByLabelText(/Your password/), password);
  await user.click(within(dialog).getByRole('button', { name: 'Add' }));
  return dialog;
}

describe('SecurityKeysSection', () => {
  it('lists the keys with when each was added and last used', async () => {
    stubWebAuthn();
    const { section } = await openAccount({ keys: [BLUE, GREEN] });
    const table = await within(section).findByRole('table', { name: 'Security keys' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getAllByRole('cell')[0]!.textContent)).toEqual([
      'Blue USB key',
      'Green NFC key',
    ]);
    const cells = rows.map((row) =>
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    );
    expect(cells.map((row) => row.slice(1, 3))).toEqual([
      [formatCallDate(BLUE.createdAt), formatCallDate(BLUE.lastUsedAt!)],
      [formatCallDate(GREEN.createdAt), 'Never'],
    ]);
    expect(within(section).getByRole('button', { name: 'Add a security key' })).toBeVisible();
  });

  it('adds a key: the password, the server’s options to the key, its answer back', async () => {
    const credentials = stubWebAuthn({
      create: () => Promise.resolve(fakeRegistration('red-key')),
    });
    const { fetchStub, section, user } = await openAccount();
    await within(section).findByRole('table', { name: 'Security keys' });
    const statusLoads = count(fetchStub, 'GET /auth/two-factor/');

    await fillAddDialog(user, { name: '  Red key ', password: 'correct horse' });

    expect(await screen.findByText('The security key “Red key” has been added.')).toBeVisible();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(sentBody(fetchStub, 'POST /auth/security-keys/options/')).toEqual({
      password: 'correct horse',
    });
    // The options reached the key as WebAuthn wants them: the binary fields as bytes.
    expect(credentials.create).toHaveBeenCalledTimes(1);
    const { publicKey } = credentials.create.mock.calls[0]![0];
    expect(text(publicKey!.challenge)).toBe('challenge-1');
    expect(text(publicKey!.user.id)).toBe('user-handle');
    expect(publicKey!.rp).toEqual({ name: 'Merit', id: 'localhost' });
    expect(publicKey!.excludeCredentials!.map((key) => text(key.id))).toEqual(['blue-key']);
    expect(publicKey!.authenticatorSelection).toEqual(CREATION_OPTIONS.authenticatorSelection);
    // …and the key's answer reached the server as JSON, with the trimmed name.
    expect(sentBody(fetchStub, 'POST /auth/security-keys/')).toEqual({
      name: 'Red key',
      credential: {
        id: base64url('red-key'),
        rawId: base64url('red-key'),
        type: 'public-key',
        authenticatorAttachment: 'cross-platform',
        response: {
          clientDataJSON: base64url('client-data'),
          attestationObject: base64url('attestation'),
          transports: ['usb'],
        },
        clientExtensionResults: {},
      },
    });
    const table = within(section).getByRole('table', { name: 'Security keys' });
    expect(await within(table).findByText('Red key')).toBeVisible();
    await waitFor(() =>
      expect(count(fetchStub, 'GET /auth/two-factor/')).toBeGreaterThan(statusLoads),
    );
  });

  it('shows a wrong password beside the field, and asks no key', async () => {
    const credentials = stubWebAuthn();
    const { fetchStub, user } = await openAccount({
      answers: {
        'POST /auth/security-keys/options/': refusal(
          400,
          'The request is not valid. Check the highlighted fields.',
          'validation_error',
          { password: [twoFactorMessages.wrongPassword] },
        ),
      },
    });
    const dialog = await fillAddDialog(user, { password: 'nope' });
    expect(
      await within(dialog).findByText(new RegExp(twoFactorMessages.wrongPassword), {
        selector: 'li',
      }),
    ).toBeVisible();
    expect(credentials.create).not.toHaveBeenCalled();
    expect(count(fetchStub, 'POST /auth/security-keys/')).toBe(0);
  });

  it('asks for a name before anything is sent', async () => {
    const credentials = stubWebAuthn();
    const { fetchStub, user } = await openAccount();
    const dialog = await fillAddDialog(user, { name: '' });
    expect(await within(dialog).findAllByText(securityKeyMessages.nameRequired)).not.toHaveLength(
      0,
    );
    expect(count(fetchStub, 'POST /auth/security-keys/options/')).toBe(0);
    expect(credentials.create).not.toHaveBeenCalled();
  });

  it('says so when the key does not answer, and sends nothing to add', async () => {
    stubWebAuthn({ create: () => Promise.reject(notAllowed()) });
    const { fetchStub, user } = await openAccount();
    const dialog = await fillAddDialog(user);
    expect(await within(dialog).findByText(securityKeyMessages.cancelled)).toBeVisible();
    expect(count(fetchStub, 'POST /auth/security-keys/')).toBe(0);
  });

  it('says so when the key is one the account has already, and sends nothing to add', async () => {
    stubWebAuthn({ create: () => Promise.reject(alreadyRegistered()) });
    const { fetchStub, user } = await openAccount();
    const dialog = await fillAddDialog(user);
    expect(await within(dialog).findByText(securityKeyMessages.alreadyAdded)).toBeVisible();
    expect(within(dialog).queryByText(securityKeyMessages.cancelled)).toBeNull();
    expect(count(fetchStub, 'POST /auth/security-keys/')).toBe(0);
  });

  it('shows the server’s word when it refuses the key’s answer', async () => {
    stubWebAuthn({ create: () => Promise.resolve(fakeRegistration('red-key')) });
    const { user } = await openAccount({
      answers: {
        'POST /auth/security-keys/': refusal(400, securityKeyMessages.notVerified, 'not_verified'),
      },
    });
    const dialog = await fillAddDialog(user);
    expect(await within(dialog).findByText(securityKeyMessages.notVerified)).toBeVisible();
  });

  it('removes a key after asking', async () => {
    stubWebAuthn();
    const { fetchStub, section, user } = await openAccount({ keys: [BLUE, GREEN] });
    await user.click(
      await within(section).findByRole('button', { name: 'Remove the security key Blue USB key' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Remove this security key?' });
    expect(dialog).toHaveTextContent('“Blue USB key” will no longer log you in.');
    expect(count(fetchStub, 'DELETE /auth/security-keys/3/')).toBe(0);
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));

    expect(
      await screen.findByText('The security key “Blue USB key” has been removed.'),
    ).toBeVisible();
    expect(count(fetchStub, 'DELETE /auth/security-keys/3/')).toBe(1);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const table = within(section).getByRole('table', { name: 'Security keys' });
    await waitFor(() => expect(within(table).queryByText('Blue USB key')).not.toBeInTheDocument());
    expect(within(table).getByText('Green NFC key')).toBeVisible();
  });

  it('offers no keys until two-step verification is on, and asks the server for none', async () => {
    stubWebAuthn();
    const { fetchStub, section } = await openAccount({ on: false });
    expect(within(section).getByText(securityKeyMessages.needsTwoFactor)).toBeVisible();
    expect(within(section).queryByRole('button')).not.toBeInTheDocument();
    expect(count(fetchStub, 'GET /auth/security-keys/')).toBe(0);
  });

  it('says a browser without WebAuthn cannot add keys, and still lists them', async () => {
    const { section } = await openAccount();
    expect(await within(section).findByText(securityKeyMessages.unsupported)).toBeVisible();
    expect(within(section).getByRole('table', { name: 'Security keys' })).toHaveTextContent(
      'Blue USB key',
    );
    expect(
      within(section).queryByRole('button', { name: 'Add a security key' }),
    ).not.toBeInTheDocument();
  });

  it(`offers no more than ${MAX_SECURITY_KEYS} keys`, async () => {
    stubWebAuthn();
    const keys = Array.from({ length: MAX_SECURITY_KEYS }, (_, index) => ({
      ...GREEN,
      id: 100 + index,
      name: `Key ${index + 1}`,
    }));
    const { section } = await openAccount({ keys });
    expect(await within(section).findByText(securityKeyMessages.tooMany)).toBeVisible();
    expect(
      within(section).queryByRole('button', { name: 'Add a security key' }),
    ).not.toBeInTheDocument();
  });
});
