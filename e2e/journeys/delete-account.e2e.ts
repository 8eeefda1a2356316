import { registerVerifiedUser } from '../calls-support/api';
import { checkA11y, expect, logIn, test } from '../fixtures';
import { waitForMail } from '../support/mail';
import { dismissNotification, logInAs } from '../support/pages';

/**
 * Deleting one's account (ASVS V8.3.2): from My Account, a dialog says what goes and
 * what stays and asks for the password; a wrong one is refused under the field, the
 * right one deletes the account, and the person ends on the login page, told so, where
 * their old username and password no longer log in. A last mail goes to their address.
 */
test('a person deletes their account from My Account and ends on the login page, unable to log in again', async ({
  page,
}) => {
  const person = await registerVerifiedUser('Greta', 'Leaving');
  await logInAs(page, person);
  await page
    .getByRole('navigation', { name: 'Main navigation' })
    .getByRole('link', { name: 'My Account' })
    .click();
  await expect(page.getByRole('heading', { name: 'My Account', level: 1 })).toBeVisible();

  const section = page.getByRole('region', { name: 'Delete my account' });
  await expect(section).toContainText('stay with their committees');
  await section.getByRole('button', { name: 'Delete my account' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete your account?' });
  await expect(dialog).toContainText('This cannot be undone.');
  await expect(dialog).toContainText(`We send a last email to ${person.email}.`);
  await checkA11y(page);

  // Escape leaves everything as it was.
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await section.getByRole('button', { name: 'Delete my account' }).click();

  const password = dialog.getByRole('textbox', { name: /Your password/ });
  await password.fill('not the password at all');
  await dialog.getByRole('button', { name: 'Delete my account' }).click();
  await expect(dialog).toContainText(
    'Your password was entered incorrectly. Please enter it again.',
  );
  await checkA11y(page);

  await password.fill(person.password);
  await dialog.getByRole('button', { name: 'Delete my account' }).click();
  await expect(page).toHaveURL(/\/auth\/login$/);
  await dismissNotification(page, 'Your account has been deleted.');
  await expect(page.getByRole('button', { name: 'Log in' })).toBeVisible();
  await checkA11y(page);

  const notice = await waitForMail({ to: person.email, subject: 'Your Merit account was deleted' });
  expect(notice.text).toContain('Deleted user');

  // The old username and password are refused as anyone's wrong ones would be.
  await logIn(page, person);
  await expect(
    page.getByRole('alert').filter({ hasText: 'Unable to log in with the provided credentials.' }),
  ).toBeVisible();
  await expect(page).toHaveURL(/\/auth\/login$/);
});
