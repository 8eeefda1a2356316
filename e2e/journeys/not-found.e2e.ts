import { checkA11y, expect, test } from '../fixtures';

test('an unknown path tells the visitor the page can not be found', async ({ page }) => {
  await page.goto('/no/such/page');

  await expect(page.getByText('The page you are looking for can not be found.')).toBeVisible();
  await checkA11y(page);
});
