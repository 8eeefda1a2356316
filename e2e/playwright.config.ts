import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../scripts/lib/chromium.mjs';

/**
 * Journeys run in Debian's Chromium against a real server that global-setup.ts
 * starts on a free port with a fresh embedded database. Tests import `test` from
 * ./fixtures.ts, which supplies the server's baseURL and the accessibility checks.
 */
export default defineConfig({
  testDir: './journeys',
  testMatch: '**/*.e2e.ts',
  // Kept beside the other test output that the repo's ignore files already cover.
  outputDir: '../test-results/e2e',
  globalSetup: './global-setup.ts',
  // One server, two cores: a second worker would mostly wait for the first.
  workers: 1,
  fullyParallel: false,
  retries: 0,
  forbidOnly: Boolean(process.env.CI),
  timeout: 30_000,
  expect: { timeout: 10_000 },
  // scripts/test.mjs asks for a JSON report too, to count the tests of the whole run.
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ? [['list'], ['json']] : 'list',
  use: {
    browserName: 'chromium',
    launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    actionTimeout: 10_000,
    navigationTimeout: 20_000,
  },
});
