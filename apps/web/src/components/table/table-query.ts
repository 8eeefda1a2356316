import type { TableSort } from './sort-rows';

// The pure half of use-table-state.ts, which re-exports it: what a list's address says. Apart,
// because the app reads a list's query from the address as it starts (call-proposals-query.ts).

/** The page sizes a person can choose; the first is the default. */
export const PAGE_SIZES = [10, 25, 50, 100] as const;

/** What the hook needs to know of a column: its key, and whether it sorts at all. */
export interface SortableColumn {
  key: string;
  sort?: unknown;
}

export interface TableStateOptions {
  defaultSort: TableSort;
  /**
   * Sets this table's keys apart in the address, for a page with more than one table:
   * `closed` gives `closed.q`, `closed.sort`, `closed.page` and `closed.size`.
   */
  prefix?: string;
}

/** The query of a server-paged list: `?page=&pageSize=&sort=&q=`, `page` counted from 1. */
export interface ServerListQuery {
  page: number;
  pageSize: number;
  /** The column key, with a leading `-` for descending. */
  sort: string;
  q: string;
}

/** How the address (and a server-paged list's query) writes a sort: `name`, or `-name` descending. */
export const encodeSort = ({ key, direction }: TableSort) =>
  direction === 'desc' ? `-${key}` : key;

export function decodeSort(value: string): TableSort {
  return value.startsWith('-')
    ? { key: value.slice(1), direction: 'desc' }
    : { key: value, direction: 'asc' };
}

/** A positive whole number written plainly, as useTableState writes them; anything else is null. */
function positiveInteger(value: string | null): number | null {
  return value && /^[1-9]\d*$/.test(value) ? Number(value) : null;
}

/** What the address (or a component's copy) says of a list, without the means to change it. */
export interface TableRead {
  /** The search as typed. */
  q: string;
  sort: TableSort;
  /** Counted from 0, as MUI's TablePagination counts; the address counts from 1. */
  page: number;
  pageSize: number;
  /** The names of this table's keys in the address. */
  keys: { q: string; sort: string; page: string; size: string };
  serverQuery: ServerListQuery;
}

/**
 * The state of a list as written in `params`. Pure, so that the app can read a list's
 * query from the address before its page renders, and ask for its rows early.
 */
export function readTableState(
  params: URLSearchParams,
  columns: readonly SortableColumn[],
  { defaultSort, prefix }: TableStateOptions,
): TableRead {
  const name = (key: string) => (prefix ? `${prefix}.${key}` : key);
  const keys = { q: name('q'), sort: name('sort'), page: name('page'), size: name('size') };
  const sortKeys = columns.filter((column) => column.sort !== undefined).map(({ key }) => key);

  const q = params.get(keys.q) ?? '';
  const requestedSort = decodeSort(params.get(keys.sort) ?? '');
  const sort = sortKeys.includes(requestedSort.key) ? requestedSort : defaultSort;
  const page = (positiveInteger(params.get(keys.page)) ?? 1) - 1;
  const requestedSize = positiveInteger(params.get(keys.size));
  const pageSize = PAGE_SIZES.find((size) => size === requestedSize) ?? PAGE_SIZES[0];
  return {
    q,
    sort,
    page,
    pageSize,
    keys,
    serverQuery: { page: page + 1, pageSize, sort: encodeSort(sort), q: q.trim() },
  };
}
