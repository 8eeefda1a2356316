import AxeBuilder from '@axe-core/playwright';
import {
  test as base,
  expect,
  type ConsoleMessage,
  type Page,
  type TestInfo,
} from '@playwright/test';
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

/** Marks the console messages through which the page reports a CSP violation. */
const CSP_VIOLATION = '[CSP violation]';

/**
 * A 4xx answer of the API tells the page something it shows (wrong password, a name
 * already taken, a link that expired); Chromium logs each one as an error anyway. A 5xx,
 * a 4xx for anything but the API (a script, an image) and every other error still count.
 */
function isApiRefusal(message: ConsoleMessage): boolean {
  return (
    /^Failed to load resource: the server responded with a status of 4\d\d\b/.test(
      message.text(),
    ) && /^https?:\/\/[^/]+\/api\//.test(message.location().url)
  );
}

/**
 * Collects, for the whole test, every `console.error`, uncaught error and Content
 * Security Policy violation of the page, each with the address it happened on: a
 * journey whose screens all look right still fails when the browser saw one of these.
 */
export async function watchForProblems(page: Page): Promise<string[]> {
  const problems: string[] = [];
  // The page cannot tell Playwright of a violation itself; it logs it, and the console
  // listener below picks it up like any other error.
  await page.addInitScript((prefix: string) => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const where = event.sourceFile ? ` (${event.sourceFile}:${event.lineNumber})` : '';
      console.error(
        `${prefix} ${event.effectiveDirective} refused ${event.blockedURI || 'inline code'}${where}`,
      );
    });
  }, CSP_VIOLATION);
  page.on('console', (message) => {
    if (message.type() !== 'error' || isApiRefusal(message)) return;
    const { url, lineNumber } = message.location();
    const source = url ? `\n  from ${url}:${lineNumber}` : '';
    const what = message.text().startsWith(CSP_VIOLATION) ? 'CSP violation' : 'console.error';
    problems.push(`${what} on ${page.url()}:\n  ${message.text()}${source}`);
  });
  page.on('pageerror', (error) => {
    problems.push(`Uncaught ${error.name} on ${page.url()}:\n  ${error.stack ?? error.message}`);
  });
  return problems;
}

/**
 * What a test's page reported, and the accessibility of the page it ended on: a journey
 * whose screens all looked right still fails on either.
 */
async function checkWhenDone(page: Page, problems: string[], testInfo: TestInfo): Promise<void> {
  // A test that already failed keeps its own error; what the page reported may explain it.
  if (testInfo.status !== testInfo.expectedStatus) {
    if (problems.length > 0) {
      await testInfo.attach('browser errors', { body: problems.join('\n\n') });
    }
    return;
  }
  if (problems.length > 0) {
    throw new Error(
      `The browser reported ${problems.length} error(s) during the test:\n\n` +
        problems.join('\n\n'),
    );
  }
  // Whatever page a test ends on is checked too, so none slips through unchecked.
  if (page.isClosed() || !page.url().startsWith('http')) return;
  const contentType = await page.evaluate(() => document.contentType).catch(() => 'unknown');
  if (contentType !== 'text/html') return;
  await checkA11y(page, testInfo);
}

interface JourneyFixtures {
  /**
   * Opens another browser, with cookies and storage of its own, for a second person who
   * uses the app at the same time as the one in `page`. Its page gets the same checks as
   * `page`: errors it reports and the accessibility of the page it ends on fail the test.
   */
  openBrowser: () => Promise<Page>;
}

export const test = base.extend<JourneyFixtures>({
  // The server's address is known only once global setup has started it, after
  // the config was read, so it comes from the environment here.
  // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixture's dependencies from this pattern
  baseURL: async ({}, use) => {
    await use(e2eEnv('baseUrl'));
  },

  page: async ({ page }, use, testInfo) => {
    const problems = await watchForProblems(page);
    await use(page);
    await checkWhenDone(page, problems, testInfo);
  },

  openBrowser: async (
    { browser, baseURL, viewport, deviceScaleFactor, locale, timezoneId, colorScheme },
    use,
    testInfo,
  ) => {
    const opened: { page: Page; problems: string[] }[] = [];
    await use(async () => {
      // The options the config gives `page`'s browser, so both people see the same app.
      const context = await browser.newContext({
        baseURL,
        viewport,
        deviceScaleFactor,
        locale,
        timezoneId,
        colorScheme,
      });
      const page = await context.newPage();
      opened.push({ page, problems: await watchForProblems(page) });
      return page;
    });
    try {
      for (const { page, problems } of opened) await checkWhenDone(page, problems, testInfo);
    } finally {
      await Promise.all(opened.map(({ page }) => page.context().close()));
    }
  },
});
