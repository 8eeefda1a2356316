import { readFile } from 'node:fs/promises';
import type { Locator, Page } from '@playwright/test';
import { PDFParse } from 'pdf-parse';
import { checkA11y, expect, test } from '../fixtures';
import {
  createDecisionsWorld,
  FACILITY,
  FIELD,
  FIELD_TITLE,
  type DecisionsWorld,
} from '../decisions-support/world';
import { waitForMail } from '../support/mail';
import { dismissNotification, logInAs, openManageMenu } from '../support/pages';

/*
 * The decision meeting with capacities, awards and letters (issue 29): the chair enters the
 * telescope's capacity, reads the ranking with its line and running totals, sets outcomes
 * from the line, lowers one award in place and sees the totals follow, writes the Approved
 * letter, previews it, closes the call and releases the decisions; the letters go out, and
 * the author reads the outcome and the award on the proposal and in the letter's PDF. The
 * people, the call, its proposals and their reviews come from the API.
 */

let world: DecisionsWorld;

// The trace of a failed run keeps its actions and screenshots, not DOM snapshots: to take
// them, the recorder puts a script into every frame, and Chromium logs an error for the
// letter preview's frame, sandboxed without scripts, which the journey would fail on.
test.use({ trace: { mode: 'retain-on-failure', snapshots: false, screenshots: true } });

/** The award row of a letter's table, as the frame, the mail and the PDF each lay it out. */
const AWARD_ROW = /Telescope A\W*nights\W*12\W*9\.5/;

test.beforeAll(async () => {
  // Three registrations with captcha and mail, four forms, a call, three proposals, reviews.
  test.setTimeout(120_000);
  world = await createDecisionsWorld();
});

const rankingTable = (page: Page) => page.getByRole('table', { name: 'Ranking' });
const capacityTable = (page: Page) => page.getByRole('table', { name: 'Capacity and awards' });
const rowOf = (table: Locator, name: string) => table.getByRole('row').filter({ hasText: name });

/** The first cells of `row`, in order: what a person reads along it. */
async function expectCells(row: Locator, texts: string[]) {
  const cells = row.getByRole('cell');
  for (const [index, text] of texts.entries()) await expect(cells.nth(index)).toHaveText(text);
}

/** The one row of the capacity summary: facility, field, capacity, requested, awarded, shares. */
const expectCapacity = (page: Page, texts: string[]) =>
  expectCells(rowOf(capacityTable(page), FACILITY), texts);

