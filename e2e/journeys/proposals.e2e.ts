import type { Page } from '@playwright/test';
import { e2eEnv } from '../env';
import { checkA11y, expect, test } from '../fixtures';
import {
  addCollaborator,
  collaboratorHash,
  createProposal,
  saveAnswers,
} from '../proposals-support/api';
import {
  choose,
  editorPath,
  entry,
  expectEditable,
  expectReadOnly,
  fillTeamMember,
  formTab,
  isLockResponse,
  lockBadge,
  openEditor,
  openFormTab,
} from '../proposals-support/editor';
import { ABSTRACT_MAX_WORDS } from '../proposals-support/forms';
import { createProposalsWorld, TYPE_NAMES, type ProposalsWorld } from '../proposals-support/world';
import { linkToServer, waitForMail } from '../support/mail';
import { dismissNotification, logInAs, openManageMenu, textField } from '../support/pages';

/*
 * Writing a proposal (spec section 2, Proposal editor and Dashboard; section 4, Proposal
 * state, Proposal lock and Saving; section 6, Author and Collaborator). The call, its
 * forms and the people come from the API; what the journeys check is what they see.
 */

let world: ProposalsWorld;

test.beforeAll(async () => {
  // Two registrations with captcha and mail, a committee, three forms and a call.
  test.setTimeout(90_000);
  world = await createProposalsWorld();
});

const SAVE_FAILED = 'Save failed. There is an error with a form.';

/** Observing Proposal answers that pass its checks. */
const OBSERVING_ANSWERS = {
  title: 'Dust in the Magellanic Bridge',
  abstract: 'We will map the dust between the two Magellanic Clouds in the infrared.',
  instrument: 'Infrared camera',
  nights: 3,
};

/** A proposal of the Standard type by the author, with its first form answered. */
async function proposalByAuthor(name: string): Promise<number> {
  const { call, forms, authorToken } = world;
  const proposalId = await createProposal(authorToken, {
    callId: call.id,
    typeId: call.typeIds.standard,
    name,
  });
  await saveAnswers(
    authorToken,
    { callId: call.id, typeId: call.typeIds.standard, proposalId, formId: forms.observing.id },
    OBSERVING_ANSWERS,
  );
  return proposalId;
}

/**
 * Leaves the editor for the dashboard from the side menu, and waits until the editor has
 * given the lock back, as it does when it is left.
 */
async function leaveEditor(page: Page): Promise<void> {
  const released = page.waitForResponse((response) => isLockResponse(response, 'DELETE'));
  await page
    .getByRole('navigation', { name: 'Main navigation' })
    .getByRole('link', { name: 'Dashboard' })
    .click();
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  expect((await released).status()).toBe(204);
}

/** The row of a proposal in the dashboard's My Proposals table. */
function myProposalRow(page: Page, proposalName: string) {
  return page
    .getByRole('table', { name: 'My Proposals' })
    .getByRole('row')
    .filter({ has: page.getByRole('cell', { name: proposalName, exact: true }) });
}

