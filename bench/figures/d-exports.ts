/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// page.evaluate() callbacks run in the browser.
/**
 * (d) Every chair download of the generated call, made in the browser (Chromium).
 *
 * On the call's proposal list, signed in as the chair: every item of the first proposal
 * type's Download CSV Files menu (Score Summary, Comments, Resources and All, each as CSV
 * and as XLSX), and the Whole-Call Workbook (XLSX). Each is timed from the click on the
 * menu item (or the button) to the browser's download event, the file handed to the
 * browser; median of 3 runs (1 with --quick), after one untimed run that loads the code
 * of the XLSX writer. Budget (issue 31): under 2 s each, Comments under 1.5 s.
 *
 * Baseline, in the same page: what every export must do before it writes a line, fetch
 * the call's list (GET /calls/{id}/proposals/export/, the chair's whole call in one
 * answer, without the reviews' scores and comments that only some exports ask for) and
 * parse its JSON; the parse alone is printed beside it, and so is fetching everything
 * (`?include=allReviewScores,allReviewComments`, the one body every export fetched before).
 *
 *   npx tsx bench/figures/d-exports.ts [--quick] [--size N] [--manifest path]
 */
import type { Locator, Page } from 'playwright-core';
import { runAlone, startBenchServer } from '../lib/bench-server.js';
import { launchBrowser, signedInPage } from '../lib/browser.js';
import { readManifest } from '../lib/manifest.js';
import { median, type FigureOptions, type FigureResult } from '../lib/result.js';

interface Export {
  name: string;
  format: 'csv' | 'xlsx';
  /** What starts the export, found after opening the menu it is in (not timed). */
  control: (page: Page) => Promise<Locator>;
}

const menuItem = (label: string) => async (page: Page) => {
  await page
    .getByRole('button', { name: /^Download CSV Files/ })
    .first()
    .click();
  const item = page.getByRole('menuitem', { name: label, exact: true });
  await item.waitFor({ state: 'visible' });
  return item;
};

/** The Download CSV Files menu's items (ChairExports.tsx), then the workbook's button. */
const EXPORTS: Export[] = [
  ...(['csv', 'xlsx'] as const).flatMap((format) =>
    ['Score Summary', 'Comments', 'Resources', 'All'].map((label) => {
      const name = `${label} (${format.toUpperCase()})`;
      return { name, format, control: menuItem(name) };
    }),
  ),
  {
    name: 'Whole-Call Workbook (XLSX)',
    format: 'xlsx',
    control: async (page) => page.getByRole('button', { name: 'Whole-Call Workbook (XLSX)' }),
  },
];

/** Under 2 s each; the Comments, a plain list of the reviews' words, under 1.5 s. */
const budgetMs = (name: string) => (name.startsWith('Comments') ? 1_500 : 2_000);

/** The export's query for everything it can send (every export fetched this before). */
const EVERYTHING = '?include=allReviewScores,allReviewComments';

/** From the click to the download event, in ms. */
async function timed(page: Page, exported: Export): Promise<number> {
  const control = await exported.control(page);
  const download = page.waitForEvent('download', { timeout: 120_000 });
  const clickedAt = performance.now();
  await control.click();
  await download;
  const ms = performance.now() - clickedAt;
  // The buttons come back when the page has finished with the file.
  await page
    .locator('button:not([disabled])', { hasText: 'Whole-Call Workbook (XLSX)' })
    .waitFor({ state: 'visible' });
  return ms;
}

/** Fetches the chair's export JSON in the page and parses it: [fetch and parse, parse]. */
function fetchAndParse(page: Page, url: string, token: string): Promise<[number, number]> {
  return page.evaluate(
    async ([address, key]) => {
      const started = performance.now();
      const response = await fetch(address, { headers: { Authorization: `Token ${key}` } });
      const text = await response.text();
      if (!response.ok) throw new Error(`${address}: ${response.status} ${text.slice(0, 200)}`);
      const parseStarted = performance.now();
      const body = JSON.parse(text) as { items: unknown[] };
      const ended = performance.now();
      if (!Array.isArray(body.items)) throw new Error(`${address}: no items`);
      return [ended - started, ended - parseStarted] as [number, number];
    },
    [url, token] as const,
  );
}

export async function run(options: FigureOptions): Promise<FigureResult[]> {
  options.log('\n(d) the chair’s exports in Chromium');
  const manifest = await readManifest(options.manifestPath);
  const runs = options.quick ? 1 : 3;
  const server = await startBenchServer(manifest);
  const browser = await launchBrowser();
  try {
    const page = await signedInPage(browser, manifest.chair.token);
    await page.goto(`${server.url}/calls/${manifest.callId}/proposals`);
    await page.getByRole('heading', { name: 'Downloads' }).waitFor({ timeout: 60_000 });

    const times = new Map<string, number[]>(EXPORTS.map((e) => [e.name, []]));
    const baseline: number[] = [];
    const parseOnly: number[] = [];
    const everything: number[] = [];
    const exportUrl = `${server.url}/api/v1/calls/${manifest.callId}/proposals/export/`;
    for (let round = 0; round <= runs; round++) {
      const [both, parse] = await fetchAndParse(page, exportUrl, manifest.chair.token);
      const [all] = await fetchAndParse(page, `${exportUrl}${EVERYTHING}`, manifest.chair.token);
      for (const exported of EXPORTS) {
        const ms = await timed(page, exported);
        // Round 0 loads the XLSX writer's code and warms the server: not counted.
        if (round > 0) times.get(exported.name)!.push(ms);
      }
      if (round > 0) {
        baseline.push(both);
        parseOnly.push(parse);
        everything.push(all);
      }
      options.log(
        `  round ${round}${round === 0 ? ' (warm-up)' : ''}: ` +
          EXPORTS.map((e) => `${e.name} ${Math.round(times.get(e.name)!.at(-1) ?? NaN)} ms`).join(
            ', ',
          ) +
          `; fetch + parse ${Math.round(both)} ms (parse ${Math.round(parse)} ms)` +
          `; with every review's scores and comments ${Math.round(all)} ms`,
      );
    }
    await page.context().close();

    const base = median(baseline);
    options.log(`  parse alone, median: ${Math.round(median(parseOnly))} ms`);
    options.log(
      `  fetch + parse with every review's scores and comments, median: ${Math.round(median(everything))} ms`,
    );
    return EXPORTS.map((exported) => ({
      figure: 'd',
      name: `${exported.name}, click to file, median of ${runs}`,
      value: median(times.get(exported.name)!),
      unit: 'ms',
      budget: { below: budgetMs(exported.name) },
      baseline: { name: 'fetch + parse the list JSON', value: base },
    }));
  } finally {
    await browser.close();
    await server.stop();
  }
}

await runAlone(run, import.meta.url);
