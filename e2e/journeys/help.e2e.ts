import { adminCredentials, checkA11y, expect, logIn, test } from '../fixtures';

test('the Help link in the top bar serves the user manual as a PDF', async ({ page }) => {
  await page.goto('/auth/login');
  await logIn(page, adminCredentials());
  await expect(page).not.toHaveURL(/\/auth\/login/);

  const help = page.getByRole('link', { name: 'Help' });
  await expect(help).toBeVisible();
  await expect(help).toHaveAttribute('target', '_blank');
  await checkA11y(page);

  const href = await help.getAttribute('href');
  expect(href).toBeTruthy();
  const response = await page.request.get(new URL(href!, page.url()).toString());

  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toMatch(/^application\/pdf/);
  const body = await response.body();
  expect(body.subarray(0, 5).toString('latin1')).toBe('%PDF-');
});
