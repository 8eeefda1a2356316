import { userInfo } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import type { Config } from '../config/config.js';
import * as schema from './schema.js';
import { embeddedDatabaseDir, prepareEmbeddedDatabase } from './template.js';

export type Schema = typeof schema;
/** One type for both drivers: every query is written once, in PostgreSQL's dialect. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
/** What a service may run queries on: the database or an open transaction. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0] | Db;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Applies pending migrations; safe to run from several processes at once. */
  migrate(): Promise<void>;
  /** Resolves when the database answers a query. */
  ping(): Promise<void>;
  /**
   * Where errors that belong to no request go (a pooled connection the server dropped);
   * until this is called, the console.
   */
  useLogger(log: ErrorLogger): void;
  /**
   * PGlite only (undefined on PostgreSQL, which pg_dump backs up): runs `copy` with a tar
   * of the data folder taken while no transaction is open, and while `copy` runs no query
   * starts, so what `copy` also takes (the stored files) matches it. The tar holds what
   * a crash at that instant would leave: PGlite replays its WAL when it opens a copy.
   */
  snapshot?<T>(copy: (dataDirTar: Uint8Array) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** The part of Fastify's (pino's) logger the database needs. */
export interface ErrorLogger {
  error(details: object, message: string): void;
}

// From src/db/client.ts this is src/db/migrations; the build copies the folder to
// dist/migrations, beside the bundle this module becomes part of.
const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');
// Any fixed number: every Merit process takes the same advisory lock around migrations.
export const MIGRATION_LOCK_ID = 727_100_001;

export class DatabaseConnectError extends Error {
  override name = 'DatabaseConnectError';
}

/** The URL with its password masked, for messages and logs. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(unparseable URL)';
  }
}

export type DatabaseTarget =
  | {
      kind: 'pglite';
      dataDir?: string;
      /** In memory only (no dataDir): starts from this tar of a data folder (tests' template). */
      loadDataDir?: Blob;
    }
  | { kind: 'postgres'; url: string; statementTimeoutMs?: number };

/** The database the configuration names: PostgreSQL at DATABASE_URL, or PGlite in DATA_DIR/db. */
export function configuredDatabase(config: Config): DatabaseTarget {
  return config.databaseUrl
    ? {
        kind: 'postgres',
        url: config.databaseUrl,
        statementTimeoutMs: config.databaseStatementTimeoutMs,
      }
    : { kind: 'pglite', dataDir: embeddedDatabaseDir(config.dataDir) };
}

export async function openDatabase(target: DatabaseTarget): Promise<Database> {
  return target.kind === 'pglite' ? openPglite(target) : openPostgres(target);
}

async function openPglite({
  dataDir,
  loadDataDir,
}: Extract<DatabaseTarget, { kind: 'pglite' }>): Promise<Database> {
  // No dataDir: an in-memory database (tests), empty or a copy of loadDataDir's tar.
  if (dataDir) await prepareEmbeddedDatabase(dataDir);
  const client = dataDir ? new PGlite(dataDir) : new PGlite({ loadDataDir });
  await client.waitReady;
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    // PGlite is one connection inside this process, so nothing else can race a migration.
    migrate: () => migratePglite(drizzlePglite(client, { schema }), { migrationsFolder }),
    ping: async () => {
      await client.query('select 1');
    },
    // PGlite runs inside this process: its errors reject the query that met them.
    useLogger: () => {},
    snapshot: async (copy) => {
      // Written out first, so a copy opened later has little WAL to replay.
      await client.exec('checkpoint');
      // The transaction lock keeps every query and transaction out; dumpDataDir takes
      // the query lock inside it.
      return client._runExclusiveTransaction(async () => {
        const tar = await client.dumpDataDir('none');
        return copy(new Uint8Array(await tar.arrayBuffer()));
      });
    },
    close: async () => {
      if (!client.closed) await client.close();
    },
  };
}

/**
 * The URL with the operating system's user name when it names none. psql and createdb
 * (libpq) fall back to that name; node-postgres only to $USER, which containers and
 * services often lack, so the URL that works for psql would fail here.
 */
export function withDefaultUser(url: string): string {
  const parsed = new URL(url);
  if (parsed.username || process.env.PGUSER || process.env.USER) return url;
  parsed.username = userInfo().username;
  return parsed.toString();
}

async function openPostgres({
  url,
  statementTimeoutMs,
}: Extract<DatabaseTarget, { kind: 'postgres' }>): Promise<Database> {
  // Loaded only for PostgreSQL: an embedded start does not need them (bench figure (f)).
  const [{ default: pg }, { drizzle: drizzlePg }, { migrate: migratePg }] = await Promise.all([
    import('pg'),
    import('drizzle-orm/node-postgres'),
    import('drizzle-orm/node-postgres/migrator'),
  ]);
  const pool = new pg.Pool({
    connectionString: withDefaultUser(url),
    max: 10,
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
    // PostgreSQL cancels a statement that runs longer (error 57014), so a runaway query
    // gives up its connection instead of holding one of the pool's few until it ends.
    statement_timeout: statementTimeoutMs,
    // No JIT compilation: the chair's export of a 30,000-proposal call is estimated dear
    // enough for PostgreSQL to compile it, which took 2.5-8 s against 3 s for the whole
    // query without it. The server's queries are many and short; none gains from it.
    options: '-c jit=off',
  });
  let log: ErrorLogger = {
    error: (details, message) => console.error(`Merit: ${message}`, details),
  };
  // An idle pooled connection that fails (PostgreSQL restarted, the network dropped it)
  // emits here; unhandled, it would crash the process. The pool replaces the connection.
  pool.on('error', (error) => log.error({ err: error }, 'an idle database connection failed'));
  try {
    await pool.query('select 1');
  } catch (error) {
    await pool.end().catch(() => {});
    const reason = error instanceof Error ? error.message || error.name : String(error);
    throw new DatabaseConnectError(
      `Cannot connect to the database at DATABASE_URL (${redactUrl(url)}): ${reason}`,
    );
  }
  const db = drizzlePg(pool, { schema }) as unknown as Db;
  return {
    db,
    kind: 'postgres',
    migrate: async () => {
      // Several app processes may start together; the advisory lock lets one migrate
      // while the others wait and then find nothing left to do.
      const client = await pool.connect();
      try {
        // Waiting for another process's migrations, or rebuilding a large table, may
        // rightly take longer than any request should.
        await client.query('set statement_timeout = 0');
        await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
        try {
          await migratePg(drizzlePg(client, { schema }), { migrationsFolder });
        } finally {
          await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]);
        }
      } finally {
        // Closed, not returned: requests must not get a connection without the timeout.
        client.release(true);
      }
    },
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    useLogger: (logger) => {
      log = logger;
    },
    close: async () => {
      if (!pool.ended) await pool.end();
    },
  };
}
