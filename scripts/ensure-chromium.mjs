#!/usr/bin/env node
/**
 * Makes sure Debian's Chromium is installed, because the e2e suite and the
 * benchmarks drive it (Playwright's own browser download is unreachable here).
 */
import { ensureAptProgram } from './lib/apt.mjs';
import { CHROMIUM_PATH } from './lib/chromium.mjs';

ensureAptProgram({
  script: 'ensure-chromium',
  what: "Debian's Chromium",
  path: CHROMIUM_PATH,
  pathVariable: 'CHROMIUM_PATH',
  packages: ['chromium', 'fonts-liberation'],
});
