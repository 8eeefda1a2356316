import { expect, type Locator, type Page } from '@playwright/test';

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
