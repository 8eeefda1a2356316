import { apiRequest } from '../../api/client';

// Apart from decisions.api.ts, which re-exports them: the app asks for a call's ranking as
// it starts on the Ranking page (prefetchFirstRoute in routes.tsx), so this is in its first
// scripts, and the rest of the page's code stays with the page.

/** The address's keys of the Ranking page's filters, as the chair's list writes a facility. */
export const RANKING_FACILITY_PARAM = 'facility';
export const RANKING_TYPE_PARAM = 'type';

/** The Ranking page's filters: a facility (empty: the unnamed one) and a proposal type. */
export interface RankingFilters {
  facility: string | null;
  type: number | null;
}

export const decisionKeys = {
  all: ['decisions'] as const,
  rankings: (callId: number) => ['decisions', 'ranking', callId] as const,
  ranking: (callId: number, filters: RankingFilters) =>
    ['decisions', 'ranking', callId, filters] as const,
  capacity: (callId: number) => ['decisions', 'capacity', callId] as const,
  /** A preview of the outcomes from the line: apart from the rankings, so Apply does not ask it again. */
  fromLine: (callId: number, waitlist: number | null) =>
    ['decisions', 'from-line', callId, waitlist] as const,
};

/** The filters an address names: absent, or anything that is not a type's id, is none. */
export function rankingFiltersOf(params: URLSearchParams): RankingFilters {
  const type = params.get(RANKING_TYPE_PARAM);
  return {
    facility: params.get(RANKING_FACILITY_PARAM),
    type: type && /^[1-9]\d*$/.test(type) ? Number(type) : null,
  };
}

/** GET .../ranking/: what the Ranking page asks, and what the app asks early when it starts there. */
export const callRankingQuery = (callId: number, filters: RankingFilters) => {
  const query = new URLSearchParams();
  if (filters.facility !== null) query.set('facility', filters.facility);
  if (filters.type !== null) query.set('type', String(filters.type));
  const search = query.toString() ? `?${query}` : '';
  return {
    queryKey: decisionKeys.ranking(callId, filters),
    queryFn: ({ signal }: { signal: AbortSignal }) =>
      apiRequest(`/calls/${callId}/ranking/${search}`, { schema: (c) => c.callRanking, signal }),
  };
};
