import type { Browser, Page } from '@playwright/test';
import { expect, test } from '../fixtures';
import {
  DEMO_ACCOUNTS,
  DEMO_CALL_IDS as CALL,
  DEMO_CALLS,
  DEMO_COMMITTEE,
  startDemoServer,
  type DemoServer,
} from '../support/demo-server';
import { logInAs, openManageMenu, textField } from '../support/pages';
import { scrollToTop, shoot } from './shoot';

/*
 * The pictures of each role's main screens, and of the manual's Quick tour, made in the
 * demo world (`npm run demo`): a committee's year with a closed call, a call past its
 * review deadline, one in review and one open. Its own server, started here; the
 * screenshots' global setup starts another, empty one, which proposals.shot.ts uses.
 *
 * The demo's ids are fixed on a fresh data folder (calls 1 to 4, proposals 1 to 18):
 * e2e/support/demo-server.ts and apps/server/src/demo/content.ts say which is which.
 */

const PHONE = { width: 390, height: 844 };

let demo: DemoServer;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  demo = await startDemoServer();
});

test.afterAll(async () => {
  await demo?.stop();
});

/** The full name the demo gives `username`. */
function fullName(username: string): string {
  const account = DEMO_ACCOUNTS.find((a) => a.username === username);
  if (!account) throw new Error(`The demo has no account ${username}.`);
  return `${account.firstName} ${account.lastName}`;
}

/**
 * A browser of its own for `username`, logged in to the demo, at the configured desktop
 * size or at a phone's. Not the journeys' `page` fixture: that one checks the page it
 * ends on for accessibility, which the demo journey does; these only take pictures.
 */
async function logIn(
  browser: Browser,
  username: string,
  viewport?: { width: number; height: number },
): Promise<Page> {
  const options = test.info().project.use;
  const context = await browser.newContext({
    baseURL: demo.origin,
    viewport: viewport ?? options.viewport,
    deviceScaleFactor: 1,
    colorScheme: 'light',
    locale: options.locale,
    timezoneId: options.timezoneId,
  });
  const page = await context.newPage();
  await logInAs(page, { username, password: demo.password });
  return page;
}

/** Opens `path` and waits for its heading, `shows` on screen and nothing still loading. */
async function open(page: Page, path: string, heading: string | RegExp, shows?: string | RegExp) {
  await page.goto(path);
  await settled(page, heading, shows);
}

async function settled(page: Page, heading: string | RegExp, shows?: string | RegExp) {
  await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
  if (shows) await expect(page.getByText(shows).first()).toBeVisible();
  await expect(page.getByRole('progressbar', { name: /^(Loading|Counting)/ })).toHaveCount(0);
}

test('applicant: dashboard, a call, the editor, submitting', async ({ browser }) => {
  const maya = await logIn(browser, 'applicant1');
  await settled(maya, 'Dashboard', 'Auroral kilometric radiation and optical arcs');
  await shoot(maya, 'applicant-dashboard');

  await open(maya, `/calls/${CALL.open}`, DEMO_CALLS.open.name, 'Proposal types and forms');
  await shoot(maya, 'applicant-call');

  // A proposal decided in the closed call: its outcome and the committee's summary.
  await open(maya, `/calls/${CALL.closed}/proposals/1`, 'Auroral substorm spectroscopy');
  const decision = maya.getByRole('heading', { name: 'Decision', exact: true });
  await expect(decision).toBeVisible();
  await scrollToTop(decision);
  await shoot(maya, 'applicant-decision');
  await maya.context().close();

  // Chloé's draft in the open call, with its PDFs.
  const chloe = await logIn(browser, 'applicant3');
  await open(
    chloe,
    `/calls/${CALL.open}/proposals/16`,
    'In-situ tomography of snow microstructure',
  );
  await expect(textField(chloe, 'Project title')).toBeEditable();
  await shoot(chloe, 'applicant-editor');

  await (await openManageMenu(chloe)).getByRole('menuitem', { name: 'Submit Proposal' }).click();
  await expect(chloe.getByRole('dialog', { name: 'Submit this proposal?' })).toBeVisible();
  await shoot(chloe, 'applicant-submit');
  await chloe.context().close();
});

test('collaborator: the proposal they help with', async ({ browser }) => {
  // Maya collaborates on Lukas's draft.
  const maya = await logIn(browser, 'applicant1');
  await open(maya, `/calls/${CALL.open}/proposals/15`, 'Deep learning for sea-ice forecasting');
  await expect(textField(maya, 'Project title')).toBeEditable();
  await shoot(maya, 'collaborator-proposal');
  await maya.context().close();
});

