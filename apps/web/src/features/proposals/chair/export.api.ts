import type { CallProposalExport, CallProposalExportPart } from '@merit/contract';
import { apiRequest } from '../../../api/client';

/**
 * Every proposal of the call the chair sees, with the chair's columns, the call's
 * resource totals and facilities, for the downloads: one request (GET
 * /calls/{callId}/proposals/export/), in the list's default order (by name). Each
 * review's scores and comments come only when `include` names them: the comments are
 * most of a large call's bytes, and only the downloads that write them ask for them.
 */
export function fetchProposalExport(
  callId: number,
  include: readonly CallProposalExportPart[] = [],
  signal?: AbortSignal,
): Promise<CallProposalExport> {
  const query = include.length > 0 ? `?include=${include.join(',')}` : '';
  return apiRequest(`/calls/${callId}/proposals/export/${query}`, {
    schema: (c) => c.callProposalExport,
    signal,
  });
}
