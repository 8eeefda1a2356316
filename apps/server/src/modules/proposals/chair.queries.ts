import {
  CALL_PROPOSALS_DEFAULT_SORT,
  MAX_PAGE_SIZE,
  parseSort,
  type ListQuery,
} from '@merit/contract';
import { PROPOSAL_STATE, type CommitteeActor, type TimeWindow } from '@merit/domain';
import { and, count, eq, gte, ilike, inArray, or, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { ofCall } from './proposals.queries.js';
import {
  extensions,
  proposalCollaborators,
  proposalResponses,
  proposalTypes,
  proposals,
  users,
} from '../../db/schema.js';
import { offsetOf, orderOf } from '../../platform/data/pages.js';
import type { CallRow } from '../calls/calls.queries.js';
import { containing, personNameSql } from '../../platform/data/sql.js';
import { listScopeSql } from './list-scope.queries.js';
import {
  facilitySql,
  resourceAmountsOfCall,
  type ResourceForm,
  type ResourceSort,
} from './resource-totals.queries.js';

/*
 * A call's proposals as lists: the list's page, the export's rows, the teams and windows
 * that say which rows the caller may edit, and the decision summary.
 */

/**
 * Each proposal of a call with the mean of its reviews' scores, as the domain's
 * `proposalScores` works out its `result` (AVG leaves out reviews without a score), as
 * `"review_scores"."mean"`: one grouped scan to sort a whole call by, where a subquery
 * per proposal would look its reviews up ten thousand times.
 */
export const reviewScoresOfCall = (callId: number) => sql`(
  select r."proposal_id", avg(r."score") as "mean"
  from "reviews" r inner join "proposals" p on p."id" = r."proposal_id"
  where p."call_id" = ${callId}
  group by r."proposal_id"
) as "review_scores"`;

/**
 * The proposal in the FROM's conflicts of interest counted by state, and whether its
 * applicants declared any, as the list's `conflicts`. A subquery of the select list, so
 * PostgreSQL counts only the rows of the page it returns (after ORDER BY and LIMIT),
 * through `conflicts_proposal_user_idx`: a grouped scan of the whole call's conflicts
 * cost every page in proportion to the call (0.3 s for 800,000 suggestions).
 */
const conflictCountsSql = sql<ConflictCounts>`(
  select json_build_object(
    'confirmed', count(*) filter (where c."state" = 'confirmed'),
    'suggested', count(*) filter (where c."state" = 'suggested'),
    'declaredByApplicants', coalesce(bool_or(c."source" = 'applicant'), false))
  from "conflicts" c where c."proposal_id" = "proposals"."id")`;

/** A proposal's conflicts as the chairs' list shows them (`CallProposal['conflicts']`). */
export interface ConflictCounts {
  confirmed: number;
  suggested: number;
  declaredByApplicants: boolean;
}

// --- Lists ------------------------------------------------------------------------------

export interface CallProposalRow {
  id: number;
  name: string;
  proposalTypeId: number;
  proposalTypeName: string;
  author: string;
  authorId: number;
  stateVal: number;
  /** Reviewed, for a caller who may know it; false for everyone else. */
  reviewed: boolean;
  /** The caller is its author or a collaborator: nothing of its reviews reaches them. */
  own: boolean;
  /**
   * The caller has an enforced conflict of interest with it (`isConflicted`): nothing of
   * its reviews reaches them either, nor of its conflicts.
   */
  conflicted: boolean;
  /**
   * Its conflicts of interest, when the query counted them (`conflictCounts`, for the
   * chairs); null otherwise.
   */
  conflictCounts: ConflictCounts | null;
  updatedAt: Date;
}

/**
 * A list of a call's proposals as one caller asks for it: its search and its sort;
 * `downloads`, only the rows a download holds (the export); `conflictCounts`, each row's
 * conflicts of interest counted (for callers who see the chair's columns only).
 */
type CallProposalsListQuery = ListQuery & {
  resourceSort?: ResourceSort;
  facilityFilter?: FacilityFilter;
  typeId?: number;
  downloads?: boolean;
  conflictCounts?: boolean;
};

/** Filter by Facility: the call's resource forms, and the facility a row must ask of. */
export interface FacilityFilter {
  forms: readonly ResourceForm[];
  facility: string;
}

/**
 * The proposal in the FROM has an entry of a resource form that names the facility, as
 * the domain's `facilityOf` reads it: the proposals whose resources name it, as their
 * `resourceValues` show it (an entry without a number still names its facility).
 */
function requestsFacility({ forms, facility }: FacilityFilter) {
  if (forms.length === 0) return sql`false`;
  return sql`exists (
    select 1 from ${proposalResponses}
    where ${proposalResponses.proposalId} = ${proposals.id}
      and ${inArray(
        proposalResponses.formId,
        forms.map((form) => form.id),
      )}
      and ${facilitySql(forms)} = ${facility}::text
  )`;
}

/**
 * The proposals of a call the caller may see, searched and sorted, as a query still to
 * be paged, and its WHERE for the count. Which rows those are is `listScopeSql`
 * (list-scope.queries.ts). Per-proposal figures
 * join in as grouped subqueries on `proposals.id`, never a query per row.
 */
function callProposalsSelect(
  tx: Tx,
  actor: CommitteeActor,
  call: CallRow,
  query: CallProposalsListQuery,
  now: Date,
) {
  const { scope, own, conflicted, visible, reviewed } = listScopeSql(actor, call, now);
  const { key } = parseSort(query.sort);
  // The proposal's score (the `result`: the mean of its reviews' scores), only to sort
  // by, and only for those who may see it: for anyone else, and on a chair's own
  // proposals and those they have a conflict of interest with, every row sorts as having
  // none. The scores join in only for that sort.
  const byScore = scope.reviewed && key === 'score';
  const score = byScore
    ? sql`(case when ${own} or ${conflicted} then null else "review_scores"."mean" end)`
    : sql`null::double precision`;
  const counted = scope.reviewed && query.conflictCounts === true;
  // A resource column, likewise only for those who see the chair's columns. A chair's
  // own proposals sort by theirs too: the chair's list shows their resources (only their
  // reviews are kept from them), and the order tells nothing the column does not.
  const resourceSort = scope.reviewed && key === 'resource' ? query.resourceSort : undefined;
  const amount = resourceSort ? sql`"resource_amounts"."amount"` : sql`null::double precision`;
  const authorName = personNameSql(users);
  const pattern = query.q ? containing(query.q) : null;
  const where = and(
    ofCall(call.id, query.typeId),
    visible,
    // Spec section 9: drafts that are not reviewed are left out of downloads. A draft is
    // never Reviewed (that needs a submission), so that is every draft.
    query.downloads ? gte(proposals.stateVal, PROPOSAL_STATE.submitted) : undefined,
    // Filter by Facility: only for those who see the resource columns.
    scope.reviewed && query.facilityFilter ? requestsFacility(query.facilityFilter) : undefined,
    pattern
      ? or(
          ilike(proposals.name, pattern),
          ilike(proposalTypes.name, pattern),
          ilike(authorName, pattern),
        )
      : undefined,
  );
  const rows = tx
    .select({
      id: proposals.id,
      name: proposals.name,
      proposalTypeId: proposals.proposalTypeId,
      proposalTypeName: proposalTypes.name,
      author: authorName,
      authorId: proposals.authorId,
      stateVal: proposals.stateVal,
      reviewed,
      own,
      conflicted,
      conflictCounts: counted ? conflictCountsSql : sql<null>`null`,
      updatedAt: proposals.updatedAt,
    })
    .from(proposals)
    .innerJoin(proposalTypes, eq(proposalTypes.id, proposals.proposalTypeId))
    .innerJoin(users, eq(users.id, proposals.authorId))
    .$dynamic();
  if (byScore)
    rows.leftJoin(
      reviewScoresOfCall(call.id),
      sql`"review_scores"."proposal_id" = "proposals"."id"`,
    );
  if (resourceSort)
    rows.leftJoin(
      resourceAmountsOfCall(call.id, resourceSort),
      sql`"resource_amounts"."proposal_id" = "proposals"."id"`,
    );
  rows.where(where).orderBy(
    ...orderOf(
      query,
      {
        name: sql`lower(${proposals.name})`,
        type: sql`lower(${proposalTypes.name})`,
        author: sql`lower(${authorName})`,
        state: sql`case when ${reviewed} then 2 else ${proposals.stateVal} end`,
        lastModified: proposals.updatedAt,
        score,
        resource: amount,
      },
      proposals.id,
      ['score', 'resource'],
    ),
  );
  const total = tx
    .select({ total: count() })
    .from(proposals)
    .innerJoin(proposalTypes, eq(proposalTypes.id, proposals.proposalTypeId))
    .innerJoin(users, eq(users.id, proposals.authorId))
    .where(where);
  return { rows, counted: total };
}

const rowOf = <T extends { reviewed: unknown; own: unknown; conflicted: unknown }>(row: T) => ({
  ...row,
  reviewed: Boolean(row.reviewed),
  own: Boolean(row.own),
  conflicted: Boolean(row.conflicted),
});

/**
 * One page of a call's proposals, of those the caller may see (`callProposalsSelect`):
 * two queries, the page and its count, whatever the page's size.
 */
export async function callProposalPage(
  tx: Tx,
  actor: CommitteeActor,
  call: CallRow,
  query: CallProposalsListQuery,
  now: Date,
): Promise<{ total: number; rows: CallProposalRow[] }> {
  const { rows, counted } = callProposalsSelect(tx, actor, call, query, now);
  const [total, page] = await Promise.all([
    counted,
    rows.limit(query.pageSize).offset(offsetOf(query)),
  ]);
  return { total: total[0]?.total ?? 0, rows: page.map(rowOf) };
}

/**
 * Every proposal of a call the caller may see (of one of its types with `typeId`) that a
 * download holds, in the list's default order (by name): its pages' rows but the drafts,
 * in one query, for the chair's export; their conflicts not counted (no download writes
 * them).
 */
export async function callProposalRows(
  tx: Tx,
  actor: CommitteeActor,
  call: CallRow,
  now: Date,
  typeId?: number,
): Promise<CallProposalRow[]> {
  const query = {
    page: 1,
    pageSize: MAX_PAGE_SIZE,
    sort: CALL_PROPOSALS_DEFAULT_SORT,
    q: '',
    typeId,
    downloads: true,
  };
  const { rows } = callProposalsSelect(tx, actor, call, query, now);
  return (await rows).map(rowOf);
}

/** Each proposal's collaborators, and each author's extension windows on the call. */
export interface TeamsAndWindows {
  collaborators: Map<number, number[]>;
  windows: Map<number, TimeWindow[]>;
}

function teamsAndWindowsOf(
  team: { proposalId: number; userId: number }[],
  extended: ({ userId: number } & TimeWindow)[],
): TeamsAndWindows {
  const collaborators = new Map<number, number[]>();
  for (const row of team)
    collaborators.set(row.proposalId, [...(collaborators.get(row.proposalId) ?? []), row.userId]);
  const windows = new Map<number, TimeWindow[]>();
  for (const row of extended) windows.set(row.userId, [...(windows.get(row.userId) ?? []), row]);
  return { collaborators, windows };
}

const teamColumns = {
  proposalId: proposalCollaborators.proposalId,
  userId: proposalCollaborators.userId,
};
const windowColumns = {
  userId: extensions.userId,
  commencement: extensions.commencement,
  termination: extensions.termination,
};

/**
 * For a page of a call's proposals: each one's collaborators, and each author's extension
 * windows on the call, in two queries.
 */
export async function teamsAndWindows(
  tx: Tx,
  callId: number,
  proposalIds: number[],
  authorIds: number[],
): Promise<TeamsAndWindows> {
  const [team, extended] = await Promise.all([
    tx
      .select(teamColumns)
      .from(proposalCollaborators)
      .where(inArray(proposalCollaborators.proposalId, proposalIds)),
    tx
      .select(windowColumns)
      .from(extensions)
      .where(
        and(eq(extensions.callId, callId), inArray(extensions.userId, [...new Set(authorIds)])),
      ),
  ]);
  return teamsAndWindowsOf(team, extended);
}

// --- Decisions ---------------------------------------------------------------------------

/**
 * Stores a proposal's decision summary while its version is still `version`, raising it
 * and noting who saved it when, in one statement: of two chairs saving from one version
 * exactly one is written. The new version; undefined when it had moved on (nothing
 * written). lastModified stays: the decision is the chairs', not a change to the authors'
 * work, and a moving date would tell authors a decision is being written before the call
 * closes.
 */
export async function writeDecisionSummary(
  tx: Tx,
  id: number,
  change: { summary: string; version: number; by: number; at: Date },
) {
  const [row] = await tx
    .update(proposals)
    .set({
      decisionSummary: change.summary,
      decisionSummaryVersion: sql`${proposals.decisionSummaryVersion} + 1`,
      decisionSummaryAt: change.at,
      decisionSummaryBy: change.by,
    })
    .where(and(eq(proposals.id, id), eq(proposals.decisionSummaryVersion, change.version)))
    .returning({ version: proposals.decisionSummaryVersion });
  return row?.version;
}

/** A proposal's decision summary as saved now, and who saved it last (null when gone). */
export async function decisionSummaryOf(tx: Tx, id: number) {
  const [row] = await tx
    .select({
      summary: proposals.decisionSummary,
      version: proposals.decisionSummaryVersion,
      savedAt: proposals.decisionSummaryAt,
      savedBy: sql<string | null>`${personNameSql(users)}`,
    })
    .from(proposals)
    .leftJoin(users, eq(users.id, proposals.decisionSummaryBy))
    .where(eq(proposals.id, id));
  return row;
}
