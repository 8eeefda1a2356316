import { api, logInApi } from '../calls-support/api';
import { createConflictsWorld, openReview, type ConflictsWorld } from '../conflicts-support/world';
import { checkA11y, expect, test } from '../fixtures';
import { dismissNotification, logInAs, logOut, openManageMenu } from '../support/pages';

/*
 * Conflicts of interest (issue 26), as the three people meet them: the applicant declares
 * one in the editor; a member meets the declaration before the proposal opens and declares
 * one; the chair confirms one of Merit's suggestions and dismisses the other, and Manage
 * Reviewers then marks every member who must not review the proposal.
 */

let world: ConflictsWorld;

test.beforeAll(async () => {
  // Seven registrations with captcha and mail, a committee, three forms, a call and a draft.
  test.setTimeout(120_000);
  world = await createConflictsWorld();
});

interface Conflict {
  userName: string;
  state: string;
  source: string;
}

test('an applicant, a member and a chair each record a conflict, and Manage Reviewers shows them', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const { call, proposal, author, chair, grace, hedy, ivan, jane } = world;
  const proposalPath = `/calls/${call.id}/proposals/${proposal.id}/`;

  // --- Ada declares Hedy in her draft's Conflicts panel ------------------------------
  await logInAs(page, author);
  await page.goto(proposalPath);
  const panel = page.getByRole('region', { name: 'Conflicts of Interest' });
  await expect(panel.getByRole('list', { name: 'Committee members' })).toBeVisible();
  const hedyRow = panel.getByRole('group', { name: hedy.fullName });
  await expect(hedyRow).toContainText('Chalmers University of Technology');
  await hedyRow.getByRole('checkbox').check();
  await hedyRow.getByLabel('Kind of conflict').selectOption({ label: 'Personal' });
  await hedyRow.getByLabel('Reason (optional)').fill('My sister-in-law.');
  await panel.getByRole('button', { name: 'Save Conflicts' }).click();
  await dismissNotification(page, 'Your conflicts of interest have been saved.');
  await checkA11y(page);

  // She submits; submission closes and review opens. Merit looks for conflicts meanwhile.
  await (await openManageMenu(page)).getByRole('menuitem', { name: 'Submit Proposal' }).click();
  await page
    .getByRole('dialog', { name: 'Submit this proposal?' })
    .getByRole('button', { name: 'Submit Proposal' })
    .click();
  await dismissNotification(page, 'The proposal has been submitted.');
  await logOut(page, author.username);
  await openReview(world);
  const chairToken = await logInApi(chair);
  await expect
    .poll(
      async () => {
        const page = await api<{ items: Conflict[] }>(
          'GET',
          `/calls/${call.id}/conflicts/?state=suggested`,
          { token: chairToken },
        );
        return page.items.map((c) => c.userName).sort();
      },
      { timeout: 60_000 },
    )
    .toEqual([ivan.fullName, jane.fullName].sort());

  // --- Grace meets the declaration and declares a conflict ----------------------------
  await logInAs(page, grace);
  await page.goto(proposalPath);
  const gate = page.getByRole('region', {
    name: 'Do you have a conflict of interest with this proposal?',
  });
  await expect(gate).toContainText('University of Uppsala');
  // Nothing of the proposal shows until she answers.
  await expect(page.getByText('Dust in the Magellanic Bridge')).toHaveCount(0);
  await checkA11y(page);
  await gate.getByRole('button', { name: 'I have a conflict' }).click();
  await gate.getByLabel('Kind of conflict').selectOption({ label: 'Recent collaborator' });
  await gate.getByLabel('Reason (optional)').fill('We wrote a paper together last year.');
  await gate.getByRole('button', { name: 'Declare Conflict' }).click();
  const confirm = page.getByRole('dialog', { name: 'Declare a conflict of interest?' });
  await confirm.getByRole('button', { name: 'Declare Conflict' }).click();
  await expect(
    page.getByText(`You have declared a conflict of interest with “${proposal.name}”.`),
  ).toBeVisible();

  // --- Carla confirms Ivan's suggestion and dismisses Jane's --------------------------
  await logOut(page, grace.username);
  await logInAs(page, chair);
  await page.goto(`/calls/${call.id}`);
  await (
    await openManageMenu(page)
  )
    .getByRole('menuitem', { name: 'Conflicts of Interest' })
    .click();
  await expect(
    page.getByRole('heading', { level: 1, name: 'Conflicts of Interest' }),
  ).toBeVisible();
  const table = page.getByRole('table', { name: `Conflicts of interest of ${call.name}` });
  const rowOf = (person: { fullName: string }) =>
    table.getByRole('row').filter({ hasText: person.fullName });
  await expect(rowOf(hedy)).toContainText('Declared by the applicant');
  await expect(rowOf(grace)).toContainText('Declared by the member');
  await expect(rowOf(ivan)).toContainText('Suggested');
  await expect(rowOf(ivan)).toContainText('University of Uppsala');
  await expect(rowOf(jane)).toContainText('Suggested');
  await checkA11y(page);
  const conflictOf = (person: { fullName: string }) =>
    `the conflict of ${person.fullName} with “${proposal.name}”`;
  await rowOf(ivan)
    .getByRole('button', { name: `Confirm ${conflictOf(ivan)}` })
    .click();
  await expect(rowOf(ivan)).toContainText('Confirmed');
  await rowOf(jane)
    .getByRole('button', { name: `Dismiss ${conflictOf(jane)}` })
    .click();
  await expect(rowOf(jane)).toContainText('Dismissed');

  // --- Manage Reviewers marks the three with a conflict, and only them ----------------
  await page.goto(proposalPath);
  await expect(page.getByRole('heading', { level: 1, name: proposal.name })).toBeVisible();
  await (await openManageMenu(page)).getByRole('menuitem', { name: 'Manage Reviewers' }).click();
  const dialog = page.getByRole('dialog', { name: 'Manage Reviewers' });
  const candidates = dialog.getByRole('list', { name: 'Committee members' });
  const candidate = (person: { fullName: string }) =>
    candidates.getByRole('listitem').filter({ hasText: person.fullName });
  for (const person of [grace, hedy, ivan])
    await expect(candidate(person).getByText('Conflict', { exact: true })).toBeVisible();
  await expect(candidate(jane)).toBeVisible();
  await expect(candidate(jane).getByText(/conflict/i)).toHaveCount(0);

  // Assigning Ivan asks for a reason first; with one, he is assigned and it is shown.
  await candidate(ivan)
    .getByRole('button', { name: `Assign ${ivan.fullName}` })
    .click();
  const override = page.getByRole('dialog', { name: 'Assign despite a conflict?' });
  await override.getByLabel('Reason for assigning').fill('The only infrared expert we have.');
  await override.getByRole('button', { name: 'Assign Anyway' }).click();
  await dismissNotification(page, `${ivan.fullName} is now a reviewer of this proposal.`);
  await expect(dialog.getByRole('list', { name: 'Reviewers' })).toContainText(
    'Assigned despite a conflict of interest: The only infrared expert we have.',
  );
});
