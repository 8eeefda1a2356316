import { randomInt } from 'node:crypto';
import {
  errorCodes,
  type AssignmentOverview,
  type AssignmentRun,
  type AssignmentSettingsPatch,
  type ProposeRequest,
} from '@merit/contract';
import {
  addErrors,
  assignmentMessages,
  callMessages,
  effectiveCap,
  hasErrors,
  isCommitteeMember,
  mayManageAssignment,
  proposalMessages,
  reviewMessages,
  type AssignmentResult,
  type FieldErrors,
} from '@merit/domain';
import { and, asc, desc, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import {
  assignmentBids,
  assignmentCaps,
  assignmentRuns,
  calls,
  proposalReviewers,
  proposals,
  users,
} from '../../db/schema.js';
import { authorize, refusalError } from '../../platform/http/authorize.js';
import {
  conflict,
  forbidden,
  HttpError,
  invalid,
  notFound,
} from '../../platform/http/http-errors.js';
import { personNameSql } from '../../platform/data/sql.js';
import type { ReadWork, Work } from '../../platform/data/work.js';
import { callResource, findCall, lockCall, type CallRow } from '../calls/calls.queries.js';
import { saveBatch } from './assignment-batch.js';
import { loadProblem, problemDigest } from './assignment-problem.js';
import {
  capRowsOf,
  defaultCapOf,
  hiddenOf,
  hiddenProposalIds,
  loadsOf,
  membersOf,
  PROPOSE_ASSIGNMENT_JOB,
  slotsOf,
  submittedOfCall,
  withCaps,
} from './assignment.queries.js';
import { idsOfRun, presentMember, presentRun, type RunRow } from './assignment.presenter.js';
import { inTurn } from './in-turn.js';

/*
 * Reviewer assignment for a whole call (issue 27): the Assignment page's settings and
 * counts, a member's own cap, Propose (a background job, assignment.jobs.ts), the preview,
 * Apply and Discard, and locks. Bidding is bidding.service.ts, the matrix matrix.service.ts
 * and the CSV csv.service.ts.
 */

// --- Loading and authorizing ----------------------------------------------------------------

/** The call, or 404. */
export async function callOf(work: ReadWork, callId: number): Promise<CallRow> {
  const found = await findCall(work.tx, callId);
  if (!found) throw notFound(callMessages.notFound);
  return found.call;
}

/** The call's row, locked until the transaction ends (changes take turns), or 404. */
export async function lockedCallOf(work: Work, callId: number): Promise<CallRow> {
  const call = await lockCall(work.tx, callId);
  if (!call) throw notFound(callMessages.notFound);
  return call;
}

/**
 * The chairs of the call's committee and admins (`call.assign`); a change also needs the
 * call not closed (`mayManageAssignment` with `change`).
 */
export function authorizeAssignment(work: ReadWork, call: CallRow, change: boolean): void {
  const resource = callResource(call, []);
  authorize(work.actor, 'call.assign', resource, work.now);
  if (!change) return;
  const decision = mayManageAssignment(work.actor, resource, work.now, true);
  if (decision !== true) throw refusalError(decision);
}

/** The actor holds a current role on the call's committee (an admin's standing does not count). */
export const isMemberOf = (work: ReadWork, call: CallRow) =>
  isCommitteeMember({ ...work.actor, isAdmin: false }, call.committeeId, work.now);

// --- The Assignment page ----------------------------------------------------------------------

/** Each member's bids (other than neutral) on the call's submitted proposals. */
async function bidCountsOf(tx: Tx, callId: number): Promise<Map<number, number>> {
  const rows = await tx
    .select({ userId: assignmentBids.userId, count: sql<number>`count(*)::int` })
    .from(assignmentBids)
    .innerJoin(proposals, eq(proposals.id, assignmentBids.proposalId))
    .where(submittedOfCall(callId))
    .groupBy(assignmentBids.userId);
  return new Map(rows.map((row) => [row.userId, Number(row.count)]));
}

/** The latest proposed assignment not yet applied or discarded. */
async function latestRun(tx: Tx, callId: number): Promise<RunRow | undefined> {
  const [run] = await tx
    .select()
    .from(assignmentRuns)
    .where(eq(assignmentRuns.callId, callId))
    .orderBy(desc(assignmentRuns.createdAt), desc(assignmentRuns.id))
    .limit(1);
  return run;
}

/** The page's settings, counts and members, for the caller (loads count without what is hidden from them). */
async function overviewOf(work: ReadWork, call: CallRow): Promise<AssignmentOverview> {
  const { tx } = work;
  const [members, caps, fallback, slots, loads, bids, perProposal, [assigned], run, hidden] =
    // In turn: a change (PATCH) answers it too, from inside its transaction.
    await inTurn(
      () => membersOf(tx, call, work.now),
      () => capRowsOf(tx, call.id),
      () => defaultCapOf(tx, call, work.now),
      () => slotsOf(tx, call),
      () => loadsOf(tx, call.id),
      () => bidCountsOf(tx, call.id),
      () =>
        tx
          .select({ id: proposals.id, wanted: proposals.reviewsWanted })
          .from(proposals)
          .where(and(submittedOfCall(call.id), isNotNull(proposals.reviewsWanted)))
          .orderBy(asc(proposals.id)),
      () =>
        tx
          .select({ count: sql<number>`count(*)::int` })
          .from(proposalReviewers)
          .innerJoin(proposals, eq(proposals.id, proposalReviewers.proposalId))
          .where(submittedOfCall(call.id)),
      () => latestRun(tx, call.id),
      () => hiddenOf(tx, call, work.actor),
    );
  const capped = withCaps(members, caps, fallback);
  const capacity = capped
    .filter((member) => member.eligible)
    .reduce((sum, member) => sum + member.cap, 0);
  const chairCaps = Object.fromEntries(
    [...caps]
      .filter(([, set]) => set.chairCap !== null)
      .map(([userId, set]) => [String(userId), set.chairCap!]),
  );
  return {
    reviewsPerProposal: call.reviewsPerProposal,
    perProposal: Object.fromEntries(perProposal.map((row) => [String(row.id), row.wanted!])),
    caps: chairCaps,
    biddingOpen: call.biddingOpen,
    biddingShowsProposals: call.biddingShowsProposals,
    defaultCap: fallback,
    counts: {
      proposals: slots.proposals,
      slots: slots.slots,
      assigned: Number(assigned?.count ?? 0),
      members: members.length,
      capacity,
      short: Math.max(0, slots.slots - capacity),
    },
    members: capped
      .map((member) =>
        presentMember(
          member,
          (loads.get(member.userId) ?? 0) - (hidden.loads.get(member.userId) ?? 0),
          bids.get(member.userId) ?? 0,
        ),
      )
      .sort((a, b) => a.name.localeCompare(b.name) || a.userId - b.userId),
    run: run ? { id: run.id, state: run.state } : null,
    abilities: {
      manage: mayManageAssignment(work.actor, callResource(call, []), work.now, true) === true,
    },
  };
}

/** GET /calls/{callId}/assignment/settings/: the Assignment page (chairs and admins). */
export async function getOverview(work: ReadWork, callId: number): Promise<AssignmentOverview> {
  const call = await callOf(work, callId);
  authorizeAssignment(work, call, false);
  return overviewOf(work, call);
}

/** A key that is an id as PostgreSQL can hold it. */
const isId = (key: string) => /^[1-9][0-9]{0,9}$/.test(key) && Number(key) <= 2_147_483_647;

/** The keys of a record that are not ids, or not ids in `known`. */
const unknownKeys = (record: Record<string, unknown>, known: ReadonlySet<number>) =>
  Object.keys(record).filter((key) => !isId(key) || !known.has(Number(key)));

/** Pairs of an id and a number (or null) as one JSON parameter, for one UPDATE of many rows. */
const idValues = (record: Record<string, number | null>) =>
  JSON.stringify(Object.entries(record).map(([id, value]) => ({ id: Number(id), value })));

/**
 * PATCH /calls/{callId}/assignment/settings/: k, the proposals' own k, the chairs' caps
 * and bidding. Keys of `perProposal` must be the call's submitted proposals, and of `caps`
 * its current members; a null resets one. Audited as one change of the call.
 */
export async function patchSettings(
  work: Work,
  callId: number,
  patch: AssignmentSettingsPatch,
): Promise<AssignmentOverview> {
  const { tx, now } = work;
  const call = await lockedCallOf(work, callId);
  authorizeAssignment(work, call, true);
  const perProposal = patch.perProposal ?? {};
  const caps = patch.caps ?? {};
  const proposalKeys = Object.keys(perProposal).filter(isId);
  const submitted =
    proposalKeys.length === 0
      ? []
      : await tx
          .select({ id: proposals.id, wanted: proposals.reviewsWanted })
          .from(proposals)
          .where(and(submittedOfCall(call.id), inArray(proposals.id, proposalKeys.map(Number))));
  const members = Object.keys(caps).length === 0 ? [] : await membersOf(tx, call, now);
  const capsBefore = await capRowsOf(tx, call.id);
  const errors: FieldErrors = {};
  const submittedIds = new Set(submitted.map((row) => row.id));
  for (const key of unknownKeys(perProposal, submittedIds))
    addErrors(errors, `perProposal.${key}`, [assignmentMessages.csvProposal(key)]);
  const memberIds = new Set(members.map((member) => member.userId));
  for (const key of unknownKeys(caps, memberIds))
    addErrors(errors, `caps.${key}`, [assignmentMessages.capNotMember(key)]);
  if (hasErrors(errors)) throw invalid(errors);

  const before: Record<string, unknown> = {};
  const after: Record<string, unknown> = {};
  const callChanges: Partial<
    Pick<CallRow, 'reviewsPerProposal' | 'biddingOpen' | 'biddingShowsProposals'>
  > = {};
  for (const key of ['reviewsPerProposal', 'biddingOpen', 'biddingShowsProposals'] as const) {
    const value = patch[key];
    if (value === undefined || value === call[key]) continue;
    before[key] = call[key];
    after[key] = value;
    Object.assign(callChanges, { [key]: value });
  }
  if (Object.keys(callChanges).length > 0)
    await tx.update(calls).set(callChanges).where(eq(calls.id, call.id));
  if (Object.keys(perProposal).length > 0) {
    const was = new Map(submitted.map((row) => [row.id, row.wanted]));
    before.perProposal = Object.fromEntries(
      Object.keys(perProposal).map((id) => [id, was.get(Number(id)) ?? null]),
    );
    after.perProposal = perProposal;
    await tx.execute(sql`update ${proposals} p set "reviews_wanted" = r."value"
      from jsonb_to_recordset(${idValues(perProposal)}::jsonb) as r("id" int, "value" int)
      where p."id" = r."id"`);
  }
  if (Object.keys(caps).length > 0) {
    before.caps = Object.fromEntries(
      Object.keys(caps).map((id) => [id, capsBefore.get(Number(id))?.chairCap ?? null]),
    );
    after.caps = caps;
    await tx.execute(sql`insert into ${assignmentCaps} ("call_id", "user_id", "chair_cap")
      select ${call.id}::int, r."id", r."value"
      from jsonb_to_recordset(${idValues(caps)}::jsonb) as r("id" int, "value" int)
      on conflict ("call_id", "user_id") do update set "chair_cap" = excluded."chair_cap"`);
    await deleteEmptyCaps(tx, call.id);
  }
  if (Object.keys(after).length > 0)
    await work.audit({ action: 'call.update_assignment', entityId: call.id, before, after });
  const [updated] = await tx.select().from(calls).where(eq(calls.id, call.id));
  return overviewOf(work, updated!);
}

/** A caps row with neither cap says nothing: gone. */
async function deleteEmptyCaps(tx: Tx, callId: number) {
  await tx
    .delete(assignmentCaps)
    .where(
      and(
        eq(assignmentCaps.callId, callId),
        isNull(assignmentCaps.chairCap),
        isNull(assignmentCaps.memberCap),
      ),
    );
}

/**
 * POST /calls/{callId}/assignment/my_cap/: a current member lowers their own cap in the
 * call, or clears it with null; never above the chairs' cap for them (or the default).
 */
export async function setMyCap(
  work: Work,
  callId: number,
  cap: number | null,
): Promise<{ cap: number; chairCap: number }> {
  const { tx, actor, now } = work;
  const call = await lockedCallOf(work, callId);
  if (!isMemberOf(work, call)) throw forbidden(assignmentMessages.notAMember);
  if (call.closed) throw conflict(assignmentMessages.callClosed);
  const fallback = await defaultCapOf(tx, call, now);
  const caps = await capRowsOf(tx, call.id);
  const own = caps.get(actor.id);
  const chairCap = own?.chairCap ?? fallback;
  if (cap !== null && cap > chairCap)
    throw invalid({ cap: [assignmentMessages.capAboveChair(chairCap)] });
  await tx
    .insert(assignmentCaps)
    .values({ callId: call.id, userId: actor.id, memberCap: cap })
    .onConflictDoUpdate({
      target: [assignmentCaps.callId, assignmentCaps.userId],
      set: { memberCap: cap },
    });
  await deleteEmptyCaps(tx, call.id);
  if ((own?.memberCap ?? null) !== cap)
    await work.audit({
      action: 'call.update_assignment',
      entityId: call.id,
      before: { memberCap: { [actor.id]: own?.memberCap ?? null } },
      after: { memberCap: { [actor.id]: cap } },
    });
  return { cap: effectiveCap(own?.chairCap, cap, fallback), chairCap };
}

// --- Propose, the preview, Apply and Discard ----------------------------------------------------

/**
 * POST /calls/{callId}/assignment/proposals/: starts working out a proposed assignment
 * (the job runs after this commits). One at a time per call: 409 while one is running; a
 * new one replaces one that is ready or failed.
 */
export async function startProposal(
  work: Work,
  callId: number,
  input: ProposeRequest,
): Promise<{ id: number }> {
  const { tx } = work;
  const call = await lockedCallOf(work, callId);
  authorizeAssignment(work, call, true);
  const runs = await tx
    .select({ id: assignmentRuns.id, state: assignmentRuns.state })
    .from(assignmentRuns)
    .where(eq(assignmentRuns.callId, call.id));
  if (runs.some((run) => run.state === 'running')) throw conflict(assignmentMessages.running);
  if (runs.length > 0) await tx.delete(assignmentRuns).where(eq(assignmentRuns.callId, call.id));
  const [run] = await tx
    .insert(assignmentRuns)
    .values({
      callId: call.id,
      state: 'running',
      redo: input.redo,
      seed: input.seed ?? randomInt(0, 2 ** 31 - 1),
      createdBy: work.actor.id,
      createdAt: work.now,
    })
    .returning({ id: assignmentRuns.id });
  await work.enqueue(PROPOSE_ASSIGNMENT_JOB, { runId: run!.id });
  return { id: run!.id };
}

/** The call's run `runId`, locked when asked, or 404. */
async function runOf(tx: Tx, callId: number, runId: number, forUpdate = false): Promise<RunRow> {
  const query = tx
    .select()
    .from(assignmentRuns)
    .where(and(eq(assignmentRuns.id, runId), eq(assignmentRuns.callId, callId)));
  const [run] = await (forUpdate ? query.for('update') : query);
  if (!run) throw notFound(assignmentMessages.notFound);
  return run;
}

/** GET /calls/{callId}/assignment/proposals/{id}/: its progress, or the preview with names. */
export async function getRun(
  work: ReadWork,
  callId: number,
  runId: number,
): Promise<AssignmentRun> {
  const { tx } = work;
  const call = await callOf(work, callId);
  authorizeAssignment(work, call, false);
  const run = await runOf(tx, call.id, runId);
  const ids = idsOfRun(run);
  const [proposalNames, userNames, hidden] = await Promise.all([
    ids.proposals.length === 0
      ? []
      : tx
          .select({ id: proposals.id, name: proposals.name })
          .from(proposals)
          .where(inArray(proposals.id, ids.proposals)),
    ids.users.length === 0
      ? []
      : tx
          .select({ id: users.id, name: personNameSql(users) })
          .from(users)
          .where(inArray(users.id, ids.users)),
    hiddenOf(tx, call, work.actor),
  ]);
  return presentRun(
    run,
    {
      proposals: new Map(proposalNames.map((row) => [row.id, row.name])),
      users: new Map(userNames.map((row) => [row.id, row.name])),
    },
    hidden,
  );
}

/**
 * POST /calls/{callId}/assignment/proposals/{id}/apply/: saves the whole preview in one
 * transaction, as one audited batch with one digest mail per member given new proposals,
 * and drops the run. Refused with 409 `stale` when anything it was worked out from has
 * changed since (its digest, worked out again from the database, differs): nothing is
 * saved, and the chair proposes again.
 */
export async function applyRun(
  work: Work,
  callId: number,
  runId: number,
  publicUrl: string,
): Promise<{ added: number; removed: number; mailed: number }> {
  const { tx } = work;
  const call = await lockedCallOf(work, callId);
  authorizeAssignment(work, call, true);
  const run = await runOf(tx, call.id, runId, true);
  if (run.state === 'running') throw conflict(assignmentMessages.notReady);
  if (run.state === 'failed' || !run.result) throw conflict(assignmentMessages.failed);
  const problem = await loadProblem(tx, call, work.now, { redo: run.redo, seed: run.seed });
  if (problemDigest(problem) !== run.inputDigest)
    throw new HttpError(409, errorCodes.stale, assignmentMessages.stale);
  const result = run.result as AssignmentResult;
  const saved = await saveBatch(
    work,
    call,
    { added: result.added, removed: result.removed },
    { kind: 'proposal', runId: run.id, redo: run.redo },
    publicUrl,
  );
  await tx.delete(assignmentRuns).where(eq(assignmentRuns.id, run.id));
  return saved;
}

/** DELETE /calls/{callId}/assignment/proposals/{id}/: drops a proposal, running or not. */
export async function discardRun(work: Work, callId: number, runId: number): Promise<void> {
  const call = await callOf(work, callId);
  authorizeAssignment(work, call, false);
  const removed = await work.tx
    .delete(assignmentRuns)
    .where(and(eq(assignmentRuns.id, runId), eq(assignmentRuns.callId, call.id)))
    .returning({ id: assignmentRuns.id });
  if (removed.length === 0) throw notFound(assignmentMessages.notFound);
}

// --- Locks ---------------------------------------------------------------------------------

/**
 * PATCH /calls/{callId}/assignment/locks/: locks an assignment, so Propose never takes it
 * back even when asked to redo, or unlocks it. Not on a proposal whose reviewers the chair
 * must not see (theirs, or one they have a conflict with).
 */
export async function setLock(
  work: Work,
  callId: number,
  input: { proposalId: number; userId: number; locked: boolean },
): Promise<{ proposalId: number; userId: number; locked: boolean }> {
  const { tx } = work;
  const call = await lockedCallOf(work, callId);
  authorizeAssignment(work, call, true);
  const [proposal] = await tx
    .select({ id: proposals.id })
    .from(proposals)
    .where(and(submittedOfCall(call.id), eq(proposals.id, input.proposalId)));
  if (!proposal) throw notFound(proposalMessages.notFound);
  if ((await hiddenProposalIds(tx, call, work.actor)).has(proposal.id))
    throw forbidden(assignmentMessages.notYours);
  const pair = and(
    eq(proposalReviewers.proposalId, proposal.id),
    eq(proposalReviewers.userId, input.userId),
  );
  const [was] = await tx
    .select({ locked: proposalReviewers.locked })
    .from(proposalReviewers)
    .where(pair)
    .for('update');
  if (!was) throw invalid({ userId: [reviewMessages.notReviewer] });
  if (was.locked !== input.locked) {
    await tx.update(proposalReviewers).set({ locked: input.locked }).where(pair);
    await work.audit({
      action: 'proposal.lock_reviewer',
      entityId: proposal.id,
      subjectUserId: input.userId,
      before: { userId: input.userId, locked: was.locked },
      after: { userId: input.userId, locked: input.locked },
    });
  }
  return { proposalId: proposal.id, userId: input.userId, locked: input.locked };
}
