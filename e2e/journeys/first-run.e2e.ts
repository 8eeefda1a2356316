import { createWriteStream, mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { REPO_ROOT, findFreePort, startServer } from '../../scripts/lib/server.mjs';
import { daysFromNow, localInputValue } from '../calls-support/api';
import { checkA11y, expect, test as base, type Credentials } from '../fixtures';
import { linkToServer, waitForMail } from '../support/mail';
import { newPerson } from '../support/people';
import { dismissNotification, expectDashboard, logInAs, logOut } from '../support/pages';
import { fillRegistrationForm, VERIFICATION_SUBJECT } from '../support/registration';

/** A Merit server with an empty database, for this file alone. */
interface FreshMerit {
  url: string;
  dataDir: string;
  admin: Credentials;
}

const ADMIN = { username: 'first-admin', password: 'First-Run-Admin-Passw0rd!' };

/**
 * The guided first run (issue 30) starts from an installation with nothing in it: the
 * shared e2e server has the other journeys' committees, forms and calls, so this file
 * starts a server of its own on an empty DATA_DIR, as a new installation is.
 */
const test = base.extend<object, { fresh: FreshMerit }>({
  fresh: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixture's dependencies from this pattern
    async ({}, use) => {
      const logFile = resolve(REPO_ROOT, 'test-results', 'e2e-first-run-server.log');
      mkdirSync(resolve(logFile, '..'), { recursive: true });
      const log = createWriteStream(logFile);
      // The port first: PUBLIC_URL, which the links in mails start with, is this server's.
      const port = await findFreePort();
      const url = `http://127.0.0.1:${port}`;
      const server = await startServer({
        port,
        env: {
          PUBLIC_URL: url,
          SMTP_URL: undefined,
          INITIAL_ADMIN_USERNAME: ADMIN.username,
          INITIAL_ADMIN_EMAIL: 'first-admin@example.test',
          INITIAL_ADMIN_PASSWORD: ADMIN.password,
          LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
        },
        onLog: (line) => log.write(`${line}\n`),
      });
      await use({ url: server.url, dataDir: server.dataDir, admin: ADMIN });
      await server.stop();
      await new Promise((done) => log.end(done));
    },
    { scope: 'worker', timeout: 120_000 },
  ],
  baseURL: async ({ fresh }, use) => {
    await use(fresh.url);
  },
});

const checklistOf = (page: Page) =>
  page.getByRole('region', { name: 'Set up Merit for your committee' });

/** One step of the checklist, by its title. */
const stepOf = (checklist: Locator, title: string) =>
  checklist
    .getByRole('listitem')
    .filter({ has: checklist.page().getByRole('heading', { name: title, level: 3 }) });

/** Back to the dashboard by the side menu, where the checklist says how far setup is. */
async function backToChecklist(page: Page, done: readonly string[]): Promise<Locator> {
  await page
    .getByRole('navigation', { name: 'Main navigation' })
    .getByRole('link', { name: 'Dashboard' })
    .click();
  const checklist = checklistOf(page);
  await expect(checklist).toBeVisible();
  await expect(checklist).toContainText(`${done.length} of 5 steps done.`);
  for (const title of done) await expect(stepOf(checklist, title)).toContainText('Done');
  return checklist;
}

