import type {
  CallCapacity,
  CallRanking,
  CapacitySave,
  DecisionSave,
  DecisionSaved,
  OutcomesFromLineAnswer,
  OutcomesFromLineRequest,
  ProposalDecision,
  RankingMove,
} from '@merit/contract';
import {
  awardProblems,
  awardsAllowed,
  callMessages,
  capacityProblems,
  decide,
  decisionMessages,
  decisionsReleased,
  defaultAwards,
  keyBetween,
  orderKeyOf,
  OUTCOMES,
  outcomesFromLine,
  proposalMessages,
  rankProposals,
  type AwardProblem,
  type FieldErrors,
  type Outcome,
  type Ranking,
  type ResourceValues,
} from '@merit/domain';
import { eq } from 'drizzle-orm';
import { calls } from '../../db/schema.js';
import { authorize } from '../../platform/http/authorize.js';
import { invalid, notFound, stale } from '../../platform/http/http-errors.js';
import type { ReadWork, Work } from '../../platform/data/work.js';
import { callResource, findCall, lockCall, type CallRow } from '../calls/calls.queries.js';
import { loadFor } from '../proposals/proposal-access.js';
import {
  resourceFormsOfCall,
  resourceTotalsOf,
  titlesOfForms,
} from '../proposals/resource-totals.queries.js';
import {
  auditedDecision,
  presentCapacity,
  presentDecision,
  presentRanking,
} from './decisions.presenter.js';
import {
  authorWindowsOf,
  awardedOf,
  capacityOf,
  currentLetterOf,
  decisionOf,
  rankingSourceOf,
  replaceCapacity,
  runAll,
  requestedOf,
  typesOfCall,
  writeDecisions,
  writeRankMove,
  type DecisionWrite,
  type RankingSourceRow,
} from './decisions.queries.js';

/*
 * The decision meeting (issue 29): each proposal's outcome and awards, each facility's
 * capacity, the ranking with its line, moving a proposal in it, and the outcomes the line
 * proposes. Who may do what is the domain's (`call.decide`, `proposal.decide`); the
 * letters that tell the applicants are the letters module's.
 */

/** The call, or 404. */
async function callOf(work: ReadWork, callId: number): Promise<CallRow> {
  const found = await findCall(work.tx, callId);
  if (!found) throw notFound(callMessages.notFound);
  return found.call;
}

/** A change's work (with its audit) runs in a transaction: its queries take turns. */
const inTransaction = (work: ReadWork) => 'audit' in work;

// A chair's own extensions do not change what they may do at the decision meeting.
const resourceOf = (call: CallRow) => callResource(call, []);

/** Problems as the error envelope's `fields`, and the first as its detail. */
function problemsError(problems: readonly AwardProblem[]) {
  const fields: FieldErrors = {};
  for (const { path, message } of problems) (fields[path] ??= []).push(message);
  return invalid(fields, problems[0]!.message);
}

// --- A proposal's decision -------------------------------------------------------------

/** The decision as its chairs read it: with the notes, what it asks for and who decided. */
async function chairsDecision(work: Work, proposalId: number): Promise<ProposalDecision> {
  const row = await decisionOf(work.tx, proposalId);
  const letter = await currentLetterOf(work.tx, proposalId, false);
  const requested = await requestedOf(work.tx, proposalId);
  return presentDecision(row, letter, requested, true);
}

/** Notes kept: trimmed, and only those that say something. */
const keptNotes = (notes: Record<string, string>) =>
  Object.fromEntries(
    Object.entries(notes)
      .map(([facility, note]) => [facility, note.trim()] as const)
      .filter(([, note]) => note !== ''),
  );

/**
 * POST /proposals/{proposalId}/decision/ (`proposal.decide`): the outcome and awards from
 * `version`, answered with what the chair's ranking of the call is awarded now (`awardedOf`,
 * one aggregate: the Ranking page's totals, without ranking every proposal again). Awards are checked against what the proposal asks for (`awardProblems`); an
 * outcome that awards nothing keeps no awards and no notes. 409 `stale` with the decision
 * as saved when another chair saved it since. A change after the decisions were released
 * is saved like any other, answered with `letterDue`: the chair is asked whether to send
 * its letter now (its first, or a corrected one), which the Letters page offers otherwise.
 */
