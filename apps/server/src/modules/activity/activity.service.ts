import type { ActivityEntry, ActivityPage, ActivityQuery, ProposalHistory } from '@merit/contract';
import {
  AUDIT_ACTIONS,
  callMessages,
  historyReader,
  TEAM_TIMELINE_ACTIONS,
  type HistoryReader,
} from '@merit/domain';
import { sql } from 'drizzle-orm';
import type { ReadWork } from '../../platform/data/work.js';
import { authorize } from '../../platform/http/authorize.js';
import { notFound } from '../../platform/http/http-errors.js';
import { isSecurityEvent, SECURITY_EVENTS } from '../../platform/security/security-log.js';
import { callResource, findCall } from '../calls/calls.queries.js';
import { loadFor } from '../proposals/proposal-access.js';
import {
  auditActions,
  auditActors,
  auditFilterSql,
  auditPage,
  hiddenProposalIds,
  notHiddenSql,
  systemActors,
  systemPage,
  type ActivityFilter,
  type ActivityRow,
  type Slice,
} from './activity.queries.js';
import { labelOf, presentActivity } from './activity.presenter.js';

/*
 * History and Activity (issue 28): a proposal's history for its team, its chairs and
 * administrators; a call's activity for its chairs; the whole system's, with the security
 * events, for administrators. Each loads what it concerns, authorizes with the domain's
 * policy, reads a page and presents what the reader may see of each row.
 */

/** The page a query asks for; none (every row) for a CSV. */
const sliceOf = (query: { page: number; pageSize: number }, all = false): Slice | null =>
  all ? null : { limit: query.pageSize, offset: (query.page - 1) * query.pageSize };

const presentAll = (
  rows: readonly ActivityRow[],
  reader: HistoryReader,
  teamIds: readonly number[] = [],
): ActivityEntry[] =>
  rows.flatMap((row) => {
    const entry = presentActivity(row, reader, teamIds);
    return entry ? [entry] : [];
  });

/** The filter menus' actions, in words, in the order the labels list them. */
const actionsOf = (actions: readonly string[]) =>
  actions.map((action) => ({ action, label: labelOf(action) }));

/**
 * GET /proposals/{proposalId}/history/: its audit rows, newest first. Its team reads the
 * plain timeline of what its own members did (`TEAM_TIMELINE_ACTIONS`), filtered in the
 * query so pages and the total count only those; a chair every row, a saved review's
 * fields without their values; an administrator every row whole with its request and
 * address. A chair or administrator with a conflict of interest with it: 404, as for
 * its decision (`proposal.viewHistory`).
 */
export async function getProposalHistory(
  work: ReadWork,
  proposalId: number,
  query: { page: number; pageSize: number },
): Promise<ProposalHistory> {
  const loaded = await loadFor(work, 'proposal.viewHistory', proposalId);
  const reader = historyReader(work.actor, loaded.resource, work.now)!;
  const teamIds = [loaded.resource.authorId, ...loaded.resource.collaboratorIds];
  const where =
    reader === 'team'
      ? sql`a."proposal_id" = ${loaded.proposal.id}
          and a."actor_id" in (${sql.join(
            teamIds.map((id) => sql`${id}::int`),
            sql`, `,
          )})
          and a."action" in (${sql.join(
            TEAM_TIMELINE_ACTIONS.map((action) => sql`${action}`),
            sql`, `,
          )})`
      : sql`a."proposal_id" = ${loaded.proposal.id}`;
  const { rows, total } = await auditPage(work.tx, where, sliceOf(query));
  return {
    items: presentAll(rows, reader, teamIds),
    page: query.page,
    pageSize: query.pageSize,
    total,
    reader,
  };
}

/** The Activity pages' filter, as the queries take it. */
const filterOf = (query: ActivityQuery): ActivityFilter => ({
  ...(query.user !== undefined ? { user: query.user } : {}),
  ...(query.action !== undefined ? { action: query.action } : {}),
  ...(query.proposal !== undefined ? { proposal: query.proposal } : {}),
  ...(query.from !== undefined ? { from: new Date(query.from) } : {}),
  ...(query.to !== undefined ? { to: new Date(query.to) } : {}),
});

/**
 * A batch of assignments names its pairs of proposal and reviewer: those of a proposal
 * the reader may not see the reviewers of are left out of it, as its own rows are.
 */