/** New Form → Load example → the example's own form name → Create form. */
async function formFromExample(page: Page, checklist: Locator, example: RegExp, saved: string) {
  await stepOf(checklist, 'Add forms')
    .getByRole('link', { name: 'New Form (Load example)' })
    .click();
  await expect(page.getByRole('heading', { name: 'New Form' })).toBeVisible();
  await page.getByRole('button', { name: 'Load example' }).click();
  await page.getByRole('menuitem', { name: example }).click();
  // On an empty installation the example's form name does not exist yet: the editor offers it.
  await page.getByRole('button', { name: 'Create form name' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add form name' });
  await expect(dialog).toBeVisible();
  await checkA11y(page);
  await dialog.getByRole('button', { name: 'Add form name' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('textbox', { name: 'Version' })).toHaveValue('1');
  await page.getByRole('button', { name: 'Create form', exact: true }).click();
  await dismissNotification(page, `${saved} version 1 has been saved.`);
  await expect(page).toHaveURL(/\/forms\/\d+\/?$/);
}

test('from an empty database, the admin follows the checklist to a call an invited applicant can apply to', async ({
  page,
  browser,
  fresh,
}) => {
  // Five admin screens, two forms, the call wizard, and a registration with its mail.
  test.setTimeout(240_000);
  const committee = 'Synchrotron Access Committee';
  const callName = 'Beamtime 2027, round 1';
  let inviteLink = '';

  await test.step('the admin’s first dashboard is the checklist, nothing done', async () => {
    await logInAs(page, fresh.admin);
    await expectDashboard(page, fresh.admin.username);
    const checklist = checklistOf(page);
    await expect(checklist).toContainText('0 of 5 steps done.');
    for (const title of [
      'Create a committee',
      'Give someone the chair role',
      'Add forms',
      'Create a call',
      'Invite people',
    ])
      await expect(stepOf(checklist, title)).toContainText('To do');
    await expect(checklist).toContainText('The link names a committee: create one first.');
    await checkA11y(page);
  });

  await test.step('1. a committee', async () => {
    await stepOf(checklistOf(page), 'Create a committee')
      .getByRole('link', { name: 'Add Committee' })
      .click();
    await expect(page.getByRole('heading', { name: 'New Committee' })).toBeVisible();
    await page.getByRole('textbox', { name: 'Name' }).fill(committee);
    await page.getByRole('button', { name: 'Add Committee' }).click();
    await expect(page.getByRole('heading', { name: committee })).toBeVisible();
    await dismissNotification(page, `The committee ${committee} has been added.`);
    await checkA11y(page);
    await backToChecklist(page, ['Create a committee']);
  });

  await test.step('2. the chair role, which the admin gives themselves', async () => {
    await stepOf(checklistOf(page), 'Give someone the chair role')
      .getByRole('link', { name: 'Manage Users' })
      .click();
    await expect(page.getByRole('heading', { name: 'Manage Users' })).toBeVisible();
    await checkA11y(page);
    await page.getByRole('link', { name: `View ${fresh.admin.username}` }).click();
    await expect(
      page.getByText(/This user has no committee roles\. Give one with Add Role/),
    ).toBeVisible();
    await page.getByRole('link', { name: 'Add Role' }).click();
    await page.getByRole('combobox', { name: 'Committee' }).selectOption({ label: committee });
    await page.getByRole('combobox', { name: 'Role' }).selectOption({ label: 'Chair' });
    const day = (days: number) =>
      new Date(Date.now() + days * 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
    await page.getByLabel('Effective from').fill(day(-1));
    await page.getByLabel('Effective until').fill(day(365));
    await page.getByRole('button', { name: 'Add Role' }).click();
    await dismissNotification(page, 'The role has been added.');
    await checkA11y(page);
    await backToChecklist(page, ['Create a committee', 'Give someone the chair role']);
  });

  await test.step('3. forms, from the Form Builder’s examples', async () => {
    await formFromExample(page, checklistOf(page), /^Project description/, 'Project Description');
    await checkA11y(page);
    const checklist = await backToChecklist(page, [
      'Create a committee',
      'Give someone the chair role',
      'Add forms',
    ]);
    // A call needs a review form as well as a proposal form.
    await formFromExample(page, checklist, /^Review\s*Review Form$/, 'Review');
    await backToChecklist(page, ['Create a committee', 'Give someone the chair role', 'Add forms']);
  });

  await test.step('4. a call, open for submission now, made with the wizard', async () => {
    await stepOf(checklistOf(page), 'Create a call')
      .getByRole('link', { name: 'Add Call for Proposal' })
      .click();
    await expect(
      page.getByRole('heading', { level: 1, name: 'New Call for Proposal' }),
    ).toBeVisible();
    await page.getByRole('combobox', { name: 'Committee' }).selectOption({ label: committee });
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill(callName);
    await page.getByLabel('Submission opens').fill(localInputValue(daysFromNow(-1, 9)));
    await page.getByLabel('Submission deadline').fill(localInputValue(daysFromNow(30, 17)));
    await page.getByLabel('Review starts').fill(localInputValue(daysFromNow(31, 9)));
    await page.getByLabel('Review deadline').fill(localInputValue(daysFromNow(60, 17)));
    await page.getByRole('textbox', { name: 'Description' }).click();
    await page.keyboard.type('Beam time on the powder diffraction line.');
    await checkA11y(page);
    await page.getByRole('button', { name: 'Next' }).click();

    await page
      .getByRole('region', { name: 'Proposal type 1' })
      .getByRole('textbox', { name: 'Type name' })
      .fill('Standard');
    const type = page.getByRole('region', { name: 'Standard', exact: true });
    for (const [kind, label] of [
      ['proposal', 'Project Description (version 1) · Proposal Form'],
      ['review', 'Review (version 1) · Review Form'],
    ] as const) {
      await type.getByLabel(`Add a ${kind} form to Standard`).selectOption({ label });
      await type.getByRole('button', { name: `Add the chosen ${kind} form to Standard` }).click();
    }
    await checkA11y(page);
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('button', { name: 'Finish' }).click();
    await expect(
      page.getByText(`The call for proposals “${callName}” has been created.`),
    ).toBeVisible();
    await checkA11y(page);
    await backToChecklist(page, [
      'Create a committee',
      'Give someone the chair role',
      'Add forms',
      'Create a call',
    ]);
  });

  await test.step('5. the invitation link, copied', async () => {
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    const step = stepOf(checklistOf(page), 'Invite people');
    await expect(step).toContainText('To do');
    const field = step.getByRole('textbox', { name: `Invitation link to ${committee}` });
    await expect(field).toHaveValue(new RegExp(`^${fresh.url}/auth/register\\?invite=`));
    await step.getByRole('button', { name: 'Copy link' }).click();
    await dismissNotification(page, `Invitation link to ${committee} copied to the clipboard.`);
    inviteLink = await page.evaluate(() => navigator.clipboard.readText());
    await expect(field).toHaveValue(inviteLink);
    await checkA11y(page);
    await logOut(page, fresh.admin.username);
  });

  const applicant = newPerson('applicant');
  const applicantPage = await (await browser.newContext({ baseURL: fresh.url })).newPage();

  await test.step('an applicant registers through the link, seeing the committee named', async () => {
    await applicantPage.goto(inviteLink);
    await expect(applicantPage.getByRole('heading', { name: 'Register' })).toBeVisible();
    await expect(
      applicantPage.getByText(`You are registering to join ${committee}.`, { exact: false }),
    ).toBeVisible();
    await checkA11y(applicantPage);
    await fillRegistrationForm(applicantPage, applicant);
    await applicantPage.getByRole('button', { name: 'Register', exact: true }).click();
    await expect(applicantPage.getByRole('heading', { name: 'Check your email' })).toBeVisible();
    const mail = await waitForMail(
      { to: applicant.email, subject: VERIFICATION_SUBJECT },
      { dataDir: fresh.dataDir },
    );
    await applicantPage.goto(linkToServer(mail, fresh.url));
    await expect(applicantPage.getByText('Your email address has been verified.')).toBeVisible();
  });

  await test.step('the applicant’s dashboard offers the call to apply to', async () => {
    await logInAs(applicantPage, applicant);
    await expectDashboard(applicantPage, `${applicant.firstName} ${applicant.lastName}`);
    const myProposals = applicantPage.getByRole('region', { name: 'My Proposals' });
    await expect(myProposals).toContainText(
      'You have no proposals yet. These calls accept proposals now:',
    );
    const apply = myProposals.getByRole('link', { name: `Apply to ${callName}` });
    await expect(apply).toBeVisible();
    await checkA11y(applicantPage);
    await apply.click();
    await expect(applicantPage).toHaveURL(/\/calls\/\d+\/new$/);
    await applicantPage.context().close();
  });

  await test.step('with someone invited, every step is done and the checklist is gone', async () => {
    await logInAs(page, fresh.admin);
    await expectDashboard(page, fresh.admin.username);
    await expect(page.getByRole('region', { name: 'My Proposals' })).toBeVisible();
    await expect(checklistOf(page)).toHaveCount(0);
    await checkA11y(page);
  });
});
