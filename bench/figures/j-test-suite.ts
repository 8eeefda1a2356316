/**
 * (j) The test suite on this machine: `npm test` (scripts/test.mjs: every vitest project,
 * then the Playwright journeys), run once as a child process from the repository's root,
 * wall time from spawn to exit. Budget (issue 31): under 20 minutes, and it passes.
 *
 * Baseline: the suite's time before issue 31, given as `--test-baseline-seconds S`, or
 * else the one bench/README.md records (TEST_BASELINE below). It is not measured in the
 * same run: running the old suite too would double a run of half an hour.
 *
 * Opt-in: `npm run bench -- --only j` (it is no part of the default set, being the
 * longest figure by far and not about the product's speed).
 *
 *   npx tsx bench/figures/j-test-suite.ts [--test-baseline-seconds S]
 *
 * It needs no generated data; the suite makes its own databases.
 */
import { spawn } from 'node:child_process';
import { REPO_ROOT } from '../../scripts/lib/server.mjs';
import { loadAverage, runAlone } from '../lib/bench-server.js';
import type { FigureOptions, FigureResult } from '../lib/result.js';

/**
 * `npm test`'s wall time before issue 31, as bench/README.md records it: 1,700 s (848 s of
 * vitest, then 13.8 minutes of journeys), a fresh clone on 2026-11-28.
 */
export const TEST_BASELINE = { seconds: 1_700, measured: 'bench/README.md, 2026-11-28' };

const BUDGET_SECONDS = 20 * 60;

/** Runs `npm test`, its output passed through; wall seconds and the exit code. */
function npmTest(): Promise<{ seconds: number; code: number }> {
  const started = performance.now();
  const child = spawn('npm', ['test'], { cwd: REPO_ROOT, stdio: 'inherit' });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code, signal) =>
      resolve({
        seconds: (performance.now() - started) / 1000,
        // A signal is a failure too, e.g. the suite killed for running out of memory.
        code: code ?? (signal ? 128 : 1),
      }),
    );
  });
}

export async function run(options: FigureOptions): Promise<FigureResult[]> {
  const baseline = options.testBaselineSeconds
    ? { seconds: options.testBaselineSeconds, measured: '--test-baseline-seconds' }
    : TEST_BASELINE;
  options.log(`\n## (j) npm test, wall time; load average before: ${loadAverage()}\n`);
  const { seconds, code } = await npmTest();
  options.log(
    `npm test: ${seconds.toFixed(0)} s, exit ${code}; load average after: ${loadAverage()}`,
  );
  return [
    {
      figure: 'j',
      name: '`npm test` on this machine, spawn to exit',
      value: seconds,
      unit: 's',
      budget: {
        below: BUDGET_SECONDS,
        checks: [{ text: 'it passes (exit 0)', value: code, atMost: 0 }],
      },
      baseline: { name: `before issue 31 (${baseline.measured})`, value: baseline.seconds },
    },
  ];
}

await runAlone(run, import.meta.url, { data: false });
