import {
  exportTypeNotInCall,
  isReviewExportPart,
  parseSort,
  resourceSortMessages,
  type CallProposalExport,
  type CallProposalExportQuery,
  type CallProposalPage,
  type CallProposalsQuery,
  type DecisionSummarySave,
  type StaleDecision,
} from '@merit/contract';
import {
  callMessages,
  conflictMessages,
  decide,
  PROPOSAL_STATE,
  proposalListScope,
  proposalMessages,
  type TimeWindow,
} from '@merit/domain';
import { authorize } from '../../platform/http/authorize.js';
import { invalid, notFound, stale } from '../../platform/http/http-errors.js';
import { pageOf } from '../../platform/data/pages.js';
import { ImageTooLargeError, sanitizeRichText } from '../../platform/security/rich-text.js';
import type { ReadWork, Work } from '../../platform/data/work.js';
import { callResource, extensionsOfActor, findCall, type CallRow } from '../calls/calls.queries.js';
import { callChairColumns, chairColumnsOf } from './chair-columns.js';
import { presentCallProposal } from './proposals.presenter.js';
import { typeOfCall } from './proposals.queries.js';
import {
  resourceFormsOfCall,
  resourceTotalsOf,
  type ResourceForm,
  type ResourceSort,
} from './resource-totals.queries.js';
import {
  callProposalPage,
  callProposalRows,
  teamsAndWindows,
  type CallProposalRow,
  decisionSummaryOf,
  writeDecisionSummary,
} from './chair.queries.js';
import { loadFor } from './proposal-access.js';
import { exportDecisionsOf, exportRankingOf, outcomeLabelsOf } from './export-decisions.js';

/*
 * A call's proposals as the chair works with them: the list (which members and authors
 * see in part), the downloads' export, and the decision summary.
 */

/** The call, if the caller may see it (every signed-in user may), with their extensions. */
async function callToList(work: ReadWork, callId: number) {
  const found = await findCall(work.tx, callId);
  if (!found) throw notFound(callMessages.notFound);
  const { call } = found;
  const own = await extensionsOfActor(work.tx, work.actor.id, call.id);
  const resource = callResource(call, own);
  authorize(work.actor, 'call.view', resource, work.now);
  return { call, own, resource };
}

/**
 * GET /calls/{callId}/proposals/: one page of the proposals the caller sees. Chairs of
 * the call's committee (and admins), whom the list scope tells which proposals are
 * Reviewed, also get the chair's columns and the call's resource totals (issue 14).
 * Members get the rows only (the reviews they may see are a View Reviews away), and
 * authors their own rows only: neither gets those fields, not even empty. Filter by
 * Facility (`facility`, chairs only) lists only the proposals with an entry naming it;
 * the totals stay the call's, whose rows of that facility are those proposals' sums.
 */
export async function getCallProposals(
  work: ReadWork,
  callId: number,
  query: CallProposalsQuery,
): Promise<CallProposalPage> {
  const { call, own } = await callToList(work, callId);
  const chair = proposalListScope(work.actor, call, work.now).reviewed;
  const byResource = chair && parseSort(query.sort).key === 'resource';
  // Filter by Facility: only the proposals that ask something of the facility.
  const byFacility = chair && query.facility !== undefined;
  // A resource column is sorted by, and a facility filtered by, in SQL, which needs the
  // call's resource forms; their totals, read meanwhile, name the facilities the sort
  // must be one of.
  const resourceForms =
    byResource || byFacility ? await resourceFormsOfCall(work.tx, call.id) : undefined;
  const resourceSort =
    byResource && resourceForms ? resourceSortOf(resourceForms, query) : undefined;
  const facilityFilter =
    byFacility && resourceForms ? { forms: resourceForms, facility: query.facility! } : undefined;
  const [{ total, rows }, knownTotals] = await Promise.all([
    callProposalPage(
      work.tx,
      work.actor,
      call,
      { ...query, resourceSort, facilityFilter, conflictCounts: chair },
      work.now,
    ),
    resourceForms && resourceTotalsOf(work.tx, call.id, resourceForms),
  ]);
  if (resourceSort && !knownTotals?.facilities.includes(resourceSort.facility))
    throw refusedSort('sortFacility', resourceSortMessages.unknownFacility(resourceSort.facility));
  const [editable, chairs] = await Promise.all([
    editableOf(work, call, own, rows),
    chair ? chairColumnsOf(work, call, rows, { totals: knownTotals }) : undefined,
  ]);
  const items = rows.map((row) => ({
    ...presentCallProposal(row, editable.has(row.id)),
    ...chairs?.columns.get(row.id),
  }));
  return { ...pageOf(query, total, items), ...chairs?.totals };
}

