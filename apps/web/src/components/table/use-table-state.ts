import { useState } from 'react';
import { useSearchParams } from 'react-router';
import type { TableSort } from './sort-rows';
import {
  encodeSort,
  PAGE_SIZES,
  readTableState,
  type SortableColumn,
  type TableRead,
  type TableStateOptions,
} from './table-query';

export {
  decodeSort,
  encodeSort,
  PAGE_SIZES,
  readTableState,
  type ServerListQuery,
  type SortableColumn,
  type TableRead,
  type TableStateOptions,
} from './table-query';

export interface TableState extends TableRead {
  setQuery: (q: string) => void;
  setSort: (sort: TableSort) => void;
  /** A click on a column header: that column ascending, or the other way if it is sorted. */
  toggleSort: (key: string) => void;
  setPage: (page: number, options?: { replace?: boolean }) => void;
  setPageSize: (size: number) => void;
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
  options: TableStateOptions,
): TableState {
  const read = readTableState(params, columns, options);
  const { keys, sort } = read;
  const { defaultSort } = options;

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
    ...read,
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
  };
}
