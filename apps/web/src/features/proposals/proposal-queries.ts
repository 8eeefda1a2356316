import { apiRequest } from '../../api/client';
import type { ServerListQuery } from '../../components/table/table-query';

// Apart from proposals.api.ts, which re-exports them: the app asks for a call's list as it
// starts on the list's page (prefetchFirstRoute in routes.tsx), so this is in its first
// scripts, the login page's too, and the rest of the proposals API stays with its pages.

/** Query keys of the proposal screens; everything under `proposals` changes when one does. */
export const proposalKeys = {
  all: ['proposals'] as const,
  lists: ['proposals', 'list'] as const,
  mine: ['proposals', 'list', 'mine'] as const,
  ofCall: (callId: number, query: CallProposalsListQuery) =>
    ['proposals', 'list', 'call', callId, query] as const,
  detail: (proposalId: number) => ['proposals', 'detail', proposalId] as const,
  // Not under `proposals`: a proposal's changes leave its call's forms as they are.
  formOrder: (callId: number) => ['proposal-form-order', callId] as const,
};

/**
 * The query of a call's proposal list: a list's, and for a chair's sort by a resource
 * column (`sort=resource`), the column's facility and data field; Filter by Facility's.
 */
export type CallProposalsListQuery = ServerListQuery & {
  sortFacility?: string;
  sortField?: string;
  /** Filter by Facility: only the proposals asking something of it (chairs). */
  facility?: string;
};

/** One page of a call's proposals that the caller may see, as the server sorted and paged it. */
export function fetchCallProposals(
  callId: number,
  query: CallProposalsListQuery,
  signal?: AbortSignal,
) {
  const params = new URLSearchParams({
    page: String(query.page),
    pageSize: String(query.pageSize),
    sort: query.sort,
    ...(query.sortFacility !== undefined ? { sortFacility: query.sortFacility } : {}),
    ...(query.sortField !== undefined ? { sortField: query.sortField } : {}),
    ...(query.facility !== undefined ? { facility: query.facility } : {}),
    ...(query.q ? { q: query.q } : {}),
  });
  return apiRequest(`/calls/${callId}/proposals/?${params}`, {
    schema: (c) => c.callProposalPage,
    signal,
  });
}

/** A page of a call's proposals: what useCallProposals asks, and what the app asks early. */
export const callProposalsPageQuery = (callId: number, query: CallProposalsListQuery) => ({
  queryKey: proposalKeys.ofCall(callId, query),
  queryFn: ({ signal }: { signal: AbortSignal }) => fetchCallProposals(callId, query, signal),
});
