/**
 * One measured figure of issue 31, printed beside the baseline measured in the same run,
 * so that the noise of a shared machine falls on both, and held to its budget: whether
 * it is met is worked out here from the numbers, never written by a figure.
 */

/** A condition besides the value, on a number the run measured: at most `atMost`. */
export interface Check {
  /** As the budget column prints it: "0 errors", "loads within 1 of the mean". */
  text: string;
  /** What the run measured: errors, lost saves, the widest distance of a load from the mean. */
  value: number;
  atMost: number;
}

/** What the value must be (every part given), as issue 31's table "The budgets" says. */
export interface Budget {
  /** Under this, in the figure's unit. */
  below?: number;
  /** At least this, in the figure's unit. */
  atLeast?: number;
  /** At most this many times the baseline's value ((a): the list at most 1.5x its SQL). */
  timesBaseline?: number;
  checks?: readonly Check[];
  /** Where the budget comes from when not issue 31's table, e.g. "issue 27". */
  source?: string;
}

export interface FigureResult {
  /** The issue's letter: 'a' to 'j'. */
  figure: string;
  name: string;
  value: number;
  unit: string;
  /** Absent on a row printed beside a figure's budgeted rows and held to none (a p95). */
  budget?: Budget;
  baseline: { name: string; value: number };
  /** value / baseline.value unless given (where a baseline can be 0, a floor under it). */
  ratio?: number;
}

export interface FigureOptions {
  /** The generator's manifest (bench/lib/manifest.ts). */
  manifestPath: string;
  /** Shorter runs, for trying things out: numbers not for the record. */
  quick: boolean;
  log: (line: string) => void;
  /** Open editors polling the lock in (c)'s spike (`--editors`; default 2,000). */
  editors?: number;
  /** (j)'s baseline: `npm test`'s wall time today, in seconds (`--test-baseline-seconds`). */
  testBaselineSeconds?: number;
}

/** What every bench/figures/<name>.ts exports. */
export type Figure = (options: FigureOptions) => Promise<FigureResult[]>;

export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  // Nearest rank: the smallest value with at least p% of the values at or below it.
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1]!;
}

export const median = (values: readonly number[]) => percentile(values, 50);

const format = (value: number, unit: string) =>
  `${Number.isInteger(value) || Math.abs(value) >= 100 ? Math.round(value) : value.toFixed(1)} ${unit}`;

const ratioText = (ratio: number) =>
  !Number.isFinite(ratio)
    ? 'n/a'
    : ratio >= 0.1
      ? `${ratio.toFixed(2)}x`
      : `${ratio.toPrecision(2)}x`;

export function ratioOf(result: FigureResult): number {
  return result.ratio ?? result.value / result.baseline.value;
}

/** The budget in words, as the table prints it: "< 100 ms, <= 1.5x baseline, 0 errors". */
export function budgetText(result: FigureResult): string {
  const { budget } = result;
  if (!budget) return 'none';
  const parts = [
    ...(budget.below === undefined ? [] : [`< ${format(budget.below, result.unit)}`]),
    ...(budget.atLeast === undefined ? [] : [`>= ${format(budget.atLeast, result.unit)}`]),
    ...(budget.timesBaseline === undefined ? [] : [`<= ${budget.timesBaseline}x baseline`]),
    ...(budget.checks ?? []).map((check) => check.text),
  ];
  return parts.join(', ') + (budget.source ? ` (${budget.source})` : '');
}

/**
 * Whether the row meets its budget, and each part it misses in words; `met` undefined
 * for a row held to none. A value that is not a number (nothing measured) misses.
 */
export function verdict(result: FigureResult): { met: boolean | undefined; misses: string[] } {
  const { budget, value } = result;
  if (!budget) return { met: undefined, misses: [] };
  const misses: string[] = [];
  if (!Number.isFinite(value)) misses.push('nothing measured');
  if (budget.below !== undefined && !(value < budget.below))
    misses.push(`not under ${format(budget.below, result.unit)}`);
  if (budget.atLeast !== undefined && !(value >= budget.atLeast))
    misses.push(`under ${format(budget.atLeast, result.unit)}`);
  const ratio = ratioOf(result);
  if (budget.timesBaseline !== undefined && !(ratio <= budget.timesBaseline))
    misses.push(`${ratioText(ratio)} baseline`);
  for (const check of budget.checks ?? [])
    if (!(check.value <= check.atMost)) misses.push(`${check.text}: ${check.value}`);
  return { met: misses.length === 0, misses };
}

/** The results as one Markdown table, ready for bench/README.md. */
export function resultTable(results: readonly FigureResult[]): string {
  const lines = [
    '| figure | measured | budget | baseline | ratio | met |',
    '| --- | --- | --- | --- | --- | --- |',
  ];
  for (const r of results) {
    const { met, misses } = verdict(r);
    const metText =
      met === undefined
        ? '—'
        : met
          ? 'yes'
          : `**no**${misses.length ? ` (${misses.join('; ')})` : ''}`;
    lines.push(
      `| (${r.figure}) ${r.name} | ${format(r.value, r.unit)} | ${budgetText(r)} | ` +
        `${r.baseline.name}: ${format(r.baseline.value, r.unit)} | ` +
        `${ratioText(ratioOf(r))} | ${metText} |`,
    );
  }
  return lines.join('\n');
}

/** How many rows held to a budget met it, of how many: "12 of 14 budgets met". */
export function metSummary(results: readonly FigureResult[]): string {
  const held = results.map((r) => verdict(r).met).filter((met) => met !== undefined);
  return `${held.filter(Boolean).length} of ${held.length} budgets met`;
}
