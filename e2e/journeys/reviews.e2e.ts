import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { e2eEnv } from '../env';
import { checkA11y, expect, test } from '../fixtures';
import { choose } from '../proposals-support/editor';
import { createReviewsWorld, type ReviewsWorld } from '../reviews-support/world';
import { linkToServer, waitForMail } from '../support/mail';
import { dismissNotification, logInAs, openManageMenu, textField } from '../support/pages';

/*
 * Reviewing a proposal (spec section 2, Reviews and Dashboard; section 6, Chair, Member
 * and Authors): a chair assigns a member, the member reviews, the chair reads the
 * reviews and their totals, and the author sees none of it. The people, the call and the
 * submitted proposal come from the API; what the journey checks is what they see.
 */

let world: ReviewsWorld;

test.beforeAll(async () => {
  // Three registrations with captcha and mail, a committee, three forms, a call and a proposal.
  test.setTimeout(90_000);
  world = await createReviewsWorld();
});

const proposalPath = () => `/calls/${world.call.id}/proposals/${world.proposal.id}/`;

/** The review editor's tab of a form, by its name (which goes on with its marks). */
function reviewTab(page: Page, formName: string) {
  return page
    .getByRole('tablist', { name: 'Forms of this review' })
    .getByRole('tab', { name: new RegExp(`^${formName}`) });
}