export async function saveDecision(
  work: Work,
  proposalId: number,
  input: DecisionSave,
): Promise<DecisionSaved> {
  const { tx, actor, now } = work;
  const { proposal, call } = await loadFor(work, 'proposal.decide', proposalId, true);
  const current = await decisionOf(tx, proposal.id);
  const requested = await requestedOf(tx, proposal.id);
  const staleError = async () =>
    stale(
      decisionMessages.stale((await decisionOf(tx, proposal.id))?.decidedByName ?? null),
      await chairsDecision(work, proposal.id),
    );
  if (input.version !== (current?.decision.version ?? 0)) throw await staleError();

  const problems = awardProblems(input, requested);
  if (problems.length > 0) throw problemsError(problems);
  const awarding = awardsAllowed(input.outcome);
  const write: DecisionWrite = {
    proposalId: proposal.id,
    outcome: input.outcome,
    awards: awarding ? input.awards : {},
    awardNotes: awarding ? keptNotes(input.awardNotes) : {},
    version: input.version,
  };
  if ((await writeDecisions(tx, [write], actor.id, now)).length === 0) throw await staleError();
  await work.audit({
    action: 'proposal.decide',
    entityId: proposal.id,
    before: auditedDecision(current?.decision),
    after: auditedDecision(write),
  });
  const decision = await chairsDecision(work, proposal.id);
  return {
    ...decision,
    awarded: await awardedOf(tx, call, actor),
    // A letter is of the outcome's version: after the release, any save with an outcome owes one.
    letterDue: decisionsReleased(call) && write.outcome !== null,
  };
}

// --- Capacities ------------------------------------------------------------------------

/**
 * The capacities with the ranking's lines: the reader's ranking (`rankingSourceOf`, as the
 * Ranking page's), of which only the totals are answered.
 */
async function capacityAnswer(work: ReadWork, call: CallRow): Promise<CallCapacity> {
  const [capacity, { totals, titles }, source] = await runAll(inTransaction(work), [
    () => capacityOf(work.tx, call.id),
    () => resourceTotalsOf(work.tx, call.id),
    () => rankingSourceOf(work.tx, call, work.actor, inTransaction(work)),
  ]);
  const { lines } = rankProposals(source.rows, capacity);
  return presentCapacity(capacity, call.capacityVersion, totals, lines, titles);
}

/**
 * GET /calls/{callId}/capacity/ (`call.decide`): each facility's capacity per data field,
 * and the facilities and fields the call's submitted proposals ask for (the chair's list's
 * resource totals), to offer in the editor.
 */
export async function getCapacity(work: ReadWork, callId: number): Promise<CallCapacity> {
  const call = await callOf(work, callId);
  authorize(work.actor, 'call.decide', resourceOf(call), work.now);
  return capacityAnswer(work, call);
}

/**
 * PUT /calls/{callId}/capacity/ (`call.decide`): the whole set from `version` (a field left
 * out has no capacity), each amount checked by `capacityProblems`.
 */
export async function saveCapacity(
  work: Work,
  callId: number,
  input: CapacitySave,
): Promise<CallCapacity> {
  const { tx, now } = work;
  const call = await lockCall(tx, callId);
  if (!call) throw notFound(callMessages.notFound);
  authorize(work.actor, 'call.decide', resourceOf(call), now);
  if (input.version !== call.capacityVersion)
    throw stale(decisionMessages.capacityStale, await capacityAnswer(work, call));
  const problems = capacityProblems(input.capacity);
  if (problems.length > 0) throw problemsError(problems);
  const before = await capacityOf(tx, call.id);
  await replaceCapacity(tx, call.id, input.capacity);
  const version = call.capacityVersion + 1;
  await tx.update(calls).set({ capacityVersion: version }).where(eq(calls.id, call.id));
  await work.audit({
    action: 'call.update_capacity',
    entityId: call.id,
    before: { capacity: before },
    after: { capacity: input.capacity },
  });
  return capacityAnswer(work, { ...call, capacityVersion: version });
}

// --- The ranking -----------------------------------------------------------------------

interface WorkedRanking {
  ranking: Ranking<RankingSourceRow>;
  /** The proposals the reader may set the outcome of (`proposal.decide`). */
  decidable: Set<number>;
  hidden: number;
}

