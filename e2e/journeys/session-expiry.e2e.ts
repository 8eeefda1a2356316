import type { Page } from '@playwright/test';
import { api, registerVerifiedUser, type TestUser } from '../calls-support/api';
import { checkA11y, expect, logIn, test } from '../fixtures';
import { detailsRow, logInAs, textField } from '../support/pages';

/**
 * A session that ends on the server while the page is open (issue 16, item 6): the next
 * thing the person does lands on the login page, which says why, and logging in brings
 * them back to where they were.
 *
 * The server ends the token here by revoking it, as a logout elsewhere or a password
 * change does: an expired token and a revoked one get the same answer, a 401 with the
 * same body (apps/server/test/sessions.api.test.ts proves that on a pinned clock, which a
 * journey against a running server cannot move), so the page sees the same thing.
 */

const SESSION_ENDED = 'Your session has ended. Log in again to continue.';

/** The token the page holds (the web app keeps it in sessionStorage), ended on the server. */
async function endSessionOnServer(page: Page): Promise<void> {
  const token = await page.evaluate(() => window.sessionStorage.getItem('merit.token'));
  expect(token, 'the page holds a session').toBeTruthy();
  await api('POST', '/auth/logout/', { token: token! });
  // The page has not noticed: nothing it shows has changed yet.
  expect(await page.evaluate(() => window.sessionStorage.getItem('merit.token'))).toBe(token);
}

const mainNavigation = (page: Page) => page.getByRole('navigation', { name: 'Main navigation' });

async function expectLoginSaying(page: Page, next: string): Promise<void> {
  await expect(page).toHaveURL(`/auth/login?${new URLSearchParams({ next })}`);
  await expect(page.getByRole('alert').filter({ hasText: SESSION_ENDED })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Log in' })).toBeVisible();
  await checkA11y(page);
}

let person: TestUser;
test.beforeAll(async () => {
  person = await registerVerifiedUser('Sessa', 'Ended');
});

test('a save after the session ended goes to login, and logging in comes back to the page, unchanged', async ({
  page,
}) => {
  await logInAs(page, person);
  await mainNavigation(page).getByRole('link', { name: 'My Account' }).click();
  await expect(page.getByRole('heading', { name: 'My Account', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'Edit details' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit your details' });
  await textField(dialog, 'Institution').fill('Not saved University');

  await endSessionOnServer(page);
  await dialog.getByRole('button', { name: 'Save' }).click();

  await expectLoginSaying(page, '/account');
  await logIn(page, person);
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByRole('heading', { name: 'My Account', level: 1 })).toBeVisible();
  // The refused save changed nothing; the new session works.
  await expect(detailsRow(page, 'Institution')).toContainText('E2E Institute');
  await expect(page.getByRole('alert').filter({ hasText: SESSION_ENDED })).toHaveCount(0);
});

test('a click to another page, once the session ended while the person was away, goes to login, then on to that page', async ({
  page,
}) => {
  // The browser's clock, so the person can be away for a while: pages show what they
  // loaded in the last 30 seconds without asking again, so only older data goes back
  // to the server, which then says the session has ended. The clock is set, not run
  // forward: running the page's timers for 20 minutes lets a background refresh find the
  // ended session first (and go to login from the dashboard), which raced the click.
  await page.clock.install();
  await logInAs(page, person);
  await endSessionOnServer(page);
  await page.clock.setSystemTime(Date.now() + 20 * 60 * 1000);
  await mainNavigation(page).getByRole('link', { name: 'Call for Proposals' }).click();

  await expectLoginSaying(page, '/calls');
  await logIn(page, person);
  await expect(page).toHaveURL(/\/calls$/);
  await expect(page.getByRole('heading', { name: 'Call for Proposals', level: 1 })).toBeVisible();
});

test('after logging out on purpose, login says nothing of an ended session and goes to the dashboard', async ({
  page,
}) => {
  await logInAs(page, person);
  await mainNavigation(page).getByRole('link', { name: 'My Account' }).click();
  await page.getByRole('button', { name: person.username, exact: true }).click();
  await page.getByRole('menuitem', { name: 'Logout', exact: true }).click();

  await expect(page).toHaveURL(/\/auth\/login$/);
  await expect(page.getByRole('button', { name: 'Log in' })).toBeVisible();
  await expect(page.getByText(SESSION_ENDED)).toHaveCount(0);
});
