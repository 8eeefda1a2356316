/**
 * Starting Merit, shared by `npm start` (main.ts) and `npm run demo` (cli/demo.ts): the
 * configuration, the data folder and its lock, the app, the first administrator, the
 * signals that stop it, and listening.
 */
import type { App } from './app.js';
import { ConfigError, loadConfig, type Config } from './config/config.js';
import { embeddedDatabaseDir, prepareEmbeddedDatabase } from './db/template.js';
import { dataDirInUse, holdDataDir } from './platform/io/online-backup.js';
import {
  keepNewFilesPrivate,
  makeTreePrivate,
  privateDataDir,
} from './platform/io/private-files.js';
import { SecretKeyFileError, WrongServerSecretError } from './platform/security/server-key.js';

/** How long a shutdown waits for requests in flight before giving up. */
const SHUTDOWN_GRACE_MS = 10_000;

export function fail(message: string): never {
  console.error(`Merit cannot start: ${message}`);
  process.exit(1);
}

/**
 * Prints lines in a box, straight to the console and not to the structured log: for
 * what the person starting Merit must see, and log storage must not keep.
 */
export function printBoxed(lines: string[]): void {
  const width = Math.max(...lines.map((line) => line.length));
  console.warn(
    [
      '',
      `  ┌${'─'.repeat(width + 2)}┐`,
      ...lines.map((line) => `  │ ${line.padEnd(width)} │`),
      `  └${'─'.repeat(width + 2)}┘`,
      '',
    ].join('\n'),
  );
}

export interface StartOptions {
  /** The variables to configure from; default the process's. */
  env?: NodeJS.ProcessEnv;
  /** The clock for every rule; the demo moves it while it writes its world. */
  now?: () => Date;
  /**
   * On an empty database, make the first administrator from INITIAL_ADMIN_* (or `admin`
   * with a password shown once). Default true; the demo makes its own accounts.
   */
  firstAdmin?: boolean;
  /** Runs once the app is built and before it listens: a request sees its work done. */
  prepare?: (app: App, config: Config) => Promise<void>;
  /** Says the server is up, once it listens; default the PUBLIC_URL advice and the address. */
  announce?: (app: App, config: Config) => void;
}

export async function startMerit(options: StartOptions = {}): Promise<void> {
  keepNewFilesPrivate();
  let config;
  try {
    config = loadConfig(options.env);
  } catch (error) {
    if (error instanceof ConfigError) fail(error.message);
    throw error;
  }

  await privateDataDir(config.dataDir);
  // Two processes on one embedded database corrupt it (platform/io/online-backup.ts).
  if (!config.databaseUrl && (await dataDirInUse(config.dataDir))) {
    fail(
      `Another Merit process (a server, a backup or a restore) is using DATA_DIR ${config.dataDir}. Stop it first, or give this server its own DATA_DIR.`,
    );
  }

  // The rest of the server (its routes, Fastify, the database drivers) loads while a first
  // start writes the embedded database's files: the one mostly computes, the other mostly
  // waits for the disk (bench figure (f), cold start).
  const [{ buildApp }, { DatabaseConnectError }, { ensureFirstAdmin }] = await Promise.all([
    import('./app.js'),
    import('./db/client.js'),
    import('./modules/users/users.service.js'),
    config.databaseUrl ? undefined : prepareEmbeddedDatabase(embeddedDatabaseDir(config.dataDir)),
  ]);
  let app;
  try {
    app = await buildApp(config, { now: options.now });
  } catch (error) {
    if (
      error instanceof DatabaseConnectError ||
      error instanceof SecretKeyFileError ||
      error instanceof WrongServerSecretError
    )
      fail(error.message);
    throw error;
  }
  // The embedded database's files, which PGlite makes 0666 whatever the umask.
  if (!config.databaseUrl) await makeTreePrivate(embeddedDatabaseDir(config.dataDir));

  // From now on `npm run backup` asks this process for snapshots of the embedded
  // database, and another server refuses to open it.
  const releaseDataDir = app.database.snapshot
    ? await holdDataDir(config.dataDir, app.database, (error) =>
        app.log.error({ err: error }, 'a backup snapshot failed'),
      )
    : undefined;

  // Each process with its own DATA_DIR/secret.key has its own key: all but the first to
  // start on the database would refuse to (checkServerSecret, platform/security/server-key.ts).
  // Info, not a warning: one process on PostgreSQL with its DATA_DIR is a sound setup.
  if (config.databaseUrl && !config.secretKey) {
    app.log.info(
      'SECRET_KEY is not set, so this process uses the key in DATA_DIR/secret.key: every other Merit process on this database must use the same key (set SECRET_KEY on each to it), or it will refuse to start',
    );
  }
  const created =
    options.firstAdmin === false
      ? null
      : await ensureFirstAdmin(app.db, config.initialAdmin, app.keys.passwordPepper);
  if (created?.password) {
    printBoxed([
      'Merit created the first administrator account.',
      `  username: ${created.username}`,
      `  password: ${created.password}`,
      'This password is shown only now. Log in and change it.',
    ]);
  } else if (created) {
    app.log.info(
      { username: created.username },
      'created the first administrator from INITIAL_ADMIN_*',
    );
  }

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down: finishing requests in flight');
    const timer = setTimeout(() => {
      app.log.error('requests still running after the grace period; exiting');
      process.exit(1);
    }, SHUTDOWN_GRACE_MS);
    timer.unref();
    // Connections whose request finishes after this point would otherwise stay open as
    // keep-alive connections and hold the close up; each one is closed once it is idle.
    const sweep = setInterval(() => app.server.closeIdleConnections(), 50);
    sweep.unref();
    Promise.all([releaseDataDir?.(), app.close()]).then(
      () => process.exit(0),
      (error: unknown) => {
        app.log.error({ err: error }, 'error while shutting down');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));

  await options.prepare?.(app, config);

  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') fail(`PORT ${config.port} is already in use on ${config.host}.`);
    if (code === 'EACCES') fail(`PORT ${config.port} needs privileges this process does not have.`);
    throw error;
  }
  if (options.announce) {
    options.announce(app, config);
    return;
  }
  // `npm run dev` sets NODE_ENV=development: a developer's machine, where localhost links are right.
  if (config.publicUrlIsDefault && process.env.NODE_ENV !== 'development') {
    printBoxed([
      'PUBLIC_URL is not set.',
      `Links in the mail Merit sends point at ${config.publicUrl},`,
      'which works only on this machine. Set PUBLIC_URL to the address',
      'people use to reach Merit, e.g. PUBLIC_URL=https://merit.example.org',
    ]);
  }
  console.warn(`Merit is running at ${config.publicUrl}`);
}

/** Starts Merit, or says why it failed and exits. */
export function runMerit(options: StartOptions = {}): void {
  startMerit(options).catch((error: unknown) => {
    console.error('Merit failed to start:', error);
    process.exit(1);
  });
}
