/**
 * One measured figure of issue 15, printed beside the baseline measured in the same run,
 * so that the noise of a shared machine falls on both.
 */
export interface FigureResult {
  /** The letter: 'a' to 'g'. */
  figure: string;
  name: string;
  value: number;
  unit: string;
  /** The goal in words, as the table prints it, e.g. "< 200 ms". */
  goal: string;
  baseline: { name: string; value: number };
  /** value / baseline.value. */
  ratio: number;
  met: boolean;
}

export interface FigureOptions {
  /** The generator's manifest (bench/lib/manifest.ts). */
  manifestPath: string;
  /** Shorter runs, for trying things out: numbers not for the record. */
  quick: boolean;
  log: (line: string) => void;
  /** Open editors polling the lock in (c)'s spike (`--editors`; default 2,000). */
  editors?: number;
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

/** The results as one Markdown table, ready for bench/README.md. */
export function resultTable(results: readonly FigureResult[]): string {
  const lines = [
    '| figure | measured | goal | baseline | ratio | met |',
    '| --- | --- | --- | --- | --- | --- |',
  ];
  for (const r of results) {
    lines.push(
      `| (${r.figure}) ${r.name} | ${format(r.value, r.unit)} | ${r.goal} | ` +
        `${r.baseline.name}: ${format(r.baseline.value, r.unit)} | ` +
        `${ratioText(r.ratio)} | ${r.goal.startsWith('none') ? '—' : r.met ? 'yes' : '**no**'} |`,
    );
  }
  return lines.join('\n');
}
