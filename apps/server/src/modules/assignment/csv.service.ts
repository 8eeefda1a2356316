import { assignmentMessages } from '@merit/domain';
import { and, asc, eq, not, sql } from 'drizzle-orm';
import { assignmentBids, proposalReviewers, proposals, users } from '../../db/schema.js';
import { invalid } from '../../platform/http/http-errors.js';
import type { ReadWork, Work } from '../../platform/data/work.js';
import { conflictedSql, ownSql } from '../proposals/list-scope.queries.js';
import { saveBatch, type AssignmentChange } from './assignment-batch.js';
import { assignmentsCsv, csvLines, isHeader, usernameOf } from './assignment-csv.js';
import {
  capRowsOf,
  defaultCapOf,
  hiddenProposalIds,
  loadsOf,
  membersOf,
  submittedOfCall,
  withCaps,
} from './assignment.queries.js';
import { authorizeAssignment, callOf, lockedCallOf } from './assignment.service.js';
import { inTurn } from './in-turn.js';
import { enforcedConflictPairsOf, teamPairsOf } from './proposal-facts.js';

/*
 * Assignments as CSV (issue 27): the download lists every assignment of the call's
 * submitted proposals as `assign`; the upload assigns and removes, checked line by line as
 * the matrix checks one cell, and saves nothing unless every line passes.
 */

const key = (proposalId: number, userId: number) => `${proposalId}:${userId}`;

/**
 * GET /calls/{callId}/assignment/csv/: every assignment as `assign`, by proposal and
 * username; none of a proposal whose reviewers the chair must not see.
 */
export async function downloadCsv(work: ReadWork, callId: number): Promise<string> {
  const call = await callOf(work, callId);
  authorizeAssignment(work, call, false);
  const rows = await work.tx
    .select({ proposalId: proposalReviewers.proposalId, username: users.username })
    .from(proposalReviewers)
    .innerJoin(proposals, eq(proposals.id, proposalReviewers.proposalId))
    .innerJoin(users, eq(users.id, proposalReviewers.userId))
    .where(
      and(
        submittedOfCall(call.id),
        not(ownSql(work.actor.id)),
        not(conflictedSql(work.actor.id, call)),
      ),
    )
    .orderBy(asc(proposalReviewers.proposalId), asc(users.username));
  return assignmentsCsv(rows);
}

/** Errors by line, as the answer's `fields` name them: `line 3`. */
class LineErrors {
  readonly fields: Record<string, string[]> = {};
  add(line: number, message: string) {
    (this.fields[`line ${line}`] ??= []).push(message);
  }
  get count() {
    return Object.keys(this.fields).length;
  }
}

/**
 * POST /calls/{callId}/assignment/csv/: the file's assignments and removals, all or none.
 * Each line is checked: three values; the action; a submitted proposal of this call whose
 * reviewers the chair may see; the username of a current member (or of whoever holds the
 * assignment already, for a removal or an `assign` that changes nothing); an assignment
 * the rules allow (not of the proposal's team, no enforced conflict, not "Not me", a role
 * that lasts through review); a removal of an assignment there is; and, counting the
 * whole file's changes, no member past their cap. Any error: 400 with every error keyed
 * `line <n>`, nothing saved. Otherwise one batch (one audit row, one digest per member).
 */
