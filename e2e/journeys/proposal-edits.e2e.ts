import type { Page, Route } from '@playwright/test';
import { logInApi, registerVerifiedUser } from '../calls-support/api';
import { checkA11y, expect, logIn, test, watchForProblems } from '../fixtures';
import {
  addCollaborator,
  collaboratorHash,
  createProposal,
  saveAnswers,
} from '../proposals-support/api';
import {
  conflictDialog,
  editorPath,
  entry,
  expectEditable,
  expectReadOnly,
  fillTeamMember,
  formTab,
  isLockResponse,
  keptAnswers,
  openEditor,
  openFormTab,
} from '../proposals-support/editor';
import { createProposalsWorld, type ProposalsWorld } from '../proposals-support/world';
import { dismissNotification, logInAs, textField } from '../support/pages';

/*
 * Edits are never lost (issue 25): one editor per browser tab, answers someone else saved
 * while the person typed, and the unsaved answers the browser keeps through a reload and
 * an ended session. The people and proposals come from the API; what the journeys check
 * is what the person sees.
 */

let world: ProposalsWorld;

test.beforeAll(async () => {
  test.setTimeout(90_000);
  world = await createProposalsWorld();
});

const OBSERVING = {
  title: 'Dust in the Magellanic Bridge',
  abstract: 'We will map the dust between the two Magellanic Clouds in the infrared.',
  instrument: 'Infrared camera',
  nights: 3,
};
const VERA = {
  full_name: 'Vera Rubin',
  email: 'vera.rubin@example.test',
  institution: 'Carnegie Institution',
  project_role: 'Principal investigator',
};
const OFFER = /You have unsaved answers from \d\d:\d\d \S+ on this computer\./;
const OTHER_TAB = /open in another tab or window/;

/** A proposal of the author's with both forms answered: its id. */
async function answeredProposal(
  token: string,
  name: string,
  { team = true }: { team?: boolean } = {},
): Promise<number> {
  const { call, forms } = world;
  const target = { callId: call.id, typeId: call.typeIds.standard };
  const proposalId = await createProposal(token, { ...target, name });
  await saveAnswers(token, { ...target, proposalId, formId: forms.observing.id }, OBSERVING);
  if (team) await saveAnswers(token, { ...target, proposalId, formId: forms.team.id }, [VERA]);
  return proposalId;
}

/** The session token and tab id of a page, as its editor sends them. */
function editorOf(page: Page) {
  return page.evaluate(() => ({
    token: sessionStorage.getItem('merit.token'),
    tab: sessionStorage.getItem('merit.tab'),
  }));
}

test('a second tab of the same person on a proposal is read-only, and says why', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const { author, call, authorToken } = world;
  const proposalId = await answeredProposal(authorToken, `Two tabs ${Date.now().toString(36)}`);

  await logInAs(page, author);
  expect((await openEditor(page, call.id, proposalId)).mine).toBe(true);
  await expectEditable(page);

  // Another tab of the same browser, opened on the proposal: the same login, another editor.
  const second = await page.context().newPage();
  const secondProblems = await watchForProblems(second);
  expect((await openEditor(second, call.id, proposalId)).mine).toBe(false);
  await expect(second.getByRole('alert').filter({ hasText: OTHER_TAB })).toBeVisible();
  await expect(textField(second, 'Project title')).toHaveValue(OBSERVING.title);
  await expectReadOnly(second);
  // It is the person's own lock: no "Locked by" badge naming them.
  await expect(second.getByText(/^Locked by/)).toHaveCount(0);
  await checkA11y(second);
  await second.close();

  // "Duplicate tab" copies the tab's storage, its tab id with it: the copy takes a new one.
  const copied = await editorOf(page);
  const duplicate = await page.context().newPage();
  const duplicateProblems = await watchForProblems(duplicate);
  await duplicate.addInitScript(({ token, tab }) => {
    if (sessionStorage.getItem('merit.tab') !== null) return;
    sessionStorage.setItem('merit.token', token ?? '');
    sessionStorage.setItem('merit.tab', tab ?? '');
  }, copied);
  expect((await openEditor(duplicate, call.id, proposalId)).mine).toBe(false);
  await expect(duplicate.getByRole('alert').filter({ hasText: OTHER_TAB })).toBeVisible();
  await expectReadOnly(duplicate);
  expect((await editorOf(duplicate)).tab).not.toBe(copied.tab);
  await duplicate.close();

  // The first tab edits on.
  await expectEditable(page);
  expect([...secondProblems, ...duplicateProblems]).toEqual([]);
});