test('the chair allocates the telescope from the ranking and releases the letters; the author reads the award in the letter', async ({
  page,
  openBrowser,
}) => {
  test.setTimeout(180_000);
  const { call, chair, author, committee, proposals } = world;
  const { alpha, beta, gamma } = proposals;
  const label = `${FACILITY}: ${FIELD_TITLE}`;

  // --- The Ranking: in order of review score, no line without a capacity ---------------
  await logInAs(page, chair);
  await page.goto(`/calls/${call.id}/`);
  await (await openManageMenu(page)).getByRole('menuitem', { name: 'Ranking' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Ranking' })).toBeVisible();
  const table = rankingTable(page);
  await expect(table.getByRole('columnheader')).toHaveText([
    'Rank',
    'Proposal',
    'Type',
    'Score',
    `${label} asked`,
    `${label} running total`,
    'Outcome',
    'Awards',
    'Actions',
  ]);
  await expectCells(rowOf(table, alpha.name), ['1', alpha.name, 'Observing', '4.50', '12', '12']);
  await expectCells(rowOf(table, beta.name), ['2', beta.name, 'Observing', '3.50', '10', '22']);
  await expectCells(rowOf(table, gamma.name), ['3', gamma.name, 'Observing', '2.00', '8', '30']);
  await expectCapacity(page, [FACILITY, FIELD_TITLE, 'None', '30', '0', '—', '—']);
  await expect(table.getByText(`Capacity of ${FACILITY} reached`)).toHaveCount(0);

  // --- Capacities: 20 nights, so the running total passes it at the second proposal -----
  await page.getByRole('button', { name: 'Capacities' }).click();
  const capacities = page.getByRole('dialog', { name: 'Capacities' });
  await capacities.getByRole('spinbutton', { name: label }).fill('20');
  await checkA11y(page);
  await capacities.getByRole('button', { name: 'Save capacities' }).click();
  await dismissNotification(page, 'The capacities have been saved.');
  await expect(capacities).toBeHidden();
  await expectCapacity(page, [
    FACILITY,
    FIELD_TITLE,
    '20',
    '30',
    '0',
    '150 %, above capacity',
    '0 %',
  ]);
  // The line falls between Alpha (12 of 20) and Beta (22 of 20): Beta is the first below.
  const rows = table.getByRole('row');
  await expect(rows.nth(1)).toContainText(alpha.name);
  await expect(rows.nth(2)).toHaveText(`Capacity of ${FACILITY} reached`);
  await expect(rows.nth(3)).toContainText(beta.name);
  await expect(rows.nth(4)).toContainText(gamma.name);
  await checkA11y(page);

  // --- Set outcomes from the line: a preview, then Apply ---------------------------------
  const outcomeOf = (name: string) => table.getByRole('combobox', { name: `Outcome of ${name}` });
  for (const { name } of [alpha, beta, gamma]) await expect(outcomeOf(name)).toHaveValue('');
  await page.getByRole('button', { name: 'Set outcomes from the line' }).click();
  const fromLine = page.getByRole('dialog', { name: 'Set outcomes from the line' });
  await fromLine.getByRole('spinbutton', { name: 'How many to waitlist' }).fill('1');
  const preview = fromLine.getByRole('list', { name: 'What would change' });
  await expect(preview.getByRole('listitem')).toHaveText([
    `${alpha.name}: No outcome → Approved`,
    `${beta.name}: No outcome → Waitlisted`,
    `${gamma.name}: No outcome → Declined`,
  ]);
  await expect(fromLine.getByText('3 outcomes would change:')).toBeVisible();
  await checkA11y(page);
  await fromLine.getByRole('button', { name: 'Apply' }).click();
  await dismissNotification(page, '3 outcomes were set from the line.');
  await expect(fromLine).toBeHidden();
  await expect(outcomeOf(alpha.name)).toHaveValue('approved');
  await expect(outcomeOf(beta.name)).toHaveValue('waitlisted');
  await expect(outcomeOf(gamma.name)).toHaveValue('declined');
  // The approved proposal is awarded what it asked for.
  const alphaAward = table.getByRole('spinbutton', { name: `Award of ${label} to ${alpha.name}` });
  await expect(alphaAward).toHaveValue('12');
  await expectCapacity(page, [
    FACILITY,
    FIELD_TITLE,
    '20',
    '30',
    '12',
    '150 %, above capacity',
    '60 %',
  ]);

  // --- One award lowered in place: the totals follow -------------------------------------
  await alphaAward.fill('9.5');
  await table.getByRole('button', { name: `Save the decision on ${alpha.name}` }).click();
  await dismissNotification(page, `The decision on ${alpha.name} has been saved.`);
  await expectCapacity(page, [
    FACILITY,
    FIELD_TITLE,
    '20',
    '30',
    '9.5',
    '150 %, above capacity',
    '48 %',
  ]);
  await page.reload();
  await expect(
    rankingTable(page).getByRole('spinbutton', { name: `Award of ${label} to ${alpha.name}` }),
  ).toHaveValue('9.5');
  await checkA11y(page);

  // --- Letters: the Approved template gets words and a field of the chair's -------------
  await page.goto(`/calls/${call.id}/`);
  await (await openManageMenu(page)).getByRole('menuitem', { name: 'Letters' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Letters' })).toBeVisible();
  const approved = page.getByRole('group', { name: 'Approved', exact: true });
  const body = approved.getByRole('textbox', { name: 'Body' });
  await body.fill(
    'Dear {{ applicant.name }},\n\n' +
      'We are glad to give {{ proposal.name }} telescope time: {{ outcome }}.\n\n' +
      '{{ awards_table }}\n\n' +
      'With best wishes from ',
  );
  // The cursor is at the end of the body: the field goes there.
  await approved.getByRole('button', { name: 'Insert {{ committee.name }}' }).click();
  await expect(body).toHaveValue(/With best wishes from \{\{ committee\.name \}\}$/);
  await expect(page.getByText('Your changes to the letters are not saved yet.')).toBeVisible();
  await checkA11y(page);
  await page.getByRole('button', { name: 'Save templates' }).click();
  await dismissNotification(page, 'The letter templates have been saved.');

  // --- The preview: Alpha's letter as it will be sent, in a sandboxed frame -------------
  await page.getByRole('tab', { name: 'Preview' }).click();
  await expect(
    page.getByText('Choose a proposal to see its letter as it will be sent.'),
  ).toBeVisible();
  // Checked before the letter shows: axe cannot run inside its sandboxed frame, which
  // allows no script (Chromium refuses its injection, and axe then fails to finish).
  await checkA11y(page);
  await page.getByRole('combobox', { name: 'Proposal' }).selectOption({
    label: `${alpha.name} (Approved)`,
  });
  const subject = `${call.name}: decision on ${alpha.name}`;
  const letter = page.getByRole('region', { name: 'The letter' });
  await expect(letter).toContainText(author.email);
  await expect(letter).toContainText(subject);
  const frame = letter.locator('iframe').contentFrame();
  await expect(letter.locator('iframe')).toHaveAttribute('sandbox', '');
  await expect(frame.locator('body')).toContainText(`Dear ${author.fullName},`);
  await expect(frame.locator('body')).toContainText(
    `We are glad to give ${alpha.name} telescope time: Approved.`,
  );
  await expect(frame.locator('body')).toContainText(`With best wishes from ${committee.name}`);
  await expect(frame.getByRole('row').filter({ hasText: FACILITY })).toHaveText(AWARD_ROW);

  // --- Not released before the call is closed; review ends and the chair closes it ------
  await page.getByRole('tab', { name: 'Release' }).click();
  await expect(
    page.getByText('Decisions can be released once the call is closed.', { exact: false }),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: 'Release decisions' })).toHaveCount(0);

  await world.endReview();
  await page.goto(`/calls/${call.id}/`);
  await (await openManageMenu(page)).getByRole('menuitem', { name: 'Manage Call' }).click();
  await page.getByRole('button', { name: 'Close Call for Proposal' }).click();
  const closing = page.getByRole('dialog', { name: 'Close this call for proposals?' });
  await closing.getByRole('button', { name: 'Close Call', exact: true }).click();
  await dismissNotification(page, `The call “${call.name}” has been closed.`);

  // --- Release: one letter per proposal with an outcome, each sent -----------------------
  await page.goto(`/calls/${call.id}/letters?tab=release`);
  await expect(page.getByRole('tab', { name: 'Release', selected: true })).toBeVisible();
  await page.getByRole('button', { name: 'Release decisions' }).click();
  const release = page.getByRole('dialog', { name: 'Release decisions?' });
  await expect(release).toContainText('Merit writes 3 letters now');
  await release.getByRole('button', { name: 'Release decisions' }).click();
  await expect(release).toBeHidden();
  await expect(page.getByText('3 letters were queued.')).toBeVisible();
  const letters = page.getByRole('table', { name: 'Letters' });
  for (const [proposal, outcome] of [
    [alpha, 'Approved'],
    [beta, 'Waitlisted'],
    [gamma, 'Declined'],
  ] as const) {
    const row = rowOf(letters, proposal.name);
    await expect(row.getByRole('cell').nth(1)).toHaveText(outcome);
    // The job writes the PDF and queues the mail; the list is asked again until it is sent.
    await expect(row.getByRole('cell').nth(2)).toContainText('Sent', { timeout: 30_000 });
  }
  await expect(page.getByText(/^Decisions were released on /)).toBeVisible();
  await checkA11y(page);

  const mail = await waitForMail({ to: author.email, subject }, { timeout: 30_000 });
  expect(mail.text).toContain(`We are glad to give ${alpha.name} telescope time: Approved.`);
  expect(mail.text).toMatch(AWARD_ROW);
  expect(mail.text).toContain(`With best wishes from ${committee.name}`);

  // --- The author reads the outcome, the award and the letter ---------------------------
  const writer = await openBrowser();
  await logInAs(writer, author);
  await writer.goto(`/calls/${call.id}/proposals/${alpha.id}/`);
  await expect(writer.getByRole('heading', { level: 1, name: alpha.name })).toBeVisible();
  const decision = writer.getByRole('region', { name: 'Decision', exact: true });
  await expect(decision).toContainText('Outcome: Approved');
  await expectCells(rowOf(decision.getByRole('table', { name: 'Awards' }), FACILITY), [
    FACILITY,
    FIELD,
    '12',
    '9.5',
  ]);
  await expect(decision).toContainText(/Decision letter: Sent on /);
  await checkA11y(writer);

  const [download] = await Promise.all([
    writer.waitForEvent('download'),
    decision.getByRole('button', { name: `Download letter (PDF) of ${alpha.name}` }).click(),
  ]);
  const parser = new PDFParse({ data: new Uint8Array(await readFile(await download.path())) });
  const { text } = await parser.getText();
  await parser.destroy();
  expect(text).toContain(committee.name);
  expect(text).toContain(`Dear ${author.fullName},`);
  expect(text).toMatch(AWARD_ROW);
  // What the author reads last: the award, on the page beside the letter.
  await expect(decision.getByRole('cell', { name: '9.5', exact: true })).toBeVisible();
});
