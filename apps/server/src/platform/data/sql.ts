import { sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';

/** A search typed into a box, for LIKE: `%` and `_` mean themselves, not wildcards. */
export const escapeLike = (text: string) => text.replace(/[\\%_]/g, (ch) => `\\${ch}`);

/** `%text%` for ILIKE: rows whose column contains the search anywhere, whatever the case. */
export const containing = (text: string) => `%${escapeLike(text)}%`;

/** The domain's `personName` in SQL, for lists that sort and search by it. */
export const personNameSql = (table: {
  firstName: AnyPgColumn;
  lastName: AnyPgColumn;
  username: AnyPgColumn;
}) =>
  sql<string>`coalesce(nullif(trim(${table.firstName} || ' ' || ${table.lastName}), ''), ${table.username})`;

/**
 * Runs a query that most requests send, by name: on PostgreSQL each pooled connection
 * parses and plans it once and then only binds new values, where an unnamed query is
 * planned afresh every time (for the proposal loader, planning took 4 ms against 1 ms of
 * execution). One name per SQL text: a name sent with a different text is an error, so a
 * query whose shape varies (an `in` list, optional clauses) names each shape or goes
 * unnamed. PGlite ignores the name.
 */
export function runNamed<T>(
  name: string,
  query: { prepare(name: string): { execute(): Promise<T> } },
): Promise<T> {
  return query.prepare(name).execute();
}
