#!/usr/bin/env node
/**
 * `npm test`: every suite, in order, stopping at the first that fails.
 *   0. node scripts/ensure-clamav.mjs: ClamAV's daemon, which the virus scan tests run
 *   1. vitest run: unit, component and API tests (API tests on PGlite, and on
 *      PostgreSQL too when TEST_DATABASE_URL is set)
 *   2. node scripts/ensure-built.mjs: the compiled server, and the web app and manual it serves
 *   3. the Playwright journeys in Chromium (npm test -w @merit/e2e)
 * Ends with one line "N passed, N failed[, N skipped]" counted from the runners'
 * JSON reports.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const reports = mkdtempSync(join(tmpdir(), 'merit-test-'));
const vitestReport = join(reports, 'vitest.json');
const playwrightReport = join(reports, 'playwright.json');

if (process.env.CI && !process.env.TEST_DATABASE_URL) {
  console.error(
    'npm test: CI is set but TEST_DATABASE_URL is not. CI must run the API tests on ' +
      'PostgreSQL as well as PGlite: set TEST_DATABASE_URL=postgres://user@host:port/database ' +
      '(.ci/run creates a fresh database and sets it).',
  );
  process.exit(1);
}

const steps = [
  {
    name: "ClamAV's daemon for the virus scan tests",
    command: process.execPath,
    args: ['scripts/ensure-clamav.mjs'],
  },
  {
    name: 'unit and API tests (vitest)',
    command: join(ROOT, 'node_modules', '.bin', 'vitest'),
    args: ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestReport}`],
  },
  {
    name: 'build server, web app and manual',
    command: process.execPath,
    args: ['scripts/ensure-built.mjs'],
  },
  {
    name: 'browser journeys (playwright)',
    command: 'npm',
    args: ['test', '--workspace', '@merit/e2e'],
    env: { PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightReport },
  },
];

/** @param {{command: string, args: string[], env?: Record<string, string>}} step */
function run(step) {
  return new Promise((resolveRun) => {
    const child = spawn(step.command, step.args, {
      cwd: ROOT,
      stdio: 'inherit',
      env: { ...process.env, ...step.env },
    });
    child.on('error', (error) => {
      console.error(`npm test: could not start ${step.command}: ${error.message}`);
      resolveRun(1);
    });
    child.on('exit', (code, signal) => resolveRun(code ?? (signal ? 1 : 0)));
  });
}

/** Counts from the runners' JSON reports; a report that is missing counts nothing. */
function summary() {
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  const read = (path) => {
    try {
      return JSON.parse(readFileSync(path, 'utf8'));
    } catch {
      return undefined;
    }
  };
  const vitest = read(vitestReport);
  if (vitest) {
    passed += vitest.numPassedTests ?? 0;
    failed += vitest.numFailedTests ?? 0;
    skipped += (vitest.numPendingTests ?? 0) + (vitest.numTodoTests ?? 0);
  }
  const playwright = read(playwrightReport);
  if (playwright?.stats) {
    passed += (playwright.stats.expected ?? 0) + (playwright.stats.flaky ?? 0);
    failed += playwright.stats.unexpected ?? 0;
    skipped += playwright.stats.skipped ?? 0;
  }
  return `${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`;
}

let exitCode = 0;
for (const step of steps) {
  console.log(`\n=== npm test: ${step.name}`);
  const started = performance.now();
  const code = await run(step);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  if (code !== 0) {
    console.error(`=== npm test: ${step.name} FAILED (exit ${code}) after ${seconds} s`);
    exitCode = code;
    break;
  }
  console.log(`=== npm test: ${step.name} passed in ${seconds} s`);
}

console.log(`\n${summary()}`);
rmSync(reports, { recursive: true, force: true });
process.exit(exitCode);
