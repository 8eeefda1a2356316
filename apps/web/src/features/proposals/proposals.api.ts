import type { MultiFormEntryDelete, ProposalNameSave, ProposalResponseSave } from '@merit/contract';
import { keepPreviousData, useQuery, type QueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../api/client';
import { noBody } from '../../api/contract';
import {
  callProposalsPageQuery,
  proposalKeys,
  type CallProposalsListQuery,
} from './proposal-queries';

export {
  callProposalsPageQuery,
  fetchCallProposals,
  proposalKeys,
  type CallProposalsListQuery,
} from './proposal-queries';

/** The caller's own proposals, as author or collaborator, across calls (the dashboard). */
export function useMyProposals() {
  return useQuery({
    queryKey: proposalKeys.mine,
    queryFn: ({ signal }) => apiRequest('/proposals/', { schema: (c) => c.myProposalList, signal }),
  });
}

/** One page of a call's proposals that the caller may see, as the server sorted and paged it. */
export function useCallProposals(callId: number, query: CallProposalsListQuery) {
  return useQuery({
    ...callProposalsPageQuery(callId, query),
    // While the next page or search loads, the table keeps the last answer instead of flashing empty.
    placeholderData: keepPreviousData,
  });
}

export function useProposal(proposalId: number) {
  return useQuery({
    queryKey: proposalKeys.detail(proposalId),
    queryFn: ({ signal }) =>
      apiRequest(`/proposals/${proposalId}/`, { schema: (c) => c.proposalDetail, signal }),
  });
}

/** Each proposal type's forms in the call's order, with their schemas. */
export function useProposalFormOrder(callId: number) {
  return useQuery({
    queryKey: proposalKeys.formOrder(callId),
    queryFn: ({ signal }) =>
      apiRequest(`/proposal_form_order/${callId}/`, { schema: (c) => c.formOrder, signal }),
    // A call's forms cannot change once a proposal has saved answers to them (spec section 4).
    staleTime: Infinity,
  });
}

/** Creates a proposal (`isNew`, 201) or renames one (200). */
export function saveProposalName(body: ProposalNameSave) {
  return apiRequest('/update_proposal_name/', {
    method: 'POST',
    body,
    schema: (c) => c.proposalDetail,
  });
}

/** Saves one form, or one entry of a multi-entry form. */
export function saveResponse(body: ProposalResponseSave) {
  return apiRequest('/proposal_responses/', {
    method: 'POST',
    body,
    schema: (c) => c.proposalResponseSaved,
  });
}

/**
 * Deletes one saved entry of a multi-entry form, named by its id (and its position, which
 * the server holds to the id): an entry someone else moved or deleted is 409 `stale`.
 */
export function deleteEntry(body: MultiFormEntryDelete) {
  return apiRequest('/delete_multi_form/', { method: 'DELETE', body, schema: noBody });
}

export function addCollaborator(proposalId: number, hash: string) {
  return apiRequest('/collaborators/', {
    method: 'POST',
    body: { proposalId, hash },
    schema: (c) => c.collaborator,
  });
}

export function removeCollaborator(proposalId: number, userId: number) {
  return apiRequest('/collaborators/', {
    method: 'DELETE',
    body: { proposalId, userId },
    schema: noBody,
  });
}

/** 1 submits a draft, 0 retracts a submitted proposal; answers the proposal as it is now. */
export function changeProposalState(proposalId: number, state: 0 | 1) {
  return apiRequest('/proposal_state/', {
    method: 'POST',
    body: { proposalId, state },
    schema: (c) => c.proposalDetail,
  });
}

export function deleteProposal(proposalId: number) {
  return apiRequest(`/proposals/${proposalId}/`, { method: 'DELETE', schema: noBody });
}

/** Takes or renews the editing lock when the caller may; answers who holds it either way. */
export function takeLock(proposalId: number) {
  return apiRequest(`/lock/${proposalId}/`, { schema: (c) => c.lockState });
}

/** Gives the caller's lock back, also when it is sent as the tab closes (`keepalive`). */
export function releaseLock(proposalId: number) {
  return apiRequest(`/lock/${proposalId}/`, { method: 'DELETE', schema: noBody, keepalive: true });
}

/** After a proposal changes: its page, the lists it appears in, and its call's roles. */
export function refreshProposals(client: QueryClient): Promise<void> {
  return client.invalidateQueries({ queryKey: proposalKeys.all });
}

/**
 * POST /update_decision_summary/: a chair's decision summary (rich text), from `version`
 * (the one they read; another is 409 `stale`); answers the proposal.
 */
export function saveDecisionSummary(proposalId: number, summary: string, version: number) {
  return apiRequest('/update_decision_summary/', {
    method: 'POST',
    body: { proposalId, summary, version },
    schema: (c) => c.proposalDetail,
  });
}
