import { registerVerifiedUser } from '../calls-support/api';
import { checkA11y, expect, test } from '../fixtures';
import { dismissNotification, logInAs } from '../support/pages';

/**
 * Active sessions (ASVS V3.3.4): a person signed in on two devices sees both on My
 * Account, this one marked, ends the other, and the other device is sent to the login
 * page at its next step. Two browsers with storage of their own stand for two devices.
 */

const SESSION_ENDED = 'Your session has ended. Log in again to continue.';

test('a person on two devices sees both sessions, ends the other, and the other device must log in again', async ({
  page,
  openBrowser,
}) => {
  const person = await registerVerifiedUser('Dora', 'Twodevices');
  await logInAs(page, person);
  const laptop = await openBrowser();
  await logInAs(laptop, person);

  await page
    .getByRole('navigation', { name: 'Main navigation' })
    .getByRole('link', { name: 'My Account' })
    .click();
  await expect(page.getByRole('heading', { name: 'My Account', level: 1 })).toBeVisible();
  const sessions = page.getByRole('table', { name: 'Sessions' });
  const rows = sessions.getByRole('row').filter({ hasText: 'Chrome on Linux' });
  await expect(rows).toHaveCount(2);
  const thisDevice = rows.filter({ hasText: 'This device' });
  const other = rows.filter({ hasNotText: 'This device' });
  await expect(thisDevice).toHaveCount(1);
  await expect(other).toContainText('Username and password');
  await checkA11y(page);

  await other.getByRole('button', { name: /^End session/ }).click();
  const dialog = page.getByRole('dialog', { name: 'End this session?' });
  await expect(dialog).toContainText('has to log in again');
  await checkA11y(page);
  await dialog.getByRole('button', { name: 'End session' }).click();
  await expect(dialog).toBeHidden();
  await dismissNotification(page, 'Ended the session on Chrome on Linux.');
  await expect(rows).toHaveCount(1);
  await expect(thisDevice).toHaveCount(1);
  // The test's setup logged in once through the API (no browser): that session is left.
  await expect(sessions.getByRole('row').filter({ hasText: 'Unknown client' })).toHaveCount(1);
  await page.getByRole('button', { name: 'Sign out other sessions' }).click();
  const others = page.getByRole('dialog', { name: 'Sign out other sessions?' });
  await expect(others).toContainText('(1 session)');
  await others.getByRole('button', { name: 'Sign out others' }).click();
  await dismissNotification(page, 'Signed out 1 other session.');
  await expect(page.getByText('This device is the only place you are signed in.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Sign out other sessions' })).toBeHidden();
  await expect(sessions.getByRole('row').filter({ hasText: 'This device' })).toHaveCount(1);
  await checkA11y(page);

  // The other device has not noticed yet (it shows its dashboard from what it fetched
  // before); the first request of its next step takes it to the login page.
  await laptop
    .getByRole('navigation', { name: 'Main navigation' })
    .getByRole('link', { name: 'My Account' })
    .click();
  await expect(laptop).toHaveURL(/\/auth\/login\?next=%2Faccount$/);
  await expect(laptop.getByRole('alert').filter({ hasText: SESSION_ENDED })).toBeVisible();
  await checkA11y(laptop);
  // This device is still signed in.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'My Account', level: 1 })).toBeVisible();
});

test('"Sign out other sessions" ends every other device, after asking', async ({
  page,
  openBrowser,
}) => {
  const person = await registerVerifiedUser('Otto', 'Everywhere');
  const phone = await openBrowser();
  await logInAs(phone, person);
  const tablet = await openBrowser();
  await logInAs(tablet, person);
  await logInAs(page, person);
  await page.goto('/account');
  const rows = page
    .getByRole('table', { name: 'Sessions' })
    .getByRole('row')
    .filter({ hasText: 'Chrome on Linux' });
  await expect(rows).toHaveCount(3);

  await page.getByRole('button', { name: 'Sign out other sessions' }).click();
  const dialog = page.getByRole('dialog', { name: 'Sign out other sessions?' });
  // The two other browsers and the setup's login through the API.
  await expect(dialog).toContainText('(3 sessions)');
  await dialog.getByRole('button', { name: 'Sign out others' }).click();
  await dismissNotification(page, 'Signed out 3 other sessions.');
  await expect(rows).toHaveCount(1);

  for (const device of [phone, tablet]) {
    await device.reload();
    await expect(device).toHaveURL(/\/auth\/login/);
    await expect(device.getByRole('alert').filter({ hasText: SESSION_ENDED })).toBeVisible();
  }
});
