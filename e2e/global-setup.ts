import { spawnSync } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { FullConfig } from '@playwright/test';
import { REPO_ROOT, findFreePort, startServer } from '../scripts/lib/server.mjs';
import { E2E_ENV } from './env';

/** The server's whole output, for reading after a failed journey. */
const SERVER_LOG = resolve(REPO_ROOT, 'test-results', 'e2e-server.log');

/**
 * The admin the server creates on its empty database. Known values, so journeys
 * can log in; they reach the test workers through process.env, which the workers
 * inherit from this process.
 */
const INITIAL_ADMIN = {
  username: 'e2e-admin',
  email: 'e2e-admin@example.test',
  password: 'E2e-Admin-Passw0rd!',
};

/** What scripts/ensure-built.mjs builds: the manual, the web app, the server. */
export type BuildTarget = 'docs' | 'web' | 'server';

/**
 * Starts one server for the whole run and returns its teardown. With
 * MERIT_E2E_BASE_URL already set (and the admin's MERIT_E2E_ADMIN_* variables),
 * the journeys run against that server instead, e.g. a `npm run dev` one; journeys
 * that read mail need its MERIT_E2E_DATA_DIR too, and no SMTP_URL on it.
 */
export default async function globalSetup(_config: FullConfig): Promise<() => Promise<void>> {
  // Everything the server serves (the web app, the Help PDF), not just the server, as
  // `npm start` builds it: `npm run test:e2e` may run without `npm test`'s build step.
  return setUpServer(['docs', 'web', 'server']);
}

/** Builds `targets` when they are stale, starts the server, and returns its teardown. */
export async function setUpServer(targets: readonly BuildTarget[]): Promise<() => Promise<void>> {
  if (process.env[E2E_ENV.baseUrl]) {
    console.log(`e2e: using the server at ${process.env[E2E_ENV.baseUrl]}`);
    return async () => {};
  }

  const built = spawnSync(process.execPath, ['scripts/ensure-built.mjs', ...targets], {
    cwd: REPO_ROOT,
    stdio: 'inherit',
  });
  if (built.status !== 0) throw new Error('Building the app for the journeys failed; see above.');

  mkdirSync(dirname(SERVER_LOG), { recursive: true });
  const log = createWriteStream(SERVER_LOG);
  // The port is chosen first so that PUBLIC_URL, which the links in mails start
  // with, is this server's own address. By the name `localhost`, which reaches the
  // 127.0.0.1 it listens on: WebAuthn refuses an IP address as the relying party's id
  // ("This is an invalid domain"), and the security keys journey needs one. The
  // journeys' baseURL is the same origin, so a mailed link opens where they logged in.
  const port = await findFreePort();
  const origin = `http://localhost:${port}`;
  const server = await startServer({
    port,
    env: {
      PUBLIC_URL: origin,
      // Mail goes to <DATA_DIR>/outbox, never to a server a developer's shell names.
      SMTP_URL: undefined,
      INITIAL_ADMIN_USERNAME: INITIAL_ADMIN.username,
      INITIAL_ADMIN_EMAIL: INITIAL_ADMIN.email,
      INITIAL_ADMIN_PASSWORD: INITIAL_ADMIN.password,
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
      // Every journey registers and logs people in from this one address: on a quiet
      // machine the whole suite passed the default 300 auth requests in 15 minutes, and the
      // last journeys were refused (429). The limit itself is rate-limit.api.test.ts's.
      AUTH_RATE_LIMIT_PER_IP: '5000',
    },
    onLog: (line) => log.write(`${line}\n`),
  });
  console.log(
    `e2e: server ready at ${origin} in ${Math.round(server.startupMs)} ms ` +
      `(its log: ${SERVER_LOG})`,
  );

  process.env[E2E_ENV.baseUrl] = origin;
  process.env[E2E_ENV.adminUsername] = INITIAL_ADMIN.username;
  process.env[E2E_ENV.adminEmail] = INITIAL_ADMIN.email;
  process.env[E2E_ENV.adminPassword] = INITIAL_ADMIN.password;
  process.env[E2E_ENV.dataDir] = server.dataDir;

  return async () => {
    await server.stop();
    await new Promise((resolveEnd) => log.end(resolveEnd));
  };
}
