import type { SessionInfo } from '@merit/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { getToken } from '../../api/session';
import { makeUser } from '../../test/fixtures';
import { AFTER_NAVIGATION, apiCalls, renderApp, stubApi } from '../../test/render-app';

const THIS_DEVICE: SessionInfo = {
  id: 7,
  createdAt: '2026-11-20T09:00:00.000Z',
  lastUsedAt: '2026-11-20T10:00:00.000Z',
  client: 'Firefox on Linux',
  method: 'password',
  current: true,
};
const PHONE: SessionInfo = {
  id: 5,
  createdAt: '2026-11-19T08:00:00.000Z',
  lastUsedAt: '2026-11-19T08:30:00.000Z',
  client: 'Safari on iOS',
  method: 'federated',
  current: false,
};
const TABLET: SessionInfo = { ...PHONE, id: 3, client: 'Chrome on Android', method: null };
const LAPTOP: SessionInfo = {
  ...PHONE,
  id: 4,
  client: 'Edge on Windows',
  method: 'password_webauthn',
};

/** A server that keeps the sessions, so a refetch shows what was ended. */
function sessionsServer(initial: SessionInfo[]) {
  let sessions = initial;
  const fetchStub = stubApi({
    'GET /user_details/': { body: makeUser() },
    'GET /auth/sessions/': () => ({ body: sessions }),
    'DELETE /auth/sessions/5/': () => {
      sessions = sessions.filter((s) => s.id !== 5);
      return { status: 204 };
    },
    'DELETE /auth/sessions/7/': () => {
      sessions = sessions.filter((s) => s.id !== 7);
      return { status: 204 };
    },
    'POST /auth/sessions/end-others/': () => {
      const ended = sessions.filter((s) => !s.current).length;
      sessions = sessions.filter((s) => s.current);
      return { body: { ended } };
    },
  });
  return fetchStub;
}

async function openAccount(sessions: SessionInfo[]) {
  const fetchStub = sessionsServer(sessions);
  renderApp('/account/', { token: 'k' });
  await screen.findByRole('heading', { name: 'Sessions' }, AFTER_NAVIGATION);
  const table = await screen.findByRole('table', { name: 'Sessions' });
  return { fetchStub, table, user: userEvent.setup() };
}

const rowOf = (table: HTMLElement, client: string) =>
  within(table).getByText(client).closest('tr')!;

describe('SessionsTable', () => {
  it('lists the sessions with this device marked and how each signed in', async () => {
    const { table } = await openAccount([THIS_DEVICE, PHONE, TABLET, LAPTOP]);
    expect(within(rowOf(table, 'Firefox on Linux')).getByText('This device')).toBeInTheDocument();
    expect(within(rowOf(table, 'Safari on iOS')).queryByText('This device')).toBeNull();
    expect(rowOf(table, 'Firefox on Linux')).toHaveTextContent('Username and password');
    expect(rowOf(table, 'Safari on iOS')).toHaveTextContent('Institutional login');
    expect(rowOf(table, 'Chrome on Android')).toHaveTextContent('—');
    expect(rowOf(table, 'Edge on Windows')).toHaveTextContent('Password + security key');
    expect(screen.getByRole('button', { name: 'Sign out other sessions' })).toBeInTheDocument();
  });

  it('says when this device is the only session, with no button to sign out others', async () => {
    await openAccount([THIS_DEVICE]);
    expect(
      screen.getByText('This device is the only place you are signed in.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Sign out other sessions' })).toBeNull();
  });

  it('asks before ending another session, ends nothing on Cancel, and ends it on confirm', async () => {
    const { fetchStub, table, user } = await openAccount([THIS_DEVICE, PHONE]);
    const end = within(rowOf(table, 'Safari on iOS')).getByRole('button', { name: /^End session/ });
    await user.click(end);
    let dialog = await screen.findByRole('dialog', { name: 'End this session?' });
    expect(dialog).toHaveTextContent('Safari on iOS');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(apiCalls(fetchStub)).not.toContain('DELETE /auth/sessions/5/');

    await user.click(end);
    dialog = await screen.findByRole('dialog', { name: 'End this session?' });
    await user.click(within(dialog).getByRole('button', { name: 'End session' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(apiCalls(fetchStub)).toContain('DELETE /auth/sessions/5/');
    expect(screen.getByRole('alert')).toHaveTextContent('Ended the session on Safari on iOS.');
    expect(within(table).queryByText('Safari on iOS')).toBeNull();
    expect(
      screen.getByText('This device is the only place you are signed in.'),
    ).toBeInTheDocument();
  });

  it('signs out the other sessions after asking, and keeps this one', async () => {
    const { fetchStub, table, user } = await openAccount([THIS_DEVICE, PHONE, TABLET]);
    await user.click(screen.getByRole('button', { name: 'Sign out other sessions' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sign out other sessions?' });
    expect(dialog).toHaveTextContent('2 sessions');
    await user.click(within(dialog).getByRole('button', { name: 'Sign out others' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(apiCalls(fetchStub)).toContain('POST /auth/sessions/end-others/');
    expect(screen.getByRole('alert')).toHaveTextContent('Signed out 2 other sessions.');
    expect(within(table).getByText('Firefox on Linux')).toBeInTheDocument();
    expect(within(table).queryByText('Safari on iOS')).toBeNull();
  });

  it('ending this device’s session logs out and goes to the login page', async () => {
    const { fetchStub, table, user } = await openAccount([THIS_DEVICE, PHONE]);
    await user.click(
      within(rowOf(table, 'Firefox on Linux')).getByRole('button', { name: /^End session/ }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'End this session and log out?' });
    await user.click(within(dialog).getByRole('button', { name: 'End session' }));
    expect(
      await screen.findByRole('button', { name: 'Log in' }, AFTER_NAVIGATION),
    ).toBeInTheDocument();
    expect(apiCalls(fetchStub)).toContain('DELETE /auth/sessions/7/');
    expect(getToken()).toBeNull();
  });
});
