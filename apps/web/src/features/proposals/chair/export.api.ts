import type {
  CallProposalExport,
  CallProposalExportColumns,
  CallProposalExportPart,
} from '@merit/contract';
import { OUTCOMES } from '@merit/domain';
import { apiRequestWithGuard } from '../../../api/client';

/**
 * What a download asks the export for: its parts beyond the rows, which of the chair's
 * columns, and its proposal type.
 */
export interface ExportRequest {
  /** Each review's scores or comments, when the file writes them. */
  include?: readonly CallProposalExportPart[];
  /** `lean` when the file writes none of the chair's columns but `isReviewed`. */
  columns?: CallProposalExportColumns;
  /** One proposal type's proposals only; the whole call without it. */
  type?: number;
}

/** The export's address for a request: `include`, `columns` and `type` only when not the default. */
export function exportPath(
  callId: number,
  { include = [], columns = 'chair', type }: ExportRequest = {},
): string {
  const query = [
    ...(include.length > 0 ? [`include=${include.join(',')}`] : []),
    ...(columns === 'chair' ? [] : [`columns=${columns}`]),
    ...(type === undefined ? [] : [`type=${type}`]),
  ];
  return `/calls/${callId}/proposals/export/${query.length > 0 ? `?${query.join('&')}` : ''}`;
}

/**
 * The proposals the chair sees, with the chair's columns, resource totals and
 * facilities, for the downloads: one request (GET /calls/{callId}/proposals/export/), in
 * the list's default order (by name). Each review's scores and comments come only when
 * `include` names them: the comments are most of a large call's bytes, and only the
 * downloads that write them ask for them; likewise each row's decision (`decisions`) and
 * the call's ranking (`ranking`, the whole-call workbook only). A download of one proposal type asks for that
 * `type` only (a 10,000-proposal call's Comments were 21 MB with both types' reviews);
 * the whole-call workbook asks for the whole call. A download that writes none of the
 * chair's columns but `isReviewed` (Comments) asks for `lean` rows: without reviewers,
 * scores and resources, and with `resourceTotals` `{}` and `facilities` `[]`.
 *
 * The body is checked by `isCallProposalExport`, not by the contract's zod schema: on a
 * 10,000-proposal call zod took 0.3-0.5 s of the download (more than making the CSV), to
 * copy a body that has no transforms and that the server writes with the contract's
 * properties only.
 */
export function fetchProposalExport(
  callId: number,
  request: ExportRequest = {},
  signal?: AbortSignal,
): Promise<CallProposalExport> {
  return apiRequestWithGuard(exportPath(callId, request), {
    guard: isCallProposalExport,
    signal,
  });
}

type Value = Record<string, unknown>;
const isObject = (value: unknown): value is Value =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isNumberOrNull = (value: unknown) => value === null || typeof value === 'number';
/** Absent, or an array each of whose items `item` accepts. */
const optionalArray = (value: unknown, item: (value: unknown) => boolean) =>
  value === undefined || (Array.isArray(value) && value.every(item));
const isNamed = (value: unknown) => isObject(value) && typeof value.name === 'string';
const isScore = (value: unknown) =>
  isObject(value) && typeof value.name === 'string' && isNumberOrNull(value.value);
const isComment = (value: unknown) =>
  isObject(value) && typeof value.name === 'string' && typeof value.value === 'string';
const isReviewScores = (value: unknown) =>
  isObject(value) &&
  isNamed(value.reviewer) &&
  Array.isArray(value.scores) &&
  value.scores.every(isScore) &&
  isNumberOrNull(value.score);
const isReviewComments = (value: unknown) =>
  isObject(value) &&
  isNamed(value.reviewer) &&
  Array.isArray(value.comments) &&
  value.comments.every(isComment);
/** Per facility, per field, a number. */
const isResources = (value: unknown) =>
  isObject(value) &&
  Object.values(value).every(
    (fields) => isObject(fields) && Object.values(fields).every((n) => typeof n === 'number'),
  );

/** A row's decision (`include=decisions`): an outcome the domain knows, if set, and its awards. */
const isDecision = (value: unknown) =>
  isObject(value) &&
  (value.outcome === undefined ||
    (typeof value.outcome === 'string' &&
      (OUTCOMES as readonly string[]).includes(value.outcome))) &&
  isResources(value.awards);
const isFlags = (value: unknown) =>
  isObject(value) && Object.values(value).every((flag) => typeof flag === 'boolean');
const isRankingRow = (value: unknown) =>
  isObject(value) &&
  typeof value.rank === 'number' &&
  typeof value.proposalId === 'number' &&
  isNumberOrNull(value.score) &&
  isResources(value.requested) &&
  isResources(value.running) &&
  isFlags(value.aboveLine) &&
  typeof value.above === 'boolean';
const isRankingLine = (value: unknown) =>
  isObject(value) &&
  typeof value.facility === 'string' &&
  typeof value.field === 'string' &&
  isNumberOrNull(value.capacity) &&
  typeof value.requested === 'number' &&
  typeof value.awarded === 'number' &&
  isNumberOrNull(value.oversubscription) &&
  isNumberOrNull(value.awardedShare);
/** The call's ranking (`include=ranking`): its rows and its lines. */
const isRanking = (value: unknown) =>
  isObject(value) &&
  Array.isArray(value.rows) &&
  value.rows.every(isRankingRow) &&
  Array.isArray(value.lines) &&
  value.lines.every(isRankingLine);

/** Every field of a row the downloads write, of the type the contract gives it. */
function isExportRow(value: unknown): boolean {
  if (!isObject(value)) return false;
  const row = value;
  return (
    typeof row.id === 'number' &&
    typeof row.proposalName === 'string' &&
    typeof row.proposalTypeId === 'number' &&
    typeof row.author === 'string' &&
    typeof row.state === 'string' &&
    typeof row.stateVal === 'number' &&
    (row.isReviewed === undefined || typeof row.isReviewed === 'boolean') &&
    (row.score === undefined || isNumberOrNull(row.score)) &&
    (row.resourceValues === undefined || isResources(row.resourceValues)) &&
    optionalArray(row.reviewers, isNamed) &&
    optionalArray(row.reviewScores, isScore) &&
    optionalArray(row.allReviewScores, isReviewScores) &&
    optionalArray(row.allReviewComments, isReviewComments) &&
    (row.decision === undefined || isDecision(row.decision))
  );
}

/**
 * The export's body as the downloads read it: its rows (with their decisions), the call's
 * totals and facilities, its words for the outcomes and its ranking.
 */
export function isCallProposalExport(payload: unknown): payload is CallProposalExport {
  return (
    isObject(payload) &&
    Array.isArray(payload.items) &&
    payload.items.every(isExportRow) &&
    typeof payload.total === 'number' &&
    isResources(payload.resourceTotals) &&
    Array.isArray(payload.facilities) &&
    payload.facilities.every((facility) => typeof facility === 'string') &&
    (payload.outcomeLabels === undefined ||
      (isObject(payload.outcomeLabels) &&
        Object.values(payload.outcomeLabels).every((label) => typeof label === 'string'))) &&
    (payload.ranking === undefined || isRanking(payload.ranking))
  );
}
