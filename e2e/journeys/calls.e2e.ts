import type { Locator, Page } from '@playwright/test';
import {
  createCall,
  daysFromNow,
  extensionDateText,
  formChoiceLabel,
  localInputValue,
  type CreatedForm,
} from '../calls-support/api';
import { createCallsWorld, type CallsWorld } from '../calls-support/world';
import { checkA11y, expect, test } from '../fixtures';
import { dismissNotification, logInAs, openManageMenu } from '../support/pages';

/*
 * Calls for proposals (spec section 2: Call lists, the wizard, Call detail, Call
 * management; section 6: who may do what). The people and forms come from the API;
 * everything the journeys check is what a person sees in the browser.
 */

let world: CallsWorld;
/** The call the chair creates in the first journey; the plain user opens the same one. */
let wizardCall: { id: number; name: string } | undefined;

test.beforeAll(async () => {
  // Three registrations with captcha and mail, a committee, a role and four forms.
  test.setTimeout(90_000);
  world = await createCallsWorld();
});

/** Opens Call for Proposals from the side menu, on the Current list. */
async function openCallList(page: Page): Promise<void> {
  await page
    .getByRole('navigation', { name: 'Main navigation' })
    .getByRole('link', { name: 'Call for Proposals' })
    .click();
  await expect(page.getByRole('heading', { level: 1, name: 'Call for Proposals' })).toBeVisible();
}

const currentTable = (page: Page) =>
  page.getByRole('table', { name: 'Current calls for proposals' });

/** The My Roles cell of a call's row in a call list (non-admins have no Committee column). */
const myRolesCell = (table: Locator, callName: string) =>
  table
    .getByRole('row')
    .filter({ has: table.page().getByRole('link', { name: callName, exact: true }) })
    .getByRole('cell')
    .nth(1);

/** A row of a details table (label in the row header) holds `value`. */
async function expectDetail(page: Page, label: string, value: string | RegExp): Promise<void> {
  const row = page
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name: label, exact: true }) });
  await expect(row.getByRole('cell')).toHaveText(value);
}

/** In a type card of the wizard's forms page, chooses a form and adds it. */
async function addForm(
  card: Locator,
  typeName: string,
  kind: 'proposal' | 'review',
  form: CreatedForm,
) {
  await card
    .getByLabel(`Add a ${kind} form to ${typeName}`)
    .selectOption({ label: formChoiceLabel(form) });
  await card.getByRole('button', { name: `Add the chosen ${kind} form to ${typeName}` }).click();
  await expect(
    card.getByRole('list', { name: `${kind === 'proposal' ? 'Proposal' : 'Review'} forms` }),
  ).toContainText(`${form.displayName} (version 1)`);
}

/** On the call page, the card of a proposal type lists its proposal and review forms. */
async function expectTypeForms(
  page: Page,
  typeName: string,
  proposalForm: CreatedForm,
  reviewForm: CreatedForm,
): Promise<void> {
  const card = page.getByRole('region', { name: typeName, exact: true });
  await expect(card.getByRole('list', { name: 'Proposal forms' })).toHaveText(
    `${proposalForm.displayName} · Proposal Form`,
  );
  await expect(card.getByRole('list', { name: 'Review forms' })).toHaveText(
    `${reviewForm.displayName} · Review Form`,
  );
}