test('answers saved by a collaborator while the lock was lost: keep mine or take theirs', async ({
  page,
  openBrowser,
}) => {
  test.setTimeout(150_000);
  const { author, collaborator, call, forms, authorToken, collaboratorToken } = world;
  const proposalId = await answeredProposal(authorToken, `Lost lock ${Date.now().toString(36)}`);
  await addCollaborator(authorToken, proposalId, await collaboratorHash(collaboratorToken));
  const details = forms.observing.displayName;
  const team = forms.team.displayName;

  // The author types into both forms, and adds a team member.
  await logInAs(page, author);
  expect((await openEditor(page, call.id, proposalId)).mine).toBe(true);
  await textField(page, 'Project title').fill('Dust and gas in the Magellanic Bridge');
  await openFormTab(page, team);
  await textField(entry(page, 1), 'Full name').fill('Vera C. Rubin');
  await page.getByRole('button', { name: 'Add Another' }).click();
  await fillTeamMember(entry(page, 2), {
    fullName: 'Henrietta Leavitt',
    email: 'henrietta.leavitt@example.test',
    institution: 'Harvard College Observatory',
    role: 'Co-investigator',
  });

  // The laptop sleeps: the editor's lock polls get no answer, and the lease runs out (the
  // journey lets it go as the server would, rather than waiting 30 s for it).
  const asleep: Route[] = [];
  await page.route(/\/api\/v1\/lock\/\d+\/$/, (route) => void asleep.push(route));
  const { token, tab } = await editorOf(page);
  const released = await page.request.delete(`/api/v1/lock/${proposalId}/`, {
    headers: { Authorization: `Token ${token}`, 'x-merit-tab': tab ?? '' },
  });
  expect(released.status()).toBe(204);

  // Meanwhile the collaborator takes the proposal, changes both forms, saves and leaves.
  const other = await openBrowser();
  await logInAs(other, collaborator);
  expect((await openEditor(other, call.id, proposalId)).mine).toBe(true);
  await textField(other, 'Project title').fill('Magellanic Bridge dust map');
  await openFormTab(other, team);
  await textField(entry(other, 1), 'Institution').fill('Carnegie Science');
  await other.getByRole('button', { name: 'Save All', exact: true }).click();
  await dismissNotification(other, 'Saved successfully.');
  const left = other.waitForResponse((response) => isLockResponse(response, 'DELETE'));
  await other
    .getByRole('navigation', { name: 'Main navigation' })
    .getByRole('link', { name: 'Dashboard' })
    .click();
  expect((await left).status()).toBe(204);

  // The author, awake, saves everything: what the collaborator saved over is offered.
  await page.getByRole('button', { name: 'Save All', exact: true }).click();
  const dialog = conflictDialog(page);
  await expect(dialog).toBeVisible();
  const detailsChoice = dialog.getByRole('group', { name: new RegExp(`^${details}: `) });
  const teamChoice = dialog.getByRole('group', { name: new RegExp(`^${team}, entry 1: `) });
  await expect(detailsChoice).toContainText(`${collaborator.fullName} saved other answers at `);
  await expect(detailsChoice).toContainText('Magellanic Bridge dust map');
  await expect(teamChoice).toContainText(collaborator.fullName);
  await expect(teamChoice).toContainText('Carnegie Science');
  await checkA11y(page);

  // Keep mine for the details, take theirs for the team member.
  await detailsChoice.getByRole('button', { name: 'Keep mine' }).click();
  await dismissNotification(page, 'Saved successfully.');
  await teamChoice.getByRole('button', { name: 'Take theirs' }).click();
  await expect(dialog).toBeHidden();
  await expect(formTab(page, details)).toHaveAccessibleName(details);
  await expect(formTab(page, team)).toHaveAccessibleName(team);

  // The laptop's polls go on; the proposal is the author's tab's since its save.
  for (const route of asleep.splice(0)) await route.continue();
  await page.unroute(/\/api\/v1\/lock\/\d+\/$/);

  // Read again: the author's title, the collaborator's team member, and the author's new one.
  await page.reload();
  await expect(page.getByText(OFFER)).toHaveCount(0);
  await openFormTab(page, details);
  await expect(textField(page, 'Project title')).toHaveValue(
    'Dust and gas in the Magellanic Bridge',
  );
  await expect(textField(page, 'Abstract')).toHaveValue(OBSERVING.abstract);
  await openFormTab(page, team);
  await expect(textField(entry(page, 1), 'Full name')).toHaveValue(VERA.full_name);
  await expect(textField(entry(page, 1), 'Institution')).toHaveValue('Carnegie Science');
  await expect(textField(entry(page, 2), 'Full name')).toHaveValue('Henrietta Leavitt');
  await expect(page.getByRole('button', { name: /^Delete entry/ })).toHaveCount(2);
});

