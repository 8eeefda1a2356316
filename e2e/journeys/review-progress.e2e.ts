import { createProgressWorld, type ProgressWorld } from '../progress-support/world';
import { adminCredentials, checkA11y, expect, test } from '../fixtures';
import { waitForMail } from '../support/mail';
import { dismissNotification, logInAs, logOut, openManageMenu } from '../support/pages';

/*
 * Reminders, the chair's review progress and the history (issue 28): the chair reads
 * where review stands, changes the reviewers' reminder and reminds the member who has
 * not started, whose mail arrives with the new text; the chair reads a proposal's
 * history and its applicant their own timeline; an administrator filters the Activity
 * page down to the chair's assignments.
 */

let world: ProgressWorld;

test.beforeAll(async () => {
  // Seven registrations with captcha and mail, forms, a call, three proposals, a review.
  test.setTimeout(120_000);
  world = await createProgressWorld();
});

test('the chair edits the reviewers’ reminder and reminds a member from Review Progress', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const { call, proposals, chair, grace, hedy } = world;

  await logInAs(page, chair);
  await page.goto(`/calls/${call.id}/`);
  await (await openManageMenu(page)).getByRole('menuitem', { name: 'Review Progress' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Review Progress' })).toBeVisible();
  // Three proposals want three reviews each; Grace has saved one.
  await expect(page.getByText('Reviews saved: 1 of 9')).toBeVisible();
  await expect(page.getByText('2 proposals have no review yet.')).toBeVisible();
  const members = page.getByRole('table', { name: 'Members' });
  const hedyRow = members.getByRole('row').filter({ hasText: hedy.fullName });
  const graceRow = members.getByRole('row').filter({ hasText: grace.fullName });
  await expect(
    graceRow.getByRole('progressbar', { name: `Progress of ${grace.fullName}` }),
  ).toHaveAttribute('aria-valuenow', '100');
  await expect(
    hedyRow.getByRole('progressbar', { name: `Progress of ${hedy.fullName}` }),
  ).toHaveAttribute('aria-valuenow', '0');
  await expect(hedyRow).toContainText('Never');
  const bridgeRow = page
    .getByRole('table', { name: 'Proposals' })
    .getByRole('row')
    .filter({ hasText: proposals.bridge.name });
  await expect(bridgeRow).toContainText('1 of 3');
  await checkA11y(page);

  // --- The reviewers' first reminder gets a subject of the chair's own ------------------
  await page.getByRole('link', { name: 'Reminders' }).first().click();
  await expect(page.getByRole('heading', { level: 1, name: 'Reminders' })).toBeVisible();
  const rule = page.getByRole('group', { name: 'Reminder 3', exact: true });
  await expect(rule.getByLabel('Who is reminded')).toContainText(
    'Reviewers with a review to write',
  );
  await rule.getByLabel('Subject').fill('Please review for {{ call }}');
  await page.getByRole('button', { name: 'Save reminders' }).click();
  await dismissNotification(page, 'The reminders have been saved.');
  await checkA11y(page);

  // --- Hedy, who has not started, is reminded now --------------------------------------
  await page.getByRole('link', { name: 'Review Progress' }).first().click();
  await expect(page.getByRole('heading', { level: 1, name: 'Review Progress' })).toBeVisible();
  await members.getByRole('checkbox', { name: `Select ${hedy.fullName}` }).check();
  await page.getByRole('button', { name: 'Remind selected' }).click();
  const confirm = page.getByRole('dialog', { name: 'Remind 1 member?' });
  await confirm.getByRole('button', { name: 'Send reminder' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Reminded 1 member.' })).toBeVisible();
  await expect(hedyRow).not.toContainText('Never');

  // Her mail has the chair's subject and both her proposals, and names no other reviewer.
  const mail = await waitForMail({ to: hedy.email, subject: `Please review for ${call.name}` });
  expect(mail.text).toContain(proposals.bridge.name);
  expect(mail.text).toContain(proposals.stream.name);
  expect(mail.text).not.toContain(proposals.nebula.name);
  expect(mail.text).not.toContain(grace.fullName);
  await logOut(page, chair.username);
});

test('the chair reads a proposal’s history, and its applicant their own timeline', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const { call, proposals, chair, applicants } = world;
  const { bridge } = proposals;

  await logInAs(page, chair);
  await page.goto(`/calls/${call.id}/proposals/${bridge.id}/?tab=history`);
  const history = page.getByRole('table', { name: `History of ${bridge.name}` });
  await expect(
    history.getByRole('row').filter({ hasText: 'Submitted the proposal' }),
  ).toContainText(applicants.ada.fullName);
  await expect(
    history.getByRole('row').filter({ hasText: 'Assigned a reviewer' }).first(),
  ).toContainText(chair.fullName);
  await checkA11y(page);
  await logOut(page, chair.username);

  // Ada sees what she did, never the chair's assignments.
  await logInAs(page, applicants.ada);
  await page.goto(`/calls/${call.id}/proposals/${bridge.id}/?tab=history`);
  await expect(
    page.getByText('This is what you and your collaborators did to this proposal.'),
  ).toBeVisible();
  const own = page.getByRole('table', { name: `History of ${bridge.name}` });
  await expect(own.getByRole('row').filter({ hasText: 'Submitted the proposal' })).toBeVisible();
  await expect(own.getByRole('row').filter({ hasText: 'Assigned a reviewer' })).toHaveCount(0);
  await checkA11y(page);
  await logOut(page, applicants.ada.username);
});

test('an administrator filters the Activity page to one chair’s assignments', async ({ page }) => {
  test.setTimeout(90_000);
  const { chair, proposals } = world;
  const admin = adminCredentials();
  await logInAs(page, admin);
  await page
    .getByRole('navigation', { name: 'Main navigation' })
    .getByRole('link', { name: 'Activity' })
    .click();
  await expect(page.getByRole('heading', { level: 1, name: 'Activity' })).toBeVisible();
  const filters = page.getByRole('search', { name: 'Filter the activity' });
  await filters.getByLabel('Person').selectOption({ label: chair.fullName });
  await filters.getByLabel('Action').selectOption({ label: 'Assigned a reviewer' });
  await expect(page).toHaveURL(/user=\d+/);
  const table = page.getByRole('table', { name: 'Activity of the whole system' });
  // Three assignments by the chair, and nothing else.
  await expect(page.getByText('3 entries, newest first')).toBeVisible();
  await expect(table.getByRole('row').filter({ hasText: proposals.stream.name })).toHaveCount(1);
  await expect(table.getByRole('row').filter({ hasText: 'Logged in' })).toHaveCount(0);
  await checkA11y(page);

  // The security log is beside the audit rows: the chair's logins.
  await filters.getByLabel('Action').selectOption({ label: 'Logged in' });
  await expect(table.getByRole('row').filter({ hasText: 'Security' }).first()).toBeVisible();
  await logOut(page, admin.username);
});
