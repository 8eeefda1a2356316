import { adminCredentials, checkA11y, expect, logIn, test } from '../fixtures';

test('a logged-out visitor to /calls logs in and comes back to the calls', async ({ page }) => {
  await page.goto('/calls');

  await expect(page).toHaveURL(/\/auth\/login\?next=/);
  await expect(page.getByRole('button', { name: 'Log in' })).toBeVisible();
  await checkA11y(page);

  await logIn(page, adminCredentials());

  await expect(page).toHaveURL(/\/calls\/?$/);
  await expect(page.getByRole('heading', { name: 'Call for Proposals' })).toBeVisible();
  await checkA11y(page);
});

test('logging out from the user menu asks for login again', async ({ page }) => {
  const admin = adminCredentials();
  await page.goto('/auth/login');
  await logIn(page, admin);
  await expect(page).not.toHaveURL(/\/auth\/login/);

  // The user menu's button is named after the logged-in user.
  await page.getByRole('button', { name: admin.username }).click();
  await page.getByRole('menuitem', { name: 'Logout' }).click();

  await expect(page).toHaveURL(/\/auth\/login/);
  await expect(page.getByRole('button', { name: 'Log in' })).toBeVisible();
  await checkA11y(page);

  await page.goto('/calls');
  await expect(page).toHaveURL(/\/auth\/login\?next=/);
  await expect(page.getByLabel('Username')).toBeVisible();
});
