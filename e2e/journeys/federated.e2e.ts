import { randomBytes } from 'node:crypto';
import { checkA11y, expect, test as base } from '../fixtures';
import {
  startFederatedMerit,
  type FederatedMerit,
  type InstitutionalAccount,
} from '../support/federation';
import { chooseFromUserMenu, expectDashboard, textField } from '../support/pages';

/**
 * These journeys need federated login switched on, so they run against a Merit server
 * of their own, started once for the file next to the test OpenID provider it trusts.
 */
const test = base.extend<object, { federation: FederatedMerit }>({
  federation: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixture's dependencies from this pattern
    async ({}, use) => {
      const federation = await startFederatedMerit();
      await use(federation);
      await federation.stop();
    },
    { scope: 'worker', timeout: 120_000 },
  ],
  baseURL: async ({ federation }, use) => {
    await use(federation.url);
  },
});

/** Someone the institution knows, with AAF-like claims. */
function institutionalAccount(): InstitutionalAccount {
  const tag = randomBytes(4).toString('hex');
  return {
    sub: `staff-${tag}`,
    email: `grace.${tag}@uni.example.test`,
    given_name: 'Grace',
    family_name: `Hopper ${tag}`,
    schac_home_organization: 'uni.example.test',
    eduperson_scoped_affiliation: ['staff@uni.example.test'],
  };
}

test('a federated user completes their registration once, then logs straight in', async ({
  page,
  federation,
}) => {
  test.setTimeout(60_000);
  const account = institutionalAccount();
  federation.provider.loginAs(account);
  const federatedButton = page.getByRole('link', { name: `Log in with ${federation.displayName}` });

  await test.step('log in through the institution for the first time', async () => {
    await page.goto('/auth/login');
    await expect(federatedButton).toBeVisible();
    await checkA11y(page);

    await federatedButton.click();
    await expect(page).toHaveURL(/\/auth\/complete_registration$/);
    await expect(page.getByRole('heading', { name: 'Complete Registration' })).toBeVisible();
  });

  await test.step('complete the registration', async () => {
    const email = textField(page, 'Email');
    await expect(email).toHaveValue(account.email);
    await expect(email).not.toBeEditable();
    // What the institution released is filled in already.
    await expect(textField(page, 'Institution')).toHaveValue('uni.example.test');
    await checkA11y(page);

    await textField(page, 'Institution').fill('University of Newcastle');
    await page.getByRole('combobox', { name: 'Gender' }).selectOption({ label: 'Female' });
    await textField(page, 'Phone number').fill('+61 2 4921 5000');
    await page.getByRole('button', { name: 'Save and continue' }).click();

    await expectDashboard(page, `${account.given_name} ${account.family_name}`);
    await checkA11y(page);
  });

  await test.step('the saved details are on My Account', async () => {
    await page.getByRole('navigation').getByRole('link', { name: 'My Account' }).click();
    await expect(page.getByRole('heading', { name: 'My Account', level: 1 })).toBeVisible();
    const details = page.getByRole('table', { name: 'Details' });
    await expect(details).toContainText(account.email);
    await expect(details).toContainText('University of Newcastle');
    await expect(details).toContainText('+61 2 4921 5000');
    // The session list says how this session signed in.
    const thisSession = page
      .getByRole('table', { name: 'Sessions' })
      .getByRole('row')
      .filter({ hasText: 'This device' });
    await expect(thisSession).toContainText('Institutional login');
    await checkA11y(page);
  });

  await test.step('log out, and log in through the institution again', async () => {
    // Merit made up the username; the user menu's button shows it.
    await chooseFromUserMenu(page, /^grace\./, 'Logout');
    await expect(page).toHaveURL(/\/auth\/login$/);

    await federatedButton.click();
    // Straight back to the dashboard: the registration is not asked for again.
    await expect(page).toHaveURL(/\/$/);
    await expectDashboard(page, `${account.given_name} ${account.family_name}`);
  });
});

test('a login whose ID token is for another application ends on an error page', async ({
  page,
  federation,
}) => {
  federation.provider.loginAs(institutionalAccount());
  federation.provider.tamper('wrong-audience');
  try {
    await page.goto('/auth/login');
    await page.getByRole('link', { name: `Log in with ${federation.displayName}` }).click();

    await expect(page).toHaveURL(/\/auth\/oidc\/error\?reason=token$/);
    await expect(page.getByRole('heading', { name: 'Institutional login failed' })).toBeVisible();
    await expect(
      page.getByText(
        "The answer from your institution's login service could not be verified. Try again;",
      ),
    ).toBeVisible();
    await checkA11y(page);
  } finally {
    federation.provider.tamper('none');
  }

  await page.getByRole('link', { name: 'Back to log in' }).click();
  await expect(page).toHaveURL(/\/auth\/login$/);
  await expect(page.getByRole('button', { name: 'Log in' })).toBeVisible();
  // Nobody was logged in: the protected pages still ask for a login.
  await page.goto('/account');
  await expect(page).toHaveURL(/\/auth\/login\?next=%2Faccount/);
  await expect(page.getByRole('button', { name: 'Log in' })).toBeVisible();
});
