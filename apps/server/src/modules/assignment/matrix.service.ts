import type { MatrixQuery, MatrixResponse, MatrixRow } from '@merit/contract';
import type { Preference } from '@merit/domain';
import { and, asc, eq, ilike, inArray, not, or, sql, type SQL } from 'drizzle-orm';
import { assignmentBids, proposalReviewers, proposalTypes, proposals } from '../../db/schema.js';
import { containing } from '../../platform/data/sql.js';
import type { ReadWork } from '../../platform/data/work.js';
import { conflictedSql, ownSql } from '../proposals/list-scope.queries.js';
import {
  capRowsOf,
  defaultCapOf,
  hiddenOf,
  loadsOf,
  membersOf,
  submittedOfCall,
  withCaps,
} from './assignment.queries.js';
import { authorizeAssignment, callOf } from './assignment.service.js';
import {
  enforcedConflictPairsOf,
  facilitiesOf,
  facilitiesOfCall,
  namesFacilitySql,
  teamPairsOf,
} from './proposal-facts.js';

/*
 * The matrix (issue 27): the call's submitted proposals as rows (a page of them, searched
 * and filtered), its current members as columns with their loads and caps, and only the
 * cells that hold something: an assignment, a bid other than neutral, a conflict. A
 * handful of set-based queries whatever the page size, so the first screen of a call of
 * 10,000 proposals and 300 members comes quickly. A chair never sees the rows of their
 * own proposals or of those they have a conflict with.
 */

/** How many reviewers the proposal in the FROM as `proposals` has. */
const assignedSql = sql<number>`(select count(*)::int from "proposal_reviewers" pr
  where pr."proposal_id" = "proposals"."id")`;

/** GET /calls/{callId}/assignment/matrix/: one page of rows, the columns, the filters' choices. */
export async function getMatrix(
  work: ReadWork,
  callId: number,
  query: MatrixQuery,
): Promise<MatrixResponse> {
  const { tx, actor, now } = work;
  const call = await callOf(work, callId);
  authorizeAssignment(work, call, false);
  const wanted = sql<number>`coalesce(${proposals.reviewsWanted}, ${call.reviewsPerProposal}::int)::int`;
  const conditions: (SQL | undefined)[] = [
    submittedOfCall(call.id),
    not(ownSql(actor.id)),
    not(conflictedSql(actor.id, call)),
  ];
  const search = query.search ?? '';
  if (search !== '')
    conditions.push(
      or(
        ilike(proposals.name, containing(search)),
        /^[1-9][0-9]{0,9}$/.test(search) && Number(search) <= 2_147_483_647
          ? eq(proposals.id, Number(search))
          : undefined,
      ),
    );
  if (query.type !== undefined) conditions.push(eq(proposals.proposalTypeId, query.type));
  if (query.facility !== undefined)
    conditions.push(await namesFacilitySql(tx, call.id, query.facility));
  if (query.show === 'unassigned') conditions.push(sql`${assignedSql} = 0`);
  if (query.show === 'under') conditions.push(sql`${assignedSql} < ${wanted}`);
  const where = and(...conditions);

  const [[total], rows, members, caps, fallback, loads, hidden, facilities, types] =
    await Promise.all([
      tx
        .select({ count: sql<number>`count(*)::int` })
        .from(proposals)
        .where(where),
      tx
        .select({
          id: proposals.id,
          name: proposals.name,
          typeName: proposalTypes.name,
          wanted,
          assigned: assignedSql,
        })
        .from(proposals)
        .innerJoin(proposalTypes, eq(proposalTypes.id, proposals.proposalTypeId))
        .where(where)
        .orderBy(sql`lower(${proposals.name})`, asc(proposals.id))
        .limit(query.page_size)
        .offset((query.page - 1) * query.page_size),
      membersOf(tx, call, now),
      capRowsOf(tx, call.id),
      defaultCapOf(tx, call, now),
      loadsOf(tx, call.id),
      hiddenOf(tx, call, actor),
      facilitiesOfCall(tx, call.id),
      tx
        .select({ id: proposalTypes.id, name: proposalTypes.name })
        .from(proposalTypes)
        .where(eq(proposalTypes.callId, call.id))
        .orderBy(asc(proposalTypes.position), asc(proposalTypes.id)),
    ]);

  const ids = rows.map((row) => row.id);
  const [rowFacilities, assignments, bids, conflicts, team] =
    ids.length === 0
      ? [new Map<number, string[]>(), [], [], [], []]
      : await Promise.all([
          facilitiesOf(tx, call.id, ids),
          tx
            .select({
              proposalId: proposalReviewers.proposalId,
              userId: proposalReviewers.userId,
              locked: proposalReviewers.locked,
            })
            .from(proposalReviewers)
            .where(inArray(proposalReviewers.proposalId, ids)),
          tx
            .select({
              proposalId: assignmentBids.proposalId,
              userId: assignmentBids.userId,
              preference: assignmentBids.preference,
            })
            .from(assignmentBids)
            .where(inArray(assignmentBids.proposalId, ids)),
          enforcedConflictPairsOf(tx, call, ids),
          teamPairsOf(tx, call.id, ids),
        ]);

  const columns = withCaps(members, caps, fallback);
  const memberIds = new Set(columns.map((member) => member.userId));
  // Each row's non-empty cells, for members only (a past member's assignment still counts
  // in the row's `assigned`, but has no column).
  type Cell = MatrixRow['cells'][number];
  const cells = new Map<number, Map<number, Cell>>();
  const cellOf = (proposalId: number, userId: number): Cell | undefined => {
    if (!memberIds.has(userId)) return undefined;
    const row = cells.get(proposalId) ?? new Map<number, Cell>();
    cells.set(proposalId, row);
    const cell = row.get(userId) ?? { userId, assigned: false, locked: false, conflict: false };
    row.set(userId, cell);
    return cell;
  };
  for (const { proposalId, userId, locked } of assignments) {
    const cell = cellOf(proposalId, userId);
    if (cell) Object.assign(cell, { assigned: true, locked });
  }
  for (const { proposalId, userId, preference } of bids) {
    const cell = cellOf(proposalId, userId);
    if (cell) cell.preference = preference as Preference;
  }
  for (const [proposalId, userId] of [...conflicts, ...team]) {
    const cell = cellOf(proposalId, userId);
    if (cell) cell.conflict = true;
  }
  const cellsOf = (proposalId: number) =>
    [...(cells.get(proposalId)?.values() ?? [])].sort((a, b) => a.userId - b.userId);

  return {
    count: Number(total?.count ?? 0),
    page: query.page,
    pageSize: query.page_size,
    members: columns
      .map((member) => ({
        userId: member.userId,
        name: member.name,
        load: (loads.get(member.userId) ?? 0) - (hidden.loads.get(member.userId) ?? 0),
        cap: member.cap,
      }))
      .sort((a, b) => a.name.localeCompare(b.name) || a.userId - b.userId),
    rows: rows.map((row) => ({
      proposalId: row.id,
      name: row.name,
      typeName: row.typeName,
      facilities: rowFacilities.get(row.id) ?? [],
      wanted: Number(row.wanted),
      assigned: Number(row.assigned),
      cells: cellsOf(row.id),
    })),
    facilities,
    types,
  };
}
