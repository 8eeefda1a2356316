import 'fake-indexeddb/auto';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { getLastEndReason } from '../../api/session';
import { resetFakeAltcha } from '../../test/fake-altcha';
import { makeUser } from '../../test/fixtures';
import { AFTER_NAVIGATION, renderApp, stubApi, type ApiHandler } from '../../test/render-app';
import { clearAllDrafts, draftKey, getDraft, putDraft } from '../drafts/local-drafts';

vi.mock('./captcha/load-altcha', () => import('../../test/fake-altcha'));

/*
 * Unsaved answers kept in this browser belong to one person: a logout forgets them, a
 * session that ended keeps them for that person's return, and another account's login on
 * this computer forgets them.
 */

const ada = makeUser();
const grace = makeUser({ id: 11, username: 'grace', first_name: 'Grace', last_name: 'Hopper' });
const adaDraft = draftKey(ada.id, { kind: 'review', proposalId: 30, formId: 5 });
const adaDecision = draftKey(ada.id, { kind: 'decision', proposalId: 30 });
const draft = { data: { strengths: 'Unsaved.' }, baseVersion: 3, typedAt: 1 };

const notSignedIn = { status: 401, body: { detail: 'Expired.', code: 'not_authenticated' } };

/** Each login's token says who it is; `k` is Ada's first session, which ends (401). */
const whoIs: ApiHandler = ({ headers }) => {
  const token = headers.Authorization;
  if (token === 'Token grace-key') return { body: grace };
  if (token === 'Token k' || token === 'Token ada-again') return { body: ada };
  return notSignedIn;
};

function stubAccountPage({ firstSessionEnds = false } = {}) {
  return stubApi({
    'GET /user_details/': whoIs,
    'GET /auth/sessions/': ({ headers }) =>
      firstSessionEnds && headers.Authorization === 'Token k' ? notSignedIn : { body: [] },
    'GET /auth/two-factor/': {
      body: { enabled: false, enabledAt: null, recoveryCodesLeft: 0, securityKeys: 0 },
    },
    'POST /auth/logout/': { body: { detail: 'Logged out.' } },
    'POST /auth/login/': ({ body }) => ({
      body: {
        key: (body as { username: string }).username === 'grace' ? 'grace-key' : 'ada-again',
      },
    }),
  });
}

async function logIn(username: string) {
  const user = userEvent.setup();
  await screen.findByRole('heading', { name: 'Log in' }, AFTER_NAVIGATION);
  await user.type(screen.getByLabelText(/Username/), username);
  await user.type(screen.getByLabelText(/Password/), 'secret');
  await user.click(screen.getByRole('button', { name: 'Log in' }));
}

beforeEach(resetFakeAltcha);
afterEach(() => clearAllDrafts());

describe('the unsaved answers kept in this browser', () => {
  it('are forgotten when their person logs out', async () => {
    const user = userEvent.setup();
    stubAccountPage();
    await putDraft(adaDraft, draft);
    await putDraft(adaDecision, draft);
    renderApp('/account', { token: 'k' });
    await screen.findByRole('heading', { name: 'My Account' }, AFTER_NAVIGATION);

    await user.click(screen.getByRole('button', { name: 'ada' }));
    await user.click(screen.getByRole('menuitem', { name: 'Logout' }));
    await screen.findByRole('heading', { name: 'Log in' }, AFTER_NAVIGATION);
    await waitFor(async () => expect(await getDraft(adaDraft)).toBeUndefined());
    expect(await getDraft(adaDecision)).toBeUndefined();
  });

  it('stay when the session ends (401), for the same person to log in again', async () => {
    stubAccountPage({ firstSessionEnds: true });
    // Another account's, left on this computer: the next login forgets them, not Ada's.
    const graceDraft = draftKey(grace.id, { kind: 'decision', proposalId: 30 });
    await putDraft(graceDraft, draft);
    await putDraft(adaDraft, draft);
    renderApp('/account', { token: 'k' });

    await screen.findByRole('heading', { name: 'Log in' }, AFTER_NAVIGATION);
    expect(getLastEndReason()).toBe('expired');
    expect(await getDraft(adaDraft)).toEqual(draft);

    await logIn('ada');
    await screen.findByRole('heading', { name: 'My Account' }, AFTER_NAVIGATION);
    await waitFor(async () => expect(await getDraft(graceDraft)).toBeUndefined());
    expect(await getDraft(adaDraft)).toEqual(draft);
  });

  it('of a session that ended are forgotten when another account logs in here', async () => {
    stubAccountPage({ firstSessionEnds: true });
    await putDraft(adaDraft, draft);
    renderApp('/account', { token: 'k' });
    await logIn('grace');

    await screen.findByRole('heading', { name: 'My Account' }, AFTER_NAVIGATION);
    await waitFor(async () => expect(await getDraft(adaDraft)).toBeUndefined());
  });
});
