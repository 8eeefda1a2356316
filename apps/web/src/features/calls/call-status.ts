import type { CallSummary } from '@merit/contract';
import { canBeClosed, inWindow, type CallState } from '@merit/domain';

function stateOf(call: CallSummary): CallState {
  return {
    commencement: new Date(call.commencement),
    termination: new Date(call.termination),
    reviewCommencement: new Date(call.reviewCommencement),
    reviewTermination: new Date(call.reviewTermination),
    closed: call.closed,
  };
}

/** Where the call stands in its windows (ARCHITECTURE.md "Windows"), in words. */
export function callStatus(call: CallSummary, now = new Date()): string {
  const state = stateOf(call);
  if (state.closed) return 'Closed';
  if (now < state.commencement) return 'Not yet open for submissions';
  if (inWindow(state, now)) return 'Open for submissions';
  if (now < state.reviewCommencement) return 'Submissions closed; review not yet started';
  if (now < state.reviewTermination) return 'In review';
  return canBeClosed(state, now) ? 'Review finished; ready to be closed' : 'Review finished';
}
