import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type Page, type TestInfo } from '@playwright/test';
import { e2eEnv } from './env';

export { expect };

/** WCAG 2.0/2.1 A and AA: what the product promises. */
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
/** Violations at these impacts fail the test; lesser ones are attached to the report. */
const FAILING_IMPACTS = new Set(['serious', 'critical']);

export interface Credentials {
  username: string;
  password: string;
}

/** The verified admin that the server created on its empty database. */
export function adminCredentials(): Credentials {
  return { username: e2eEnv('adminUsername'), password: e2eEnv('adminPassword') };
}

/**
 * Runs axe on the page as it is now and throws a readable list of every serious
 * or critical WCAG A/AA violation. Journeys call it on each page they visit, once
 * what they came for is on screen; the `page` fixture also calls it when a test ends.
 */
export async function checkA11y(page: Page, testInfo: TestInfo = base.info()): Promise<void> {
  await settle(page);
  const results = await new AxeBuilder({ page }).withTags(AXE_TAGS).analyze();
  const url = page.url();

  if (results.violations.length > 0) {
    await testInfo.attach(`axe ${new URL(url).pathname}`, {
      body: JSON.stringify(results.violations, null, 2),
      contentType: 'application/json',
    });
  }

  const failing = results.violations.filter((v) => v.impact && FAILING_IMPACTS.has(v.impact));
  if (failing.length === 0) return;

  const lines = failing.flatMap((violation) => [
    `  [${violation.impact}] ${violation.id}: ${violation.help}`,
    `    ${violation.helpUrl}`,
    ...violation.nodes.slice(0, 5).flatMap((node) => [
      `    - ${node.target.join(' ')}`,
      ...(node.failureSummary ?? '')
        .split('\n')
        .filter(Boolean)
        .map((line) => `        ${line.trim()}`),
    ]),
    ...(violation.nodes.length > 5 ? [`    ... and ${violation.nodes.length - 5} more`] : []),
  ]);
  throw new Error(
    `${failing.length} serious or critical accessibility violation(s) on ${url}:\n` +
      lines.join('\n'),
  );
}

/**
 * Waits for finite animations and transitions to end: a half-faded element
 * fails colour contrast though it would pass a moment later. Spinners that loop
 * forever are left alone.
 */
async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('load');
  await page
    .evaluate(() =>
      Promise.race([
        Promise.all(
          document
            .getAnimations()
            .filter((animation) => animation.effect?.getTiming().iterations !== Infinity)
            .map((animation) => animation.finished.catch(() => undefined)),
        ),
        new Promise((resolve) => setTimeout(resolve, 3_000)),
      ]),
    )
    .catch(() => undefined);
}

/** Logs in through the login form of the page it is on (`/auth/login`). */
export async function logIn(page: Page, credentials: Credentials): Promise<void> {
  await page.getByLabel('Username').fill(credentials.username);
  // By role: the label's text also holds the required-field asterisk.
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(credentials.password);
  await page.getByRole('button', { name: 'Log in' }).click();
}

export const test = base.extend({
  // The server's address is known only once global setup has started it, after
  // the config was read, so it comes from the environment here.
  // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixture's dependencies from this pattern
  baseURL: async ({}, use) => {
    await use(e2eEnv('baseUrl'));
  },

  page: async ({ page }, use, testInfo) => {
    await use(page);
    // Whatever page a test ends on is checked too, so none slips through unchecked.
    // A test that already failed keeps its own error.
    if (testInfo.status !== testInfo.expectedStatus) return;
    if (page.isClosed() || !page.url().startsWith('http')) return;
    const contentType = await page.evaluate(() => document.contentType).catch(() => 'unknown');
    if (contentType !== 'text/html') return;
    await checkA11y(page, testInfo);
  },
});
