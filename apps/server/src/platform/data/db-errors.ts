import { sql, type SQL } from 'drizzle-orm';

/** PostgreSQL's SQLSTATE of a failed query, from either driver. */
export function pgCode(error: unknown): string | undefined {
  // node-postgres puts the code on the error; drizzle wraps both drivers' in `cause`.
  const e = error as { code?: unknown; cause?: { code?: unknown } } | null;
  const code = e?.code ?? e?.cause?.code;
  return typeof code === 'string' ? code : undefined;
}

/** A unique index refused the row: someone took the name between our check and the write. */
export const isUniqueViolation = (error: unknown) => pgCode(error) === '23505';

/**
 * A foreign key refused the change: what it points at vanished, or something still points
 * here. PostgreSQL 18 (and so PGlite) reports a key declared `on delete restrict` as
 * 23001 restrict_violation where 15 said 23503, so both mean the same here.
 */
export const isForeignKeyViolation = (error: unknown) =>
  ['23503', '23001'].includes(pgCode(error) ?? '');

/**
 * True when any of `conditions` holds; false for none. "In use" checks are lists of
 * `exists (...)` conditions, one per table that refers to a thing, so a new table joins
 * by adding one line to its list.
 */
export function anyOf(conditions: SQL[]): SQL<boolean> {
  if (conditions.length === 0) return sql<boolean>`false`;
  return sql<boolean>`(${sql.join(conditions, sql` or `)})`;
}