function withoutHiddenPairs(row: ActivityRow, hidden: ReadonlySet<number>): ActivityRow {
  if (row.action !== 'call.assign_reviewers' || hidden.size === 0) return row;
  const data = Object.fromEntries(
    Object.entries(row.data).map(([field, change]) => {
      if (!field.endsWith('Pairs') || typeof change !== 'object' || change === null)
        return [field, change];
      const filtered = Object.fromEntries(
        Object.entries(change as Record<string, unknown>).map(([side, pairs]) => [
          side,
          Array.isArray(pairs)
            ? pairs.filter((pair) => !(Array.isArray(pair) && hidden.has(Number(pair[0]))))
            : pairs,
        ]),
      );
      return [field, filtered];
    }),
  );
  return { ...row, data };
}

/** The activity's result: a page, or every row of the filter for the CSV. */
export type ActivityResult =
  { format: 'json'; page: ActivityPage } | { format: 'csv'; entries: ActivityEntry[] };

/**
 * GET /calls/{callId}/activity/: the call's audit rows, filtered, newest first (chairs of
 * its committee and admins, `call.followReview`). Never a row of a proposal the caller is
 * of the team of or has an enforced conflict of interest with, nor such a proposal's pairs
 * in a batch of assignments; the people and actions of the menus are those of the rows
 * they may read. A saved review's values are an administrator's only.
 */
export async function getCallActivity(
  work: ReadWork,
  callId: number,
  query: ActivityQuery,
): Promise<ActivityResult> {
  const found = await findCall(work.tx, callId);
  if (!found) throw notFound(callMessages.notFound);
  const { call } = found;
  authorize(work.actor, 'call.followReview', callResource(call, []), work.now);
  const hidden = await hiddenProposalIds(work.tx, work.actor.id, call.id);
  const visible = sql`a."call_id" = ${call.id} and ${notHiddenSql(sql`a."proposal_id"`, hidden)}`;
  const where = sql`${visible} and ${auditFilterSql(filterOf(query))}`;
  const csv = query.format === 'csv';
  const [{ rows, total }, people, actions] = [
    await auditPage(work.tx, where, sliceOf(query, csv)),
    csv ? [] : await auditActors(work.tx, visible),
    csv ? [] : await auditActions(work.tx, visible),
  ];
  const hiddenSet = new Set(hidden);
  const reader: HistoryReader = work.actor.isAdmin ? 'admin' : 'chair';
  const entries = presentAll(
    rows.map((row) => withoutHiddenPairs(row, hiddenSet)),
    reader,
  );
  if (csv) return { format: 'csv', entries };
  const order = new Map(AUDIT_ACTIONS.map((action, i) => [action as string, i]));
  return {
    format: 'json',
    page: {
      items: entries,
      page: query.page,
      pageSize: query.pageSize,
      total,
      people,
      actions: actionsOf(
        [...actions].sort((a, b) => (order.get(a) ?? 999) - (order.get(b) ?? 999)),
      ),
    },
  };
}

/**
 * GET /activity/ (administrators, the route's access): every audit row and security event
 * of the system, merged newest first, filtered. An action names an audit action or a
 * security event; one that is neither finds nothing. As on a call's page, nothing of a
 * proposal the administrator is of the team of or has a conflict with (their conflicts
 * apply to them as to anyone). The menus offer every action and event (a scan of the
 * whole log for the distinct ones would cost what the page saves), and everyone who did
 * something.
 */
export async function getSystemActivity(
  work: ReadWork,
  query: ActivityQuery,
): Promise<ActivityResult> {
  const action = query.action;
  const branches = {
    audit: action === undefined || (AUDIT_ACTIONS as readonly string[]).includes(action),
    security: action === undefined || isSecurityEvent(action),
  };
  const csv = query.format === 'csv';
  const hidden = await hiddenProposalIds(work.tx, work.actor.id, null);
  const { rows, total } = await systemPage(
    work.tx,
    filterOf(query),
    branches,
    hidden,
    sliceOf(query, csv),
  );
  const hiddenSet = new Set(hidden);
  const entries = presentAll(
    rows.map((row) => withoutHiddenPairs(row, hiddenSet)),
    'admin',
  );
  if (csv) return { format: 'csv', entries };
  return {
    format: 'json',
    page: {
      items: entries,
      page: query.page,
      pageSize: query.pageSize,
      total,
      people: await systemActors(work.tx, hidden),
      actions: actionsOf([...AUDIT_ACTIONS, ...SECURITY_EVENTS]),
    },
  };
}