test('a chair creates a call in the wizard, edits it and grants and withdraws an extension', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const { chair, applicant, committee, forms, tag } = world;
  const name = `Telescope Time ${tag}`;
  const renamed = `Telescope Time 2027 ${tag}`;
  const dates = {
    opens: daysFromNow(-1, 9),
    deadline: daysFromNow(30, 17),
    reviewStarts: daysFromNow(31, 9),
    reviewDeadline: daysFromNow(60, 17, 30),
  };

  await logInAs(page, chair);
  await openCallList(page);
  await checkA11y(page);

  // Page 0: the call's details.
  await page.getByRole('link', { name: 'Add Call for Proposal' }).click();
  await expect(
    page.getByRole('heading', { level: 1, name: 'New Call for Proposal' }),
  ).toBeVisible();
  await page.getByRole('combobox', { name: 'Committee' }).selectOption({ label: committee.name });
  await page.getByRole('textbox', { name: 'Name', exact: true }).fill(name);
  await page.getByLabel('Submission opens').fill(localInputValue(dates.opens));
  await page.getByLabel('Submission deadline').fill(localInputValue(dates.deadline));
  await page.getByLabel('Review starts').fill(localInputValue(dates.reviewStarts));
  await page.getByLabel('Review deadline').fill(localInputValue(dates.reviewDeadline));
  const description = page.getByRole('textbox', { name: 'Description' });
  await description.click();
  await page.keyboard.type('Observing time on the ');
  const bold = page
    .getByRole('toolbar', { name: 'Formatting' })
    .getByRole('button', { name: 'Bold' });
  await bold.click();
  await page.keyboard.type('southern telescope');
  await bold.click();
  await page.keyboard.type(' for the 2027 season.');
  await expect(description).toHaveText(
    'Observing time on the southern telescope for the 2027 season.',
  );
  await checkA11y(page);
  await page.getByRole('button', { name: 'Next' }).click();

  // Page 1: two proposal types, each with a proposal form and a review form.
  const next = page.getByRole('button', { name: 'Next' });
  await expect(page.getByRole('region', { name: 'Proposal type 1' })).toBeVisible();
  await expect(next).toBeDisabled();
  await page
    .getByRole('region', { name: 'Proposal type 1' })
    .getByRole('textbox', { name: 'Type name' })
    .fill('Research');
  const research = page.getByRole('region', { name: 'Research', exact: true });
  await addForm(research, 'Research', 'proposal', forms.researchProposal);
  await expect(next).toBeDisabled();
  await addForm(research, 'Research', 'review', forms.researchReview);
  await expect(next).toBeEnabled();

  await page.getByRole('button', { name: 'Add proposal type' }).click();
  await expect(next).toBeDisabled();
  await page
    .getByRole('region', { name: 'Proposal type 2' })
    .getByRole('textbox', { name: 'Type name' })
    .fill('Fellowship');
  const fellowship = page.getByRole('region', { name: 'Fellowship', exact: true });
  await addForm(fellowship, 'Fellowship', 'proposal', forms.fellowshipProposal);
  await expect(next).toBeDisabled();
  await addForm(fellowship, 'Fellowship', 'review', forms.fellowshipReview);
  await expect(next).toBeEnabled();
  await checkA11y(page);
  await next.click();

  // Page 2: the summary, then Finish.
  await expect(page.getByRole('heading', { name: 'Proposal types' })).toBeVisible();
  await expectDetail(page, 'Committee', committee.name);
  await expectDetail(page, 'Name', name);
  for (const typeName of ['Research', 'Fellowship']) {
    await expect(page.getByRole('heading', { level: 3, name: typeName })).toBeVisible();
  }
  await expect(page.getByText(`${forms.fellowshipReview.displayName} (version 1)`)).toBeVisible();
  await checkA11y(page);
  await page.getByRole('button', { name: 'Finish' }).click();

  // Page 3: success, and Continue leads to the call.
  await expect(page.getByText(`The call for proposals “${name}” has been created.`)).toBeVisible();
  await checkA11y(page);
  await page.getByRole('link', { name: 'Continue' }).click();

  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  const callId = Number(/\/calls\/(\d+)\/?$/.exec(new URL(page.url()).pathname)?.[1]);
  expect(callId).toBeGreaterThan(0);
  wizardCall = { id: callId, name };
  await expectDetail(page, 'Committee', committee.name);
  const shownDescription = page.getByRole('region', { name: 'Description' });
  await expect(shownDescription).toContainText(
    'Observing time on the southern telescope for the 2027 season.',
  );
  await expect(shownDescription.locator('strong')).toHaveText('southern telescope');
  await expectTypeForms(page, 'Research', forms.researchProposal, forms.researchReview);
  await expectTypeForms(page, 'Fellowship', forms.fellowshipProposal, forms.fellowshipReview);
  await checkA11y(page);

  // Back on the Current list, the call is there.
  await openCallList(page);
  await expect(currentTable(page).getByRole('link', { name, exact: true })).toBeVisible();
  // A chair is a member of the committee: listed as Committee in My Roles.
  await expect(myRolesCell(currentTable(page), name)).toHaveText('Committee');

  // Edit Call Details: a new name.
  await currentTable(page).getByRole('link', { name, exact: true }).click();
  await (await openManageMenu(page)).getByRole('menuitem', { name: 'Edit Call Details' }).click();
  await expect(
    page.getByRole('heading', { level: 1, name: 'Edit Call for Proposal' }),
  ).toBeVisible();
  const nameField = page.getByRole('textbox', { name: 'Name', exact: true });
  await expect(nameField).toHaveValue(name);
  // The committee cannot change once the call exists.
  const committeeField = page.getByRole('textbox', { name: 'Committee' });
  await expect(committeeField).toHaveValue(committee.name);
  await expect(committeeField).not.toBeEditable();
  await expect(page.getByLabel('Submission deadline')).toHaveValue(localInputValue(dates.deadline));
  await checkA11y(page);
  await nameField.fill(renamed);
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByRole('region', { name: 'Research', exact: true })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Fellowship', exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Next' }).click();
  await expectDetail(page, 'Name', renamed);
  await page.getByRole('button', { name: 'Finish' }).click();
  await expect(page.getByText(`The call for proposals “${renamed}” has been saved.`)).toBeVisible();
  await page.getByRole('link', { name: 'Continue' }).click();
  await expect(page.getByRole('heading', { level: 1, name: renamed })).toBeVisible();
  await expectDetail(page, 'Name', renamed);
  wizardCall = { id: callId, name: renamed };

  // Manage Extensions: one for the applicant, found by name, then deleted.
  await (await openManageMenu(page)).getByRole('menuitem', { name: 'Manage Extensions' }).click();
  const dialog = page.getByRole('dialog', { name: 'Manage Extensions' });
  await expect(dialog.getByText('This call has no extensions.')).toBeVisible();
  await checkA11y(page);

  const from = daysFromNow(2, 8, 15);
  const until = daysFromNow(40, 18, 45);
  // Found by their whole email address, which is then the one address the picker shows.
  await dialog.getByRole('combobox', { name: 'User' }).fill(applicant.email);
  const option = page.getByRole('option', {
    name: `${applicant.fullName} (${applicant.username}, ${applicant.email})`,
  });
  await option.click();
  await dialog.getByLabel('Extension from').fill(localInputValue(from));
  await dialog.getByLabel('Extension until').fill(localInputValue(until));
  await dialog.getByRole('textbox', { name: 'Reason' }).fill('Instrument repairs');
  await dialog.getByRole('button', { name: 'Add Extension' }).click();
  await dismissNotification(page, `${applicant.fullName} has an extension now.`);

  const extensions = dialog.getByRole('table', { name: 'Extensions' });
  const row = extensions.getByRole('row').filter({ hasText: applicant.fullName });
  await expect(row.getByRole('cell')).toHaveText([
    applicant.fullName,
    extensionDateText(from),
    extensionDateText(until),
    'Instrument repairs',
    'Delete',
  ]);
  await checkA11y(page);

  await row.getByRole('button', { name: `Delete the extension of ${applicant.fullName}` }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete this extension?' });
  await expect(confirm).toContainText(
    `${applicant.fullName} will no longer be able to submit from ${extensionDateText(from)} ` +
      `until ${extensionDateText(until)}.`,
  );
  await checkA11y(page);
  await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(confirm).toBeHidden();
  await dismissNotification(page, `The extension of ${applicant.fullName} has been deleted.`);
  await expect(extensions).toBeHidden();
  await expect(dialog.getByText('This call has no extensions.')).toBeVisible();
  await dialog.getByRole('button', { name: 'Close', exact: true }).click();
  await expect(dialog).toBeHidden();
});