test('answers typed and not saved come back after a reload', async ({ page }) => {
  test.setTimeout(90_000);
  const { author, call, authorToken } = world;
  const proposalId = await answeredProposal(authorToken, `Reload ${Date.now().toString(36)}`, {
    team: false,
  });

  await logInAs(page, author);
  await openEditor(page, call.id, proposalId);
  await expectEditable(page);
  await textField(page, 'Project title').fill('A title never saved');
  await expect
    .poll(() => keptAnswers(page))
    .toContainEqual(expect.objectContaining({ title: 'A title never saved' }));

  // Reloading asks first (unsaved changes); the person goes ahead.
  page.on('dialog', (dialog) => void dialog.accept());
  await page.reload();
  const offer = page.getByRole('status').filter({ hasText: OFFER });
  await expect(offer).toBeVisible();
  await expect(textField(page, 'Project title')).toHaveValue(OBSERVING.title);
  await checkA11y(page);
  await offer.getByRole('button', { name: 'Restore' }).click();

  await expect(textField(page, 'Project title')).toHaveValue('A title never saved');
  await expectEditable(page);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await dismissNotification(page, 'Saved successfully.');
  await page.reload();
  await expect(textField(page, 'Project title')).toHaveValue('A title never saved');
  await expect(page.getByText(OFFER)).toHaveCount(0);
});

test('answers typed when the session ends are offered back after logging in again', async ({
  page,
  openBrowser,
}) => {
  test.setTimeout(120_000);
  const { call } = world;
  // A person of their own: ending their other sessions ends the API's too.
  const person = await registerVerifiedUser('Cecilia', 'Payne');
  const proposalId = await answeredProposal(
    await logInApi(person),
    `Session ${Date.now().toString(36)}`,
    { team: false },
  );

  await logInAs(page, person);
  await openEditor(page, call.id, proposalId);
  await expectEditable(page);
  await textField(page, 'Project title').fill('Stellar atmospheres, unsaved');
  await expect
    .poll(() => keptAnswers(page))
    .toContainEqual(expect.objectContaining({ title: 'Stellar atmospheres, unsaved' }));

  // From another browser, the person ends every other session, this one too.
  const other = await openBrowser();
  await logInAs(other, person);
  await other.goto('/account');
  await other.getByRole('button', { name: 'Sign out other sessions' }).click();
  await other
    .getByRole('dialog', { name: 'Sign out other sessions?' })
    .getByRole('button', { name: 'Sign out others' })
    .click();
  await expect(other.getByText('This device is the only place you are signed in.')).toBeVisible();

  // The editor's next word with the server finds the session gone: the login page.
  await expect(page).toHaveURL(/\/auth\/login\?next=/, { timeout: 15_000 });
  await expect(
    page
      .getByRole('alert')
      .filter({ hasText: 'Your session has ended. Log in again to continue.' }),
  ).toBeVisible();
  await logIn(page, person);

  // Back on the proposal, the answers are offered back.
  await expect(page).toHaveURL(new RegExp(`${editorPath(call.id, proposalId)}$`));
  const offer = page.getByRole('status').filter({ hasText: OFFER });
  await expect(offer).toBeVisible();
  await offer.getByRole('button', { name: 'Restore' }).click();
  await expect(textField(page, 'Project title')).toHaveValue('Stellar atmospheres, unsaved');
  await expect(formTab(page, world.forms.observing.displayName)).toHaveAccessibleName(
    /Unsaved changes/,
  );
});
