import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { expect, test } from '../fixtures';
import { readCsv, readXlsx } from '../chair-support/files';
import { createChairWorld, type ChairWorld } from '../chair-support/world';
import { waitForMail } from '../support/mail';
import { dismissNotification, logInAs } from '../support/pages';

/*
 * The decision meeting (issue 14; spec section 2, Proposal list and Decision Summary;
 * section 9, downloads): the chair reads the call on one screen, filters it by facility,
 * reads the totals, takes every download of a type as CSV and XLSX and the whole-call
 * workbook, writes a decision summary and closes the call; then the author reads the
 * decision. The people, the call, its proposals and a review come from the API.
 */

let world: ChairWorld;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  world = await createChairWorld();
});

const listTable = (page: Page) =>
  page.getByRole('table', { name: `Proposals of ${world.call.name}` });
const totalsTable = (page: Page) => page.getByRole('table', { name: 'Resource Totals' });

async function download(page: Page, typeName: string, item: string) {
  await page.getByRole('button', { name: `Download CSV Files: ${typeName}` }).click();
  const [file] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('menuitem', { name: item }).click(),
  ]);
  return file;
}

test('a chair runs the decision meeting from the list and its downloads; the author reads the decision once the call is closed', async ({
  page,
  openBrowser,
}) => {
  test.setTimeout(180_000);
  const { chair, author, call, proposals, tag } = world;
  const rita = `Rita Reviewer${tag}`;
  const ada = `Ada Author${tag}`;

  // --- The list: the chair's columns, the totals, the facility filter -----------------
  await logInAs(page, chair);
  await page.goto(`/calls/${call.id}/proposals/`);
  const table = listTable(page);
  // By default the columns that fit the page: the table does not scroll sideways.
  await expect(table.getByRole('columnheader')).toHaveText([
    'Type',
    'Name',
    'Proposal Author',
    'State',
    'Review Score',
    'Actions',
  ]);
  const scroller = table.locator('xpath=..');
  expect(await scroller.evaluate((node) => node.scrollWidth <= node.clientWidth)).toBe(true);
  // Columns: the chair ticks the rest, by the keyboard; the choice outlives a reload.
  await page.getByRole('button', { name: /^Columns/ }).focus();
  await page.keyboard.press('Enter');
  const picker = page.getByRole('menu', { name: 'Columns to show' });
  for (const column of [
    'Reviewers',
    'ATCA: Hours',
    'ATCA: Nights',
    'Parkes: Hours',
    'Parkes: Nights',
    'Average Field Scores',
  ]) {
    await picker.getByRole('menuitemcheckbox', { name: column }).focus();
    await page.keyboard.press('Enter');
    await expect(picker.getByRole('menuitemcheckbox', { name: column })).toHaveAttribute(
      'aria-checked',
      'true',
    );
  }
  await page.keyboard.press('Escape');
  await expect(picker).toBeHidden();
  await page.reload();
  // The resource fields by their forms' titles ("Hours"), not their keys ("hours").
  await expect(table.getByRole('columnheader')).toHaveText([
    'Type',
    'Name',
    'Proposal Author',
    'State',
    'Reviewers',
    'ATCA: Hours',
    'ATCA: Nights',
    'Parkes: Hours',
    'Parkes: Nights',
    'Average Field Scores',
    'Review Score',
    'Actions',
  ]);
  const galaxyRow = table.getByRole('row').filter({ hasText: proposals.galaxy });
  await expect(galaxyRow.getByRole('cell')).toHaveText([
    'Observing',
    // Its applicants declared no conflict of interest: the chairs are told.
    `${proposals.galaxy}No declarations`,
    ada,
    'Reviewed',
    rita,
    '12.5',
    '3',
    '4',
    'N/A',
    'Significance 4.00 · Feasibility 3.00',
    '3.50',
    /Edit Proposal|View Proposal/,
  ]);
  // Scrolled sideways, the proposal's name stays in view at the table's left edge.
  expect(await scroller.evaluate((node) => node.scrollWidth > node.clientWidth)).toBe(true);
  await scroller.evaluate((node) => (node.scrollLeft = node.scrollWidth));
  const nameCell = galaxyRow.getByRole('cell').nth(1);
  await expect(nameCell).toBeInViewport();
  const [left, nameLeft] = await Promise.all([
    scroller.evaluate((node) => node.getBoundingClientRect().left),
    nameCell.evaluate((node) => node.getBoundingClientRect().left),
  ]);
  expect(Math.abs(nameLeft - left)).toBeLessThan(2);
  await scroller.evaluate((node) => (node.scrollLeft = 0));
  // The chair sees the draft in the list; it counts in no total and no download.
  await expect(table.getByRole('row').filter({ hasText: proposals.draft })).toBeVisible();
  // A draft has no reviews to view.
  await expect(table.getByRole('link', { name: `View Reviews of ${proposals.draft}` })).toHaveCount(
    0,
  );
  await expect(
    table.getByRole('link', { name: `View Reviews of ${proposals.galaxy}` }),
  ).toBeVisible();
  await expect(totalsTable(page).getByRole('row')).toHaveText([
    'FacilityFieldTotal',
    'ATCAHours112.5',
    'ATCANights3',
    'ParkesHours10',
    'ParkesNights3',
  ]);

  // Filter by Facility: only the proposals asking something of Parkes, its columns and
  // its totals (Galaxy's 4 hours and Pulsar's 6).
  await page.getByRole('combobox', { name: 'Filter by Facility' }).selectOption('Parkes');
  await expect(totalsTable(page).getByRole('row')).toHaveText([
    'FacilityFieldTotal',
    'ParkesHours10',
    'ParkesNights3',
  ]);
  await expect(table.getByRole('columnheader')).toHaveText([
    'Type',
    'Name',
    'Proposal Author',
    'State',
    'Reviewers',
    'Parkes: Hours',
    'Parkes: Nights',
    'Average Field Scores',
    'Review Score',
    'Actions',
  ]);
  // The draft and the simulation ask only ATCA.
  await expect(table.getByRole('row')).toHaveCount(3);
  await expect(table.getByRole('row').filter({ hasText: proposals.draft })).toHaveCount(0);
  await expect(table.getByRole('row').filter({ hasText: proposals.simulation })).toHaveCount(0);
  // Sorted by Parkes hours, most first: the server sorts the whole call, N/A last.
  const listRequests: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith(`/api/v1/calls/${call.id}/proposals/`))
      listRequests.push(`${url.pathname}${url.search}`);
  });
  await table.getByRole('button', { name: 'Parkes: Hours' }).click();
  await table.getByRole('button', { name: 'Parkes: Hours' }).click();
  await expect(table.getByRole('row').nth(1)).toContainText(proposals.pulsar);
  await expect(table.getByRole('row').nth(2)).toContainText(proposals.galaxy);
  expect(listRequests).toContain(
    `/api/v1/calls/${call.id}/proposals/?page=1&pageSize=10&sort=-resource&sortFacility=Parkes&sortField=hours&facility=Parkes`,
  );
  listRequests.length = 0;

  // --- The Observing downloads, as CSV --------------------------------------------------
  const score = await download(page, 'Observing', 'Score Summary (CSV)');
  // Each file named by call, type and kind; every CSV UTF-8 with a byte order mark.
  expect(score.suggestedFilename()).toBe(`${call.name} - Observing - Score Summary.csv`);
  const scoreBytes = await readFile((await score.path())!);
  expect([...scoreBytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  // The rows of the type came in one request, not page after page, and only the type's.
  expect(listRequests).toEqual([
    expect.stringMatching(
      new RegExp(`^/api/v1/calls/${call.id}/proposals/export/\\?include=decisions&type=\\d+$`),
    ),
  ]);
  expect(await readCsv(score)).toEqual([
    [
      'Proposal ID',
      'Proposal',
      'Proposal Author',
      'State',
      'Reviewers',
      'Significance',
      'Feasibility',
      'Review Score',
    ],
    [String(world.galaxyId), proposals.galaxy, ada, 'Reviewed', rita, '4.00', '3.00', '3.50'],
    [expect.any(String), proposals.pulsar, ada, 'Submitted', '', 'N/A', 'N/A', 'N/A'],
  ]);

  const comments = await download(page, 'Observing', 'Comments (CSV)');
  expect(comments.suggestedFilename()).toBe(`${call.name} - Observing - Comments.csv`);
  expect(await readCsv(comments)).toEqual([
    ['Proposal ID', 'Proposal', 'Proposal Author', 'State', 'Reviewer', 'Strengths', 'Weaknesses'],
    [String(world.galaxyId), proposals.galaxy, ada, 'Reviewed', rita, 'Clear aims', 'Costly'],
  ]);

  const resources = await download(page, 'Observing', 'Resources (CSV)');
  expect(resources.suggestedFilename()).toBe(`${call.name} - Observing - Resources.csv`);
  const resourceRows = [
    ['Proposal ID', 'Proposal', 'Proposal Author', 'State'],
    [String(world.galaxyId), proposals.galaxy, ada, 'Reviewed'],
  ];
  expect(await readCsv(resources)).toEqual([
    [...resourceRows[0]!, 'ATCA: Hours', 'ATCA: Nights', 'Parkes: Hours', 'Parkes: Nights'],
    [...resourceRows[1]!, '12.5', '3', '4', 'N/A'],
    [expect.any(String), proposals.pulsar, ada, 'Submitted', 'N/A', 'N/A', '6', '3'],
  ]);

  const all = await download(page, 'Observing', 'All (CSV)');
  expect(all.suggestedFilename()).toBe(`${call.name} - Observing - All.csv`);
  const allRows = await readCsv(all);
  expect(allRows[0]).toEqual([
    'Proposal ID',
    'Proposal',
    'Proposal Author',
    'State',
    'Reviewers',
    'Significance',
    'Feasibility',
    'Review Score',
    'ATCA: Hours',
    'ATCA: Nights',
    'Parkes: Hours',
    'Parkes: Nights',
    'Strengths',
    'Weaknesses',
  ]);
  expect(allRows[1]).toEqual([
    String(world.galaxyId),
    proposals.galaxy,
    ada,
    'Reviewed',
    rita,
    '4.00',
    '3.00',
    '3.50',
    '12.5',
    '3',
    '4',
    'N/A',
    `${rita}: Clear aims`,
    `${rita}: Costly`,
  ]);
  expect(allRows).toHaveLength(3);

  // --- The same as XLSX: numbers as numbers with 2 decimals shown ----------------------
  const scoreXlsx = await readXlsx(await download(page, 'Observing', 'Score Summary (XLSX)'));
  expect(scoreXlsx.title).toBe(call.name);
  expect(Date.now() - Date.parse(scoreXlsx.created!)).toBeLessThan(10 * 60 * 1000);
  expect(scoreXlsx.sheets['Observing']).toEqual([
    [
      'Proposal ID',
      'Proposal',
      'Proposal Author',
      'State',
      'Reviewers',
      'Significance',
      'Feasibility',
      'Review Score',
    ],
    // Ids are numbers in the spreadsheets.
    [world.galaxyId, proposals.galaxy, ada, 'Reviewed', rita, 4, 3, 3.5],
    [expect.any(Number), proposals.pulsar, ada, 'Submitted', '', 'N/A', 'N/A', 'N/A'],
  ]);
  expect(scoreXlsx.formats['Observing!H2']).toBe('0.00');
  expect(scoreXlsx.formats['Observing!A2']).toBe('0');

  const commentsXlsx = await download(page, 'Observing', 'Comments (XLSX)');
  expect(commentsXlsx.suggestedFilename()).toBe(`${call.name} - Observing - Comments.xlsx`);
  expect((await readXlsx(commentsXlsx)).sheets['Observing']![1]).toEqual([
    world.galaxyId,
    proposals.galaxy,
    ada,
    'Reviewed',
    rita,
    'Clear aims',
    'Costly',
  ]);

  const resourcesXlsx = await download(page, 'Observing', 'Resources (XLSX)');
  expect(resourcesXlsx.suggestedFilename()).toBe(`${call.name} - Observing - Resources.xlsx`);
  const resourceSheet = (await readXlsx(resourcesXlsx)).sheets['Observing']!;
  expect(resourceSheet.slice(1).map((row) => row.slice(1))).toEqual([
    [proposals.galaxy, ada, 'Reviewed', 12.5, 3, 4, 'N/A'],
    [proposals.pulsar, ada, 'Submitted', 'N/A', 'N/A', 6, 3],
  ]);

  const allXlsx = await download(page, 'Observing', 'All (XLSX)');
  expect(allXlsx.suggestedFilename()).toBe(`${call.name} - Observing - All.xlsx`);
  const allSheet = (await readXlsx(allXlsx)).sheets['Observing']!;
  expect(allSheet[0]).toEqual(allRows[0]);
  expect(allSheet[1]!.slice(5, 12)).toEqual([4, 3, 3.5, 12.5, 3, 4, 'N/A']);

  // --- The whole-call workbook: a sheet per type, frozen headers, filters on -----------
  const [workbookFile] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Whole-Call Workbook (XLSX)' }).click(),
  ]);
  expect(workbookFile.suggestedFilename()).toBe(`${call.name} - Workbook.xlsx`);
  // The workbook is of every type: its request names none.
  expect(listRequests.at(-1)).toBe(
    `/api/v1/calls/${call.id}/proposals/export/?include=allReviewScores,decisions,ranking`,
  );
  const workbook = await readXlsx(workbookFile);
  expect(workbook.title).toBe(call.name);
  // Per type a Reviews and a Resources sheet, then the decision meeting's: no outcome is
  // set, so no outcome columns.
  expect(Object.keys(workbook.sheets)).toEqual([
    'Observing Reviews',
    'Observing Resources',
    'Computing Reviews',
    'Computing Resources',
    'Capacity',
    'Ranking',
  ]);
  // The ranking: by review score, its rank and the proposal id as numbers.
  const rankingSheet = workbook.sheets['Ranking']!;
  expect(rankingSheet[0]!.slice(0, 6)).toEqual([
    'Rank',
    'Proposal ID',
    'Proposal',
    'Proposal Type',
    'Review Score',
    'Outcome',
  ]);
  expect(rankingSheet[1]!.slice(0, 5)).toEqual([
    1,
    world.galaxyId,
    proposals.galaxy,
    'Observing',
    3.5,
  ]);
  expect(rankingSheet.slice(1).map((row) => row[2])).not.toContain(proposals.draft);
  expect(workbook.sheets['Capacity']![0]).toEqual([
    'Facility',
    'Field',
    'Capacity',
    'Requested',
    'Awarded',
    'Requested / Capacity',
    'Awarded / Capacity',
  ]);
  // Reviews: a row per review, no resources.
  expect(workbook.sheets['Observing Reviews']).toEqual([
    [
      'Proposal ID',
      'Proposal',
      'Proposal Author',
      'State',
      'Reviewer',
      'Significance',
      'Feasibility',
      'Reviewer’s Score',
      'Review Score',
    ],
    [world.galaxyId, proposals.galaxy, ada, 'Reviewed', rita, 4, 3, 3.5, 3.5],
    [expect.any(Number), proposals.pulsar, ada, 'Submitted', '', 'N/A', 'N/A', 'N/A', 'N/A'],
  ]);
  // Resources: a row per proposal, so a sum of a column counts each proposal once.
  expect(workbook.sheets['Observing Resources']).toEqual([
    [
      'Proposal ID',
      'Proposal',
      'Proposal Author',
      'State',
      'ATCA: Hours',
      'ATCA: Nights',
      'Parkes: Hours',
      'Parkes: Nights',
    ],
    [world.galaxyId, proposals.galaxy, ada, 'Reviewed', 12.5, 3, 4, 'N/A'],
    [expect.any(Number), proposals.pulsar, ada, 'Submitted', 'N/A', 'N/A', 6, 3],
  ]);
  expect(workbook.sheets['Computing Reviews']!.slice(1)).toEqual([
    [expect.any(Number), proposals.simulation, ada, 'Submitted', '', 'N/A', 'N/A'],
  ]);
  expect(workbook.sheets['Computing Resources']!.slice(1)).toEqual([
    [expect.any(Number), proposals.simulation, ada, 'Submitted', 100],
  ]);
  for (const sheet of [
    'Observing Reviews',
    'Observing Resources',
    'Computing Reviews',
    'Computing Resources',
  ]) {
    expect(workbook.xml[sheet]).toMatch(/<autoFilter ref="A1:[A-Z]+\d+"\/>/);
    expect(workbook.xml[sheet]).toMatch(/<pane [^>]*ySplit="1"/);
  }

  // --- The chair writes the decision summary ------------------------------------------
  await galaxyRow
    .getByRole('link', { name: new RegExp(`(Edit|View) Proposal ${proposals.galaxy}`) })
    .click();
  await expect(page.getByRole('heading', { level: 1, name: proposals.galaxy })).toBeVisible();
  const decision = page.getByRole('region', { name: 'Decision Summary' });
  await expect(decision).toContainText('No decision summary has been written yet.');
  const editor = decision.getByRole('textbox', { name: 'Decision summary' });
  await editor.click();
  await page.keyboard.type('Accepted: 3 nights on ATCA.');
  await decision.getByRole('button', { name: 'Save' }).click();
  await dismissNotification(page, 'The decision summary has been saved.');
  await page.reload();
  await expect(
    page.getByRole('region', { name: 'Decision Summary' }).getByRole('textbox'),
  ).toHaveText('Accepted: 3 nights on ATCA.');

  // --- Review ends; the chair closes the call -----------------------------------------
  await world.endReview();
  await page.goto(`/calls/${call.id}/manage`);
  await page.getByRole('button', { name: 'Close Call for Proposal' }).click();
  const confirm = page.getByRole('dialog', { name: 'Close this call for proposals?' });
  await confirm.getByRole('button', { name: 'Close Call', exact: true }).click();
  await dismissNotification(page, `The call “${call.name}” has been closed.`);
  await waitForMail({ to: author.email, subject: `Decision available: ${proposals.galaxy}` });

  // --- The author reads the decision ---------------------------------------------------
  const writer = await openBrowser();
  await logInAs(writer, author);
  await writer.goto(`/calls/${call.id}/proposals/${world.galaxyId}/`);
  await expect(writer.getByRole('heading', { level: 1, name: proposals.galaxy })).toBeVisible();
  const authorsDecision = writer.getByRole('region', { name: 'Decision Summary' });
  await expect(authorsDecision).toContainText('Accepted: 3 nights on ATCA.');
  await expect(authorsDecision.getByRole('button', { name: 'Save' })).toHaveCount(0);
  // …and the list shows the author none of the chair's columns or downloads.
  await writer.goto(`/calls/${call.id}/proposals/`);
  await expect(listTable(writer).getByRole('columnheader')).toHaveText([
    'Type',
    'Name',
    'Proposal Author',
    'State',
    'Actions',
  ]);
  await expect(writer.getByRole('button', { name: /Download CSV Files/ })).toHaveCount(0);
  await expect(writer.getByText(rita)).toHaveCount(0);
});
