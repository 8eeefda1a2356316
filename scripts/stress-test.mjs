#!/usr/bin/env node
/**
 * Runs the given vitest files again and again, each time in a fresh vitest process (so every
 * run pays the cold start a flake may hide in: module evaluation, lazy chunks), optionally
 * while `stress --cpu K` keeps the machine busy, and prints how many runs passed.
 *
 *   node scripts/stress-test.mjs [--runs 50] [--cpu 4] [--project web] [-t "test name"] files...
 *
 * A test that fails once in fifty runs is a defect: this is how to count it (issue 31).
 * The output of each failed run is kept in a temporary folder, named at the end.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

const { values, positionals: files } = parseArgs({
  allowPositionals: true,
  options: {
    runs: { type: 'string', default: '50' },
    cpu: { type: 'string' },
    project: { type: 'string', default: 'web' },
    testNamePattern: { type: 'string', short: 't' },
  },
});
const runs = Number(values.runs);
if (files.length === 0 || !Number.isInteger(runs) || runs < 1) {
  console.error(
    'Usage: node scripts/stress-test.mjs [--runs 50] [--cpu 4] [--project web] ' +
      '[-t "test name"] <test files...>',
  );
  process.exit(2);
}

const vitestArgs = ['run', '--project', values.project, ...files];
if (values.testNamePattern) vitestArgs.push('-t', values.testNamePattern);

let current;
/** Runs one command to its end, its output collected, never thrown on a failed exit. */
function run(command, args) {
  return new Promise((done) => {
    const child = spawn(command, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    current = child;
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (code, signal) => done({ code: code ?? signal, output }));
  });
}

let stress;
if (values.cpu) {
  // Its own process group, so that ending it ends its workers too. The timeout is a net in
  // case this script is killed before it can end stress itself.
  stress = spawn('stress', ['--cpu', values.cpu, '--timeout', String(runs * 600)], {
    stdio: 'ignore',
    detached: true,
  });
  stress.on('error', (error) => {
    console.error(`stress did not start (${error.message}): apt-get install -y stress`);
    process.exit(2);
  });
}
const stopStress = () => {
  if (stress?.pid && stress.exitCode === null) process.kill(-stress.pid, 'SIGTERM');
};
process.on('SIGINT', () => {
  stopStress();
  if (current?.exitCode === null) current.kill('SIGTERM');
  process.exit(130);
});

const logs = mkdtempSync(join(tmpdir(), 'merit-stress-'));
const loads = [];
let failed = 0;
console.log(
  `vitest ${vitestArgs.join(' ')}: ${runs} runs` +
    (values.cpu ? `, under stress --cpu ${values.cpu}` : ''),
);
try {
  for (let index = 1; index <= runs; index += 1) {
    const started = Date.now();
    const { code, output } = await run(join(ROOT, 'node_modules', '.bin', 'vitest'), vitestArgs);
    // The one-minute load average at each run's end: the load the run itself met.
    const load = loadavg()[0];
    loads.push(load);
    const seconds = ((Date.now() - started) / 1000).toFixed(0);
    let line = `run ${index}/${runs}: ${code === 0 ? 'passed' : 'FAILED'} in ${seconds} s, load ${load.toFixed(1)}`;
    if (code !== 0) {
      failed += 1;
      const log = join(logs, `run-${index}.log`);
      writeFileSync(log, output);
      line += ` (${log})`;
    }
    console.log(line);
  }
} finally {
  stopStress();
}

const average = loads.reduce((sum, load) => sum + load, 0) / loads.length;
console.log(
  `${runs - failed} passed of ${runs}, ${failed} failed; load average ` +
    `${Math.min(...loads).toFixed(1)} to ${Math.max(...loads).toFixed(1)} (mean ${average.toFixed(1)})` +
    (failed ? `; failed runs' output in ${logs}` : ''),
);
process.exitCode = failed ? 1 : 0;
