import type { Page } from '@playwright/test';
import { api, logInApi } from '../calls-support/api';
import { checkA11y, expect, test, watchForProblems } from '../fixtures';
import { choose } from '../proposals-support/editor';
import { createReviewsWorld, type ReviewsWorld } from '../reviews-support/world';
import { dismissNotification, logInAs, textField } from '../support/pages';

/*
 * A review open in two tabs (issue 25): each save names the review's version it started
 * from, so the tab that saves second is not written over the first in silence. It is
 * shown what the other tab saved, and chooses; Keep mine ends with its own answers.
 */

let world: ReviewsWorld;

test.beforeAll(async () => {
  // Three registrations with captcha and mail, a committee, three forms, a call and a proposal.
  test.setTimeout(90_000);
  world = await createReviewsWorld();
  // The chair makes Grace a reviewer of the proposal.
  const chairToken = await logInApi(world.chair);
  await api('POST', '/reviewers/', {
    token: chairToken,
    body: { proposalId: world.proposal.id, userId: world.member.id },
  });
});

/** The review editor's tab of a form, by its name (which goes on with its marks). */
function reviewTab(page: Page, formName: string) {
  return page
    .getByRole('tablist', { name: 'Forms of this review' })
    .getByRole('tab', { name: new RegExp(`^${formName}`) });
}

const save = (page: Page) => page.getByRole('button', { name: 'Save', exact: true }).click();

test('a review saved in one tab and then in another: the choice appears, and Keep mine keeps the second tab’s answers', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const { member, call, proposal, forms } = world;
  const heading = { level: 1, name: `Review of ${proposal.name}` } as const;

  // Grace writes her review and saves it: it has its own address now.
  await logInAs(page, member);
  await page.goto(`/calls/${call.id}/proposals/${proposal.id}/review/`);
  await expect(page.getByRole('heading', heading)).toBeVisible();
  await textField(page, 'Strengths').fill('A first look.');
  await reviewTab(page, forms.scores).click();
  await choose(page, 'Significance', '3');
  await choose(page, 'Feasibility', '3');
  await save(page);
  await dismissNotification(page, 'Saved successfully.');
  await expect(page).toHaveURL(/\/reviews\/\d+\/(\?tab=\d+)?$/);

  // She opens it in a second tab of the same browser.
  const second = await page.context().newPage();
  const problems = await watchForProblems(second);
  await second.goto(page.url());
  await expect(second.getByRole('heading', heading)).toBeVisible();
  await reviewTab(second, forms.review).click();
  await expect(textField(second, 'Strengths')).toHaveValue('A first look.');

  // The first tab saves a change...
  await reviewTab(page, forms.review).click();
  await textField(page, 'Strengths').fill('Saved in the first tab.');
  await save(page);
  await dismissNotification(page, 'Saved successfully.');

  // ...then the second, which opened the review before that save, saves its own.
  await textField(second, 'Strengths').fill('Kept from the second tab.');
  await save(second);
  const dialog = second.getByRole('dialog', {
    name: 'Your review was saved elsewhere after you opened it',
  });
  await expect(dialog).toContainText(
    /Your review was saved at \d\d:\d\d \S+ in another tab or window/,
  );
  const row = dialog.getByRole('row', { name: new RegExp(`${forms.review}: Strengths`) });
  await expect(row.getByRole('cell')).toHaveText([
    'Kept from the second tab.',
    'Saved in the first tab.',
  ]);
  await checkA11y(second);
  await dialog.getByRole('button', { name: 'Keep mine' }).click();
  await dismissNotification(second, 'Saved successfully.');
  await expect(dialog).toBeHidden();

  // As the server keeps it, read again in both tabs: the second tab's answers, its scores kept.
  for (const tab of [second, page]) {
    await tab.reload();
    await reviewTab(tab, forms.review).click();
    await expect(textField(tab, 'Strengths')).toHaveValue('Kept from the second tab.');
    await expect(tab.getByRole('status', { name: 'Score' })).toHaveText('Score3.00');
  }
  // Nothing of it is left to offer back: it is saved.
  await expect(second.getByText(/You have unsaved answers/)).toHaveCount(0);
  expect(problems).toEqual([]);
  await second.close();
});