test('an author writes a proposal: two forms, entries, a failed save, Save All, submit and retract', async ({
  page,
}) => {
  test.setTimeout(150_000);
  const { author, call, forms } = world;
  const proposalName = `Magellanic Bridge ${Date.now().toString(36)}`;
  const summary = forms.observing.displayName;
  const team = forms.team.displayName;

  await logInAs(page, author);
  await page.goto(`/calls/${call.id}/`);
  await expect(page.getByRole('heading', { level: 1, name: call.name })).toBeVisible();
  await (await openManageMenu(page)).getByRole('menuitem', { name: 'Add Proposal' }).click();

  // The Create Proposal panel: both fields are required.
  await expect(page.getByRole('heading', { level: 1, name: 'Create Proposal' })).toBeVisible();
  await page.getByRole('button', { name: 'Create', exact: true }).click();
  await expect(textField(page, 'Proposal Name')).toHaveAccessibleDescription(
    'This field is required.',
  );
  await textField(page, 'Proposal Name').fill(proposalName);
  await page
    .getByRole('combobox', { name: 'Proposal Type' })
    .selectOption({ label: TYPE_NAMES.standard });
  await checkA11y(page);
  await page.getByRole('button', { name: 'Create', exact: true }).click();

  // The editor: one tab per form of the type, in the call's order, then its History.
  await expect(page.getByRole('heading', { level: 1, name: proposalName })).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/calls/${call.id}/proposals/\\d+/$`));
  await expect(page.getByRole('tab')).toHaveText([summary, team, 'History']);
  await expect(formTab(page, summary)).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('region', { name: 'About this proposal' })).toContainText('Draft');

  // The first form, all but its required title. The abstract keeps to its word limit.
  const words = Array.from({ length: ABSTRACT_MAX_WORDS + 5 }, (_, i) => `word${i + 1}`);
  const abstract = textField(page, 'Abstract');
  await abstract.fill(words.join(' '));
  // The space before the first word too many stays, as typed.
  await expect(abstract).toHaveValue(`${words.slice(0, ABSTRACT_MAX_WORDS).join(' ')} `);
  await expect(page.getByText(`${ABSTRACT_MAX_WORDS} / ${ABSTRACT_MAX_WORDS} words`)).toBeVisible();
  await abstract.fill(OBSERVING_ANSWERS.abstract);
  await expect(page.getByText(`13 / ${ABSTRACT_MAX_WORDS} words`)).toBeVisible();
  await choose(page, 'Instrument', OBSERVING_ANSWERS.instrument);
  await page.getByRole('spinbutton', { name: 'Nights requested' }).fill('3');
  await expect(formTab(page, summary)).toHaveAccessibleName(/Unsaved changes/);
  await checkA11y(page);

  // The multi-entry form: two people.
  await openFormTab(page, team);
  await expect(page.getByRole('button', { name: 'Delete entry 1' })).toBeDisabled();
  await fillTeamMember(entry(page, 1), {
    fullName: author.fullName,
    email: author.email,
    institution: 'University of Tasmania',
    role: 'Principal investigator',
  });
  await page.getByRole('button', { name: 'Add Another' }).click();
  await expect(page.getByRole('button', { name: 'Delete entry 1' })).toBeEnabled();
  await fillTeamMember(entry(page, 2), {
    fullName: 'Mary Somerville',
    email: 'mary.somerville@example.test',
    institution: 'University of Edinburgh',
    role: 'Co-investigator',
  });
  await checkA11y(page);

  // Save All: the first form lacks its title, so its tab is shown with the message; the
  // second form is saved all the same.
  await page.getByRole('button', { name: 'Save All', exact: true }).click();
  await expect(formTab(page, summary)).toHaveAttribute('aria-selected', 'true');
  await expect(formTab(page, summary)).toHaveAccessibleName(/Has errors/);
  const problems = page.getByRole('tabpanel').getByRole('alert');
  await expect(problems).toContainText(SAVE_FAILED);
  await expect(problems).toContainText('Project title is required.');
  await expect(formTab(page, team)).toHaveAccessibleName(team);
  await checkA11y(page);

  // Fixed, and saved: the marks go.
  await textField(page, 'Project title').fill(OBSERVING_ANSWERS.title);
  await page.getByRole('button', { name: 'Save All', exact: true }).click();
  await dismissNotification(page, 'Saved successfully.');
  await expect(page.getByText(SAVE_FAILED)).toHaveCount(0);
  await expect(formTab(page, summary)).toHaveAccessibleName(summary);

  // Deleting a saved entry asks first; the one left cannot be deleted.
  await openFormTab(page, team);
  await page.getByRole('button', { name: 'Delete entry 1' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete this entry?' });
  await expect(confirm).toContainText('Do you really want to delete this entry?');
  await checkA11y(page);
  await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
  await dismissNotification(page, 'The entry has been deleted.');
  await expect(page.getByRole('button', { name: /^Delete entry/ })).toHaveCount(1);
  await expect(textField(entry(page, 1), 'Full name')).toHaveValue('Mary Somerville');
  await expect(page.getByRole('button', { name: 'Delete entry 1' })).toBeDisabled();

  // What the server kept, read again.
  await page.reload();
  await expect(formTab(page, team)).toHaveAttribute('aria-selected', 'true');
  await expect(textField(entry(page, 1), 'Full name')).toHaveValue('Mary Somerville');
  await expect(page.getByRole('button', { name: /^Delete entry/ })).toHaveCount(1);
  await openFormTab(page, summary);
  await expect(textField(page, 'Project title')).toHaveValue(OBSERVING_ANSWERS.title);

  // Submit, after confirming: the proposal is read-only, and the author gets a receipt.
  await (await openManageMenu(page)).getByRole('menuitem', { name: 'Submit Proposal' }).click();
  const submit = page.getByRole('dialog', { name: 'Submit this proposal?' });
  await expect(submit).toContainText(`Once “${proposalName}” is submitted`);
  await checkA11y(page);
  await submit.getByRole('button', { name: 'Submit Proposal' }).click();
  await dismissNotification(page, 'The proposal has been submitted.');
  const about = page.getByRole('region', { name: 'About this proposal' });
  await expect(about).toContainText('Submitted');
  await expect(
    page.getByText('This proposal has been submitted, so it cannot be changed.', { exact: false }),
  ).toBeVisible();
  await expectReadOnly(page);
  // Its answers read as a page: each field's title, then the answer.
  await expect(
    page.locator('dt', { hasText: /^Project title$/ }).locator('xpath=following-sibling::dd[1]'),
  ).toHaveText(OBSERVING_ANSWERS.title);
  await expect(textField(page, 'Project title')).toHaveCount(0);
  const receipt = await waitForMail({ to: author.email, subject: `Submitted: ${proposalName}` });
  expect(receipt.text).toContain(`to the call "${call.name}"`);
  await checkA11y(page);

  // Retract, after confirming: a draft again, to be changed.
  await (await openManageMenu(page)).getByRole('menuitem', { name: 'Retract Proposal' }).click();
  const retract = page.getByRole('dialog', { name: 'Retract this proposal?' });
  await retract.getByRole('button', { name: 'Retract Proposal' }).click();
  await dismissNotification(page, 'The proposal has been retracted: it is a draft again.');
  await expect(about).toContainText('Draft');
  await expectEditable(page);

  // The dashboard's My Proposals lists it, and opens it.
  await leaveEditor(page);
  const row = myProposalRow(page, proposalName);
  await expect(row.getByRole('cell')).toHaveText([
    call.name,
    proposalName,
    TYPE_NAMES.standard,
    'Author',
    'Draft',
    /\d/,
    'Open',
  ]);
  await checkA11y(page);
  await row.getByRole('link', { name: `Open ${proposalName}` }).click();
  await expect(page.getByRole('heading', { level: 1, name: proposalName })).toBeVisible();
});

test('a collaborator joins by their hash, finds the proposal and edits the draft', async ({
  page,
  openBrowser,
}) => {
  test.setTimeout(120_000);
  const { author, collaborator, call } = world;
  const proposalName = `Southern Pulsars ${Date.now().toString(36)}`;
  const proposalId = await proposalByAuthor(proposalName);

  // The collaborator reads their hash on My Account, to give it to the author.
  await logInAs(page, collaborator);
  await page.goto('/account');
  const hash = (await page.getByLabel('Your collaborator hash').textContent())?.trim() ?? '';
  expect(hash).toMatch(/^[A-Za-z0-9]{10}$/);

  // The author adds them in Manage Collaborators, after a wrong hash first.
  const authorPage = await openBrowser();
  await logInAs(authorPage, author);
  await authorPage.goto(editorPath(call.id, proposalId));
  await expect(authorPage.getByRole('heading', { level: 1, name: proposalName })).toBeVisible();
  await (
    await openManageMenu(authorPage)
  )
    .getByRole('menuitem', { name: 'Manage Collaborators' })
    .click();
  const dialog = authorPage.getByRole('dialog', { name: 'Manage Collaborators' });
  await expect(dialog.getByText('This proposal has no collaborators yet.')).toBeVisible();
  await checkA11y(authorPage);
  const hashField = textField(dialog, 'Collaborator hash');
  await hashField.fill('ABCDEFGHJK');
  await dialog.getByRole('button', { name: 'Add', exact: true }).click();
  const unknown =
    'No one has this hash. Ask your collaborator for the hash shown on their My Account page.';
  await expect(dialog.getByRole('alert')).toContainText(unknown);
  await checkA11y(authorPage);
  await hashField.fill(hash);
  await dialog.getByRole('button', { name: 'Add', exact: true }).click();
  await dismissNotification(
    authorPage,
    `${collaborator.fullName} is now a collaborator on this proposal.`,
  );
  const listed = dialog.getByRole('list', { name: 'Collaborators' });
  await expect(listed).toContainText(collaborator.fullName);
  await expect(listed).toContainText(collaborator.email);
  await dialog.getByRole('button', { name: 'Close', exact: true }).click();
  await expect(authorPage.getByRole('region', { name: 'About this proposal' })).toContainText(
    `with ${collaborator.fullName}`,
  );
  await leaveEditor(authorPage);

  // The collaborator is told by mail, and finds the proposal on the dashboard too.
  const mail = await waitForMail({
    to: collaborator.email,
    subject: `You are now a collaborator on ${proposalName}`,
  });
  await page.goto('/');
  const row = myProposalRow(page, proposalName);
  await expect(row.getByRole('cell').nth(3)).toHaveText('Collaborator');
  await page.goto(linkToServer(mail, e2eEnv('baseUrl')));
  await expect(page.getByRole('heading', { level: 1, name: proposalName })).toBeVisible();

  // They edit the draft and save it, but submitting is the author's alone.
  await expectEditable(page);
  const menu = await openManageMenu(page);
  await expect(menu.getByRole('menuitem')).toHaveText(['Save PDF', 'Manage Uploaded Files']);
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();
  const addition = ' Pulsar timing will follow in the second year.';
  await textField(page, 'Abstract').fill(`${OBSERVING_ANSWERS.abstract}${addition}`);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await dismissNotification(page, 'Saved successfully.');
  await checkA11y(page);
  await leaveEditor(page);

  // The author sees the collaborator's words.
  await authorPage.goto(editorPath(call.id, proposalId));
  await expect(textField(authorPage, 'Abstract')).toHaveValue(
    `${OBSERVING_ANSWERS.abstract}${addition}`,
  );
});

test('a second person on the same proposal sees who edits it, and gets it when they leave', async ({
  page,
  openBrowser,
}) => {
  test.setTimeout(90_000);
  const { author, collaborator, call, authorToken, collaboratorToken } = world;
  const proposalName = `Galactic Centre ${Date.now().toString(36)}`;
  const proposalId = await proposalByAuthor(proposalName);
  await addCollaborator(authorToken, proposalId, await collaboratorHash(collaboratorToken));

  // The author opens the proposal first and holds it.
  await logInAs(page, author);
  expect((await openEditor(page, call.id, proposalId)).holder).toBe(author.fullName);
  await expect(page.getByRole('heading', { level: 1, name: proposalName })).toBeVisible();
  await expectEditable(page);

  // The collaborator, in another browser, may read it but not change it.
  const other = await openBrowser();
  await logInAs(other, collaborator);
  await other.goto(editorPath(call.id, proposalId));
  await expect(lockBadge(other, author.fullName)).toBeVisible();
  await expect(
    other.getByText(
      `${author.fullName} is editing this proposal now. You can edit it once they have left it.`,
    ),
  ).toBeVisible();
  await expect(textField(other, 'Project title')).toHaveValue(OBSERVING_ANSWERS.title);
  await expectReadOnly(other);
  await checkA11y(other);
  // The author's own editor names no holder: the lock is theirs.
  await expect(page.getByText(/^Locked by/)).toHaveCount(0);

  // The author leaves. The lease would run for 30 s, but leaving gives the lock back, so the
  // collaborator's next poll (every 5 s) takes it.
  await leaveEditor(page);
  const released = Date.now();
  await expect(lockBadge(other, author.fullName)).toBeHidden({ timeout: 8_000 });
  await expectEditable(other);
  expect(Date.now() - released, 'ms from the release to the lock changing hands').toBeLessThan(
    8_000,
  );

  // Now the collaborator holds it: the author, back on the proposal, is the one who waits.
  await page.goto(editorPath(call.id, proposalId));
  await expect(lockBadge(page, collaborator.fullName)).toBeVisible();
  await expectReadOnly(page);
});
