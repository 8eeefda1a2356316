import type {
  AssignmentSettingsPatch,
  BidsResponse,
  MatrixResponse,
  MatrixRow,
} from '@merit/contract';
import type { Preference } from '@merit/domain';
import {
  keepPreviousData,
  useInfiniteQuery,
  useQuery,
  type InfiniteData,
  type QueryClient,
} from '@tanstack/react-query';
import { apiRequest, apiText, isApiError, type ApiError } from '../../api/client';
import { noBody } from '../../api/contract';
import { refreshReviews } from '../reviews/reviews.api';

/*
 * The API of reviewer assignment for a whole call (issue 27): the Assignment page's
 * settings and counts, Propose / Apply / Discard, the matrix, the CSV, and bidding.
 */

/** The matrix's filters, as GET .../assignment/matrix/ takes them. */
export interface MatrixFilters {
  search: string;
  /** A proposal type's id, or null for all. */
  type: number | null;
  /** A facility's name, or null for all. */
  facility: string | null;
  show: 'all' | 'unassigned' | 'under';
}

/** Rows per page of the matrix: the contract's default, and a screen's worth many times over. */
export const MATRIX_PAGE_SIZE = 200;

/**
 * Query keys. Everything of one call's assignment is under `['assignment', callId]`, so an
 * assignment made anywhere (the matrix, Apply, the CSV) refreshes the counts, the loads
 * and the matrix together.
 */
export const assignmentKeys = {
  all: ['assignment'] as const,
  ofCall: (callId: number) => ['assignment', callId] as const,
  overview: (callId: number) => ['assignment', callId, 'overview'] as const,
  run: (callId: number, runId: number) => ['assignment', callId, 'run', runId] as const,
  matrix: (callId: number) => ['assignment', callId, 'matrix'] as const,
  matrixOf: (callId: number, filters: MatrixFilters) =>
    ['assignment', callId, 'matrix', filters] as const,
  bids: (callId: number) => ['assignment', callId, 'bids'] as const,
};

const base = (callId: number) => `/calls/${callId}/assignment`;

/** A 409 `over_cap` of POST /reviewers/: the member would pass their cap; the chair may insist. */
export const isOverCap = (error: unknown): error is ApiError =>
  isApiError(error, 409) && error.body.code === 'over_cap';

/** A 409 `stale` of Apply: the call changed since the proposal was worked out. */
export const isStale = (error: unknown): error is ApiError =>
  isApiError(error, 409) && error.body.code === 'stale';

// --- The Assignment page ---------------------------------------------------------------

/** GET .../assignment/settings/: the settings, the counts, the members and the open run. */
export function useAssignmentOverview(callId: number, enabled = true) {
  return useQuery({
    queryKey: assignmentKeys.overview(callId),
    queryFn: ({ signal }) =>
      apiRequest(`${base(callId)}/settings/`, { schema: (c) => c.assignmentOverview, signal }),
    enabled,
  });
}

/** PATCH .../assignment/settings/: any of them; a null in `perProposal` or `caps` resets one. */
export function saveAssignmentSettings(callId: number, body: AssignmentSettingsPatch) {
  return apiRequest(`${base(callId)}/settings/`, {
    method: 'PATCH',
    body,
    schema: (c) => c.assignmentSettings,
  });
}

/** POST .../assignment/proposals/: starts working out a proposal (202 with its id). */
export function startProposal(callId: number, redo: boolean) {
  return apiRequest(`${base(callId)}/proposals/`, {
    method: 'POST',
    body: { redo },
    schema: (c) => c.proposeResponse,
  });
}

/** How often a running proposal is asked about. */
const RUN_POLL_MS = 1000;

