import { checkA11y, expect, logIn, test } from '../fixtures';
import { dismissNotification, expectDashboard, logInAs, logOut, textField } from '../support/pages';
import { newPerson } from '../support/people';
import { registerAndVerify } from '../support/registration';
import { appFor } from '../support/totp';

test('a person turns on two-step verification, then logs in with a code and with a recovery code', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const person = newPerson('twostep');
  await registerAndVerify(page, person, baseURL!);
  await logInAs(page, person);

  await page.goto('/account/');
  const section = page.getByRole('region', { name: 'Two-step verification' });
  await expect(section).toContainText('Two-step verification is off.');
  await section.getByRole('button', { name: 'Turn on' }).click();

  let dialog = page.getByRole('dialog', { name: 'Turn on two-step verification' });
  await dialog.getByRole('textbox', { name: 'Your password', exact: true }).fill(person.password);
  await dialog.getByRole('button', { name: 'Continue' }).click();

  // The QR code is an image the browser drew from a data: URL (the CSP allows those).
  const qr = dialog.getByRole('img', { name: /QR code of your two-step verification key/ });
  await expect(qr).toBeVisible();
  expect(await qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(
    true,
  );
  const secret = (await dialog.getByTestId('two-factor-secret').innerText()).replace(/\s/g, '');
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await checkA11y(page);
  const app = appFor(secret);
  await textField(dialog, 'Code from the app').fill(app.next());
  await dialog.getByRole('button', { name: 'Turn on' }).click();

  dialog = page.getByRole('dialog', { name: 'Save your recovery codes' });
  const items = dialog.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
  await expect(items).toHaveCount(10);
  const codes = await items.allInnerTexts();
  await checkA11y(page);
  await dialog.getByRole('button', { name: 'I have saved them' }).click();
  await expect(dialog).toBeHidden();
  await expect(section).toContainText('Two-step verification is on');
  await expect(section).toContainText('You have 10 unused recovery codes.');

  // The password alone no longer logs in: the second step asks for the app's code.
  await logOut(page, person.username);
  await logIn(page, person);
  await expect(page.getByRole('heading', { name: 'Two-step verification' })).toBeVisible();
  await expect(page.getByText('Enter the 6-digit code from your authenticator app.')).toBeVisible();
  const codeField = textField(page, 'Code');
  await expect(codeField).toHaveAttribute('autocomplete', 'one-time-code');
  await checkA11y(page);
  // A wrong code is refused and said so, as a wrong password is.
  await codeField.fill(app.stale());
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(
    page.getByRole('alert').filter({ hasText: 'That code is not right.' }),
  ).toBeVisible();
  await codeField.fill(app.next());
  await page.getByRole('button', { name: 'Verify' }).click();
  await expectDashboard(page, `${person.firstName} ${person.lastName}`);
  await dismissNotification(page, 'Logged in.');

  await page.goto('/account/');
  await expect(
    page
      .getByRole('table', { name: 'Sessions' })
      .getByRole('row')
      .filter({ hasText: 'This device' }),
  ).toContainText('Password + two-step');

  // Without the phone: a recovery code, once.
  await logOut(page, person.username);
  await logIn(page, person);
  await page.getByRole('button', { name: 'Use a recovery code instead' }).click();
  await textField(page, 'Recovery code').fill(codes[0]!);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expectDashboard(page, `${person.firstName} ${person.lastName}`);
  await page.goto('/account/');
  await expect(page.getByRole('region', { name: 'Two-step verification' })).toContainText(
    'You have 9 unused recovery codes.',
  );
});
