/**
 * Starts the real server as a child process, the way `npm start` does (the compiled
 * apps/server/dist/main.js, built first when missing or older than its sources), for
 * the e2e suite and the benchmarks. Each start gets its own free port on 127.0.0.1
 * and, unless told otherwise, a fresh temporary DATA_DIR (so an empty PGlite
 * database: migrations and the initial admin run on every start).
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

const SERVER_ENTRY = 'apps/server/dist/main.js';
const LOG_LINES_KEPT = 400;

/**
 * Variables a developer's shell may carry that would point the started server at
 * something other than its own temporary database and port.
 */
const INHERITED_ENV_DROPPED = [
  'PORT',
  'HOST',
  'DATA_DIR',
  'DATABASE_URL',
  'INITIAL_ADMIN_USERNAME',
  'INITIAL_ADMIN_EMAIL',
  'INITIAL_ADMIN_PASSWORD',
];

/**
 * Asks the OS for a port nobody listens on. Another process could take it before
 * the server binds it; startServer then fails with the server's own log.
 * @param {string} [host]
 * @returns {Promise<number>}
 */
export function findFreePort(host = '127.0.0.1') {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.unref();
    probe.once('error', reject);
    probe.listen({ port: 0, host }, () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolvePort(port));
    });
  });
}

/**
 * @typedef {object} StartServerOptions
 * @property {Record<string, string | undefined>} [env] extra variables for the server
 *   (an undefined value removes an inherited one)
 * @property {string} [dataDir] DATA_DIR to use and keep; default a fresh temporary
 *   folder that stop() removes
 * @property {number} [port] default a free port
 * @property {number} [timeoutMs] how long to wait for health 200 (default 90 s)
 * @property {(line: string) => void} [onLog] called with each line the server prints
 * @property {string} [root] the checkout whose server is built and runs (default this one)
 * @property {string} [entry] the compiled entry to run, relative to the root (default
 *   apps/server/dist/main.js; apps/server/dist/demo.js for the demo world)
 */

/**
 * @typedef {object} StartedServer
 * @property {string} url base URL without a trailing slash, e.g. http://127.0.0.1:41234
 * @property {number} port
 * @property {string} dataDir
 * @property {number} pid
 * @property {number} startupMs wall time from spawn to the first health 200
 * @property {() => string} logTail the last lines the server printed
 * @property {() => Promise<void>} stop SIGTERM, wait for exit (SIGKILL after 10 s),
 *   remove the temporary DATA_DIR if this helper made it
 */

/**
 * @param {StartServerOptions} [options]
 * @returns {Promise<StartedServer>}
 */
export async function startServer(options = {}) {
  const timeoutMs = options.timeoutMs ?? 90_000;
  const root = options.root ?? REPO_ROOT;
  ensureServerBuilt(root);
  const port = options.port ?? (await findFreePort());
  const ownsDataDir = !options.dataDir;
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'merit-data-')));
  const url = `http://127.0.0.1:${port}`;

  /** @type {Record<string, string | undefined>} */
  const env = { ...process.env };
  for (const name of INHERITED_ENV_DROPPED) delete env[name];
  Object.assign(env, options.env, { PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir });
  for (const [name, value] of Object.entries(env)) if (value === undefined) delete env[name];

  /** @type {string[]} */
  const log = [];
  let partial = '';
  /** @param {Buffer} chunk */
  const collect = (chunk) => {
    const lines = (partial + chunk.toString('utf8')).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      log.push(line);
      options.onLog?.(line);
    }
    if (log.length > LOG_LINES_KEPT) log.splice(0, log.length - LOG_LINES_KEPT);
  };
  const logTail = (lines = 60) => [...log, partial].filter(Boolean).slice(-lines).join('\n');

  const startedAt = performance.now();
  // As `npm start` runs it. Its own process group, so that stop() also reaches anything
  // the server started that outlives it.
  const child = spawn(process.execPath, ['--enable-source-maps', options.entry ?? SERVER_ENTRY], {
    cwd: root,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);

  // 'close' rather than 'exit': it waits for the output pipes too, so the log tail is
  // complete and a grandchild still holding them counts as still running.
  /** @type {Promise<void>} */
  const exited = new Promise((resolveExit) => {
    child.once('close', () => resolveExit());
    child.once('error', (error) => {
      log.push(`spawn failed: ${error.message}`);
      resolveExit();
    });
  });
  let hasExited = false;
  void exited.then(() => {
    hasExited = true;
  });

  /** @param {NodeJS.Signals} signal */
  const signalGroup = (signal) => {
    if (hasExited || child.pid === undefined) return;
    try {
      process.kill(-child.pid, signal);
    } catch {
      // The group is already gone.
    }
  };

  // A runner that dies without stopping us must not leave a server behind.
  const killOnExit = () => signalGroup('SIGKILL');
  process.once('exit', killOnExit);

  const stop = async () => {
    process.removeListener('exit', killOnExit);
    signalGroup('SIGTERM');
    const killTimer = setTimeout(() => signalGroup('SIGKILL'), 10_000);
    await exited;
    clearTimeout(killTimer);
    // Whatever the server started and left behind goes with the group.
    if (child.pid !== undefined) {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Nothing left, as expected.
      }
    }
    if (ownsDataDir) await rm(dataDir, { recursive: true, force: true });
  };

  const deadline = startedAt + timeoutMs;
  for (;;) {
    if (hasExited) {
      await stop();
      throw new Error(
        `The server exited (code ${child.exitCode ?? child.signalCode}) before answering ` +
          `${url}/api/v1/health. Its output:\n${logTail()}`,
      );
    }
    if (await isHealthy(url)) break;
    if (performance.now() > deadline) {
      await stop();
      throw new Error(
        `The server did not answer ${url}/api/v1/health with 200 within ${timeoutMs} ms. ` +
          `Its output:\n${logTail()}`,
      );
    }
    await sleep(50);
  }
  const startupMs = performance.now() - startedAt;

  return {
    url,
    port,
    dataDir,
    pid: child.pid ?? -1,
    startupMs,
    logTail,
    stop,
  };
}

/**
 * Builds the server when it is missing or stale, with the same rule as `npm start`.
 * @param {string} root
 */
function ensureServerBuilt(root) {
  const result = spawnSync(process.execPath, ['scripts/ensure-built.mjs', 'server'], {
    cwd: root,
    encoding: 'utf8',
  });
  if (result.status !== 0) {
    throw new Error(
      `Building the server failed (exit ${result.status ?? result.signal}):\n` +
        `${result.stdout}${result.stderr}${result.error?.message ?? ''}`,
    );
  }
}

/** @param {string} url */
async function isHealthy(url) {
  try {
    const response = await fetch(`${url}/api/v1/health`, { signal: AbortSignal.timeout(2_000) });
    await response.arrayBuffer();
    return response.status === 200;
  } catch {
    return false;
  }
}

/** @param {number} ms */
function sleep(ms) {
  return new Promise((resolveSleep) => setTimeout(resolveSleep, ms));
}