test('a user with no role sees a call but none of the chair’s actions', async ({ page }) => {
  test.setTimeout(60_000);
  const { plainUser, chairToken, committee, forms, tag } = world;
  // The chair's call of the first journey; one made through the API if it did not run.
  const call = wizardCall ?? {
    name: `Telescope Time ${tag}`,
    id: await createCall(chairToken, {
      committeeId: committee.id,
      name: `Telescope Time ${tag}`,
      dates: {
        openDateTime: daysFromNow(-1, 9),
        closeDateTime: daysFromNow(30, 17),
        reviewOpenDateTime: daysFromNow(31, 9),
        reviewCloseDateTime: daysFromNow(60, 17),
      },
      proposalTypes: [
        {
          typeName: 'Research',
          proposalForms: [forms.researchProposal.id],
          reviewForms: [forms.researchReview.id],
        },
      ],
    }),
  };

  await logInAs(page, plainUser);
  await openCallList(page);
  await expect(
    currentTable(page).getByRole('link', { name: call.name, exact: true }),
  ).toBeVisible();
  await expect(myRolesCell(currentTable(page), call.name)).toHaveText('—');
  await expect(page.getByRole('link', { name: 'Add Call for Proposal' })).toHaveCount(0);
  await checkA11y(page);

  await currentTable(page).getByRole('link', { name: call.name, exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: call.name })).toBeVisible();
  await expectDetail(page, 'Name', call.name);
  await expectDetail(page, 'Committee', committee.name);
  await expectDetail(page, 'Status', /\S/);
  await expect(page.getByRole('region', { name: 'Research', exact: true })).toBeVisible();
  await checkA11y(page);

  // Submission is open, so the menu offers a proposal, and nothing a chair does.
  const menu = await openManageMenu(page);
  await expect(menu.getByRole('menuitem')).toHaveText(['Add Proposal', 'View Proposals']);
  for (const chairAction of ['Edit Call Details', 'Manage Call', 'Manage Extensions']) {
    await expect(menu.getByRole('menuitem', { name: chairAction })).toHaveCount(0);
  }
  await checkA11y(page);
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();

  for (const path of ['/calls/new', `/calls/${call.id}/update`, `/calls/${call.id}/manage`]) {
    await page.goto(path);
    await expect(page.getByText('You do not have permission to access this page.')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Home' })).toBeVisible();
    await checkA11y(page);
  }
});

