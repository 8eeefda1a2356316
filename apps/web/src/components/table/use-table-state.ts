import { useState } from 'react';
import { useSearchParams } from 'react-router';
import type { TableSort } from './sort-rows';

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

export interface TableState {
  /** The search as typed. */
  q: string;
  sort: TableSort;
  /** Counted from 0, as MUI's TablePagination counts; the address counts from 1. */
  page: number;
  pageSize: number;
  /** The names of this table's keys in the address. */
  keys: { q: string; sort: string; page: string; size: string };
  setQuery: (q: string) => void;
  setSort: (sort: TableSort) => void;
  /** A click on a column header: that column ascending, or the other way if it is sorted. */
  toggleSort: (key: string) => void;
  setPage: (page: number, options?: { replace?: boolean }) => void;
  setPageSize: (size: number) => void;
  serverQuery: ServerListQuery;
}

/** How the address (and a server-paged list's query) writes a sort: `name`, or `-name` descending. */
export const encodeSort = ({ key, direction }: TableSort) =>
  direction === 'desc' ? `-${key}` : key;

export function decodeSort(value: string): TableSort {
  return value.startsWith('-')
    ? { key: value.slice(1), direction: 'desc' }
    : { key: value, direction: 'asc' };
}

/** A positive whole number written plainly, as this hook writes them; anything else is null. */
function positiveInteger(value: string | null): number | null {
  return value && /^[1-9]\d*$/.test(value) ? Number(value) : null;
}

/**
 * The search, sort, page and page size of a list, kept in the address (`q`, `sort` with a
 * `-` prefix for descending, `page` counted from 1, `size`), so a reload, a shared link
 * or Back from a row's page shows the same rows. Defaults stay out of the address, and
 * anything in it that makes no sense (an unknown column, page `0`) reads as the default.
 *
 * The same state drives a list sorted and paged here (DataTable's `rows`) and one the
 * server pages (`serverQuery` to fetch with, DataTable's `serverPage` to show).
 */
export function useTableState(
  columns: readonly SortableColumn[],
  options: TableStateOptions,
): TableState {
  const [params, setParams] = useSearchParams();
  return tableState(params, setParams, columns, options);
}

/**
 * The same state as useTableState, held by the component instead of the address: for a
 * list inside a dialog, which the address does not name, so a sort or page kept there
 * would outlive the dialog and reopen a later one part-way through its rows. It starts
 * afresh each time the component mounts, and Back leaves it alone.
 */
export function useLocalTableState(
  columns: readonly SortableColumn[],
  { defaultSort }: Omit<TableStateOptions, 'prefix'>,
): TableState {
  const [params, setParams] = useState(() => new URLSearchParams());
  return tableState(params, (change) => setParams((previous) => change(previous)), columns, {
    defaultSort,
  });
}

/** Sets the keys of a table's state: the address's search parameters, or a component's copy. */
type SetParams = (
  change: (previous: URLSearchParams) => URLSearchParams,
  options: { replace: boolean },
) => void;

/** The state of a list as written in `params`, and the changes to it as writes to `params`. */
function tableState(
  params: URLSearchParams,
  setParams: SetParams,
  columns: readonly SortableColumn[],
  { defaultSort, prefix }: TableStateOptions,
): TableState {
  const name = (key: string) => (prefix ? `${prefix}.${key}` : key);
  const keys = { q: name('q'), sort: name('sort'), page: name('page'), size: name('size') };
  const sortKeys = columns.filter((column) => column.sort !== undefined).map(({ key }) => key);

  const q = params.get(keys.q) ?? '';
  const requestedSort = decodeSort(params.get(keys.sort) ?? '');
  const sort = sortKeys.includes(requestedSort.key) ? requestedSort : defaultSort;
  const page = (positiveInteger(params.get(keys.page)) ?? 1) - 1;
  const requestedSize = positiveInteger(params.get(keys.size));
  const pageSize = PAGE_SIZES.find((size) => size === requestedSize) ?? PAGE_SIZES[0];

  /**
   * Sets some of this table's keys (`null` removes one) and always the page, which any
   * other change starts again from the first. Typing replaces the history entry, so Back
   * does not step through every letter; a sort or a page is a step of its own.
   */
  const update = (changes: Record<string, string | null>, replace = false) =>
    setParams(
      (previous) => {
        const next = new URLSearchParams(previous);
        for (const [key, value] of Object.entries({ [keys.page]: null, ...changes })) {
          if (value === null) next.delete(key);
          else next.set(key, value);
        }
        return next;
      },
      { replace },
    );

  const setSort = (next: TableSort) => {
    const isDefault = next.key === defaultSort.key && next.direction === defaultSort.direction;
    update({ [keys.sort]: isDefault ? null : encodeSort(next) });
  };

  return {
    q,
    sort,
    page,
    pageSize,
    keys,
    setQuery: (next) => update({ [keys.q]: next || null }, true),
    setSort,
    toggleSort: (key) =>
      setSort({
        key,
        direction: key === sort.key && sort.direction === 'asc' ? 'desc' : 'asc',
      }),
    setPage: (next, { replace = false } = {}) =>
      update({ [keys.page]: next > 0 ? String(next + 1) : null }, replace),
    setPageSize: (next) => update({ [keys.size]: next === PAGE_SIZES[0] ? null : String(next) }),
    serverQuery: { page: page + 1, pageSize, sort: encodeSort(sort), q: q.trim() },
  };
}
