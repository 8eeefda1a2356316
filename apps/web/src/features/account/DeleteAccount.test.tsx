import 'fake-indexeddb/auto';
import { accountDeletionMessages } from '@merit/domain';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { getToken } from '../../api/session';
import { clearAllDrafts, draftKey, getDraft, putDraft } from '../drafts/local-drafts';
import { makeUser } from '../../test/fixtures';
import {
  AFTER_NAVIGATION,
  apiCalls,
  renderApp,
  sentBody,
  stubApi,
  type ApiHandler,
} from '../../test/render-app';

const DELETE = 'POST /auth/account/delete/';

afterEach(() => clearAllDrafts());

async function openAccount(
  me = makeUser(),
  answer: ApiHandler = () => ({ body: { detail: accountDeletionMessages.deleted } }),
) {
  const fetchStub = stubApi({
    'GET /user_details/': { body: me },
    'GET /auth/sessions/': { body: [] },
    'GET /auth/two-factor/': {
      body: { enabled: false, enabledAt: null, recoveryCodesLeft: 0, securityKeys: 0 },
    },
    [DELETE]: answer,
  });
  const view = renderApp('/account/', { token: 'k' });
  await screen.findByRole('heading', { name: 'My Account' }, AFTER_NAVIGATION);
  const section = screen.getByRole('region', { name: 'Delete my account' });
  const user = userEvent.setup();
  const open = async () => {
    await user.click(within(section).getByRole('button', { name: 'Delete my account' }));
    return screen.findByRole('dialog', { name: 'Delete your account?' });
  };
  return { fetchStub, view, user, open };
}

describe('Delete my account', () => {
  it('says in a dialog what goes and what stays, and Escape closes it without deleting', async () => {
    const { fetchStub, user, open } = await openAccount();
    const dialog = await open();
    expect(dialog).toHaveTextContent('This cannot be undone.');
    expect(dialog).toHaveTextContent(/Drafts only you work on .* are deleted/);
    expect(dialog).toHaveTextContent(/Proposals you submitted.*stay with their committees/);
    expect(dialog).toHaveTextContent('We send a last email to ada@example.org.');
    expect(within(dialog).getByLabelText(/Your password/)).toHaveAttribute('type', 'password');
    await user.keyboard('{Escape}');
    await expect.poll(() => screen.queryByRole('dialog')).toBeNull();
    expect(apiCalls(fetchStub)).not.toContain(DELETE);

    const again = await open();
    await user.click(within(again).getByRole('button', { name: 'Cancel' }));
    await expect.poll(() => screen.queryByRole('dialog')).toBeNull();
    expect(apiCalls(fetchStub)).not.toContain(DELETE);
  });

  it('needs the password, and shows a wrong one under the field without ending the session', async () => {
    const { fetchStub, user, open } = await openAccount(makeUser(), () => ({
      status: 400,
      body: {
        detail: 'The request is not valid. Check the highlighted fields.',
        code: 'validation_error',
        fields: { password: [accountDeletionMessages.wrongPassword] },
      },
    }));
    const dialog = await open();
    const confirm = within(dialog).getByRole('button', { name: 'Delete my account' });
    await user.click(confirm);
    expect(await within(dialog).findAllByText(accountDeletionMessages.required)).not.toHaveLength(
      0,
    );
    expect(apiCalls(fetchStub)).not.toContain(DELETE);

    await user.type(within(dialog).getByLabelText(/Your password/), 'not my password');
    await user.click(confirm);
    expect(
      await within(dialog).findAllByText(accountDeletionMessages.wrongPassword),
    ).not.toHaveLength(0);
    expect(sentBody(fetchStub, DELETE)).toEqual({ password: 'not my password' });
    expect(getToken()).toBe('k');
    expect(screen.getByRole('dialog')).toBeInTheDocument();
  });

  it('deletes with the password, forgets the session and ends on the login page saying so', async () => {
    // Unsaved answers this browser kept for the account go with it.
    const kept = draftKey(makeUser().id, { kind: 'decision', proposalId: 30 });
    await putDraft(kept, { data: '<p>Unsaved</p>', baseVersion: 1, typedAt: 1 });
    const { fetchStub, view, user, open } = await openAccount();
    const dialog = await open();
    await user.type(within(dialog).getByLabelText(/Your password/), 'my password');
    await user.click(within(dialog).getByRole('button', { name: 'Delete my account' }));
    expect(await screen.findByText('Your account has been deleted.')).toBeInTheDocument();
    await expect.poll(() => view.location()).toBe('/auth/login');
    expect(sentBody(fetchStub, DELETE)).toEqual({ password: 'my password' });
    expect(getToken()).toBeNull();
    await waitFor(async () => expect(await getDraft(kept)).toBeUndefined());
  });

  it('asks an account that logs in only through its institution to type its username', async () => {
    const { fetchStub, user, open } = await openAccount(
      makeUser({ is_aaf: true, username: 'ada.lovelace' }),
    );
    const dialog = await open();
    expect(dialog).toHaveTextContent('type your username, ada.lovelace, to confirm');
    expect(within(dialog).queryByLabelText(/Your password/)).toBeNull();
    await user.type(within(dialog).getByLabelText(/Your username/), 'ada.lovelace');
    await user.click(within(dialog).getByRole('button', { name: 'Delete my account' }));
    await screen.findByText('Your account has been deleted.');
    expect(sentBody(fetchStub, DELETE)).toEqual({ username: 'ada.lovelace' });
  });

  it('tells the only admin why their account cannot be deleted', async () => {
    const { user, open } = await openAccount(makeUser({ is_admin: true }), () => ({
      status: 409,
      body: { detail: accountDeletionMessages.lastActiveAdmin, code: 'conflict' },
    }));
    const dialog = await open();
    await user.type(within(dialog).getByLabelText(/Your password/), 'my password');
    await user.click(within(dialog).getByRole('button', { name: 'Delete my account' }));
    expect(
      await within(dialog).findByText(accountDeletionMessages.lastActiveAdmin),
    ).toBeInTheDocument();
    expect(getToken()).toBe('k');
  });
});
