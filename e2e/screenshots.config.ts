import { defineConfig } from '@playwright/test';
import journeys from './playwright.config';

/**
 * The manual's screenshots (`npm run docs:screenshots`): the scripts in ./screenshots
 * make a realistic example through the API, drive Chromium to the screens the manual
 * shows and write them to docs/images. A config of its own, so the journeys' run does
 * not pick them up; a server of its own, with a fresh database, so the pictures show
 * the example and nothing else.
 */
export default defineConfig({
  ...journeys,
  testDir: './screenshots',
  testMatch: '**/*.shot.ts',
  outputDir: '../test-results/screenshots',
  globalSetup: './screenshots-setup.ts',
  timeout: 180_000,
  use: {
    ...journeys.use,
    // The same pixels on every machine: the manual's figures are sized for this width.
    viewport: { width: 1280, height: 800 },
    deviceScaleFactor: 1,
    colorScheme: 'light',
    locale: 'en-AU',
    timezoneId: 'Australia/Hobart',
  },
});
