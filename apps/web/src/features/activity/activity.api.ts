import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiRequest, apiText } from '../../api/client';
import { activityParams, type ActivityFilters } from './activity-query';

/** One page of a list, counted from 1 as the API counts. */
export interface PageOf {
  page: number;
  pageSize: number;
}

/**
 * Query keys of History and Activity. The whole system's activity is admin-only data,
 * under `admin` as the other admin screens' (users.api.ts' adminDataKey).
 */
export const activityKeys = {
  all: ['activity'] as const,
  history: (proposalId: number, page: PageOf) =>
    ['activity', 'proposal', proposalId, page] as const,
  ofCall: (callId: number, filters: ActivityFilters, page: PageOf) =>
    ['activity', 'call', callId, filters, page] as const,
  admin: (filters: ActivityFilters, page: PageOf) => ['admin', 'activity', filters, page] as const,
};

/** GET /proposals/{id}/history/: a page of its history, newest first, as the caller may read it. */
export function useProposalHistory(proposalId: number, page: PageOf) {
  return useQuery({
    queryKey: activityKeys.history(proposalId, page),
    queryFn: ({ signal }) =>
      apiRequest(`/proposals/${proposalId}/history/?page=${page.page}&pageSize=${page.pageSize}`, {
        schema: (c) => c.proposalHistory,
        signal,
      }),
    // While the next page loads, the table keeps the last answer.
    placeholderData: keepPreviousData,
  });
}

/** Where a list of activity comes from: one call's (chairs), or the whole system's (admins). */
export type ActivityScope = { callId: number } | 'all';

const activityPath = (scope: ActivityScope) =>
  scope === 'all' ? '/activity/' : `/calls/${scope.callId}/activity/`;

/** GET /calls/{id}/activity/ or GET /activity/: a page of the filtered rows, newest first. */
export function useActivity(
  scope: ActivityScope,
  filters: ActivityFilters,
  page: PageOf,
  enabled = true,
) {
  return useQuery({
    queryKey:
      scope === 'all'
        ? activityKeys.admin(filters, page)
        : activityKeys.ofCall(scope.callId, filters, page),
    queryFn: ({ signal }) =>
      apiRequest(`${activityPath(scope)}?${activityParams(filters, page)}`, {
        schema: (c) => c.activityPage,
        signal,
      }),
    enabled,
    placeholderData: keepPreviousData,
  });
}

/**
 * The rows the filter matches, every page, as CSV (`format=csv`). Fetched with the
 * session's token and saved by the page, as the assignment CSV is: a plain link would
 * reach the API without it.
 */
export function downloadActivityCsv(scope: ActivityScope, filters: ActivityFilters) {
  return apiText(`${activityPath(scope)}?${activityParams(filters, { format: 'csv' })}`, {
    accept: 'text/csv',
  });
}

/** The file a download is saved as: the name the server gives it, with the day (UTC). */
export function activityFileName(scope: ActivityScope, now = new Date()): string {
  const day = now.toISOString().slice(0, 10);
  return scope === 'all' ? `activity-${day}.csv` : `activity-call-${scope.callId}-${day}.csv`;
}