/**
 * The ranking of what the reader may rank (`rankingSourceOf`: not their own proposals nor
 * those they are conflicted on, which add nothing to its totals either) against the
 * capacities, and which rows they may decide: `proposal.decide` for each, from what the
 * queries read (the SQL has left out their team's and conflicted proposals already; a
 * proposal still open for its author, by an extension, is not decided yet).
 */
async function workRanking(work: ReadWork, call: CallRow): Promise<WorkedRanking> {
  const { tx, actor, now } = work;
  const [source, capacity, windows] = await runAll(inTransaction(work), [
    () => rankingSourceOf(tx, call, actor, inTransaction(work)),
    () => capacityOf(tx, call.id),
    () => authorWindowsOf(tx, call.id),
  ]);
  const ranking = rankProposals(source.rows, capacity);
  const decidable = new Set<number>();
  for (const row of source.rows) {
    const allowed = decide(
      'proposal.decide',
      actor,
      {
        call,
        authorId: row.authorId,
        collaboratorIds: [],
        stateVal: row.stateVal,
        authorExtensions: windows.get(row.authorId) ?? [],
        actorExtensions: [],
        lock: null,
        hasReviews: false,
        reviewerIds: [],
        actorHasReview: false,
        actorConflict: null,
        actorDeclared: true,
      },
      now,
    );
    if (allowed === true) decidable.add(row.proposalId);
  }
  return { ranking, decidable, hidden: source.hidden };
}

async function rankingAnswer(
  work: ReadWork,
  call: CallRow,
  filters: { facility?: string | undefined; type?: number | undefined } = {},
  worked?: WorkedRanking,
): Promise<CallRanking> {
  const [{ ranking, decidable, hidden }, proposalTypes, resourceForms] = await runAll(
    inTransaction(work),
    [
      () => (worked ? Promise.resolve(worked) : workRanking(work, call)),
      () => typesOfCall(work.tx, call.id),
      () => resourceFormsOfCall(work.tx, call.id),
    ],
  );
  return presentRanking(ranking, decidable, {
    capacityVersion: call.capacityVersion,
    proposalTypes,
    hidden,
    fieldTitles: titlesOfForms(resourceForms),
    ...filters,
  });
}

/**
 * GET /calls/{callId}/ranking/ (`call.decide`): the call's submitted proposals the reader
 * may rank, in rank order, with each facility's line. `facility` and `type` keep some rows
 * once the whole is ranked.
 */
export async function getRanking(
  work: ReadWork,
  callId: number,
  filters: { facility?: string | undefined; type?: number | undefined },
): Promise<CallRanking> {
  const call = await callOf(work, callId);
  authorize(work.actor, 'call.decide', resourceOf(call), work.now);
  return rankingAnswer(work, call, filters);
}

/** An `after` that is the moved proposal itself. */
const afterItself = 'A proposal cannot go below itself: choose another one to put it after.';

/**
 * POST /calls/{callId}/ranking/move/ (`call.decide`, and `proposal.decide` on the one
 * moved): puts it just below `after` (at the top when null), with the key `keyBetween`
 * gives from its new neighbours in the reader's ranking, and the reason; from its
 * decision's `version`. 409 `stale` with the ranking as it is now when the decision, or
 * the ranking around it, changed since. Answers the new ranking.
 */
