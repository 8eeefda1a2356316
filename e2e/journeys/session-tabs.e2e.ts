import type { Page } from '@playwright/test';
import { api, registerVerifiedUser, type TestUser } from '../calls-support/api';
import { checkA11y, expect, logIn, test, watchForProblems } from '../fixtures';
import { chooseFromUserMenu, dismissNotification, logInAs } from '../support/pages';

/**
 * The sign-in is kept per tab, in sessionStorage, and never in localStorage (ASVS V3.2.3,
 * V8.2.2): it goes when the browser closes. The open tabs of one browser share it, as they
 * did when localStorage held it: a new tab asks the others (apps/web/src/api/session.ts),
 * and a login, logout or expiry in one reaches the rest. Two pages of one browser context
 * are two tabs of one browser.
 */

const SESSION_ENDED = 'Your session has ended. Log in again to continue.';

let person: TestUser;
test.beforeAll(async () => {
  person = await registerVerifiedUser('Tabitha', 'Twotabs');
});

/** The token this tab holds, and that nothing of it is in localStorage. */
async function tokenOf(page: Page): Promise<string> {
  const { token, local } = await page.evaluate(() => ({
    token: window.sessionStorage.getItem('merit.token'),
    local: Object.keys(window.localStorage).map((key) => `${key}=${window.localStorage[key]}`),
  }));
  expect(token, 'the tab holds a session').toBeTruthy();
  expect(local.join(' ')).not.toContain(token!);
  return token!;
}

/** Another tab of the page's browser, its errors watched, and every address it showed. */
async function openTab(page: Page) {
  const tab = await page.context().newPage();
  const problems = await watchForProblems(tab);
  const visited: string[] = [];
  tab.on('framenavigated', (frame) => {
    if (frame === tab.mainFrame()) visited.push(new URL(frame.url()).pathname);
  });
  return { tab, problems, visited };
}

test('a new tab opens signed in, and logging out in it returns the first tab to the login page', async ({
  page,
}) => {
  await logInAs(page, person);
  const token = await tokenOf(page);
  expect(await page.evaluate(() => window.localStorage.getItem('merit.token'))).toBeNull();

  const { tab, problems, visited } = await openTab(page);
  await tab.goto('/account');
  await expect(tab.getByRole('heading', { name: 'My Account', level: 1 })).toBeVisible();
  // It asked the first tab before it rendered: the login page never showed.
  expect(visited).not.toContain('/auth/login');
  expect(await tokenOf(tab)).toBe(token);
  await checkA11y(tab);

  await chooseFromUserMenu(tab, person.username, 'Logout');
  await expect(tab).toHaveURL(/\/auth\/login$/);
  await dismissNotification(tab, 'Logged out.');

  // A deliberate logout: the first tab starts afresh too, with nothing said of an expiry.
  await expect(page).toHaveURL(/\/auth\/login$/);
  await expect(page.getByRole('button', { name: 'Log in' })).toBeVisible();
  await expect(page.getByText(SESSION_ENDED)).toHaveCount(0);
  for (const each of [page, tab]) {
    expect(await each.evaluate(() => window.sessionStorage.getItem('merit.token'))).toBeNull();
    expect(await each.evaluate(() => window.localStorage.length)).toBe(0);
  }

  // Logging in on one login page signs in the other, which goes on to the dashboard.
  await logIn(page, person);
  await expect(page).toHaveURL(/\/$/);
  await expect(tab).toHaveURL(/\/$/);
  await expect(tab.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
  expect(problems).toEqual([]);
  await tab.close();
});

test('an ended session found in one tab sends every tab to the login page, saying why', async ({
  page,
}) => {
  await logInAs(page, person);
  const token = await tokenOf(page);
  const { tab, problems } = await openTab(page);
  await tab.goto('/calls');
  await expect(tab.getByRole('heading', { name: 'Call for Proposals', level: 1 })).toBeVisible();

  await api('POST', '/auth/logout/', { token });
  // The tab asks the server again on a reload, which answers that the session has ended.
  await tab.reload();

  await expect(tab).toHaveURL(`/auth/login?${new URLSearchParams({ next: '/calls' })}`);
  // The first tab was on the dashboard, where login goes anyway.
  await expect(page).toHaveURL(/\/auth\/login$/);
  for (const each of [tab, page]) {
    await expect(each.getByRole('alert').filter({ hasText: SESSION_ENDED })).toBeVisible();
    await expect(each.getByRole('button', { name: 'Log in' })).toBeVisible();
  }
  expect(problems).toEqual([]);
  await tab.close();
});

test('closing the last tab signs out of the browser: a tab opened later shows the login page', async ({
  page,
}) => {
  await logInAs(page, person);
  const { tab: later, problems } = await openTab(page);
  await page.close();

  await later.goto('/account');
  await expect(later).toHaveURL(`/auth/login?${new URLSearchParams({ next: '/account' })}`);
  await expect(later.getByRole('button', { name: 'Log in' })).toBeVisible();
  // The hint that a tab may be signed in is gone with it: the next tab does not wait.
  expect(await later.evaluate(() => window.localStorage.length)).toBe(0);
  await checkA11y(later);
  expect(problems).toEqual([]);
  await later.close();
});
