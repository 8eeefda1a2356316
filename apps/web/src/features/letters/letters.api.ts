import type { CallLetters, LetterTemplates } from '@merit/contract';
import { useQuery, type QueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../api/client';
import { callKeys } from '../calls/call-queries';

/*
 * The API of decision letters (issue 29): a call's letter templates (GET and PUT
 * .../letter_templates/), one proposal's letter as it would be sent (GET
 * /proposals/{id}/letter/preview/), and the letters themselves: their state (GET
 * .../letters/), releasing the decisions, and sending a failed or corrected one again.
 */

export const letterKeys = {
  all: ['letters'] as const,
  templates: (callId: number) => ['letters', 'templates', callId] as const,
  ofCall: (callId: number) => ['letters', 'call', callId] as const,
  preview: (proposalId: number) => ['letters', 'preview', proposalId] as const,
};

/** While a letter is queued the page asks again this often, so the chair sees it go out. */
export const LETTERS_POLL_MS = 3_000;

/** GET .../letter_templates/: one template per outcome, the signature, the call's words. */
export const letterTemplatesQuery = (callId: number) => ({
  queryKey: letterKeys.templates(callId),
  queryFn: ({ signal }: { signal: AbortSignal }) =>
    apiRequest(`/calls/${callId}/letter_templates/`, { schema: (c) => c.letterTemplates, signal }),
});

export function useLetterTemplates(callId: number, enabled = true) {
  return useQuery({ ...letterTemplatesQuery(callId), enabled });
}

/**
 * PUT .../letter_templates/: all four from `version`; 409 `stale` when someone saved
 * since, 400 with `fields` keyed `templates.<n>.subject` or `.body`.
 */
export function saveLetterTemplates(callId: number, body: LetterTemplates) {
  return apiRequest(`/calls/${callId}/letter_templates/`, {
    method: 'PUT',
    body,
    schema: (c) => c.letterTemplates,
  });
}

/** Whether a letter of the call is still waiting to go out. */
export const lettersQueued = (letters: CallLetters | undefined) =>
  letters?.proposals.some((proposal) => proposal.letter?.state === 'queued') ?? false;

/** GET .../letters/: each proposal's letter, asked again every few seconds while one is queued. */
export function useCallLetters(callId: number, enabled = true) {
  return useQuery({
    queryKey: letterKeys.ofCall(callId),
    queryFn: ({ signal }) =>
      apiRequest(`/calls/${callId}/letters/`, { schema: (c) => c.callLetters, signal }),
    enabled,
    refetchInterval: (query) => (lettersQueued(query.state.data) ? LETTERS_POLL_MS : false),
  });
}

/** GET /proposals/{id}/letter/preview/: its letter as it would be sent now (saved templates). */
export function useLetterPreview(proposalId: number | null) {
  return useQuery({
    queryKey: letterKeys.preview(proposalId ?? 0),
    queryFn: ({ signal }) =>
      apiRequest(`/proposals/${proposalId}/letter/preview/`, {
        schema: (c) => c.letterPreview,
        signal,
      }),
    enabled: proposalId !== null,
    // A template saved a moment ago shows at once.
    staleTime: 0,
  });
}

/** POST .../release_decisions/: one letter per proposal with an outcome, queued (after close). */
export function releaseDecisions(callId: number) {
  return apiRequest(`/calls/${callId}/release_decisions/`, {
    method: 'POST',
    schema: (c) => c.lettersQueued,
  });
}

/** POST .../letters/send/: these proposals' letters again, a failed one or a corrected one. */
export function sendLetters(callId: number, proposalIds: readonly number[]) {
  return apiRequest(`/calls/${callId}/letters/send/`, {
    method: 'POST',
    body: { proposalIds: [...proposalIds] },
    schema: (c) => c.lettersQueued,
  });
}

/**
 * After a release or a send: the letters changed, and so did the call (released, it can
 * no longer be released) and its proposals' decisions.
 */
export const refreshLetters = (client: QueryClient, callId: number) =>
  Promise.all([
    client.invalidateQueries({ queryKey: letterKeys.ofCall(callId) }),
    client.invalidateQueries({ queryKey: callKeys.detail(callId) }),
  ]);