/** GET .../assignment/proposals/{id}/, asked again every second while it runs. */
export function useAssignmentRun(callId: number, runId: number | null) {
  return useQuery({
    queryKey: assignmentKeys.run(callId, runId ?? 0),
    queryFn: ({ signal }) =>
      apiRequest(`${base(callId)}/proposals/${runId}/`, {
        schema: (c) => c.assignmentRun,
        signal,
      }),
    enabled: runId !== null,
    refetchInterval: (query) => (query.state.data?.state === 'running' ? RUN_POLL_MS : false),
  });
}

/** POST .../proposals/{id}/apply/: saves the whole proposal (409 `stale` if the call changed). */
export function applyProposal(callId: number, runId: number) {
  return apiRequest(`${base(callId)}/proposals/${runId}/apply/`, {
    method: 'POST',
    schema: (c) => c.applyResponse,
  });
}

/** DELETE .../proposals/{id}/: drops the proposal. */
export function discardProposal(callId: number, runId: number) {
  return apiRequest(`${base(callId)}/proposals/${runId}/`, { method: 'DELETE', schema: noBody });
}

/** GET .../assignment/csv/: every current assignment, `proposal_id,username,action`. */
export function downloadAssignmentsCsv(callId: number): Promise<string> {
  return apiText(`${base(callId)}/csv/`, { accept: 'text/csv' });
}

/** POST .../assignment/csv/: all lines or none (400 with `fields` keyed `line <n>`). */
export function uploadAssignmentsCsv(callId: number, csv: string) {
  return apiRequest(`${base(callId)}/csv/`, {
    method: 'POST',
    text: { content: csv, type: 'text/csv' },
    schema: (c) => c.csvUploadResponse,
  });
}

/** After assignments change: this call's assignment screens, and the review screens. */
export async function refreshAssignment(client: QueryClient, callId: number): Promise<void> {
  await Promise.all([
    client.invalidateQueries({ queryKey: assignmentKeys.ofCall(callId) }),
    refreshReviews(client),
  ]);
}

// --- The matrix ------------------------------------------------------------------------

/** The query string of GET .../assignment/matrix/: only what is set. */
export function matrixParams(filters: MatrixFilters, page: number): string {
  const params = new URLSearchParams({ page: String(page), page_size: String(MATRIX_PAGE_SIZE) });
  if (filters.search.trim()) params.set('search', filters.search.trim());
  if (filters.type !== null) params.set('type', String(filters.type));
  if (filters.facility !== null) params.set('facility', filters.facility);
  if (filters.show !== 'all') params.set('show', filters.show);
  return params.toString();
}

/** The matrix a page of 200 rows at a time; `fetchNextPage` adds the next as the chair scrolls. */
export function useMatrix(callId: number, filters: MatrixFilters, enabled = true) {
  return useInfiniteQuery({
    queryKey: assignmentKeys.matrixOf(callId, filters),
    initialPageParam: 1,
    queryFn: ({ pageParam, signal }) =>
      apiRequest(`${base(callId)}/matrix/?${matrixParams(filters, pageParam)}`, {
        schema: (c) => c.matrixResponse,
        signal,
      }),
    getNextPageParam: (last, pages) =>
      pages.length * last.pageSize < last.count ? last.page + 1 : undefined,
    enabled,
    // While a new filter's rows load, the grid keeps the last ones.
    placeholderData: keepPreviousData,
  });
}

/** One cell of the matrix after a change made here, for `patchMatrixCell`. */
export interface CellChange {
  proposalId: number;
  userId: number;
  assigned: boolean;
}

/**
 * Writes a change made from the matrix into every loaded page of this call's matrices:
 * the cell, the proposal's count and the member's load in the headers.
 */
export function patchMatrixCell(client: QueryClient, callId: number, change: CellChange): void {
  const delta = change.assigned ? 1 : -1;
  const patchRow = (row: MatrixRow): MatrixRow => {
    if (row.proposalId !== change.proposalId) return row;
    const known = row.cells.some((cell) => cell.userId === change.userId);
    const cells = known
      ? row.cells.map((cell) =>
          cell.userId === change.userId
            ? { ...cell, assigned: change.assigned, locked: change.assigned && cell.locked }
            : cell,
        )
      : [...row.cells, { userId: change.userId, assigned: true, locked: false, conflict: false }];
    return { ...row, assigned: row.assigned + delta, cells };
  };
  patchMatrixPages(client, callId, (page) => ({
    ...page,
    rows: page.rows.map(patchRow),
    members: page.members.map((member) =>
      member.userId === change.userId ? { ...member, load: member.load + delta } : member,
    ),
  }));
}

