import type {
  CallCapacity,
  CallRanking,
  CapacitySave,
  DecisionSave,
  DecisionSaved,
  RankingMove,
} from '@merit/contract';
import { withAwarded } from '@merit/domain';
import { useQuery, type QueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../api/client';
import { followDownloadLink } from '../files/downloads';
import { requestDownloadTicket } from '../files/files.api';
import { proposalKeys } from '../proposals/proposal-queries';
import { callRankingQuery, decisionKeys, type RankingFilters } from './ranking-queries';

/*
 * The API of the decision meeting (issue 29): the call's ranking and capacities, each
 * proposal's outcome and awards, moving a proposal in the ranking, outcomes from the line,
 * and a released letter's PDF.
 */

export {
  callRankingQuery,
  decisionKeys,
  RANKING_FACILITY_PARAM,
  RANKING_TYPE_PARAM,
  rankingFiltersOf,
  type RankingFilters,
} from './ranking-queries';

/** GET .../ranking/?facility=&type=: the rows in rank order, and every facility's line. */
export function useCallRanking(callId: number, filters: RankingFilters, enabled = true) {
  return useQuery({ ...callRankingQuery(callId, filters), enabled });
}

/** GET .../capacity/: each facility's capacity per field, what is asked for, and the version. */
export const callCapacityQuery = (callId: number) => ({
  queryKey: decisionKeys.capacity(callId),
  queryFn: ({ signal }: { signal: AbortSignal }) =>
    apiRequest(`/calls/${callId}/capacity/`, { schema: (c) => c.callCapacity, signal }),
});

export function useCallCapacity(callId: number, enabled = true) {
  return useQuery({ ...callCapacityQuery(callId), enabled });
}

/** PUT .../capacity/: the whole set from `version`; 409 `stale`, 400 with `capacity.<f>.<field>`. */
export function saveCapacity(callId: number, body: CapacitySave) {
  return apiRequest(`/calls/${callId}/capacity/`, {
    method: 'PUT',
    body,
    schema: (c) => c.callCapacity,
  });
}

/**
 * POST /proposals/{id}/decision/: its outcome and awards from `version`, answered with the
 * call's awarded totals; 409 `stale` with the decision saved now, 400 with `fields` keyed
 * `awards.<facility>.<field>`.
 */
export function saveDecision(proposalId: number, body: DecisionSave) {
  return apiRequest(`/proposals/${proposalId}/decision/`, {
    method: 'POST',
    body,
    schema: (c) => c.decisionSaved,
  });
}

/** POST .../ranking/move/: the proposal below another (or at the top), with the reason. */
export function moveInRanking(callId: number, body: RankingMove) {
  return apiRequest(`/calls/${callId}/ranking/move/`, {
    method: 'POST',
    body,
    schema: (c) => c.callRanking,
  });
}

/** POST .../ranking/outcomes/: the outcomes the line proposes; saved only with `apply`. */
export function outcomesFromLine(callId: number, waitlist: number, apply: boolean) {
  return apiRequest(`/calls/${callId}/ranking/outcomes/`, {
    method: 'POST',
    body: { waitlist, apply },
    schema: (c) => c.outcomesFromLineAnswer,
  });
}

/**
 * A letter's PDF through a single-use download ticket, as a proposal's files are
 * (downloads.ts): the long-lived token never appears in an address.
 */
export async function downloadLetter(letterId: number): Promise<void> {
  const { url } = await requestDownloadTicket({ letterId });
  followDownloadLink(url);
}

/**
 * After a decision was saved: the call's rankings (and capacities) loaded already take its
 * row and the awarded totals of the answer (`withAwarded`), as they are now, without
 * loading 10,000 rows again (an outcome or an award moves no proposal and no line); the
 * proposal's page, which shows its decision, is asked again.
 */
export function applySavedDecision(
  client: QueryClient,
  callId: number,
  proposalId: number,
  saved: DecisionSaved,
) {
  client.setQueriesData<CallRanking>({ queryKey: decisionKeys.rankings(callId) }, (ranking) =>
    ranking
      ? {
          ...ranking,
          rows: ranking.rows.map((row) =>
            row.proposalId === proposalId
              ? {
                  ...row,
                  outcome: saved.outcome,
                  awards: saved.awards,
                  awardNotes: saved.awardNotes ?? {},
                  version: saved.version,
                }
              : row,
          ),
          lines: withAwarded(ranking.lines, saved.awarded),
        }
      : ranking,
  );
  client.setQueryData<CallCapacity>(decisionKeys.capacity(callId), (capacity) =>
    capacity?.lines ? { ...capacity, lines: withAwarded(capacity.lines, saved.awarded) } : capacity,
  );
  return client.invalidateQueries({ queryKey: proposalKeys.detail(proposalId) });
}

/**
 * After a move or the capacities changed, or a save found another chair's decision: every ranking of the call
 * (its totals and lines), and the proposal's page, which shows its decision.
 */
export function refreshDecisions(client: QueryClient, callId: number, proposalId?: number) {
  const done = [client.invalidateQueries({ queryKey: decisionKeys.rankings(callId) })];
  if (proposalId !== undefined)
    done.push(client.invalidateQueries({ queryKey: proposalKeys.detail(proposalId) }));
  return Promise.all(done);
}
