import type { CallProposalExport } from '@merit/contract';
import { apiRequest } from '../../../api/client';

/**
 * Every proposal of the call the chair sees, with the chair's columns, the call's
 * resource totals and facilities, for the downloads: one request (GET
 * /calls/{callId}/proposals/export/), in the list's default order (by name).
 */
export function fetchProposalExport(
  callId: number,
  signal?: AbortSignal,
): Promise<CallProposalExport> {
  return apiRequest(`/calls/${callId}/proposals/export/`, {
    schema: (c) => c.callProposalExport,
    signal,
  });
}