export async function moveInRanking(
  work: Work,
  callId: number,
  input: RankingMove,
): Promise<CallRanking> {
  const { tx, actor, now } = work;
  const call = await callOf(work, callId);
  authorize(actor, 'call.decide', resourceOf(call), now);
  const { proposal } = await loadFor(work, 'proposal.decide', input.proposalId, true);
  if (proposal.callId !== call.id) throw notFound(proposalMessages.notFound);
  if (input.after === input.proposalId) throw invalid({ after: [afterItself] }, afterItself);

  const worked = await workRanking(work, call);
  const rows = worked.ranking.rows.map((ranked) => ranked.row);
  const moved = rows.find((row) => row.proposalId === proposal.id);
  const others = rows.filter((row) => row.proposalId !== proposal.id);
  const at = input.after === null ? 0 : others.findIndex((r) => r.proposalId === input.after) + 1;
  const staleError = async () =>
    stale(decisionMessages.rankStale, await rankingAnswer(work, call, {}, worked));
  // Not in the reader's ranking (moved out, or an `after` they cannot see): the order they
  // moved it in is not the one there is.
  if (!moved || (at === 0 && input.after !== null) || moved.version !== input.version)
    throw await staleError();

  const upper = at === 0 ? undefined : orderKeyOf(others[at - 1]!);
  const lower = at < others.length ? orderKeyOf(others[at]!) : undefined;
  const rankKey = keyBetween(upper, lower);
  const reason = input.reason.trim();
  const written = await writeRankMove(
    tx,
    { proposalId: proposal.id, rankKey, reason, version: input.version },
    actor.id,
    now,
  );
  if (!written) throw await staleError();
  await work.audit({
    action: 'proposal.move_in_ranking',
    entityId: proposal.id,
    before: { rankKey: moved.rankKey, reason: moved.rankReason },
    after: { rankKey, reason, after: input.after },
  });
  return rankingAnswer(work, call);
}

/** Every outcome counted, those not proposed at 0. */
const countOutcomes = (outcomes: readonly Outcome[]) => {
  const counts = Object.fromEntries(OUTCOMES.map((o) => [o, 0])) as Record<Outcome, number>;
  for (const outcome of outcomes) counts[outcome] += 1;
  return counts;
};

/**
 * What a proposal's awards become with its new outcome: kept when it had some and still
 * awards; what it asks for (`defaultAwards`) when it starts awarding; none otherwise.
 */
function awardsFor(
  row: RankingSourceRow,
  outcome: Outcome,
): { awards: ResourceValues; awardNotes: Record<string, string> } {
  if (!awardsAllowed(outcome)) return { awards: {}, awardNotes: {} };
  if (awardsAllowed(row.outcome) && Object.keys(row.awards).length > 0)
    return { awards: row.awards, awardNotes: row.awardNotes };
  return { awards: defaultAwards(outcome, row.requested), awardNotes: {} };
}

/**
 * POST /calls/{callId}/ranking/outcomes/ (`call.decide`): Approved above the line,
 * Waitlisted for the next `waitlist`, Declined below (`outcomesFromLine`), for the rows the
 * reader may decide. A preview unless `apply`, which saves every changed outcome in one
 * statement (each from the version it was read at: 409 `stale` and nothing saved when a
 * chair saved one meanwhile) and audits the counts once. `changed` is how many change
 * (would change, in a preview).
 */
export async function outcomesFromTheLine(
  work: Work,
  callId: number,
  input: OutcomesFromLineRequest,
): Promise<OutcomesFromLineAnswer> {
  const { tx, actor, now } = work;
  // Locked when applying: two applies, or an apply and a change of capacities, take turns.
  const call = input.apply ? await lockCall(tx, callId) : (await findCall(tx, callId))?.call;
  if (!call) throw notFound(callMessages.notFound);
  authorize(actor, 'call.decide', resourceOf(call), now);
  const worked = await workRanking(work, call);
  const proposed = outcomesFromLine(worked.ranking, input.waitlist).filter((p) =>
    worked.decidable.has(p.proposalId),
  );
  const changes = proposed.filter((p) => p.outcome !== p.current);
  const answer: OutcomesFromLineAnswer = {
    proposals: proposed,
    counts: countOutcomes(proposed.map((p) => p.outcome)),
    changed: changes.length,
  };
  if (!input.apply || changes.length === 0) return answer;

  const rowOf = new Map(worked.ranking.rows.map(({ row }) => [row.proposalId, row]));
  const writes = changes.map((change): DecisionWrite => {
    const row = rowOf.get(change.proposalId)!;
    return {
      proposalId: row.proposalId,
      outcome: change.outcome,
      ...awardsFor(row, change.outcome),
      version: row.version,
    };
  });
  const written = await writeDecisions(tx, writes, actor.id, now);
  if (written.length !== writes.length)
    throw stale(decisionMessages.rankStale, await rankingAnswer(work, call));
  await work.audit({
    action: 'call.outcomes_from_line',
    entityId: call.id,
    after: { waitlist: input.waitlist, counts: answer.counts, changed: changes.length },
  });
  return answer;
}
