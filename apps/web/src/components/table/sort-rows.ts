/**
 * What a column sorts by. Strings compare as people read them ("Round 2" before
 * "Round 10"), numbers as numbers, dates as instants. `null`, `undefined`, `''` and an
 * invalid number or date are missing: they sort last in either direction, so a column
 * sorted either way starts with the rows that have something to show.
 */
export type SortValue = string | number | Date | null | undefined;

export type SortDirection = 'asc' | 'desc';

export interface TableSort {
  key: string;
  direction: SortDirection;
}

/** `localeCompare` with numeric collation, made once for every comparison of a sort. */
const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

function isPresent(value: SortValue): value is string | number | Date {
  if (value === null || value === undefined || value === '') return false;
  if (typeof value === 'number') return !Number.isNaN(value);
  if (value instanceof Date) return !Number.isNaN(value.getTime());
  return true;
}

/** Ascending order of two present values of one column. */
function compareValues(a: string | number | Date, b: string | number | Date): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (a instanceof Date && b instanceof Date) return a.getTime() - b.getTime();
  return collator.compare(String(a), String(b));
}

/**
 * `rows` sorted by `valueOf` in `direction`, missing values last. The sort is stable:
 * rows with equal values keep the order they came in (the server's).
 */
export function sortRows<T>(
  rows: readonly T[],
  valueOf: (row: T) => SortValue,
  direction: SortDirection,
): T[] {
  const sign = direction === 'asc' ? 1 : -1;
  return rows
    .map((row) => ({ row, value: valueOf(row) }))
    .sort(({ value: a }, { value: b }) => {
      const aPresent = isPresent(a);
      const bPresent = isPresent(b);
      if (aPresent && bPresent) return sign * compareValues(a, b);
      return Number(bPresent) - Number(aPresent);
    })
    .map(({ row }) => row);
}

/**
 * The rows one of whose `fieldsOf` texts contains `query`, ignoring case and the spaces
 * around it. `null` and `undefined` fields are not searched (a column only admins see).
 */
export function searchRows<T>(
  rows: readonly T[],
  query: string,
  fieldsOf: (row: T) => readonly (string | null | undefined)[],
): readonly T[] {
  const needle = query.trim().toLocaleLowerCase();
  if (!needle) return rows;
  return rows.filter((row) =>
    fieldsOf(row).some((field) => field?.toLocaleLowerCase().includes(needle)),
  );
}