/** A 400 for a resource sort the call does not have, its message on the parameter. */
const refusedSort = (parameter: 'sortFacility' | 'sortField', message: string) =>
  invalid({ [parameter]: [message] }, message);

/**
 * The chair's resource sort of a query (`sort=resource`, which the contract lets through
 * only with `sortFacility` and `sortField`): refused when no resource form of the call
 * has the data field. The facility is checked against the call's facilities later.
 */
function resourceSortOf(forms: readonly ResourceForm[], query: CallProposalsQuery): ResourceSort {
  const facility = query.sortFacility ?? '';
  const field = query.sortField ?? '';
  if (!forms.some((form) => form.options.data_fields.includes(field)))
    throw refusedSort('sortField', resourceSortMessages.unknownField(field));
  return { forms, facility, field };
}

/**
 * GET /calls/{callId}/proposals/export/: every proposal of the call a download holds
 * (not the drafts, spec section 9) with the chair's columns, as the list's pages give
 * them but for the conflicts' counts (`conflicts`, the list's badges, which no download
 * writes), in the list's default order, and the call's resource totals: the downloads' rows
 * in one read. Each review's scores and comments
 * only when `query.include` names them, so each download is sent only what it writes. Only for the call's chairs (and
 * admins), whom `call.manage` names; a fixed number of queries, each choosing its rows
 * by the call's id, whatever the call holds. With `query.type`, by the call's id and that
 * type: the rows, reviews, comments, totals and facilities of its proposals only (a
 * download of one type is sent none of the others'); refused (400) when the call has no
 * such type. With `query.columns` `lean`, of the chair's columns only `isReviewed`, and
 * no totals: the reviewers, scores and resources are not read (the Comments download).
 * A proposal the caller has a conflict of interest with keeps its row and resources, but
 * nothing of its reviews, scores or decision: its row says `myConflict`, and `omitted`
 * names it with the note the downloads write. The decision meeting's parts (`decisions`,
 * `ranking`) are `call.decide`'s, each row's outcome `proposal.viewOutcome`'s
 * (export-decisions.ts).
 */
export async function getCallProposalExport(
  work: ReadWork,
  callId: number,
  query: CallProposalExportQuery,
): Promise<CallProposalExport> {
  const { call, resource } = await callToList(work, callId);
  authorize(work.actor, 'call.manage', resource, work.now);
  const typeId = query.type;
  if (typeId !== undefined && !(await typeOfCall(work.tx, call.id, typeId)))
    throw invalid({ type: [exportTypeNotInCall] }, exportTypeNotInCall);
  // The decision meeting's parts are its chairs' (`call.decide`), as its pages are.
  const withDecisions = query.include.includes('decisions');
  const withRanking = query.include.includes('ranking');
  if (withDecisions || withRanking) authorize(work.actor, 'call.decide', resource, work.now);
  // Every read chooses its rows by the call's id (and type), so none waits for another.
  const [rows, chairColumnsOfRows, decisionsOfRows, ranking] = await Promise.all([
    // The rows as the pages give them, but for the conflicts' counts: no download writes
    // them, and counting every suggestion of a 30,000-proposal call took 12 s.
    callProposalRows(work.tx, work.actor, call, work.now, typeId),
    callChairColumns(work, call, query.include.filter(isReviewExportPart), typeId, query.columns),
    withDecisions ? exportDecisionsOf(work, call, typeId) : undefined,
    withRanking ? exportRankingOf(work, call, typeId) : undefined,
  ]);
  const chairs = chairColumnsOfRows(rows);
  const decisions = decisionsOfRows?.(rows);
  // Only a draft may be edited (`proposal.lock`), and the export holds none.
  const items = rows.map((row) => ({
    ...presentCallProposal(row, false),
    ...chairs.columns.get(row.id),
    ...(decisions?.has(row.id) ? { decision: decisions.get(row.id) } : {}),
  }));
  const omitted = rows
    .filter((row) => row.conflicted)
    .map((row) => ({ proposalId: row.id, reason: conflictMessages.exportOmitted }));
  return {
    items,
    total: items.length,
    ...chairs.totals,
    ...(omitted.length > 0 ? { omitted } : {}),
    ...(withDecisions ? { outcomeLabels: outcomeLabelsOf(call) } : {}),
    ...(ranking ? { ranking } : {}),
  };
}

