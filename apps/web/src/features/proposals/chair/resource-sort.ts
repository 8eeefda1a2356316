/**
 * The chair's resource columns as the address and the server name them. Apart from
 * chair-columns.ts, and free of @merit/domain, because the app reads a list's query from
 * its address as it starts (call-proposals-query.ts), in the login page's first scripts.
 */

/** One resource column of the chair's list and exports: a data field of one facility. */
export interface ResourceColumn {
  facility: string;
  field: string;
}

/** A column's key in the address (`sort=resource.["ATCA","hours"]`): unique per facility and field. */
export const resourceKey = ({ facility, field }: ResourceColumn) =>
  `resource.${JSON.stringify([facility, field])}`;

const RESOURCE_KEY_PREFIX = 'resource.';

/** The resource column an address's sort key names; null for any other key. */
export function resourceColumnOfKey(key: string): ResourceColumn | null {
  if (!key.startsWith(RESOURCE_KEY_PREFIX)) return null;
  try {
    const named: unknown = JSON.parse(key.slice(RESOURCE_KEY_PREFIX.length));
    if (
      Array.isArray(named) &&
      named.length === 2 &&
      typeof named[0] === 'string' &&
      typeof named[1] === 'string'
    )
      return { facility: named[0], field: named[1] };
  } catch {
    // Not JSON: an address someone typed, which names no column.
  }
  return null;
}

/**
 * The server's sort by a resource column: `sort=resource` (or `-resource`, descending)
 * with the column's facility and data field.
 */
export const resourceSortQuery = (column: ResourceColumn, direction: 'asc' | 'desc') => ({
  sort: direction === 'desc' ? '-resource' : 'resource',
  sortFacility: column.facility,
  sortField: column.field,
});
