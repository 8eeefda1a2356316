import type { CallProposal, CallProposalPage } from '@merit/contract';
import {
  facilityLabel,
  formatScore,
  resourceFieldTitle,
  RESULT_SCORE,
  type ResourceValues,
} from '@merit/domain';
import type { ResourceColumn } from './resource-sort';

export {
  resourceColumnOfKey,
  resourceKey,
  resourceSortQuery,
  type ResourceColumn,
} from './resource-sort';

/**
 * Its header as the list and the files show it: "Facility: Field title", the data field
 * by the title its form gives it (`titles`, the page's or export's `resourceTitles`), by
 * its key when the form gives none.
 */
export const resourceHeader = (
  { facility, field }: ResourceColumn,
  titles: Readonly<Record<string, string>> = {},
) => `${facilityLabel(facility)}: ${resourceFieldTitle(titles, field)}`;

/**
 * The resource columns of some values, facility by facility in `facilities`' order (the
 * server's: the unnamed facility first, then by name), each facility's fields in the order
 * they first appear. A facility no value names has no columns.
 */
export function resourceColumnsOf(
  facilities: readonly string[],
  values: readonly (ResourceValues | undefined)[],
): ResourceColumn[] {
  const fields = new Map<string, Set<string>>();
  for (const value of values) {
    for (const [facility, amounts] of Object.entries(value ?? {})) {
      const known = fields.get(facility) ?? new Set<string>();
      for (const field of Object.keys(amounts)) known.add(field);
      fields.set(facility, known);
    }
  }
  // A facility the list did not name (it cannot happen, but a column is never lost).
  const order = [...facilities, ...[...fields.keys()].filter((f) => !facilities.includes(f))];
  return order.flatMap((facility) =>
    [...(fields.get(facility) ?? [])].map((field) => ({ facility, field })),
  );
}

/** The resource columns of a chair's page: its totals' fields and its rows'. */
export function pageResourceColumns(page: CallProposalPage): ResourceColumn[] {
  return resourceColumnsOf(page.facilities ?? [], [
    page.resourceTotals,
    ...page.items.map((row) => row.resourceValues),
  ]);
}

/** The amount in one resource column; undefined shows N/A. */
export const resourceAmount = (values: ResourceValues | undefined, column: ResourceColumn) =>
  values?.[column.facility]?.[column.field];

/** An amount as the list shows it: the number as people write it, N/A when missing. */
export function formatAmount(value: number | undefined): string {
  return value === undefined ? 'N/A' : amountFormat.format(value);
}
const amountFormat = new Intl.NumberFormat(undefined, { maximumFractionDigits: 2 });

/** The score fields of some rows (not `result`), in the order the reviews give them. */
export function scoreFieldsOfRows(rows: readonly Pick<CallProposal, 'reviewScores'>[]): string[] {
  const names = new Set<string>();
  for (const row of rows)
    for (const score of row.reviewScores ?? [])
      if (score.name !== RESULT_SCORE) names.add(score.name);
  return [...names];
}

/**
 * Average Field Scores, compact: each score field's mean over the proposal's reviews,
 * "Significance 3.00 · Feasibility 3.50"; N/A when it has no reviews yet.
 */
export function averageFieldScores(
  row: Pick<CallProposal, 'reviewScores'>,
  labels: ReadonlyMap<string, string> = new Map(),
): string {
  const fields = (row.reviewScores ?? []).filter((score) => score.name !== RESULT_SCORE);
  if (fields.length === 0) return 'N/A';
  return fields
    .map((score) => `${labels.get(score.name) ?? score.name} ${formatScore(score.value)}`)
    .join(' · ');
}

/** Filter by Facility: the columns of `facility` only, or every column when it is null. */
export function onlyFacility<T extends { facility: string }>(
  columns: readonly T[],
  facility: string | null,
): T[] {
  return facility === null ? [...columns] : columns.filter((c) => c.facility === facility);
}
