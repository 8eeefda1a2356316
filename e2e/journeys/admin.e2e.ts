import { registerVerifiedUser } from '../calls-support/api';
import { adminCredentials, checkA11y, expect, logIn, test } from '../fixtures';
import { dismissNotification } from '../support/pages';

/** Distinguishes this run's committee and form names from any other run's. */
const suffix = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** `YYYY-MM-DD`, `days` from today (UTC): what a date input takes. */
function dayFromNow(days: number): string {
  return new Date(Date.now() + days * 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
}

/** A valid schema with one field, typed in by hand after the broken one. */
const FIXED_SCHEMA = JSON.stringify(
  {
    type: 'object',
    title: 'Research plan',
    properties: { plan: { type: 'string', title: 'Research plan summary' } },
  },
  null,
  2,
);

test('the admin sets up a committee, gives a user a role on it and builds a form', async ({
  page,
}) => {
  // Three admin screens, a registration and a form editor: more than the default budget.
  test.setTimeout(120_000);
  const user = await registerVerifiedUser('Rosalind', 'Committee');
  const committeeName = `Astronomy Panel ${suffix}`;
  const formName = `e2e_proposal_${suffix}`;
  const formDisplayName = `Observing Proposal ${suffix}`;
  const nav = page.getByRole('navigation');

  await page.goto('/auth/login');
  await logIn(page, adminCredentials());
  await expect(page).not.toHaveURL(/\/auth\/login/);

  // --- Manage Committees → Add Committee -------------------------------------------------
  await nav.getByRole('link', { name: 'Manage Committees' }).click();
  await expect(page.getByRole('heading', { name: 'Manage Committees' })).toBeVisible();
  await checkA11y(page);
  await page.getByRole('link', { name: 'Add Committee' }).click();
  await expect(page.getByRole('heading', { name: 'New Committee' })).toBeVisible();
  await checkA11y(page);
  await page.getByRole('textbox', { name: 'Name' }).fill(committeeName);
  await page.getByRole('button', { name: 'Add Committee' }).click();
  await expect(page.getByRole('heading', { name: committeeName })).toBeVisible();
  await dismissNotification(page, `The committee ${committeeName} has been added.`);

  await nav.getByRole('link', { name: 'Manage Committees' }).click();
  await page.getByRole('searchbox', { name: 'Search committees' }).fill(committeeName);
  await expect(
    page.getByRole('table', { name: 'Committees' }).getByRole('link', { name: committeeName }),
  ).toBeVisible();

  // --- Manage Users → the user → Add Role ------------------------------------------------
  await nav.getByRole('link', { name: 'Manage Users' }).click();
  await expect(page.getByRole('heading', { name: 'Manage Users' })).toBeVisible();
  await page.getByRole('searchbox', { name: 'Search users' }).fill(user.username);
  const users = page.getByRole('table', { name: 'Users' });
  await expect(users.getByRole('row')).toHaveCount(2); // the header and the one match
  await checkA11y(page);
  await users.getByRole('link', { name: `View ${user.username}` }).click();

  await expect(page.getByRole('heading', { name: user.fullName, level: 1 })).toBeVisible();
  await expect(page.getByText('This user has no committee roles.')).toBeVisible();
  await checkA11y(page);
  await page.getByRole('link', { name: 'Add Role' }).click();

  await expect(
    page.getByRole('heading', { name: `Add a role for ${user.fullName}` }),
  ).toBeVisible();
  await checkA11y(page);
  await page.getByRole('combobox', { name: 'Committee' }).selectOption({ label: committeeName });
  await page.getByRole('combobox', { name: 'Role' }).selectOption({ label: 'Chair' });
  await page.getByLabel('Effective from').fill(dayFromNow(-30));
  await page.getByLabel('Effective until').fill(dayFromNow(365));
  await page.getByRole('button', { name: 'Add Role' }).click();

  await expect(page).toHaveURL(new RegExp(`/users/${user.id}/$`));
  await dismissNotification(page, 'The role has been added.');
  const roles = page.getByRole('table', { name: 'Committee roles' });
  const roleRow = roles.getByRole('row').filter({ hasText: committeeName });
  await expect(roleRow).toHaveCount(1);
  await expect(roleRow.getByRole('cell').nth(1)).toHaveText('Chair');
  await expect(roleRow.getByText('Current')).toBeVisible();
  await checkA11y(page);

  // --- Form Builder → Form Names → Add Form Name -----------------------------------------
  await nav.getByRole('link', { name: 'Form Builder' }).click();
  await expect(page.getByRole('heading', { name: 'Form Builder' })).toBeVisible();
  await page.getByRole('tab', { name: 'Form Names' }).click();
  await page.getByRole('button', { name: 'Add Form Name' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add form name' });
  await expect(dialog).toBeVisible();
  await checkA11y(page);
  await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill(formName);
  await dialog.getByRole('combobox', { name: 'Type' }).selectOption({ label: 'Proposal Form' });
  await dialog.getByRole('textbox', { name: 'Display name' }).fill(formDisplayName);
  await dialog.getByRole('button', { name: 'Add form name' }).click();
  await expect(dialog).toBeHidden();
  await dismissNotification(page, `The form name ${formName} has been added.`);
  await page.getByRole('searchbox', { name: 'Search form names' }).fill(formName);
  await expect(page.getByRole('cell', { name: formDisplayName, exact: true })).toBeVisible();
  await checkA11y(page);

  // --- Forms → New Form: an example, a broken schema, then a fixed one -------------------
  await page.getByRole('tab', { name: 'Forms', exact: true }).click();
  await page.getByRole('link', { name: 'New Form' }).click();
  await expect(page.getByRole('heading', { name: 'New Form' })).toBeVisible();
  await page
    .getByRole('combobox', { name: 'Form name' })
    .selectOption({ label: `${formDisplayName} (${formName}) · Proposal Form` });
  await page.getByRole('textbox', { name: 'Version' }).fill('1');
  await page.getByRole('button', { name: 'Load example' }).click();
  await page.getByRole('menuitem', { name: /Project description/ }).click();
  // The chosen form name and version count as changes the example would replace.
  const replace = page.getByRole('dialog', { name: 'Replace your changes?' });
  await replace.getByRole('button', { name: 'Load example' }).click();
  await expect(replace).toBeHidden();
  await expect(page.getByRole('combobox', { name: 'Form name' })).toHaveValue(/\d+/);
  await expect(page.getByRole('textbox', { name: 'Version' })).toHaveValue('1');

  const preview = page.getByRole('region', { name: 'Preview' });
  await expect(preview.getByRole('textbox', { name: 'Project title' })).toBeVisible();
  await checkA11y(page);

  const schemaEditor = page.getByRole('tabpanel', { name: /^JSON Schema/ }).locator('.cm-content');
  await schemaEditor.click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.insertText('{ "type": "object", "properties": ');
  await expect(page.getByRole('tab', { name: 'JSON Schema (has an error)' })).toBeVisible();
  await page.getByRole('button', { name: 'Create form', exact: true }).click();

  await expect(page.getByText('Form not saved, please check the schema for errors.')).toBeVisible();
  await expect(page).toHaveURL(/\/forms\/new$/);
  await checkA11y(page);

  await schemaEditor.click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.insertText(FIXED_SCHEMA);
  // The example's UI schema orders the example's fields, which the new schema no longer has.
  await expect(page.getByRole('tab', { name: 'UI Schema (has an error)' })).toBeVisible();
  await page.getByRole('tab', { name: /^UI Schema/ }).click();
  await page
    .getByRole('tabpanel', { name: /^UI Schema/ })
    .locator('.cm-content')
    .click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.insertText('{}');
  await expect(page.getByRole('tab', { name: 'UI Schema', exact: true })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'JSON Schema', exact: true })).toBeVisible();
  await expect(preview.getByRole('textbox', { name: 'Research plan summary' })).toBeVisible();
  await expect(page.getByText('Form not saved, please check the schema for errors.')).toBeHidden();
  await page.getByRole('button', { name: 'Create form', exact: true }).click();

  await dismissNotification(page, `${formDisplayName} version 1 has been saved.`);
  await expect(page).toHaveURL(/\/forms\/\d+\/$/);

  await nav.getByRole('link', { name: 'Form Builder' }).click();
  await expect(page.getByRole('heading', { name: 'Form Builder' })).toBeVisible();
  await page.getByRole('searchbox', { name: 'Search forms' }).fill(formDisplayName);
  const formRow = page
    .getByRole('table', { name: 'Forms' })
    .getByRole('row')
    .filter({ hasText: formDisplayName });
  await expect(formRow).toHaveCount(1);
  await expect(formRow.getByRole('cell').nth(1)).toHaveText('Proposal Form');
  await expect(formRow.getByRole('cell').nth(2)).toHaveText('1');
  await checkA11y(page);
});
