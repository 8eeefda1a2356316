import type { Page } from '@playwright/test';
import { checkA11y, expect } from '../fixtures';
import { linkToServer, waitForMail } from './mail';
import { textField } from './pages';
import type { Person } from './people';

export const VERIFICATION_SUBJECT = 'Confirm your email address for Merit';

/**
 * Fills in the registration form at /auth/register as a person would, and waits for
 * the ALTCHA human check, which starts solving itself when the first field is focused,
 * to say it is verified.
 */
export async function fillRegistrationForm(page: Page, person: Person, { student = false } = {}) {
  await textField(page, 'Username').fill(person.username);
  await textField(page, 'Email').fill(person.email);
  await textField(page, 'First name').fill(person.firstName);
  await textField(page, 'Last name').fill(person.lastName);
  await textField(page, 'Institution').fill(person.institution);
  await page.getByRole('combobox', { name: 'Gender' }).selectOption({ label: person.gender });
  await textField(page, 'Phone number').fill(person.phone);
  await textField(page, 'Password').fill(person.password);
  await textField(page, 'Confirm password').fill(person.password);
  if (student) await page.getByRole('checkbox', { name: 'I am a student' }).check();
  await expect(captchaWidget(page).getByRole('checkbox', { name: 'Verified' })).toBeChecked();
}

/** The ALTCHA widget of the registration form: a checkbox "I'm not a robot", then "Verified". */
export function captchaWidget(page: Page) {
  return page.locator('altcha-widget');
}

/**
 * Registers `person` through the register page and follows the link in the
 * verification mail: the account can log in afterwards. Ends on the verified page.
 */
export async function registerAndVerify(page: Page, person: Person, baseUrl: string) {
  await page.goto('/auth/register');
  await fillRegistrationForm(page, person);
  await page.getByRole('button', { name: 'Register', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Check your email' })).toBeVisible();

  const mail = await waitForMail({ to: person.email, subject: VERIFICATION_SUBJECT });
  await page.goto(linkToServer(mail, baseUrl));
  await expect(page.getByText('Your email address has been verified.')).toBeVisible();
  await checkA11y(page);
}
