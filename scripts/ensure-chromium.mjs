#!/usr/bin/env node
/**
 * Makes sure Debian's Chromium is installed, because the e2e suite and the
 * benchmarks drive it (Playwright's own browser download is unreachable here).
 * Quick and silent when it is already there; otherwise installs it with apt-get,
 * as root or through sudo. Exits non-zero, saying what to do, when it can't.
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { CHROMIUM_PATH } from './lib/chromium.mjs';

const PACKAGES = ['chromium', 'fonts-liberation'];

function isExecutable(path) {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function commandExists(name) {
  return spawnSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' }).status === 0;
}

function fail(message) {
  console.error(`ensure-chromium: ${message}`);
  process.exit(1);
}

if (isExecutable(CHROMIUM_PATH)) process.exit(0);

if (process.env.CHROMIUM_PATH) {
  fail(`CHROMIUM_PATH is set to ${CHROMIUM_PATH}, which is not an executable file.`);
}
if (!commandExists('apt-get')) {
  fail(
    `${CHROMIUM_PATH} is missing and this system has no apt-get to install it. ` +
      'Install Chromium yourself and point CHROMIUM_PATH at its executable.',
  );
}

const isRoot = process.getuid?.() === 0;
let prefix = [];
if (!isRoot) {
  if (!commandExists('sudo')) {
    fail(
      `${CHROMIUM_PATH} is missing and installing it needs root. Run as root: ` +
        `apt-get update && apt-get install -y ${PACKAGES.join(' ')}`,
    );
  }
  // Without a terminal nobody can type a password, so sudo must not wait for one.
  prefix = process.stdin.isTTY ? ['sudo'] : ['sudo', '-n'];
}

function run(args) {
  const [command, ...rest] = [...prefix, 'env', 'DEBIAN_FRONTEND=noninteractive', ...args];
  console.log(`ensure-chromium: ${[command, ...rest].join(' ')}`);
  const result = spawnSync(command, rest, { stdio: 'inherit' });
  if (result.status !== 0) {
    fail(
      `"${args.join(' ')}" failed (exit ${result.status ?? result.signal}). ` +
        `Install ${PACKAGES.join(' ')} with apt-get as root, then run this again.`,
    );
  }
}

console.log(`ensure-chromium: ${CHROMIUM_PATH} is missing; installing Debian's Chromium.`);
run(['apt-get', 'update']);
run(['apt-get', 'install', '-y', ...PACKAGES]);

if (!isExecutable(CHROMIUM_PATH)) {
  fail(`apt-get finished but ${CHROMIUM_PATH} is still missing.`);
}
console.log(`ensure-chromium: installed ${CHROMIUM_PATH}.`);
