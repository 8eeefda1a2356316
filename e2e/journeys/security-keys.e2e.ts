import { securityKeyMessages } from '@merit/domain';
import type { CDPSession, Page } from '@playwright/test';
import { registerVerifiedUser } from '../calls-support/api';
import { checkA11y, expect, logIn, test } from '../fixtures';
import { dismissNotification, expectDashboard, logInAs, logOut, textField } from '../support/pages';
import { appFor } from '../support/totp';

/**
 * Security keys (ASVS V2.3.2) with Chromium's virtual authenticator: a USB key that the
 * browser's real WebAuthn code talks to, always plugged in and touched when asked. The
 * browser makes and signs with its credentials; the server checks them with its own
 * code. Nothing of WebAuthn is stubbed here.
 */
async function plugInSecurityKey(page: Page): Promise<{ cdp: CDPSession; id: string }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'usb',
      hasResidentKey: false,
      hasUserVerification: true,
      isUserVerified: true,
      // Answers without a person at the key: the "touch" is implied.
      automaticPresenceSimulation: true,
    },
  });
  return { cdp, id: authenticatorId };
}

/** Turns on two-step verification from My Account; returns the authenticator app. */
async function turnOnTwoFactor(page: Page, password: string) {
  const section = page.getByRole('region', { name: 'Two-step verification' });
  await section.getByRole('button', { name: 'Turn on' }).click();
  let dialog = page.getByRole('dialog', { name: 'Turn on two-step verification' });
  await dialog.getByRole('textbox', { name: 'Your password', exact: true }).fill(password);
  await dialog.getByRole('button', { name: 'Continue' }).click();
  const secret = (await dialog.getByTestId('two-factor-secret').innerText()).replace(/\s/g, '');
  const app = appFor(secret);
  await textField(dialog, 'Code from the app').fill(app.next());
  await dialog.getByRole('button', { name: 'Turn on' }).click();
  dialog = page.getByRole('dialog', { name: 'Save your recovery codes' });
  await dialog.getByRole('button', { name: 'I have saved them' }).click();
  await expect(dialog).toBeHidden();
  await expect(section).toContainText('Two-step verification is on');
  return app;
}

test('a person adds a security key, logs in with it in place of a code, and removes it', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const person = await registerVerifiedUser('Kim', 'Keyholder');
  const key = await plugInSecurityKey(page);
  await logInAs(page, person);
  await page.goto('/account/');
  const keys = page
    .getByRole('region', { name: 'Two-step verification' })
    .getByRole('region', { name: 'Security keys' });
  // A key is a second way to take the second step, so only once there is a second step.
  await expect(keys).toContainText(securityKeyMessages.needsTwoFactor);
  await expect(keys.getByRole('button', { name: 'Add a security key' })).toHaveCount(0);

  const app = await turnOnTwoFactor(page, person.password);
  await expect(keys).toContainText('You have not added a security key.');
  await keys.getByRole('button', { name: 'Add a security key' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add a security key' });
  await textField(dialog, 'Name of the key').fill('Desk key');
  await dialog.getByRole('textbox', { name: 'Your password', exact: true }).fill(person.password);
  await checkA11y(page);
  await dialog.getByRole('button', { name: 'Add' }).click();
  await dismissNotification(page, 'The security key “Desk key” has been added.');
  const row = keys.getByRole('table', { name: 'Security keys' }).getByRole('row', {
    name: /Desk key/,
  });
  await expect(row).toContainText('Never');
  // The key holds the credential, for this site's name.
  const made = await key.cdp.send('WebAuthn.getCredentials', { authenticatorId: key.id });
  expect(made.credentials.map((credential) => credential.rpId)).toEqual(['localhost']);
  await checkA11y(page);

  // The second step now offers the key first; one touch logs in.
  await logOut(page, person.username);
  await logIn(page, person);
  await expect(page.getByRole('heading', { name: 'Two-step verification' })).toBeVisible();
  await expect(textField(page, 'Code')).toBeVisible();
  await checkA11y(page);
  await page.getByRole('button', { name: 'Use your security key' }).click();
  await expectDashboard(page, person.fullName);
  await dismissNotification(page, 'Logged in.');
  const signed = await key.cdp.send('WebAuthn.getCredentials', { authenticatorId: key.id });
  expect(signed.credentials[0]!.signCount).toBeGreaterThan(made.credentials[0]!.signCount);

  await page.goto('/account/');
  await expect(
    page
      .getByRole('table', { name: 'Sessions' })
      .getByRole('row')
      .filter({ hasText: 'This device' }),
  ).toContainText('Password + security key');
  await expect(row).not.toContainText('Never');

  // Removed, the key no longer logs in: the second step asks for the app's code only.
  await row.getByRole('button', { name: 'Remove the security key Desk key' }).click();
  const confirm = page.getByRole('dialog', { name: 'Remove this security key?' });
  await expect(confirm).toContainText('“Desk key” will no longer log you in.');
  await confirm.getByRole('button', { name: 'Remove' }).click();
  await dismissNotification(page, 'The security key “Desk key” has been removed.');
  await expect(keys).toContainText('You have not added a security key.');

  await logOut(page, person.username);
  await logIn(page, person);
  await expect(page.getByRole('heading', { name: 'Two-step verification' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Use your security key' })).toHaveCount(0);
  await textField(page, 'Code').fill(app.next());
  await page.getByRole('button', { name: 'Verify' }).click();
  await expectDashboard(page, person.fullName);
});
