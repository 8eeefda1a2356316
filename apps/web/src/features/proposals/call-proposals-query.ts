import type { TableSort } from '../../components/table/sort-rows';
import {
  decodeSort,
  readTableState,
  type SortableColumn,
  type TableRead,
} from '../../components/table/table-query';
import { resourceColumnOfKey, resourceSortQuery, type ResourceColumn } from './chair/resource-sort';
import type { CallProposalsListQuery } from './proposal-queries';

/**
 * What a call's proposal list (CallProposalsPage) asks the server, read from its address.
 * Pure and small, so that the app can ask for the list's rows as it starts, before the
 * page's code has arrived (prefetchFirstRoute in routes.tsx), with the very query the page
 * then asks: both read it here.
 */

/** The list is sorted by name until the address says otherwise. */
export const CALL_PROPOSALS_DEFAULT_SORT: TableSort = { key: 'name', direction: 'asc' };

/** The address's key of Filter by Facility: absent for every facility, empty for the unnamed one. */
export const FACILITY_PARAM = 'facility';

/** The columns the server sorts by (the page's Type, Name, Proposal Author, State, Review Score). */
const SERVER_SORTED_KEYS = ['type', 'name', 'author', 'state', 'score'];

/**
 * Every column key the address may sort by: the fixed ones, and the resource column it
 * names (the resource columns are known only once the page has loaded).
 */
export function sortableColumns(sort: string | null): SortableColumn[] {
  const key = decodeSort(sort ?? '').key;
  return [
    ...SERVER_SORTED_KEYS.map((fixed) => ({ key: fixed, sort: 'server' as const })),
    ...(resourceColumnOfKey(key) ? [{ key, sort: 'server' as const }] : []),
  ];
}

/**
 * The server's query for the list's state, and the resource column it sorts by. With Filter
 * by Facility on, the server lists only the proposals asking something of the facility, and
 * the column sorted is that facility's: the only one of its field the list shows.
 */
export function callProposalsQuery(
  table: Pick<TableRead, 'sort' | 'serverQuery'>,
  facilityParam: string | null,
): { query: CallProposalsListQuery; sortColumn: ResourceColumn | null } {
  const named = resourceColumnOfKey(table.sort.key);
  const sortColumn =
    named && facilityParam !== null ? { facility: facilityParam, field: named.field } : named;
  return {
    query: {
      ...table.serverQuery,
      ...(sortColumn ? resourceSortQuery(sortColumn, table.sort.direction) : {}),
      ...(facilityParam !== null ? { facility: facilityParam } : {}),
    },
    sortColumn,
  };
}

/** The query of the list at an address's search parameters, as the page will ask it. */
export function callProposalsQueryOfAddress(params: URLSearchParams): CallProposalsListQuery {
  const table = readTableState(params, sortableColumns(params.get('sort')), {
    defaultSort: CALL_PROPOSALS_DEFAULT_SORT,
  });
  return callProposalsQuery(table, params.get(FACILITY_PARAM)).query;
}