/**
 * Rewrites every loaded page of this call's matrices (all filters) with `patch`: a change
 * made here shows at once, without asking again for pages a 10,000-proposal call has 50 of.
 */
function patchMatrixPages(
  client: QueryClient,
  callId: number,
  patch: (page: MatrixResponse) => MatrixResponse,
): void {
  client.setQueriesData<InfiniteData<MatrixResponse>>(
    { queryKey: assignmentKeys.matrix(callId) },
    (data) => data && { ...data, pages: data.pages.map(patch) },
  );
}

/** `patchMatrixPages` for one proposal's row. */
const patchMatrixRow = (
  client: QueryClient,
  callId: number,
  proposalId: number,
  patch: (row: MatrixRow) => MatrixRow,
) =>
  patchMatrixPages(client, callId, (page) => ({
    ...page,
    rows: page.rows.map((row) => (row.proposalId === proposalId ? patch(row) : row)),
  }));

/** PATCH .../assignment/locks/: a locked assignment is never taken back by Propose. */
export function setAssignmentLock(
  callId: number,
  body: { proposalId: number; userId: number; locked: boolean },
) {
  return apiRequest(`${base(callId)}/locks/`, {
    method: 'PATCH',
    body,
    schema: (c) => c.lockRequest,
  });
}

/** Writes a lock set from the matrix into every loaded page of this call's matrices. */
export function patchMatrixLock(
  client: QueryClient,
  callId: number,
  { proposalId, userId, locked }: { proposalId: number; userId: number; locked: boolean },
): void {
  patchMatrixRow(client, callId, proposalId, (row) => ({
    ...row,
    cells: row.cells.map((cell) => (cell.userId === userId ? { ...cell, locked } : cell)),
  }));
}

/** Writes a proposal's new k into every loaded page of this call's matrices. */
export function patchMatrixWanted(
  client: QueryClient,
  callId: number,
  proposalId: number,
  wanted: number,
): void {
  patchMatrixRow(client, callId, proposalId, (row) => ({ ...row, wanted }));
}

// --- Bidding ---------------------------------------------------------------------------

/** GET /calls/{id}/bids/: the caller's bids and the proposals they may bid on. */
export function useBids(callId: number) {
  return useQuery({
    queryKey: assignmentKeys.bids(callId),
    queryFn: ({ signal }) =>
      apiRequest(`/calls/${callId}/bids/`, { schema: (c) => c.bidsResponse, signal }),
  });
}

/** POST /calls/{id}/bids/: one bid (neutral takes it back); 409 when bidding is closed. */
export function saveBid(callId: number, proposalId: number, preference: Preference) {
  return apiRequest(`/calls/${callId}/bids/`, {
    method: 'POST',
    body: { proposalId, preference },
    schema: (c) => c.bidResponse,
  });
}

/** Writes one bid into the cached list (optimistic, and its rollback). */
export function withBid(
  data: BidsResponse,
  proposalId: number,
  preference: Preference,
): BidsResponse {
  return {
    ...data,
    proposals: data.proposals.map((item) =>
      item.proposalId === proposalId ? { ...item, preference } : item,
    ),
  };
}

/** POST .../assignment/my_cap/: a member lowers their own cap (null: the chairs' again). */
export function saveMyCap(callId: number, cap: number | null) {
  return apiRequest(`${base(callId)}/my_cap/`, {
    method: 'POST',
    body: { cap },
    schema: (c) => c.myCapResponse,
  });
}
