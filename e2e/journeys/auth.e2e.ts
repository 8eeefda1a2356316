import { adminCredentials, checkA11y, expect, logIn, test } from '../fixtures';
import { expectDashboard } from '../support/pages';
import { newPerson } from '../support/people';
import { captchaWidget, registerAndVerify } from '../support/registration';

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

test('after three wrong passwords the login asks for the human check, and the person passes it and logs in', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(60_000);
  const person = newPerson('unsure');
  await registerAndVerify(page, person, baseURL!);

  await page.goto('/auth/login');
  for (const attempt of [1, 2, 3]) {
    await logIn(page, { username: person.username, password: `${person.password}-${attempt}` });
    await expect(
      page
        .getByRole('alert')
        .filter({ hasText: 'Unable to log in with the provided credentials.' }),
    ).toBeVisible();
  }
  await expect(captchaWidget(page)).toHaveCount(0);

  // The fourth attempt, though right, is not checked until the person passes the check.
  await logIn(page, person);
  await expect(
    page.getByRole('alert').filter({ hasText: 'Please confirm you are not a robot' }),
  ).toBeVisible();
  await expect(
    page.getByText('After several attempts to log in to this account, Merit asks you'),
  ).toBeVisible();
  await checkA11y(page);
  // By its label: the widget draws its tick mark over the box itself.
  await captchaWidget(page).getByText("I'm not a robot").click();
  await expect(captchaWidget(page).getByRole('checkbox', { name: 'Verified' })).toBeChecked();
  await page.getByRole('button', { name: 'Log in' }).click();

  await expectDashboard(page, `${person.firstName} ${person.lastName}`);
  await expect(page.getByRole('button', { name: person.username, exact: true })).toBeVisible();
});
