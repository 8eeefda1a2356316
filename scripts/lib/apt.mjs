/**
 * Makes sure a program from a Debian package is installed, for the scripts that need one
 * (ensure-chromium.mjs, ensure-clamav.mjs): quick and silent when it is there; otherwise
 * installs its packages with apt-get, as root or through sudo. Exits non-zero, saying
 * what to do, when it can't.
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';

/** @param {string} path */
function isExecutable(path) {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** @param {string} name */
function commandExists(name) {
  return spawnSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' }).status === 0;
}

/**
 * @param {{ script: string, what: string, path: string, pathVariable: string, packages: string[] }} program
 *   `script` names the caller in its messages; `path` is the executable, which the
 *   environment variable `pathVariable` may point elsewhere.
 */
export function ensureAptProgram({ script, what, path, pathVariable, packages }) {
  /** @param {string} message */
  const fail = (message) => {
    console.error(`${script}: ${message}`);
    process.exit(1);
  };
  if (isExecutable(path)) return;

  if (process.env[pathVariable]) {
    fail(`${pathVariable} is set to ${path}, which is not an executable file.`);
  }
  if (!commandExists('apt-get')) {
    fail(
      `${path} is missing and this system has no apt-get to install it. ` +
        `Install ${what} yourself and point ${pathVariable} at its executable.`,
    );
  }

  const isRoot = process.getuid?.() === 0;
  /** @type {string[]} */
  let prefix = [];
  if (!isRoot) {
    if (!commandExists('sudo')) {
      fail(
        `${path} is missing and installing it needs root. Run as root: ` +
          `apt-get update && apt-get install -y ${packages.join(' ')}`,
      );
    }
    // Without a terminal nobody can type a password, so sudo must not wait for one.
    prefix = process.stdin.isTTY ? ['sudo'] : ['sudo', '-n'];
  }

  /** @param {string[]} args */
  const run = (args) => {
    const [command = 'env', ...rest] = [
      ...prefix,
      'env',
      'DEBIAN_FRONTEND=noninteractive',
      ...args,
    ];
    console.log(`${script}: ${[command, ...rest].join(' ')}`);
    const result = spawnSync(command, rest, { stdio: 'inherit' });
    if (result.status !== 0) {
      fail(
        `"${args.join(' ')}" failed (exit ${result.status ?? result.signal}). ` +
          `Install ${packages.join(' ')} with apt-get as root, then run this again.`,
      );
    }
  };

  console.log(`${script}: ${path} is missing; installing ${what}.`);
  run(['apt-get', 'update']);
  run(['apt-get', 'install', '-y', ...packages]);

  if (!isExecutable(path)) {
    fail(`apt-get finished but ${path} is still missing.`);
  }
  console.log(`${script}: installed ${path}.`);
}