export async function uploadCsv(
  work: Work,
  callId: number,
  text: string,
  publicUrl: string,
): Promise<{ assigned: number; removed: number }> {
  const { tx, now } = work;
  const call = await lockedCallOf(work, callId);
  authorizeAssignment(work, call, true);
  const errors = new LineErrors();
  const [header, ...lines] = csvLines(text);
  if (!header || !isHeader(header)) errors.add(header?.line ?? 1, assignmentMessages.csvHeader);
  else if (lines.length === 0) errors.add(header.line, assignmentMessages.csvEmpty);

  const usernames = [
    ...new Set(
      lines
        .filter((line) => line.values.length === 3)
        .map((line) => usernameOf(line.values[1]!).toLowerCase()),
    ),
  ];
  const [
    submitted,
    hidden,
    members,
    caps,
    fallback,
    loads,
    existing,
    team,
    conflicts,
    notMe,
    named,
  ] = await inTurn(
    () => tx.select({ id: proposals.id }).from(proposals).where(submittedOfCall(call.id)),
    () => hiddenProposalIds(tx, call, work.actor),
    () => membersOf(tx, call, now),
    () => capRowsOf(tx, call.id),
    () => defaultCapOf(tx, call, now),
    () => loadsOf(tx, call.id),
    () =>
      tx
        .select({ proposalId: proposalReviewers.proposalId, userId: proposalReviewers.userId })
        .from(proposalReviewers)
        .innerJoin(proposals, eq(proposals.id, proposalReviewers.proposalId))
        .where(submittedOfCall(call.id)),
    () => teamPairsOf(tx, call.id),
    () => enforcedConflictPairsOf(tx, call),
    () =>
      tx
        .select({ proposalId: assignmentBids.proposalId, userId: assignmentBids.userId })
        .from(assignmentBids)
        .innerJoin(proposals, eq(proposals.id, assignmentBids.proposalId))
        .where(and(submittedOfCall(call.id), eq(assignmentBids.preference, 'not_me'))),
    // The names as one JSON parameter: a file may name more than a query takes one by one.
    async () =>
      usernames.length === 0
        ? []
        : tx
            .select({ id: users.id, username: users.username })
            .from(users)
            .where(
              sql`lower(${users.username}) in (select jsonb_array_elements_text(${JSON.stringify(usernames)}::jsonb))`,
            ),
  );
  const submittedIds = new Set(submitted.map((row) => row.id));
  const userByName = new Map(named.map((user) => [user.username.toLowerCase(), user.id]));
  const memberById = new Map(
    withCaps(members, caps, fallback).map((member) => [member.userId, member]),
  );
  const pairs = (list: readonly (readonly [number, number])[]) =>
    new Set(list.map(([proposalId, userId]) => key(proposalId, userId)));
  const ofTeam = pairs(team);
  const conflicted = pairs(conflicts);
  const notWanted = pairs(notMe.map((bid) => [bid.proposalId, bid.userId] as const));
  const before = pairs(existing.map((row) => [row.proposalId, row.userId] as const));
  const assignedNow = new Set(before);
  /** The lines that assign each pair, for the cap's errors. */
  const assignedBy = new Map<string, number>();

  for (const { line, values } of lines) {
    if (values.length !== 3) {
      errors.add(line, assignmentMessages.csvColumns);
      continue;
    }
    const [proposalText, usernameText, actionText] = values as [string, string, string];
    const username = usernameOf(usernameText);
    const action = actionText.toLowerCase();
    const problems: string[] = [];
    if (action !== 'assign' && action !== 'remove') problems.push(assignmentMessages.csvAction);
    const proposalId = /^[1-9][0-9]{0,9}$/.test(proposalText) ? Number(proposalText) : 0;
    if (!submittedIds.has(proposalId)) problems.push(assignmentMessages.csvProposal(proposalText));
    else if (hidden.has(proposalId)) problems.push(assignmentMessages.csvNotYours(proposalText));
    const userId = userByName.get(username.toLowerCase());
    const pair = userId === undefined ? '' : key(proposalId, userId);
    // A removal, or an assignment that is there already, needs no membership: the
    // download lists a past member's assignments too.
    const changesNothing = action === 'assign' && assignedNow.has(pair);
    const member = userId === undefined ? undefined : memberById.get(userId);
    if (userId === undefined || (!member && action === 'assign' && !changesNothing))
      problems.push(assignmentMessages.csvUser(username));
    if (problems.length > 0) {
      for (const problem of problems) errors.add(line, problem);
      continue;
    }
    if (action === 'remove') {
      if (!assignedNow.delete(pair))
        errors.add(line, assignmentMessages.csvNotReviewer(username, proposalText));
      continue;
    }
    if (changesNothing) continue;
    const why = ofTeam.has(pair)
      ? assignmentMessages.excluded.team(username)
      : conflicted.has(pair)
        ? assignmentMessages.excluded.conflict(username)
        : notWanted.has(pair)
          ? assignmentMessages.excluded.notMe(username)
          : !member!.eligible
            ? assignmentMessages.excluded.ineligible(username)
            : null;
    if (why) errors.add(line, why);
    else {
      assignedNow.add(pair);
      assignedBy.set(pair, line);
    }
  }

  const parse = (pair: string): AssignmentChange => {
    const [proposalId, userId] = pair.split(':').map(Number) as [number, number];
    return { proposalId, userId };
  };
  const added = [...assignedNow].filter((pair) => !before.has(pair)).map(parse);
  const removed = [...before].filter((pair) => !assignedNow.has(pair)).map(parse);
  // Caps, over the whole file: a member given more than they may take has an error on
  // each line that adds to them.
  const change = new Map<number, number>();
  for (const { userId } of added) change.set(userId, (change.get(userId) ?? 0) + 1);
  for (const { userId } of removed) change.set(userId, (change.get(userId) ?? 0) - 1);
  for (const { proposalId, userId } of added) {
    const member = memberById.get(userId)!;
    const after = (loads.get(userId) ?? 0) + change.get(userId)!;
    if (after > member.cap)
      errors.add(
        assignedBy.get(key(proposalId, userId))!,
        assignmentMessages.overCap(member.name, member.cap),
      );
  }
  if (errors.count > 0) throw invalid(errors.fields, assignmentMessages.csvFailed(errors.count));

  const saved = await saveBatch(work, call, { added, removed }, { kind: 'csv' }, publicUrl);
  return { assigned: saved.added, removed: saved.removed };
}
