import { expect, test } from '../fixtures';
import {
  addCollaborator,
  collaboratorHash,
  createProposal,
  saveAnswers,
} from '../proposals-support/api';
import {
  choose,
  entry,
  fillTeamMember,
  formTab,
  lockBadge,
  openEditor,
  openFormTab,
} from '../proposals-support/editor';
import { createProposalsWorld, TYPE_NAMES } from '../proposals-support/world';
import { dismissNotification, logInAs, openManageMenu, textField } from '../support/pages';
import { scrollToTop, shoot } from './shoot';

/*
 * The pictures of the manual's chapter "Writing a proposal" (docs/manual.md), made on a
 * server of their own: Ada Lovelace writes a proposal to the Astronomy committee's call
 * Telescope Time 2027, with Charles Babbage as her collaborator.
 */

const PROPOSAL = 'Dust in the Magellanic Bridge';

test('the screens of the chapter “Writing a proposal”', async ({ page, openBrowser }) => {
  const world = await createProposalsWorld({
    committee: 'Astronomy',
    call: 'Telescope Time 2027',
    forms: {
      observing: 'Observing Proposal',
      team: 'Team Members',
      review: 'Proposal Review',
    },
    author: {
      firstName: 'Ada',
      lastName: 'Lovelace',
      username: 'ada.lovelace',
      institution: 'University of Tasmania',
    },
    collaborator: {
      firstName: 'Charles',
      lastName: 'Babbage',
      username: 'charles.babbage',
      institution: 'University of Cambridge',
    },
  });
  const { author, collaborator, call, forms } = world;

  // Two more proposals for the dashboard: one of Ada's own, and one of Charles's she helps with.
  const comet = await createProposal(world.authorToken, {
    callId: call.id,
    typeId: call.typeIds.rapid,
    name: 'Comet C/2026 A1 outburst',
  });
  await saveAnswers(
    world.authorToken,
    { callId: call.id, typeId: call.typeIds.rapid, proposalId: comet, formId: forms.observing.id },
    {
      title: 'Comet C/2026 A1 outburst',
      abstract: 'Spectra of the comet in the days after its outburst.',
      instrument: 'Spectrograph',
      nights: 1,
    },
  );
  const radio = await createProposal(world.collaboratorToken, {
    callId: call.id,
    typeId: call.typeIds.rapid,
    name: 'Afterglows of gamma-ray bursts',
  });
  await addCollaborator(world.collaboratorToken, radio, await collaboratorHash(world.authorToken));

  // The Create Proposal panel, filled in.
  await logInAs(page, author);
  await page.goto(`/calls/${call.id}/`);
  await (await openManageMenu(page)).getByRole('menuitem', { name: 'Add Proposal' }).click();
  await textField(page, 'Proposal Name').fill(PROPOSAL);
  await page
    .getByRole('combobox', { name: 'Proposal Type' })
    .selectOption({ label: TYPE_NAMES.standard });
  await shoot(page, 'proposal-create');
  await page.getByRole('button', { name: 'Create', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: PROPOSAL })).toBeVisible();

  // The first form, all but its title.
  await textField(page, 'Abstract').fill(
    'The Magellanic Bridge joins the two Magellanic Clouds. We will map its dust in the ' +
      'near infrared, to learn how much of it was torn from the Small Cloud and when.',
  );
  await choose(page, 'Instrument', 'Infrared camera');
  await page.getByRole('spinbutton', { name: 'Nights requested' }).fill('3');

  // The multi-entry form, with two people.
  await openFormTab(page, forms.team.displayName);
  await fillTeamMember(entry(page, 1), {
    fullName: author.fullName,
    email: author.email,
    institution: 'University of Tasmania',
    role: 'Principal investigator',
  });
  await page.getByRole('button', { name: 'Add Another' }).click();
  await fillTeamMember(entry(page, 2), {
    fullName: 'Mary Somerville',
    email: 'mary.somerville@example.test',
    institution: 'University of Edinburgh',
    role: 'Co-investigator',
  });
  // Entry 1 folded, so that the tabs, both entries and the buttons fit in one picture.
  await page.getByRole('button', { name: /^Entry 1/ }).click();
  await expect(page.getByRole('button', { name: 'Delete entry 1' })).toBeHidden();
  await scrollToTop(page.getByRole('tablist', { name: 'Forms of this proposal' }));
  await shoot(page, 'proposal-multi-entry');

  // Save All while the title is missing: the first form's tab is shown with the message.
  await page.getByRole('button', { name: 'Save All', exact: true }).click();
  await expect(formTab(page, forms.observing.displayName)).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByText('Save failed. There is an error with a form.')).toBeVisible();
  await shoot(page, 'proposal-save-failed');

  // Fixed and saved.
  await textField(page, 'Project title').fill(PROPOSAL);
  await page.getByRole('button', { name: 'Save All', exact: true }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Saved successfully.' })).toBeVisible();
  await page.evaluate(() => window.scrollTo(0, 0));
  await shoot(page, 'proposal-editor');
  await dismissNotification(page, 'Saved successfully.');

  // Manage Collaborators, with Charles added by his hash.
  await (
    await openManageMenu(page)
  )
    .getByRole('menuitem', { name: 'Manage Collaborators' })
    .click();
  const dialog = page.getByRole('dialog', { name: 'Manage Collaborators' });
  await textField(dialog, 'Collaborator hash').fill(
    await collaboratorHash(world.collaboratorToken),
  );
  await dialog.getByRole('button', { name: 'Add', exact: true }).click();
  await dismissNotification(
    page,
    `${collaborator.fullName} is now a collaborator on this proposal.`,
  );
  await expect(dialog.getByRole('list', { name: 'Collaborators' })).toContainText(
    collaborator.fullName,
  );
  await shoot(page, 'proposal-collaborators');
  await dialog.getByRole('button', { name: 'Close', exact: true }).click();

  // Charles opens the proposal while Ada is in it.
  const charles = await openBrowser();
  await logInAs(charles, collaborator);
  const proposalId = Number(/\/proposals\/(\d+)\//.exec(page.url())?.[1]);
  expect((await openEditor(charles, call.id, proposalId)).holder).toBe(author.fullName);
  await expect(lockBadge(charles, author.fullName)).toBeVisible();
  await shoot(charles, 'proposal-locked');
  await charles.close();

  // Submitting asks first.
  await (await openManageMenu(page)).getByRole('menuitem', { name: 'Submit Proposal' }).click();
  const submit = page.getByRole('dialog', { name: 'Submit this proposal?' });
  await expect(submit).toBeVisible();
  await shoot(page, 'proposal-submit');
  await submit.getByRole('button', { name: 'Submit Proposal' }).click();
  await dismissNotification(page, 'The proposal has been submitted.');

  // The dashboard's My Proposals.
  await page
    .getByRole('navigation', { name: 'Main navigation' })
    .getByRole('link', { name: 'Dashboard' })
    .click();
  await expect(page.getByRole('table', { name: 'My Proposals' }).getByRole('row')).toHaveCount(4);
  await shoot(page, 'dashboard-my-proposals');
});