test('member: pending reviews, a review and its scores', async ({ browser }) => {
  const amara = await logIn(browser, 'member1');
  await open(amara, '/pending_reviews', 'My Pending Reviews', 'Genome assembly of Arctic lichens');
  await shoot(amara, 'member-pending-reviews');

  await open(
    amara,
    `/calls/${CALL.review}/proposals/9/review`,
    'Review of Genome assembly of Arctic lichens',
  );
  await shoot(amara, 'member-review');

  // The score form, half filled in: the form's tabs at the top of the picture.
  await amara.getByRole('tab', { name: 'Review Scores' }).click();
  const scores = amara.getByRole('tabpanel', { name: 'Review Scores' });
  for (const [question, score] of ['4', '5', '4'].entries()) {
    await scores.getByRole('radiogroup').nth(question).getByRole('radio', { name: score }).check();
  }
  // No focus left on the last choice, which would colour its question.
  await amara.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await scrollToTop(amara.getByRole('tablist', { name: 'Forms of this review' }));
  await shoot(amara, 'member-review-scores');
  await amara.context().close();
});

test('chair: the proposal list, assignment, progress, ranking, letters', async ({ browser }) => {
  const ingrid = await logIn(browser, 'chair');
  await open(
    ingrid,
    `/calls/${CALL.review}/proposals`,
    `Proposals of ${DEMO_CALLS.review.name}`,
    'Exoplanet atmospheres from transit spectra',
  );
  // The list itself, under the downloads and the resource totals.
  await scrollToTop(ingrid.getByRole('searchbox', { name: 'Search proposals' }));
  await shoot(ingrid, 'chair-proposals');

  await open(ingrid, `/calls/${CALL.review}/assignment`, 'Assign Reviewers', fullName('member1'));
  await shoot(ingrid, 'chair-assignment');

  await open(ingrid, `/calls/${CALL.late}/progress`, 'Review Progress', fullName('member1'));
  await shoot(ingrid, 'chair-progress');

  // Capacities against what was asked for and awarded; the ranked list follows.
  await open(ingrid, `/calls/${CALL.closed}/ranking`, 'Ranking', 'Auroral substorm spectroscopy');
  await shoot(ingrid, 'chair-ranking');

  // The letters as released, each with its applicant and when it was sent.
  await open(ingrid, `/calls/${CALL.closed}/letters`, 'Letters');
  await ingrid.getByRole('tab', { name: 'Release' }).click();
  await expect(ingrid.getByText('Auroral substorm spectroscopy').first()).toBeVisible();
  await shoot(ingrid, 'chair-letters');
  await ingrid.context().close();
});

test('administrator: dashboard, users, roles, committee, forms, a new call', async ({
  browser,
}) => {
  const alex = await logIn(browser, 'admin');
  await settled(alex, 'Dashboard');
  await shoot(alex, 'admin-dashboard');

  await open(alex, '/users', 'Manage Users', fullName('member1'));
  await shoot(alex, 'admin-users');

  await alex
    .getByRole('row')
    .filter({ hasText: fullName('chair') })
    .getByRole('link', { name: /View/ })
    .click();
  await settled(alex, /./, 'Committee roles');
  await scrollToTop(alex.getByRole('heading', { name: 'Committee roles' }));
  await shoot(alex, 'admin-user-roles');

  await open(alex, '/committees/1', DEMO_COMMITTEE, fullName('member1'));
  await shoot(alex, 'admin-committee');

  // The project description form, made from the form builder's example.
  await open(alex, '/forms/1', /^Project Description/);
  await shoot(alex, 'admin-form-editor');

  await open(alex, '/calls/new', 'New Call for Proposal');
  await shoot(alex, 'admin-call-wizard');
  await alex.context().close();
});

test('on a phone: the dashboard, the editor, pending reviews', async ({ browser }) => {
  const eilidh = await logIn(browser, 'applicant5', PHONE);
  await settled(eilidh, 'Dashboard', 'Cryo-EM of cold-adapted enzymes');
  await shoot(eilidh, 'phone-dashboard');
  await open(eilidh, `/calls/${CALL.open}/proposals/18`, 'Cryo-EM of cold-adapted enzymes');
  await expect(textField(eilidh, 'Project title')).toBeEditable();
  await shoot(eilidh, 'phone-editor');
  await eilidh.context().close();

  const amara = await logIn(browser, 'member1', PHONE);
  await open(amara, '/pending_reviews', 'My Pending Reviews', 'Genome assembly of Arctic lichens');
  await shoot(amara, 'phone-pending-reviews');
  await amara.context().close();
});
