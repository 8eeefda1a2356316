import { parseSort, type ListQuery, type Page } from '@merit/contract';
import { asc, desc, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';

/**
 * ORDER BY for a list's `sort`: the column the key names, ascending or descending, then
 * `tieBreak` ascending, so rows that sort equal keep one order from page to page.
 * `columns` maps every sort key the contract's `listQuery` accepts to what it sorts by.
 * The keys in `nullsLast` (scores, which a proposal may not have yet) put rows without a
 * value last in both directions, where PostgreSQL would put them first when descending.
 */
export function orderOf(
  query: ListQuery,
  columns: Record<string, SQL | AnyPgColumn>,
  tieBreak: AnyPgColumn,
  nullsLast: readonly string[] = [],
): SQL[] {
  const { key, descending } = parseSort(query.sort);
  const column = columns[key];
  // The contract's enum admits only the keys of `columns`; this guards a mismatch.
  if (!column) throw new Error(`No column to sort by "${key}".`);
  const ordered = nullsLast.includes(key)
    ? sql`${column} ${sql.raw(descending ? 'desc' : 'asc')} nulls last`
    : descending
      ? desc(column)
      : asc(column);
  return [ordered, asc(tieBreak)];
}

/** How many rows to skip for the query's page. */
export const offsetOf = (query: ListQuery) => (query.page - 1) * query.pageSize;

/** The page as the contract's `paginated` shape sends it. */
export function pageOf<T>(query: ListQuery, total: number, items: T[]): Page<T> {
  return { items, page: query.page, pageSize: query.pageSize, total, sort: query.sort };
}
