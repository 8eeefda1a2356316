import type { Locator, Page } from '@playwright/test';
import { expect, logIn, type Credentials } from '../fixtures';

/**
 * A text field by its label. By role and exact name: a required field's label also
 * holds an asterisk (hidden from the accessible name), and labels such as "Password"
 * and "Confirm password" contain one another.
 */
export function textField(page: Page | Locator, label: string): Locator {
  return page.getByRole('textbox', { name: label, exact: true });
}

/** A row of a details table (a header cell, then the value), by its header. */
export function detailsRow(page: Page, label: string): Locator {
  return page
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name: label, exact: true }) });
}

/** Opens the top bar's user menu (its button is named after the user) and picks an item. */
export async function chooseFromUserMenu(page: Page, username: string | RegExp, item: string) {
  await page.getByRole('button', { name: username, exact: true }).click();
  await page.getByRole('menuitem', { name: item, exact: true }).click();
}

/**
 * The dashboard, greeting `name`, with its open-calls count loaded: the page's content
 * is all there, so an accessibility check sees the page and not its loading state.
 */
export async function expectDashboard(page: Page, name: string) {
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
  await expect(page.getByText(`Welcome, ${name}.`)).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Open calls for proposals' })).toBeVisible();
  await expect(page.getByLabel('Counting open calls…')).toHaveCount(0);
}

/**
 * The notification on screen says `message`; the journey closes it, as a person may.
 * Left alone it fades out 5 s later, and an accessibility check that caught it
 * half-faded would fail on the colour contrast of a message that is on its way out.
 * Found as assistive technology finds it: a notification that an open dialog hid from
 * it (aria-hidden) fails here.
 */
export async function dismissNotification(page: Page, message: string): Promise<void> {
  const notification = page.getByRole('alert').filter({ hasText: message });
  await expect(notification).toBeVisible();
  await expect(notification).toHaveText(message);
  await notification.getByRole('button', { name: 'Close' }).click();
  await expect(notification).toBeHidden();
}

/** Logs in from the login page and closes the `Logged in.` notification. */
export async function logInAs(page: Page, user: Credentials): Promise<void> {
  await page.goto('/auth/login');
  await logIn(page, user);
  await expect(page).not.toHaveURL(/\/auth\/login/);
  await dismissNotification(page, 'Logged in.');
}

/** Logs out through the user menu, and waits for the login page. */
export async function logOut(page: Page, username: string): Promise<void> {
  await chooseFromUserMenu(page, username, 'Logout');
  await expect(page).toHaveURL(/\/auth\/login/);
}

/** Opens the Manage menu of the page (a call's, a proposal's) and returns it. */
export async function openManageMenu(page: Page): Promise<Locator> {
  await page.getByRole('button', { name: 'Manage', exact: true }).click();
  const menu = page.getByRole('menu', { name: 'Manage' });
  await expect(menu).toBeVisible();
  return menu;
}
