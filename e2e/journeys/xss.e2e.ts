import type { Download, Locator, Page } from '@playwright/test';
import { api } from '../calls-support/api';
import { readCsv, readXlsx, type Cell } from '../chair-support/files';
import { adminCredentials, expect, test } from '../fixtures';
import {
  injectedMarkup,
  markersOnPage,
  openWatchedBrowser,
  type Sighting,
} from '../security/canaries';
import { FORMULA_PAYLOADS, markersIn, PAYLOADS } from '../security/xss-payloads';
import { BATCHES, createXssWorld, type XssWorld } from '../security/xss-world';
import { logInAs, openManageMenu } from '../support/pages';

/*
 * The XSS corpus (issue 16, item 5): every payload of e2e/security/xss-payloads.ts goes
 * into rich text, names, form answers and file names (see xss-world.ts for which field
 * holds which), and the journey opens every page that shows them as the people who see
 * them: the chair (the administrator), the author and the reviewer. Their browsers
 * report any payload that runs (canaries.ts); none may. The chair's downloads and the
 * Review Summary are opened as a spreadsheet would open them: no cell starts a formula.
 */

let world: XssWorld;

test.beforeAll(async () => {
  // Two registrations, ~150 committees, forms, calls and proposals, ~150 uploads.
  test.setTimeout(600_000);
  world = await createXssWorld();
});

/** What the journey saw: renders checked by page kind, and every payload shown. */
class Tally {
  readonly byPage = new Map<string, { visits: number; renders: number }>();
  readonly shown = new Set<number>();
  readonly markup: string[] = [];

  /**
   * Waits for the page to settle, then counts the payloads it shows (those `within` a part
   * of it, if given) and scans its markup.
   */
  async check(
    page: Page,
    kind: string,
    { expectMarkers = true, within }: { expectMarkers?: boolean; within?: Locator } = {},
  ): Promise<number> {
    await page.waitForLoadState('networkidle');
    if (expectMarkers) {
      await expect
        .poll(async () => (await markersOnPage(page)).size, {
          message: `${kind} at ${page.url()} shows no payload`,
        })
        .toBeGreaterThan(0);
    }
    // Handlers that fire late (autofocus, toggle, animations, image errors) get their chance.
    await page.waitForTimeout(300);
    const markers = within ? markersIn(await within.innerText()) : await markersOnPage(page);
    for (const id of markers) this.shown.add(id);
    const entry = this.byPage.get(kind) ?? { visits: 0, renders: 0 };
    entry.visits += 1;
    entry.renders += markers.size;
    this.byPage.set(kind, entry);
    for (const found of await injectedMarkup(page)) this.markup.push(`${page.url()}: ${found}`);
    return markers.size;
  }

  /** Visits `path` and checks it. */
  async visit(page: Page, kind: string, path: string, options?: { expectMarkers?: boolean }) {
    await page.goto(path);
    return this.check(page, kind, options);
  }

  /**
   * Goes to `path` inside the app, as its own links do (no reload: quicker for the ~150
   * call pages), and checks it once the payload `expected` is on screen.
   */
  async visitInApp(page: Page, kind: string, path: string, expected: number) {
    await page.evaluate((to) => {
      window.history.pushState({}, '', to);
      window.dispatchEvent(new PopStateEvent('popstate'));
    }, path);
    // The call's own payload arrives with its data, in the render that replaces the call
    // before. (Each call page also shows the form of payload 1, by its name.)
    await expect
      .poll(async () => (await markersOnPage(page)).has(expected), {
        message: `${kind} at ${path} does not show payload ${expected}`,
      })
      .toBe(true);
    return this.check(page, kind, { expectMarkers: false });
  }

  get renders() {
    return [...this.byPage.values()].reduce((sum, entry) => sum + entry.renders, 0);
  }

  get visits() {
    return [...this.byPage.values()].reduce((sum, entry) => sum + entry.visits, 0);
  }

  report(): string {
    const rows = [...this.byPage].map(
      ([kind, { visits, renders }]) =>
        `  ${kind.padEnd(44)} ${String(visits).padStart(4)} ${String(renders).padStart(7)}`,
    );
    return [
      `XSS corpus: ${PAYLOADS.length} payloads; ${this.shown.size} shown somewhere; ` +
        `${this.visits} page visits; ${this.renders} payload x page renders checked`,
      `  ${'page'.padEnd(44)} ${'visits'.padStart(4)} ${'renders'.padStart(7)}`,
      ...rows,
    ].join('\n');
  }
}

/** Every cell of a table that a spreadsheet would read as a formula. */
const formulaCells = (rows: readonly (readonly Cell[])[]) =>
  rows.flatMap((row) =>
    row.filter((cell): cell is string => typeof cell === 'string' && /^[=+\-@\t\r]/.test(cell)),
  );

async function downloadFrom(page: Page, item: string): Promise<Download> {
  await page.getByRole('button', { name: /^Download CSV Files/ }).click();
  const [file] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('menuitem', { name: item }).click(),
  ]);
  return file;
}

