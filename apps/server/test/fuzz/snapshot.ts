import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../src/db/client.js';

/** The rows of a raw query: both drivers (PGlite, node-postgres) answer `{ rows }`. */
async function rowsOf<T>(db: Db, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

/** Each table's row count and a hash of its rows, by table name. */
export type Snapshot = Map<string, string>;

/** The log the watcher's triggers write to; not one of the application's tables. */
const LOG = 'fuzz_writes';

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;
const literal = (name: string) => `'${name.replaceAll("'", "''")}'`;

/** Per table: `rows:md5 of every row's text, in a fixed order`. */
const hashQuery = (names: string[]) =>
  names
    .map(
      (name) =>
        `select ${literal(name)} as t, count(*) || ':' || md5(coalesce(string_agg(x::text, '|' order by x::text), '')) as h from ${quote(name)} x`,
    )
    .join(' union all ');

/**
 * Which tables a request changed, cheaply enough to ask after every request. A snapshot
 * of the whole database (each table's row count and an md5 of its rows) is taken once and
 * kept; a statement trigger on every table notes the tables a statement wrote to, so
 * after a request only those tables are hashed again, and a table counts as changed when
 * its hash differs from the kept one (a write that wrote nothing new is no change). Every
 * so often `verify` compares the kept snapshot with a whole new one, so a write the
 * triggers missed would show.
 */
export class ChangeWatcher {
  private constructor(
    private readonly db: Db,
    readonly tables: string[],
    private kept: Snapshot,
  ) {}

  static async install(db: Db): Promise<ChangeWatcher> {
    const result = await rowsOf<{ name: string }>(
      db,
      sql`select table_name as name from information_schema.tables
          where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`,
    );
    const tables = result.map((row) => row.name).filter((name) => name !== LOG);
    if (tables.length < 10) throw new Error(`Expected the application's tables, found ${tables}`);
    await db.execute(sql.raw(`create unlogged table if not exists ${LOG} (t text not null)`));
    await db.execute(
      sql.raw(`create or replace function fuzz_note_write() returns trigger language plpgsql as $$
        begin insert into ${LOG} values (TG_TABLE_NAME); return null; end $$`),
    );
    for (const table of tables)
      await db.execute(
        sql.raw(
          `create or replace trigger fuzz_note_write after insert or update or delete or truncate on ${quote(table)} for each statement execute function fuzz_note_write()`,
        ),
      );
    const watcher = new ChangeWatcher(db, tables, new Map());
    await watcher.resync();
    return watcher;
  }

  private async hashes(names: string[]): Promise<Snapshot> {
    if (names.length === 0) return new Map();
    const result = await rowsOf<{ t: string; h: string }>(this.db, sql.raw(hashQuery(names)));
    return new Map(result.map((row) => [row.t, row.h]));
  }

  /** The whole database now. */
  full(): Promise<Snapshot> {
    return this.hashes(this.tables);
  }

  /** The tables whose rows differ from the kept snapshot; the snapshot moves on to now. */
  async changes(): Promise<string[]> {
    const written = await rowsOf<{ t: string }>(this.db, sql.raw(`delete from ${LOG} returning t`));
    const names = [...new Set(written.map((row) => row.t))].sort();
    const now = await this.hashes(names);
    const changed = names.filter((name) => now.get(name) !== this.kept.get(name));
    for (const [name, hash] of now) this.kept.set(name, hash);
    return changed;
  }

  /** Takes a whole new snapshot to keep (after the test itself changed the database). */
  async resync(): Promise<void> {
    await this.db.execute(sql.raw(`delete from ${LOG}`));
    this.kept = await this.full();
  }

  /** The tables where a whole new snapshot disagrees with the kept one (none, unless a write was missed). */
  async verify(): Promise<string[]> {
    const whole = await this.full();
    return this.tables.filter((name) => whole.get(name) !== this.kept.get(name));
  }
}
