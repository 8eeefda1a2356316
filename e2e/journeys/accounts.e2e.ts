import { checkA11y, expect, logIn, test } from '../fixtures';
import { linkToServer, waitForMail } from '../support/mail';
import { chooseFromUserMenu, detailsRow, expectDashboard, textField } from '../support/pages';
import { newPassword, newPerson } from '../support/people';
import {
  VERIFICATION_SUBJECT,
  captchaWidget,
  fillRegistrationForm,
  registerAndVerify,
} from '../support/registration';

const INVALID_CREDENTIALS = 'Unable to log in with the provided credentials.';

test('a new user registers, verifies their email, edits their account and changes their password', async ({
  page,
  baseURL,
}) => {
  // About a dozen pages and states, each checked with axe: longer than the default 30 s.
  test.setTimeout(90_000);
  const person = newPerson('registrant');

  await test.step('register from the login page', async () => {
    await page.goto('/auth/login');
    await expect(page.getByRole('heading', { name: 'Log in' })).toBeVisible();
    await checkA11y(page);

    await page.getByRole('link', { name: 'Register', exact: true }).click();
    await expect(page).toHaveURL(/\/auth\/register$/);
    await expect(page.getByRole('heading', { name: 'Register' })).toBeVisible();
    // The human check waits for the first focus on the form before it starts solving.
    const robotCheck = captchaWidget(page).getByRole('checkbox', { name: "I'm not a robot" });
    await expect(robotCheck).toBeVisible();
    await expect(robotCheck).not.toBeChecked();

    await fillRegistrationForm(page, person, { student: true });
    await checkA11y(page);
    await page.getByRole('button', { name: 'Register', exact: true }).click();

    await expect(page).toHaveURL(/\/auth\/register\/complete$/);
    await expect(page.getByRole('heading', { name: 'Check your email' })).toBeVisible();
    await expect(page.getByText(`We sent a verification link to ${person.email}.`)).toBeVisible();
    await checkA11y(page);
  });

  await test.step('follow the link in the verification mail', async () => {
    const mail = await waitForMail({ to: person.email, subject: VERIFICATION_SUBJECT });
    const link = linkToServer(mail, baseURL!);
    expect(link).toMatch(/\/auth\/registration\/account-confirm-email\/[^/]+\/$/);

    await page.goto(link);
    await expect(page.getByText('Your email address has been verified.')).toBeVisible();
    await checkA11y(page);
    await page.getByRole('link', { name: 'Log in' }).click();
  });

  await test.step('log in and see the dashboard', async () => {
    await expect(page).toHaveURL(/\/auth\/login$/);
    await logIn(page, person);
    await expectDashboard(page, `${person.firstName} ${person.lastName}`);
    await checkA11y(page);
  });

  await test.step('see the details on My Account', async () => {
    await page.getByRole('navigation').getByRole('link', { name: 'My Account' }).click();
    await expect(page).toHaveURL(/\/account\/?$/);
    await expect(page.getByRole('heading', { name: 'My Account', level: 1 })).toBeVisible();
    await expect(detailsRow(page, 'Username')).toContainText(person.username);
    await expect(detailsRow(page, 'Name')).toContainText(`${person.firstName} ${person.lastName}`);
    await expect(detailsRow(page, 'Email')).toContainText(person.email);
    await expect(detailsRow(page, 'Institution')).toContainText(person.institution);
    await expect(detailsRow(page, 'Gender')).toContainText(person.gender);
    await expect(detailsRow(page, 'Phone')).toContainText(person.phone);
    await expect(detailsRow(page, 'Student')).toContainText('Yes');
    await checkA11y(page);
  });

  await test.step('edit the institution and phone number', async () => {
    const institution = 'Australian National University';
    const phone = '+61 2 6125 5111';
    await page.getByRole('button', { name: 'Edit details' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit your details' });
    await expect(dialog).toBeVisible();
    await expect(textField(dialog, 'Institution')).toHaveValue(person.institution);
    await checkA11y(page);

    await textField(dialog, 'Institution').fill(institution);
    await textField(dialog, 'Phone number').fill(phone);
    await dialog.getByRole('button', { name: 'Save' }).click();

    await expect(dialog).toBeHidden();
    await expect(page.getByText('Your details have been saved.')).toBeVisible();
    await expect(detailsRow(page, 'Institution')).toContainText(institution);
    await expect(detailsRow(page, 'Phone')).toContainText(phone);
    // The rest is as it was.
    await expect(detailsRow(page, 'Email')).toContainText(person.email);
    await checkA11y(page);

    // Saved on the server, not only on this page.
    await page.reload();
    await expect(detailsRow(page, 'Institution')).toContainText(institution);
    await expect(detailsRow(page, 'Phone')).toContainText(phone);
  });

  const changedPassword = newPassword();
  await test.step('change the password from the user menu', async () => {
    await chooseFromUserMenu(page, person.username, 'Change Password');
    await expect(page.getByRole('heading', { name: 'Change Password', level: 1 })).toBeVisible();
    await checkA11y(page);

    await textField(page, 'Current password').fill(person.password);
    await textField(page, 'Password').fill(changedPassword);
    // The meter rates the new password as it is typed (ASVS V2.1.8).
    await expect(page.getByRole('progressbar', { name: 'Password strength' })).toHaveAttribute(
      'aria-valuetext',
      'Strong',
    );
    // Each field has its own show button (ASVS V2.1.12): the second is the new password's.
    await page.getByRole('button', { name: 'Show password' }).nth(1).click();
    await expect(textField(page, 'Password')).toHaveAttribute('type', 'text');
    await expect(textField(page, 'Current password')).toHaveAttribute('type', 'password');
    await checkA11y(page);
    await textField(page, 'Confirm password').fill(changedPassword);
    await page.getByRole('button', { name: 'Change Password' }).click();

    await expect(page.getByText('New password has been saved.')).toBeVisible();
    // The form starts over, empty.
    await expect(textField(page, 'Current password')).toHaveValue('');
    await checkA11y(page);
  });

  await test.step('log out, and log in again with the new password only', async () => {
    await chooseFromUserMenu(page, person.username, 'Logout');
    await expect(page).toHaveURL(/\/auth\/login$/);
    await expect(page.getByRole('button', { name: 'Log in' })).toBeVisible();

    await logIn(page, person);
    await expect(page.getByRole('alert').filter({ hasText: INVALID_CREDENTIALS })).toBeVisible();
    await checkA11y(page);

    await logIn(page, { username: person.username, password: changedPassword });
    await expectDashboard(page, `${person.firstName} ${person.lastName}`);
    await expect(page.getByRole('button', { name: person.username, exact: true })).toBeVisible();
  });
});

test('a user who forgot their password resets it with the emailed link, which works once', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(60_000);
  const person = newPerson('forgetful');
  await registerAndVerify(page, person, baseURL!);
  const resetPassword = newPassword();
  let link = '';

  await test.step('ask for a reset link from the login page', async () => {
    await page.goto('/auth/login');
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await expect(page.getByRole('heading', { name: 'Reset your password' })).toBeVisible();
    await checkA11y(page);

    await textField(page, 'Email').fill(person.email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await expect(
      page.getByRole('status').filter({
        hasText: `If an account uses ${person.email}, a link to reset its password is on its way.`,
      }),
    ).toBeVisible();
    await checkA11y(page);
  });

  await test.step('set a new password with the link in the mail', async () => {
    const mail = await waitForMail({ to: person.email, subject: 'Reset your Merit password' });
    link = linkToServer(mail, baseURL!);
    expect(link).toMatch(/\/auth\/password-reset\/confirm\/[^/]+\/[^/]+\/?$/);

    await page.goto(link);
    await expect(page.getByRole('heading', { name: 'Choose a new password' })).toBeVisible();
    await checkA11y(page);
    await textField(page, 'New password').fill(resetPassword);
    await textField(page, 'Confirm new password').fill(resetPassword);
    await page.getByRole('button', { name: 'Set new password' }).click();

    await expect(page.getByRole('heading', { name: 'Password changed' })).toBeVisible();
    await expect(page.getByText('Your password has been reset.')).toBeVisible();
    await checkA11y(page);
  });

  await test.step('the same link does not work a second time', async () => {
    await page.goto(link);
    await expect(page.getByRole('heading', { name: 'Choose a new password' })).toBeVisible();
    const another = newPassword();
    await textField(page, 'New password').fill(another);
    await textField(page, 'Confirm new password').fill(another);
    await page.getByRole('button', { name: 'Set new password' }).click();

    await expect(
      page.getByRole('alert').filter({
        hasText: 'This password reset link is invalid, has expired or has already been used.',
      }),
    ).toBeVisible();
    await expect(page.getByRole('link', { name: 'Ask for a new reset link' })).toBeVisible();
    await checkA11y(page);
  });

  await test.step('log in with the new password, not the old one', async () => {
    await page.goto('/auth/login');
    await logIn(page, person);
    await expect(page.getByRole('alert').filter({ hasText: INVALID_CREDENTIALS })).toBeVisible();

    await logIn(page, { username: person.username, password: resetPassword });
    await expectDashboard(page, `${person.firstName} ${person.lastName}`);
  });
});

test('a verification link with an unknown key says the account could not be verified', async ({
  page,
}) => {
  await page.goto('/auth/registration/account-confirm-email/not-a-key/');

  await expect(page.getByRole('heading', { name: 'Email verification' })).toBeVisible();
  await expect(page.getByText('There was an error verifying your account.')).toBeVisible();
  await checkA11y(page);
  await expect(page.getByRole('link', { name: 'Log in' })).toBeVisible();
});
