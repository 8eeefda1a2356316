/**
 * (f) Cold start on the embedded database: wall time from spawning the compiled server
 * (NODE_ENV=production) on an empty DATA_DIR to its first `GET /api/v1/health` 200: the
 * PGlite database made, migrated and given its first admin (INITIAL_ADMIN_*). Median of
 * 7 runs (3 with --quick). Baseline: `node -e ''`, spawn to exit, in the same runs.
 * Budget (issue 31): under 1 s.
 *
 *   npx tsx bench/figures/f-cold-start.ts [--quick]
 *
 * It needs no generated data: each server starts on an empty database of its own.
 */
import { spawnSync } from 'node:child_process';
import { startServer } from '../../scripts/lib/server.mjs';
import { runAlone } from '../lib/bench-server.js';
import { median, type FigureOptions, type FigureResult } from '../lib/result.js';

/** The first admin a fresh DATA_DIR is given, as an installation's first start makes it. */
export const FRESH_SERVER_ENV = {
  NODE_ENV: 'production',
  LOG_LEVEL: 'warn',
  INITIAL_ADMIN_USERNAME: 'bench-admin',
  INITIAL_ADMIN_EMAIL: 'bench-admin@example.test',
  INITIAL_ADMIN_PASSWORD: 'Bench-Admin-Passw0rd!',
};

function nodeStartMs(): number {
  const started = performance.now();
  const result = spawnSync(process.execPath, ['-e', ''], { stdio: 'ignore' });
  if (result.status !== 0) throw new Error(`node -e '' failed (${result.status})`);
  return performance.now() - started;
}

export async function run(options: FigureOptions): Promise<FigureResult[]> {
  const runs = options.quick ? 3 : 7;
  options.log(`\n## (f) Cold start on the embedded database, ${runs} runs\n`);
  const cold: number[] = [];
  const node: number[] = [];
  for (let run = 0; run < runs; run++) {
    node.push(nodeStartMs());
    // No dataDir: startServer makes an empty one and removes it when the server stops.
    const server = await startServer({ env: FRESH_SERVER_ENV });
    cold.push(server.startupMs);
    await server.stop();
    options.log(
      `cold start ${run + 1}: ${Math.round(cold.at(-1)!)} ms (node -e '': ${Math.round(node.at(-1)!)} ms)`,
    );
  }
  return [
    {
      figure: 'f',
      name: `cold start on PGlite, spawn to first health 200, median of ${runs}`,
      value: median(cold),
      unit: 'ms',
      budget: { below: 1_000 },
      baseline: { name: "node -e ''", value: median(node) },
    },
  ];
}

await runAlone(run, import.meta.url, { data: false, build: ['server'] });
