import type {
  CallConflictsQuery,
  ConflictBulkChange,
  ConflictChange,
  ConflictCreate,
  ConflictDeclarationAnswer,
  ConflictDeclarationsSave,
  RecentCollaborator,
} from '@merit/contract';
import { keepPreviousData, useQuery, type QueryClient } from '@tanstack/react-query';
import { apiRequest, isApiError, type ApiError } from '../../api/client';
import { noBody } from '../../api/contract';
import { proposalKeys } from '../proposals/proposals.api';

/**
 * Query keys of the conflict screens. A conflict changes what the proposal list shows
 * chairs (its badges) and whom Manage Reviewers warns about, so `refreshConflicts`
 * refreshes the proposal lists too.
 */
export const conflictKeys = {
  all: ['conflicts'] as const,
  ofProposal: (proposalId: number) => ['conflicts', 'proposal', proposalId] as const,
  ofCall: (callId: number, query: CallConflictsQuery) =>
    ['conflicts', 'call', callId, query] as const,
  gate: (proposalId: number) => ['conflicts', 'gate', proposalId] as const,
  // Not under `conflicts`: the person's own list changes only when they save it.
  recentCollaborators: ['recent-collaborators'] as const,
};

/**
 * A 403 `declaration_required` (the contract's `errorCodes.declarationRequired`, written
 * out as drafts/stale.ts does): the member must say whether they have a conflict with the
 * proposal before it opens for them.
 */
export const isDeclarationRequired = (error: unknown): error is ApiError =>
  isApiError(error, 403) && error.body.code === 'declaration_required';

/** A 409 `conflict` of POST /reviewers/: the member has a conflict, and no reason was given. */
export const isConflictRefusal = (error: unknown): error is ApiError =>
  isApiError(error, 409) && error.body.code === 'conflict';

/** GET /proposals/{id}/conflicts/: the team's declarations and the committee, or (chairs) all. */
export function useProposalConflicts(proposalId: number, enabled = true) {
  return useQuery({
    queryKey: conflictKeys.ofProposal(proposalId),
    queryFn: ({ signal }) =>
      apiRequest(`/proposals/${proposalId}/conflicts/`, {
        schema: (c) => c.proposalConflicts,
        signal,
      }),
    enabled,
  });
}

/** PUT /proposals/{id}/conflicts/: the applicant's panel saved whole, from the version opened. */
export function saveDeclarations(proposalId: number, body: ConflictDeclarationsSave) {
  return apiRequest(`/proposals/${proposalId}/conflicts/`, {
    method: 'PUT',
    body,
    schema: (c) => c.proposalConflicts,
  });
}

/** POST /proposals/{id}/conflicts/: a chair adds one (confirmed, pinned if asked). */
export function createConflict(proposalId: number, body: ConflictCreate) {
  return apiRequest(`/proposals/${proposalId}/conflicts/`, {
    method: 'POST',
    body,
    schema: (c) => c.conflictItem,
  });
}

/** The query string of GET /calls/{id}/conflicts/: only what is set. */
function callConflictsParams(query: CallConflictsQuery): URLSearchParams {
  const params = new URLSearchParams();
  for (const key of ['state', 'type', 'user', 'proposal', 'page', 'pageSize'] as const) {
    const value = query[key];
    if (value !== undefined) params.set(key, String(value));
  }
  return params;
}

/** One page of a call's conflicts, filtered (chairs). */
export function useCallConflicts(callId: number, query: CallConflictsQuery, enabled = true) {
  return useQuery({
    queryKey: conflictKeys.ofCall(callId, query),
    queryFn: ({ signal }) =>
      apiRequest(`/calls/${callId}/conflicts/?${callConflictsParams(query)}`, {
        schema: (c) => c.callConflictsPage,
        signal,
      }),
    enabled,
    // While the next page or filter loads, the table keeps the last answer.
    placeholderData: keepPreviousData,
  });
}

/** POST /conflicts/{id}/: a chair confirms, dismisses, pins or unpins one. */
export function changeConflict(conflictId: number, body: ConflictChange) {
  return apiRequest(`/conflicts/${conflictId}/`, {
    method: 'POST',
    body,
    schema: (c) => c.conflictItem,
  });
}

/** POST /conflicts/bulk/: confirms or dismisses many; answers which were changed and which not. */
export function changeConflicts(body: ConflictBulkChange) {
  return apiRequest('/conflicts/bulk/', {
    method: 'POST',
    body,
    schema: (c) => c.conflictBulkResult,
  });
}

/** DELETE /conflicts/{id}/. */
export function deleteConflict(conflictId: number) {
  return apiRequest(`/conflicts/${conflictId}/`, { method: 'DELETE', schema: noBody });
}

/** GET /proposals/{id}/conflict_declaration/: what a member sees before a proposal opens. */
export function useDeclarationGate(proposalId: number, enabled = true) {
  return useQuery({
    queryKey: conflictKeys.gate(proposalId),
    queryFn: ({ signal }) =>
      apiRequest(`/proposals/${proposalId}/conflict_declaration/`, {
        schema: (c) => c.conflictDeclarationGate,
        signal,
      }),
    enabled,
  });
}

/** POST /proposals/{id}/conflict_declaration/: "No conflict", or "I have a conflict". */
export function answerDeclaration(proposalId: number, body: ConflictDeclarationAnswer) {
  return apiRequest(`/proposals/${proposalId}/conflict_declaration/`, {
    method: 'POST',
    body,
    schema: (c) => c.conflictDeclarationGate,
  });
}

/** GET /recent_collaborators/: the caller's own list (My Account). */
export function useRecentCollaborators() {
  return useQuery({
    queryKey: conflictKeys.recentCollaborators,
    queryFn: ({ signal }) =>
      apiRequest('/recent_collaborators/', { schema: (c) => c.recentCollaboratorsBody, signal }),
  });
}

export function saveRecentCollaborators(collaborators: RecentCollaborator[]) {
  return apiRequest('/recent_collaborators/', {
    method: 'PUT',
    body: { collaborators },
    schema: (c) => c.recentCollaboratorsBody,
  });
}

/** After a conflict changes: the conflict screens and the proposal lists' badges. */
export async function refreshConflicts(client: QueryClient): Promise<void> {
  await Promise.all([
    client.invalidateQueries({ queryKey: conflictKeys.all }),
    client.invalidateQueries({ queryKey: proposalKeys.lists }),
  ]);
}
