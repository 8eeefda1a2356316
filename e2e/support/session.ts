import type { Page } from '@playwright/test';
import { logInApi } from '../calls-support/api';
import { expect, type Credentials } from '../fixtures';

/** Orders the sign-ins of this worker, so a tab takes the newest of its page's tokens. */
let signIns = 0;

/**
 * Signs `page`'s tab in with a token from the API's login, as if the person had used the
 * login form a moment before. With a `path`, opens it and waits for the top bar to name
 * them; without, the tab is signed in from the journey's next page load on.
 * For journeys about what a signed-in person does: a UI login costs a page load, a form
 * and a redirect through the dashboard each time. Journeys about logging in (auth,
 * sessions, session tabs and expiry, two-step verification, security keys, first run)
 * keep using logInAs.
 *
 * The token goes where the app's own login puts it (see apps/web/src/api/session.ts):
 * sessionStorage `merit.token`, and the `merit.signedIn` hint in localStorage. It is put
 * there before the app's code runs on the next page load, and only once: a journey that
 * then logs out stays logged out across later loads. A later signInAs on the same page
 * (as someone else, after a logout) wins over the earlier ones.
 */
export async function signInAs(page: Page, user: Credentials, path?: string): Promise<void> {
  const token = await logInApi(user);
  signIns += 1;
  await page.addInitScript(
    ({ token, order }) => {
      // Frames of other origins (a PDF viewer, about:blank) have storage of their own.
      if (window.top !== window || !location.protocol.startsWith('http')) return;
      const done = Number(window.sessionStorage.getItem('merit.e2e.signIn') ?? '0');
      if (order <= done) return;
      window.sessionStorage.setItem('merit.e2e.signIn', String(order));
      window.sessionStorage.setItem('merit.token', token);
      window.localStorage.setItem('merit.signedIn', '1');
    },
    { token, order: signIns },
  );
  if (path === undefined) return;
  await page.goto(path);
  await expect(page.getByRole('button', { name: user.username, exact: true })).toBeVisible();
}