test('a chair assigns a reviewer, the member reviews, the chair reads the totals; the author sees none of it', async ({
  page,
  openBrowser,
}) => {
  test.setTimeout(180_000);
  const { chair, member, author, call, proposal, forms } = world;

  // --- The chair assigns Grace in Manage Reviewers ----------------------------------
  await logInAs(page, chair);
  await page.goto(proposalPath());
  await expect(page.getByRole('heading', { level: 1, name: proposal.name })).toBeVisible();
  const about = page.getByRole('region', { name: 'About this proposal' });
  await expect(about).toContainText('No reviewers assigned · Review score: N/A');
  const menu = await openManageMenu(page);
  await expect(menu.getByRole('menuitem')).toHaveText([
    'Save PDF',
    'View Reviews',
    'Manage Reviewers',
    'Manage Uploaded Files',
  ]);
  await menu.getByRole('menuitem', { name: 'Manage Reviewers' }).click();
  const dialog = page.getByRole('dialog', { name: 'Manage Reviewers' });
  await expect(dialog).toContainText('This proposal has no reviewers yet.');
  await dialog.getByRole('searchbox', { name: 'Search committee members' }).fill('Grace');
  const candidates = dialog.getByRole('list', { name: 'Committee members' });
  await expect(candidates.getByRole('listitem')).toHaveCount(1);
  await checkA11y(page);
  await candidates.getByRole('button', { name: `Assign ${member.fullName}` }).click();
  await dismissNotification(page, `${member.fullName} is now a reviewer of this proposal.`);
  await expect(dialog.getByRole('list', { name: 'Reviewers' })).toContainText(member.fullName);
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(about).toContainText(`Reviewers: ${member.fullName}`);

  // Grace is told by mail, with a link to the review page.
  const mail = await waitForMail({ to: member.email, subject: `Please review: ${proposal.name}` });
  expect(linkToServer(mail, e2eEnv('baseUrl'))).toMatch(
    new RegExp(`/calls/${call.id}/proposals/${proposal.id}/review/$`),
  );

  // --- Grace finds it in My Pending Reviews and reviews it ---------------------------
  const reviewer = await openBrowser();
  await logInAs(reviewer, member);
  const pendingPanel = reviewer.getByRole('heading', { name: 'Pending reviews' }).locator('..');
  await expect(pendingPanel.getByText('1', { exact: true })).toBeVisible();
  await reviewer
    .getByRole('navigation', { name: 'Main navigation' })
    .getByRole('link', { name: 'My Pending Reviews' })
    .click();
  const pending = reviewer.getByRole('table', { name: 'My Pending Reviews' });
  const row = pending.getByRole('row').filter({ hasText: proposal.name });
  await expect(row).toContainText(call.name);
  await checkA11y(reviewer);
  // Not written yet: the row opens the review page itself.
  await row.getByRole('link', { name: `Write Review ${proposal.name}` }).click();
  await expect(
    reviewer.getByRole('heading', { level: 1, name: `Review of ${proposal.name}` }),
  ).toBeVisible();
  // The proposal, to read while reviewing.
  await reviewer.getByRole('button', { name: forms.observing }).click();
  // Read as a page: each field's title with its answer, no greyed-out fields.
  const projectTitle = reviewer.locator('dt', { hasText: /^Project title$/ });
  await expect(projectTitle.locator('xpath=following-sibling::dd[1]')).toHaveText(
    'Dust in the Magellanic Bridge',
  );
  await expect(textField(reviewer, 'Project title')).toHaveCount(0);
  await expect(reviewer.getByRole('tab')).toHaveText([forms.review, forms.scores]);
  const score = reviewer.getByRole('status', { name: 'Score' });
  await expect(score).toHaveText('ScoreN/A');

  await textField(reviewer, 'Strengths').fill('A clear plan, "well" costed.');
  await reviewTab(reviewer, forms.scores).click();
  await choose(reviewer, 'Significance', '5');
  await expect(score).toHaveText('Score5.00');
  await choose(reviewer, 'Feasibility', '4');
  // The average of the two, worked out as Grace scores.
  await expect(score).toHaveText('Score4.50');
  await checkA11y(reviewer);
  await reviewer.getByRole('button', { name: 'Save', exact: true }).click();
  await dismissNotification(reviewer, 'Saved successfully.');
  await expect(reviewer).toHaveURL(
    new RegExp(`/calls/${call.id}/proposals/${proposal.id}/reviews/\\d+/`),
  );
  // As the server keeps it, read again.
  await reviewer.reload();
  await expect(reviewer.getByText(`Review by ${member.fullName}`)).toBeVisible();
  await expect(score).toHaveText('Score4.50');
  await reviewTab(reviewer, forms.review).click();
  await expect(textField(reviewer, 'Strengths')).toHaveValue('A clear plan, "well" costed.');

  // Reviewed: it leaves My Pending Reviews and is among My Reviews.
  await reviewer
    .getByRole('navigation', { name: 'Main navigation' })
    .getByRole('link', { name: 'Dashboard' })
    .click();
  await expect(pendingPanel.getByText('0', { exact: true })).toBeVisible();
  const mine = reviewer
    .getByRole('table', { name: 'My Reviews' })
    .getByRole('row')
    .filter({ hasText: proposal.name });
  await expect(mine).toContainText('4.50');

  // --- The chair reads the reviews, the totals, and downloads the summary ------------
  // Every assigned reviewer has reviewed it: chairs see it Reviewed, with its score.
  await page.reload();
  await expect(about).toContainText('Reviewed');
  await expect(about).toContainText('Review score: 4.50');
  await (await openManageMenu(page)).getByRole('menuitem', { name: 'View Reviews' }).click();
  await expect(
    page.getByRole('heading', { level: 1, name: `Reviews of ${proposal.name}` }),
  ).toBeVisible();
  const reviews = page.getByRole('table', { name: 'Reviews' });
  await expect(reviews.getByRole('columnheader')).toHaveText([
    'Reviewer',
    'Significance',
    'Feasibility',
    'Score',
    'Last modified',
    'Open',
  ]);
  const review = reviews.getByRole('row').filter({ hasText: member.fullName });
  await expect(review.getByRole('cell')).toHaveText([
    member.fullName,
    '5.00',
    '4.00',
    '4.50',
    /\d/,
    'View',
  ]);
  const totals = page.getByRole('table', { name: 'Review Totals' });
  await expect(totals.getByRole('row')).toHaveText([
    'Score fieldAverage',
    'Significance5.00',
    'Feasibility4.00',
    'Score4.50',
  ]);
  await expect(page.getByRole('list', { name: 'Reviewers' })).toContainText(
    `${member.fullName}Reviewed`,
  );
  await checkA11y(page);

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download Review Summary CSV' }).click(),
  ]);
  // Named by call and proposal; UTF-8 with a byte order mark, as every download's CSV.
  expect(download.suggestedFilename()).toBe(`${call.name} - ${proposal.name} - Review Summary.csv`);
  const file = await readFile((await download.path())!, 'utf8');
  expect(file.startsWith('\uFEFF')).toBe(true);
  const csv = file.replace(/^\uFEFF/, '');
  expect(csv.split('\r\n')).toEqual([
    'Reviewer,Significance,Feasibility,Score,Strengths',
    `${member.fullName},5.00,4.00,4.50,"A clear plan, ""well"" costed."`,
  ]);

  // The chair opens the review: it is Grace's to change, not the chair's.
  await review.getByRole('link', { name: `View the review by ${member.fullName}` }).click();
  await expect(page.getByRole('button', { name: 'Save', exact: true })).toBeDisabled();
  await expect(page.getByRole('status', { name: 'Score' })).toHaveText('Score4.50');

  // --- The author sees none of it ------------------------------------------------------
  const writer = await openBrowser();
  await logInAs(writer, author);
  await writer.goto(proposalPath());
  await expect(writer.getByRole('heading', { level: 1, name: proposal.name })).toBeVisible();
  const authorsView = writer.getByRole('region', { name: 'About this proposal' });
  await expect(authorsView).toContainText('Submitted');
  await expect(authorsView).not.toContainText('Reviewer');
  await expect(authorsView).not.toContainText('score');
  // Grace shows only as one of the committee's members in the Conflicts panel, where the
  // author may declare a conflict with any of them: never as a reviewer.
  const conflictsPanel = writer.getByRole('region', { name: 'Conflicts of Interest' });
  await expect(conflictsPanel.getByRole('group', { name: member.fullName })).toBeVisible();
  await expect(writer.getByText(member.fullName)).toHaveCount(1);
  await expect(conflictsPanel.getByText(member.fullName)).toHaveCount(1);
  const authorsMenu = await openManageMenu(writer);
  await expect(authorsMenu.getByRole('menuitem', { name: /Review/ })).toHaveCount(0);
  await writer.keyboard.press('Escape');
  // Nor by typing the address of the reviews.
  await writer.goto(`${proposalPath()}reviews/`);
  await expect(writer.getByText('The page you are looking for can not be found.')).toBeVisible();
  await expect(writer.getByText(member.fullName)).toHaveCount(0);
  await expect(writer.getByText('4.50')).toHaveCount(0);
});