test('a chair closes a call whose review period has ended and finds it under History', async ({
  page,
}) => {
  test.setTimeout(60_000);
  const { chair, chairToken, committee, forms, tag } = world;
  const name = `Spectroscopy Round ${tag}`;
  const callId = await createCall(chairToken, {
    committeeId: committee.id,
    name,
    dates: {
      openDateTime: daysFromNow(-30, 9),
      closeDateTime: daysFromNow(-20, 17),
      reviewOpenDateTime: daysFromNow(-19, 9),
      reviewCloseDateTime: daysFromNow(-2, 17),
    },
    proposalTypes: [
      {
        typeName: 'Research',
        proposalForms: [forms.researchProposal.id],
        reviewForms: [forms.researchReview.id],
      },
    ],
  });

  await logInAs(page, chair);
  await openCallList(page);
  await expect(currentTable(page).getByRole('link', { name, exact: true })).toBeVisible();
  await currentTable(page).getByRole('link', { name, exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  await expectDetail(page, 'Status', 'Review finished; ready to be closed');
  await (await openManageMenu(page)).getByRole('menuitem', { name: 'Manage Call' }).click();

  await expect(
    page.getByRole('heading', { level: 1, name: 'Manage Call for Proposal' }),
  ).toBeVisible();
  await expect(page.getByText('Proposals submitted').locator('..')).toHaveText(
    /^Proposals submitted\s*0$/,
  );
  await expect(page.getByText('Proposals awaiting review').locator('..')).toHaveText(
    /^Proposals awaiting review\s*0$/,
  );
  const close = page.getByRole('button', { name: 'Close Call for Proposal' });
  await expect(close).toBeEnabled();
  await checkA11y(page);

  await close.click();
  const confirm = page.getByRole('dialog', { name: 'Close this call for proposals?' });
  await expect(confirm).toContainText(`Once “${name}” is closed it can no longer be changed`);
  await checkA11y(page);
  await confirm.getByRole('button', { name: 'Close Call', exact: true }).click();
  await expect(confirm).toBeHidden();
  await dismissNotification(page, `The call “${name}” has been closed.`);
  await expect(page.getByText('This call is already closed.')).toBeVisible();
  await expect(close).toBeDisabled();

  // Closed, the call can no longer be edited, not even by its chair.
  await page.getByRole('link', { name, exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  await expectDetail(page, 'Status', 'Closed');
  const menu = await openManageMenu(page);
  await expect(menu.getByRole('menuitem', { name: 'Manage Call' })).toBeVisible();
  await expect(menu.getByRole('menuitem', { name: 'Edit Call Details' })).toHaveCount(0);
  await page.keyboard.press('Escape');
  await page.goto(`/calls/${callId}/update`);
  await expect(page.getByText('You do not have permission to access this page.')).toBeVisible();

  await openCallList(page);
  await expect(currentTable(page).or(page.getByText('There are no open calls'))).toBeVisible();
  await expect(page.getByRole('link', { name, exact: true })).toHaveCount(0);

  await page.getByRole('button', { name: 'History' }).click();
  await expect(page).toHaveURL(/\/calls\/closed$/);
  const history = page.getByRole('table', { name: 'History calls for proposals' });
  await expect(history.getByRole('link', { name, exact: true })).toBeVisible();
  await checkA11y(page);
});

test('a notification shown over the Manage Extensions dialog reaches assistive technology', async ({
  page,
}) => {
  // Notifications render outside #root, which an open dialog marks aria-hidden="true",
  // so a screen reader hears "… has an extension now." while the dialog is open.
  test.setTimeout(60_000);
  const { chair, chairToken, applicant, committee, forms, tag } = world;
  const name = `Radio Survey ${tag}`;
  const callId = await createCall(chairToken, {
    committeeId: committee.id,
    name,
    dates: {
      openDateTime: daysFromNow(-1, 9),
      closeDateTime: daysFromNow(30, 17),
      reviewOpenDateTime: daysFromNow(31, 9),
      reviewCloseDateTime: daysFromNow(60, 17),
    },
    proposalTypes: [
      {
        typeName: 'Research',
        proposalForms: [forms.researchProposal.id],
        reviewForms: [forms.researchReview.id],
      },
    ],
  });

  await logInAs(page, chair);
  await page.goto(`/calls/${callId}/`);
  await (await openManageMenu(page)).getByRole('menuitem', { name: 'Manage Extensions' }).click();
  const dialog = page.getByRole('dialog', { name: 'Manage Extensions' });
  await dialog.getByRole('combobox', { name: 'User' }).fill(applicant.lastName);
  await page
    .getByRole('option', {
      name: `${applicant.fullName} (${applicant.username})`,
    })
    .click();
  await dialog.getByLabel('Extension from').fill(localInputValue(daysFromNow(2, 9)));
  await dialog.getByLabel('Extension until').fill(localInputValue(daysFromNow(40, 17)));
  await dialog.getByRole('button', { name: 'Add Extension' }).click();
  await expect(dialog.getByRole('table', { name: 'Extensions' })).toContainText(applicant.fullName);

  // The same alert the sighted user sees, exposed to assistive technology.
  await expect(
    page.getByRole('alert').filter({ hasText: `${applicant.fullName} has an extension now.` }),
  ).toBeVisible({ timeout: 3_000 });
});
