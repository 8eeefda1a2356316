import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { pgCode } from '../src/platform/data/db-errors.js';
import { MIGRATION_LOCK_ID, openDatabase, type Database } from '../src/db/client.js';
import { auditBatchHash, auditLog } from '../src/db/schema.js';
import { loadProposal } from '../src/modules/proposals/proposals.queries.js';
import { freshDatabase } from './helpers.js';

// PostgreSQL only (the server:postgres project; `*.postgres.test.ts` is left out of the
// PGlite run): PGlite is one connection inside this process, and it ignores
// statement_timeout (PostgreSQL in one WASM thread has no timer to cancel with).
describe('the PostgreSQL pool', () => {
  let url: string;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    const fresh = await freshDatabase();
    await fresh.database.close();
    url = fresh.url!;
    drop = fresh.drop;
  });
  afterAll(() => drop());

  async function open(statementTimeoutMs: number): Promise<Database> {
    const database = await openDatabase({ kind: 'postgres', url, statementTimeoutMs });
    onTestFinished(() => database.close());
    return database;
  }

  async function withClient<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return await work(client);
    } finally {
      await client.end();
    }
  }

  it('cancels a statement that runs past the statement timeout, with SQLSTATE 57014', async () => {
    const database = await open(300);
    const error: unknown = await database.db.execute(sql`select pg_sleep(2)`).catch((e) => e);
    expect(pgCode(error)).toBe('57014');
    // The connection stays usable.
    await database.ping();
  });

  it('waits for another process migrating however long it takes, and keeps the timeout for requests', async () => {
    const database = await open(300);
    await withClient(async (other) => {
      await other.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
      const migrated = database.migrate();
      // Released only once the migration has waited for the lock twice the statement
      // timeout (measured by PostgreSQL, not by a sleep here), which would have cancelled
      // the wait had the timeout applied to it.
      await expect
        .poll(
          async () => {
            const { rows } = await other.query<{ waited: number }>(
              `select coalesce(max(extract(epoch from clock_timestamp() - query_start) * 1000), 0)::float8 as waited
                 from pg_stat_activity
                where datname = current_database() and wait_event_type = 'Lock'
                  and wait_event = 'advisory'`,
            );
            return rows[0]!.waited;
          },
          { timeout: 10_000, interval: 50 },
        )
        .toBeGreaterThan(600);
      await other.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]);
      await migrated;
    });
    const error: unknown = await database.db.execute(sql`select pg_sleep(2)`).catch((e) => e);
    expect(pgCode(error)).toBe('57014');
  });

  it('logs an idle connection that fails, and carries on with a new one', async () => {
    const database = await open(30_000);
    const logged: { details: object; message: string }[] = [];
    database.useLogger({ error: (details, message) => logged.push({ details, message }) });
    await database.ping();
    // As when PostgreSQL restarts: the server ends the pool's idle connection.
    await withClient((admin) =>
      admin.query(
        'select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
      ),
    );
    await expect.poll(() => logged.length).toBe(1);
    expect(logged[0]!.message).toBe('an idle database connection failed');
    expect(pgCode((logged[0]!.details as { err: unknown }).err)).toBe('57P01');
    await database.ping();
  });

  it('plans the loader every proposal request sends once per connection, by name', async () => {
    const database = await open(30_000);
    const actor = { id: 1, isAdmin: false, roles: [] };
    const prepared = await database.db.transaction(async (tx) => {
      // One transaction is one connection: its second load binds, it does not plan.
      await loadProposal(tx, actor, 1, { forUpdate: true });
      await loadProposal(tx, actor, 2, { forUpdate: true });
      const { rows } = (await tx.execute(
        sql`select name from pg_prepared_statements order by name`,
      )) as unknown as { rows: { name: string }[] };
      return rows.map((r) => r.name);
    });
    expect(prepared).toEqual(['load_proposal_for_update']);
  });

  it("finds a Save All batch's audit row by its hash in the index, not among every row of the entity", async () => {
    const database = await open(30_000);
    const plan = await database.db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      const { rows } = (await tx.execute(
        sql`explain select 1 from ${auditLog} where ${auditLog.entityType} = 'proposal'
          and ${auditLog.entityId} = 1
          and ${auditBatchHash(auditLog.changes)} = to_jsonb(5::int)`,
      )) as unknown as { rows: { 'QUERY PLAN': string }[] };
      return rows.map((r) => r['QUERY PLAN']).join('\n');
    });
    expect(plan).toContain('audit_log_entity_batch_idx');
    expect(plan).toMatch(/Index Cond: .*'hash'.*'after'/);
  });
});
