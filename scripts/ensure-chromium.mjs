#!/usr/bin/env node
/**
 * Makes sure Debian's Chromium is installed, because the e2e suite and the
 * benchmarks drive it (Playwright's own browser download is unreachable here).
 * With --headless-shell, its headless shell too, in which the benchmarks time pages.
 */
import { ensureAptProgram } from './lib/apt.mjs';
import { CHROMIUM_PATH, HEADLESS_SHELL_PATH } from './lib/chromium.mjs';

ensureAptProgram({
  script: 'ensure-chromium',
  what: "Debian's Chromium",
  path: CHROMIUM_PATH,
  pathVariable: 'CHROMIUM_PATH',
  packages: ['chromium', 'fonts-liberation'],
});
if (process.argv.includes('--headless-shell')) {
  ensureAptProgram({
    script: 'ensure-chromium',
    what: "Debian's Chromium headless shell",
    path: HEADLESS_SHELL_PATH,
    pathVariable: 'CHROMIUM_HEADLESS_SHELL_PATH',
    packages: ['chromium-headless-shell', 'fonts-liberation'],
  });
}