test('no payload runs on any page that shows it, and no download holds a formula', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(900_000);
  const sightings: Sighting[] = [];
  const tally = new Tally();
  const { main, proposals, drafts, reviewed } = world;
  const proposalPath = (id: number) => `/calls/${main.id}/proposals/${id}/`;

  // --- The author, while the call is open: the editor, its files, the dashboard --------
  const author = await openWatchedBrowser(browser, baseURL!, sightings);
  await logInAs(author, world.author);
  await tally.visit(author, 'dashboard (author)', '/?proposals.size=100');
  await tally.visit(author, 'new proposal (call, types)', `/calls/${main.id}/new`);
  const fileNames = new Set<number>();
  for (const draft of drafts) {
    await tally.visit(author, 'proposal editor (author)', proposalPath(draft.id));
    await (
      await openManageMenu(author)
    )
      .getByRole('menuitem', { name: 'Manage Uploaded Files' })
      .click();
    const files = author.getByRole('dialog', { name: 'Manage Uploaded Files' });
    await expect(files.getByRole('table', { name: 'Uploaded files' })).toBeVisible();
    // The list shows ten files a page: each page is a render of its own.
    for (;;) {
      await tally.check(author, 'Manage Uploaded Files (file names)', { within: files });
      for (const id of markersIn(await files.innerText())) fileNames.add(id);
      const next = files.getByRole('button', { name: 'Go to next page' });
      if (await next.isDisabled()) break;
      await next.click();
    }
    await files.getByRole('button', { name: 'Close' }).click();
  }
  expect(fileNames.size, 'every payload named a file in the list').toBe(PAYLOADS.length);
  await tally.visit(author, 'proposal view (author, submitted)', proposalPath(proposals[0]!.id));

  // --- The reviewer: dashboard, pending reviews, the review editor ---------------------
  const reviewer = await openWatchedBrowser(browser, baseURL!, sightings);
  await logInAs(reviewer, world.reviewer);
  await tally.visit(reviewer, 'dashboard (reviewer)', '/?reviews.size=100');
  await tally.visit(reviewer, 'pending reviews', '/pending_reviews');
  await tally.visit(reviewer, 'review editor', `${proposalPath(reviewed.id)}review/`);
  // The proposal's answers are folded away until the reviewer opens them.
  for (const summary of await reviewer
    .locator('.MuiAccordionSummary-root[aria-expanded="false"]')
    .all()) {
    await summary.click();
  }
  await tally.check(reviewer, 'review editor, answers open');

  // --- The chair (the administrator) ----------------------------------------------------
  const chair = await openWatchedBrowser(browser, baseURL!, sightings);
  await logInAs(chair, adminCredentials());
  await tally.visit(chair, 'dashboard (admin)', '/', { expectMarkers: false });
  await tally.visit(chair, 'call page, every payload', `/calls/${main.id}`);
  for (const { id, payload } of world.payloadCalls) {
    await tally.visitInApp(chair, 'call page, one payload', `/calls/${id}`, payload.id);
  }
  for (const list of ['/calls?size=100', '/calls?size=100&page=2', '/calls/all?size=100']) {
    await tally.visit(chair, 'call list', list);
  }
  await tally.visit(chair, 'edit call (rich-text editor)', `/calls/${main.id}/update`);
  await tally.visit(chair, 'manage call', `/calls/${main.id}/manage`);
  for (const list of ['?size=100', '?size=100&page=2']) {
    await tally.visit(chair, 'proposal list (chair)', `/calls/${main.id}/proposals/${list}`);
  }
  for (const proposal of proposals.slice(0, BATCHES.length)) {
    await tally.visit(chair, 'proposal view, decision editor (chair)', proposalPath(proposal.id));
  }
  await tally.visit(chair, 'review list', `${proposalPath(reviewed.id)}reviews/`);
  await tally.visit(chair, 'review', `${proposalPath(reviewed.id)}reviews/${world.reviewId}`);
  for (const list of ['/committees?size=100', '/committees?size=100&page=2']) {
    await tally.visit(chair, 'committee list', list);
  }
  await tally.visit(chair, 'committee', `/committees/${main.committeeId}`);
  await tally.visit(chair, 'form builder', '/forms');
  await tally.visit(chair, 'form editor and preview', `/forms/${world.proposalFormId}`);
  await tally.visit(chair, 'users', `/users?q=${world.tag}`, { expectMarkers: false });

  // --- The chair's downloads: no text cell may start a formula -------------------------
  await chair.goto(`/calls/${main.id}/proposals/`);
  const formulaNames = world.formulaProposals.map((proposal) => proposal.name);
  const authorName = `${world.author.firstName} ${world.author.lastName}`;
  const reviewerName = `${world.reviewer.firstName} ${world.reviewer.lastName}`;
  // One row per proposal: every proposal named by a formula is there, as text.
  for (const item of ['Score Summary (CSV)', 'Resources (CSV)', 'All (CSV)']) {
    const rows = await readCsv(await downloadFrom(chair, item));
    expect(formulaCells(rows), `${item}: cells a spreadsheet would run`).toEqual([]);
    expect(rows.length, `${item}: a row per submitted proposal`).toBe(
      proposals.length + formulaNames.length + 1,
    );
    const names = rows.map((row) => row[1]);
    for (const name of formulaNames) expect(names).toContain(`'${name}`);
    expect(rows.map((row) => row[2])).toContain(`'${authorName}`);
  }
  // One row per review: the reviewer's name and answers that start formulas, as text.
  const comments = await readCsv(await downloadFrom(chair, 'Comments (CSV)'));
  expect(formulaCells(comments), 'Comments (CSV): cells a spreadsheet would run').toEqual([]);
  const commentCells = comments.flat();
  expect(commentCells).toContain(`'${reviewerName}`);
  expect(commentCells).toContain(`'${FORMULA_PAYLOADS[6]}`);
  expect(commentCells).toContain(`'${FORMULA_PAYLOADS[4]}`);
  expect(commentCells).toContain(`'${FORMULA_PAYLOADS[5]}`);
  for (const item of [
    'Score Summary (XLSX)',
    'Comments (XLSX)',
    'Resources (XLSX)',
    'All (XLSX)',
  ]) {
    const { sheets } = await readXlsx(await downloadFrom(chair, item));
    for (const rows of Object.values(sheets)) {
      expect(formulaCells(rows), `${item}: cells a spreadsheet would run`).toEqual([]);
      expect(rows.map((row) => row[1])).toContain(`'${FORMULA_PAYLOADS[0]}`);
      expect(rows.map((row) => row[2])).toContain(`'${authorName}`);
    }
  }
  const [workbookFile] = await Promise.all([
    chair.waitForEvent('download'),
    chair.getByRole('button', { name: 'Whole-Call Workbook (XLSX)' }).click(),
  ]);
  const workbook = await readXlsx(workbookFile);
  for (const rows of Object.values(workbook.sheets))
    expect(formulaCells(rows), 'the workbook: cells a spreadsheet would run').toEqual([]);
  // After the types' sheets, the decision meeting's (issue 29): the ranking names the
  // proposals too, as text.
  const { Capacity: capacity, Ranking: ranking, ...typeSheets } = workbook.sheets;
  expect(capacity).toBeDefined();
  expect(ranking!.flat()).toContain(`'${FORMULA_PAYLOADS[0]}`);
  // Per type a Reviews sheet (a row per review) and a Resources sheet (a row per proposal).
  const sheetsOf = (kind: string) =>
    Object.entries(typeSheets)
      .filter(([name]) => name.endsWith(` ${kind}`))
      .map(([, rows]) => rows);
  expect(sheetsOf('Reviews').length).toBeGreaterThan(0);
  expect(sheetsOf('Reviews')).toHaveLength(sheetsOf('Resources').length);
  for (const rows of sheetsOf('Reviews')) {
    expect(rows.map((row) => row[4])).toContain(`'${reviewerName}`);
    // Scores are numbers, not text with an apostrophe.
    expect(rows.some((row) => typeof row[5] === 'number')).toBe(true);
  }
  expect(sheetsOf('Resources').flatMap((rows) => rows.map((row) => row[1]))).toContain(
    `'${FORMULA_PAYLOADS[0]}`,
  );

  // The Review Summary of the formula proposal's reviews.
  const formulaPath = proposalPath(world.formulaProposals[0]!.id);
  await chair.goto(`${formulaPath}reviews/`);
  const [summaryFile] = await Promise.all([
    chair.waitForEvent('download'),
    chair.getByRole('button', { name: 'Download Review Summary CSV' }).click(),
  ]);
  const summary = await readCsv(summaryFile);
  expect(formulaCells(summary), 'Review Summary: cells a spreadsheet would run').toEqual([]);
  expect(summary[1]).toEqual(
    expect.arrayContaining([
      `'${reviewerName}`,
      `'${FORMULA_PAYLOADS[4]}`,
      `'${FORMULA_PAYLOADS[5]}`,
    ]),
  );

  // --- The call closes; the author reads the decision summaries ------------------------
  await world.endReview();
  await api('POST', '/close_call/', { token: world.adminToken, body: { callId: main.id } });
  for (const proposal of proposals.slice(0, BATCHES.length)) {
    await tally.visit(author, 'decision summary (author, call closed)', proposalPath(proposal.id));
  }
  await tally.visit(author, 'proposal list (author)', `/calls/${main.id}/proposals/?size=100`);
  await tally.visit(author, 'call list (closed)', '/calls/closed?size=100');

  // A last look for handlers that fire late, then the verdict.
  await author.waitForTimeout(1000);
  console.log(tally.report());
  console.log(`Sightings: ${sightings.length}; injected markup: ${tally.markup.length}`);
  await test.info().attach('xss-tally', { body: tally.report() });
  expect(tally.shown.size, 'every payload was shown on some page').toBe(PAYLOADS.length);
  // Payloads that ran, browser errors, and markup a payload put in a page: none.
  expect({ sightings, markup: tally.markup }).toEqual({ sightings: [], markup: [] });
  for (const page of [author, reviewer, chair]) await page.context().close();
});
