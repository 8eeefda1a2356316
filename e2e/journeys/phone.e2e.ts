import type { Locator, Page } from '@playwright/test';
import {
  createCall,
  createCommittee,
  createForm,
  daysFromNow,
  logInApi,
} from '../calls-support/api';
import { adminCredentials, checkA11y, expect, logIn, test } from '../fixtures';
import { detailsRow } from '../support/pages';

/*
 * The app on a phone (spec section 2 as a person with a 390 px wide screen uses it):
 * the side menu opens over the top bar, and a call list shows each call as a card whose
 * actions are on screen, never off to the side of a table.
 */

test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

/** Distinguishes this run's names from any other run's. */
const suffix = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** The page does not scroll sideways: nothing is wider than the screen. */
async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow, 'how far the page is wider than the screen, in CSS pixels').toBe(0);
}

/** Opens the side menu from the top bar and taps one of its items, as a thumb would. */
async function chooseFromMenu(page: Page, item: string): Promise<void> {
  await page.getByRole('button', { name: 'Open navigation menu' }).click();
  const menu = page.getByRole('dialog', { name: 'Navigation menu' });
  await expect(menu).toBeVisible();
  // A plain click: Playwright refuses it if anything (the top bar) lies over the item.
  await menu.getByRole('link', { name: item }).click();
  await expect(menu).toBeHidden();
}

/** `locator` lies wholly on screen, with nothing of it beyond either side. */
async function expectWhollyOnScreen(page: Page, locator: Locator): Promise<void> {
  await locator.scrollIntoViewIfNeeded();
  await expect(locator).toBeInViewport({ ratio: 1 });
  const box = await locator.boundingBox();
  expect(box).not.toBeNull();
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(page.viewportSize()!.width);
}

test('on a phone, a person opens the menu, goes to the dashboard and the calls, and opens a call', async ({
  page,
}) => {
  test.setTimeout(60_000);
  const adminToken = await logInApi(adminCredentials());
  const committeeId = await createCommittee(adminToken, `Phone Committee ${suffix}`);
  const [proposalForm, reviewForm] = await Promise.all([
    createForm(adminToken, 0, `Phone Proposal ${suffix}`),
    createForm(adminToken, 2, `Phone Review ${suffix}`),
  ]);
  const name = `Pocket Telescope ${suffix}`;
  await createCall(adminToken, {
    committeeId,
    name,
    dates: {
      openDateTime: daysFromNow(-1, 9),
      closeDateTime: daysFromNow(30, 17),
      reviewOpenDateTime: daysFromNow(31, 9),
      reviewCloseDateTime: daysFromNow(60, 17),
    },
    proposalTypes: [
      { typeName: 'Research', proposalForms: [proposalForm.id], reviewForms: [reviewForm.id] },
    ],
  });

  // Log in on the way to the calls, so that Dashboard is somewhere else to go.
  await page.goto('/calls');
  await logIn(page, adminCredentials());
  await expect(page.getByRole('heading', { level: 1, name: 'Call for Proposals' })).toBeVisible();
  const notification = page.getByRole('alert').filter({ hasText: 'Logged in.' });
  await notification.getByRole('button', { name: 'Close' }).click();
  await expect(notification).toBeHidden();

  // The menu's first item, which the top bar used to cover.
  await chooseFromMenu(page, 'Dashboard');
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await expect(page.getByLabel('Counting open calls…')).toHaveCount(0);
  await expectNoSidewaysScroll(page);
  await checkA11y(page);

  await chooseFromMenu(page, 'Call for Proposals');
  await expect(page.getByRole('heading', { level: 1, name: 'Call for Proposals' })).toBeVisible();
  await page.getByRole('searchbox', { name: 'Search calls' }).fill(name);
  await expect(page).toHaveURL(/[?&]q=Pocket/);

  // A card per call, not a table wider than the screen.
  await expect(page.getByRole('table')).toHaveCount(0);
  const card = page
    .getByRole('list', { name: 'Current calls for proposals' })
    .getByRole('listitem')
    .filter({ hasText: name });
  await expect(card).toHaveCount(1);
  await expect(card.getByRole('definition')).toContainText([`Phone Committee ${suffix}`]);
  const viewCall = card.getByRole('link', { name: `View Call ${name}` });
  await expectWhollyOnScreen(page, viewCall);
  await expectNoSidewaysScroll(page);
  await checkA11y(page);

  await viewCall.click();
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  await expect(detailsRow(page, 'Committee').getByRole('cell')).toHaveText(
    `Phone Committee ${suffix}`,
  );
});
