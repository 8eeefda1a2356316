import type { UserDataExport } from '@merit/contract';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { makeUser } from '../../test/fixtures';
import { AFTER_NAVIGATION, apiCalls, renderApp, stubApi } from '../../test/render-app';

const me = makeUser();
const exported: UserDataExport = {
  exported_at: '2026-06-01T09:30:00.000Z',
  about: 'The personal data Merit holds about you.',
  profile: {
    id: me.id,
    username: me.username,
    email: me.email,
    pending_email: null,
    first_name: me.first_name,
    last_name: me.last_name,
    institution: me.institution,
    gender: me.gender,
    phone_number: me.phone_number,
    is_student: me.is_student,
    is_admin: false,
    is_active: true,
    email_verified: true,
    registration_complete: true,
    is_aaf: false,
    hash: me.hash,
    privacy_consent_at: null,
    recent_collaborators: [],
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
  },
  federated_logins: [],
  roles: [],
  proposals: [],
  reviews: [],
  bids: [],
  caps: [],
  sessions: [
    {
      created_at: '2026-06-01T09:00:00.000Z',
      last_used_at: '2026-06-01T09:30:00.000Z',
      ended_at: null,
    },
  ],
  security_events: { stored_here: false, note: 'In the server’s log.' },
};

/** Catches the file the page saves: its name and its text. */
function catchDownloads() {
  const blobs: Blob[] = [];
  const createObjectURL = vi.fn((blob: Blob) => {
    blobs.push(blob);
    return 'blob:user-data';
  });
  vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
  const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
  onTestFinished(() => click.mockRestore());
  return { blobs, click };
}

async function openAccount(answers: Parameters<typeof stubApi>[0] = {}) {
  const fetchStub = stubApi({
    'GET /user_details/': { body: me },
    'GET /user_data/': { body: exported },
    ...answers,
  });
  renderApp('/account/', { token: 'k' });
  await screen.findByRole('heading', { name: 'My Account' }, AFTER_NAVIGATION);
  const section = screen.getByRole('region', { name: 'Your data' });
  return { fetchStub, section, user: userEvent.setup() };
}

describe('Your data on the account page', () => {
  it('downloads what Merit holds as merit-data-<username>-<date>.json', async () => {
    const { blobs, click } = catchDownloads();
    const { fetchStub, section, user } = await openAccount();
    expect(section).toHaveTextContent(/other people’s reviews/);

    await user.click(within(section).getByRole('button', { name: 'Download my data' }));
    await vi.waitFor(() => expect(click).toHaveBeenCalled());
    expect(apiCalls(fetchStub)).toContain('GET /user_data/');
    const link = click.mock.contexts[0] as HTMLAnchorElement;
    expect(link.download).toBe(`merit-data-${me.username}-2026-06-01.json`);
    expect(JSON.parse(await blobs[0]!.text())).toEqual(exported);
  });

  it('links the privacy notice when the installation has one, in a new tab', async () => {
    const notice = 'https://merit.example.org/privacy.html';
    const { section } = await openAccount({
      'GET /auth/methods/': { body: { oidc: null, privacyNoticeUrl: notice } },
    });
    const link = await within(section).findByRole('link', { name: 'privacy notice' });
    expect(link).toHaveAttribute('href', notice);
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', 'noopener');
  });

  it('has no privacy notice link when none is set', async () => {
    const { section } = await openAccount();
    await screen.findByRole('button', { name: 'Download my data' });
    expect(within(section).queryByRole('link')).toBeNull();
  });
});
