import { isStorableDate } from '@merit/domain';
import { idOf } from '../../components/use-id-param';

/*
 * The filters of the Activity pages as the address writes them, and as the API reads
 * them. The address keeps days (`from=2026-03-01`), which a reload or a shared link shows
 * in the date inputs again; the API is sent instants, each day taken whole in UTC, the
 * zone the pages show times in.
 */

/** The address's filter keys, in the order the query string writes them. */
export const ACTIVITY_FILTERS = ['user', 'action', 'proposal', 'from', 'to'] as const;
export type ActivityFilterKey = (typeof ACTIVITY_FILTERS)[number];

export interface ActivityFilters {
  /** The person who acted. */
  user?: number;
  action?: string;
  proposal?: number;
  /** The first day, `YYYY-MM-DD` (UTC). */
  from?: string;
  /** The last day, `YYYY-MM-DD` (UTC), included. */
  to?: string;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A `YYYY-MM-DD` that names a real day Merit can store, or null. */
function dayOf(value: string | null): string | null {
  if (value === null || !DAY.test(value)) return null;
  const date = new Date(`${value}T00:00:00.000Z`);
  // `2026-02-31` parses as 3 March: only a day that reads back the same is one.
  return isStorableDate(date) && date.toISOString().startsWith(value) ? value : null;
}

/** The filters the address sets; anything it cannot mean reads as no filter. */
export function readActivityFilters(params: URLSearchParams): ActivityFilters {
  const user = idOf(params.get('user') ?? undefined);
  const proposal = idOf(params.get('proposal') ?? undefined);
  const action = params.get('action')?.trim().slice(0, 60);
  const from = dayOf(params.get('from'));
  const to = dayOf(params.get('to'));
  return {
    ...(user !== null ? { user } : {}),
    ...(action ? { action } : {}),
    ...(proposal !== null ? { proposal } : {}),
    ...(from !== null ? { from } : {}),
    ...(to !== null ? { to } : {}),
  };
}

/** True when the last day comes before the first: nothing can match. */
export const isBackwards = ({ from, to }: ActivityFilters) =>
  from !== undefined && to !== undefined && to < from;

/**
 * The query string of GET /calls/{id}/activity/ and GET /activity/: only what is set, the
 * days as the instants that start the first and end the last; then the page, or
 * `format=csv` for the whole filter as CSV.
 */
export function activityParams(
  filters: ActivityFilters,
  rest: { page: number; pageSize: number } | { format: 'csv' },
): URLSearchParams {
  const params = new URLSearchParams();
  if (filters.user !== undefined) params.set('user', String(filters.user));
  if (filters.action !== undefined) params.set('action', filters.action);
  if (filters.proposal !== undefined) params.set('proposal', String(filters.proposal));
  if (filters.from !== undefined) params.set('from', `${filters.from}T00:00:00.000Z`);
  if (filters.to !== undefined) params.set('to', `${filters.to}T23:59:59.999Z`);
  if ('format' in rest) params.set('format', rest.format);
  else {
    params.set('page', String(rest.page));
    params.set('pageSize', String(rest.pageSize));
  }
  return params;
}
