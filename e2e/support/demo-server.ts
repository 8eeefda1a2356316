/**
 * The demo world (issue 30, `npm run demo`) for journeys and screenshots: the compiled
 * demo entry started on a free port with a fresh temporary DATA_DIR and a known password,
 * ready once it answers its health check (the world is written before it listens).
 *
 * Its accounts and calls come from the server's own demo modules (plain data, no
 * imports), so a journey names exactly who and what the world holds.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT, findFreePort, startServer } from '../../scripts/lib/server.mjs';

export {
  DEMO_ACCOUNTS,
  type DemoAccount,
  type DemoRole,
} from '../../apps/server/src/demo/accounts';
export {
  COMMITTEE_NAME as DEMO_COMMITTEE,
  DEMO_CALLS,
  DEMO_PROPOSALS,
} from '../../apps/server/src/demo/content';

/**
 * The calls' ids on a fresh DATA_DIR, in the order the world makes them (the closed call
 * first, the open one last): apps/server/src/demo/content.ts has what each holds.
 */
export const DEMO_CALL_IDS = { closed: 1, late: 2, review: 3, open: 4 } as const;

/** Every demo account's password in a started demo, unless told otherwise. */
export const DEMO_PASSWORD = 'Demo-Aurora-Passw0rd';

export interface DemoServerOptions {
  /** The accounts' password; default DEMO_PASSWORD. */
  password?: string;
  /** Extra variables for the server (undefined removes one). */
  env?: Record<string, string | undefined>;
  /** Each line the server prints. */
  onLog?: (line: string) => void;
}

export interface DemoServer {
  /** e.g. http://localhost:41234, also the server's PUBLIC_URL (mailed links open here). */
  origin: string;
  password: string;
  /** The temporary DATA_DIR (its outbox holds the mail the world sent). */
  dataDir: string;
  /** The last lines the server printed (its start-up box with the accounts among them). */
  logTail: () => string;
  /** Stops the server and removes its DATA_DIR. */
  stop: () => Promise<void>;
}

export async function startDemoServer(options: DemoServerOptions = {}): Promise<DemoServer> {
  // The web app it serves, built only when there is none: the run's global setup has
  // built it fresh, and rebuilding it now (say, after a source was edited mid-run) would
  // take the assets from under the run's other server (startServer builds the server).
  if (!existsSync(join(REPO_ROOT, 'apps/web/dist/index.html'))) {
    const built = spawnSync(process.execPath, ['scripts/ensure-built.mjs', 'web'], {
      cwd: REPO_ROOT,
      stdio: 'inherit',
    });
    if (built.status !== 0) throw new Error('Building the web app for the demo failed; see above.');
  }
  const password = options.password ?? DEMO_PASSWORD;
  // By the name localhost, as the journeys' own server (e2e/global-setup.ts says why).
  const port = await findFreePort();
  const origin = `http://localhost:${port}`;
  const server = await startServer({
    entry: 'apps/server/dist/demo.js',
    port,
    env: {
      PUBLIC_URL: origin,
      DEMO_PASSWORD: password,
      SMTP_URL: undefined,
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
      // Screens of every role are visited from this one address.
      AUTH_RATE_LIMIT_PER_IP: '5000',
      ...options.env,
    },
    onLog: options.onLog,
  });
  return { origin, password, dataDir: server.dataDir, logTail: server.logTail, stop: server.stop };
}