/**
 * The rows the caller may edit (but for a lock someone may hold at the moment), by the
 * domain's `proposal.lock` rule: two queries for the whole page, not one per row.
 */
async function editableOf(
  work: ReadWork,
  call: CallRow,
  actorExtensions: readonly TimeWindow[],
  rows: readonly CallProposalRow[],
): Promise<Set<number>> {
  const drafts = rows.filter((row) => row.stateVal === PROPOSAL_STATE.draft);
  if (drafts.length === 0) return new Set();
  const { collaborators, windows } = await teamsAndWindows(
    work.tx,
    call.id,
    drafts.map((row) => row.id),
    drafts.map((row) => row.authorId),
  );
  const editable = drafts.filter(
    (row) =>
      decide(
        'proposal.lock',
        work.actor,
        {
          call,
          authorId: row.authorId,
          collaboratorIds: collaborators.get(row.id) ?? [],
          stateVal: row.stateVal,
          authorExtensions: windows.get(row.authorId) ?? [],
          actorExtensions,
          lock: null,
          // The lock rule reads nothing of reviews.
          hasReviews: false,
          reviewerIds: [],
          actorHasReview: false,
          // Nor of conflicts: only its team may edit, and they are never gated.
          actorConflict: null,
          actorDeclared: false,
        },
        work.now,
      ) === true,
  );
  return new Set(editable.map((row) => row.id));
}

// --- Decisions -----------------------------------------------------------------------------

/** The 409 `stale` of a decision summary save, with the summary as saved now. */
async function staleDecision(work: Work, proposalId: number) {
  const saved = (await decisionSummaryOf(work.tx, proposalId))!;
  const current: StaleDecision = { ...saved, savedAt: saved.savedAt?.toISOString() ?? null };
  return stale(proposalMessages.decisionStale(saved.savedBy, saved.savedAt), current);
}

/**
 * POST /update_decision_summary/: a chair of the call's committee writes the proposal's
 * decision summary, any time (ARCHITECTURE.md "Rich text": sanitised with the allow-list
 * of call descriptions before it is stored, images at most 512 KiB), from the version they
 * read: when another chair has saved since, 409 `stale` with what they saved, nothing
 * written. Authors read it once the call is closed; lastModified stays, so they cannot
 * tell one is being written.
 */
export async function saveDecisionSummary(work: Work, input: DecisionSummarySave): Promise<void> {
  const { proposal } = await loadFor(work, 'proposal.editDecision', input.proposalId, true);
  let summary: string;
  try {
    summary = sanitizeRichText(input.summary);
  } catch (error) {
    if (!(error instanceof ImageTooLargeError)) throw error;
    throw invalid({ summary: [callMessages.imageTooLarge] });
  }
  // The text saved already, whatever version it started from (a retry whose answer was
  // lost): nothing to write, and nothing of the chair's is lost.
  if (summary === proposal.decisionSummary) return;
  const change = { summary, version: input.version, by: work.actor.id, at: work.now };
  if ((await writeDecisionSummary(work.tx, proposal.id, change)) === undefined)
    throw await staleDecision(work, proposal.id);
  await work.audit({
    action: 'proposal.update_decision',
    entityId: proposal.id,
    before: { decisionSummary: proposal.decisionSummary },
    after: { decisionSummary: summary },
  });
}
