/**
 * (b) One proposal with its reviews, as a chair reads it: `GET /api/v1/proposals/{id}/`
 * for the proposal with the most reviews, by autocannon at concurrency 20 for 20 s (5 s
 * with --quick) against the compiled server in production mode. Budget (issue 31): at
 * least 1,500 requests a second, p99 under 50 ms, no errors.
 *
 * Baseline, in the same run: a bare Fastify route answering the same bytes
 * (bench/lib/bare-server.mjs), in its own process on 127.0.0.1, loaded the same way.
 *
 *   npx tsx bench/figures/b-proposal.ts [--quick] [--size N] [--manifest path]
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { findFreePort } from '../../scripts/lib/server.mjs';
import { databaseName, runAlone, startBenchServer } from '../lib/bench-server.js';
import { BENCH_DIR, readManifest } from '../lib/manifest.js';
import type { FigureOptions, FigureResult } from '../lib/result.js';

const CONNECTIONS = 20;

interface Load {
  requestsPerSecond: number;
  p99: number;
  errors: number;
}

async function load(url: string, token: string | null, seconds: number): Promise<Load> {
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: seconds,
    headers: token ? { authorization: `Token ${token}` } : {},
  });
  return {
    requestsPerSecond: result.requests.average,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
  };
}

/** The bare Fastify baseline in its own process, answering `body`, until `stop`. */
async function startBare(body: string) {
  const dir = await mkdtemp(join(tmpdir(), 'merit-bench-bare-'));
  const bodyFile = join(dir, 'body.json');
  await writeFile(bodyFile, body);
  const port = await findFreePort();
  const child = spawn(
    process.execPath,
    [join(BENCH_DIR, 'lib', 'bare-server.mjs'), String(port), bodyFile],
    {
      stdio: 'inherit',
    },
  );
  const url = `http://127.0.0.1:${port}`;
  for (let tries = 0; ; tries++) {
    try {
      if ((await fetch(`${url}/api/v1/health`)).ok) break;
    } catch {
      if (tries > 200) throw new Error('The bare Fastify server did not start.');
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url,
    stop: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export async function run(options: FigureOptions): Promise<FigureResult[]> {
  const manifest = await readManifest(options.manifestPath);
  const seconds = options.quick ? 5 : 20;
  const db = databaseName(manifest);
  const path = `/api/v1/proposals/${manifest.proposalWithReviewsId}/`;
  options.log(`\n## (b) ${path} as a chair, ${CONNECTIONS} connections, ${seconds} s, ${db}\n`);

  const server = await startBenchServer(manifest);
  let merit: Load;
  let body: string;
  try {
    const first = await fetch(`${server.url}${path}`, {
      headers: { authorization: `Token ${manifest.chair.token}` },
    });
    body = await first.text();
    if (first.status !== 200)
      throw new Error(`The proposal answered ${first.status}: ${body.slice(0, 300)}`);
    const answer = JSON.parse(body) as { reviewers?: unknown[]; reviewScores?: unknown[] };
    if (!answer.reviewers?.length || !answer.reviewScores)
      throw new Error('The proposal read came without its reviewers and review scores.');
    options.log(`answer: ${body.length} bytes, ${answer.reviewers.length} reviewers`);
    merit = await load(`${server.url}${path}`, manifest.chair.token, seconds);
  } finally {
    await server.stop();
  }
  const bare = await startBare(body);
  let baseline: Load;
  try {
    baseline = await load(`${bare.url}${path}`, null, seconds);
  } finally {
    await bare.stop();
  }
  options.log(
    `Merit: ${merit.requestsPerSecond.toFixed(0)} req/s, p99 ${merit.p99} ms, ${merit.errors} errors; ` +
      `bare Fastify: ${baseline.requestsPerSecond.toFixed(0)} req/s, p99 ${baseline.p99} ms`,
  );
  const name = `one proposal with reviews, c=${CONNECTIONS}, ${db}`;
  return [
    {
      figure: 'b',
      name: `${name}, throughput`,
      value: merit.requestsPerSecond,
      unit: 'req/s',
      budget: { atLeast: 1_500, checks: [{ text: '0 errors', value: merit.errors, atMost: 0 }] },
      baseline: { name: 'bare Fastify route', value: baseline.requestsPerSecond },
    },
    {
      figure: 'b',
      name: `${name}, p99`,
      value: merit.p99,
      unit: 'ms',
      budget: { below: 50 },
      baseline: { name: 'bare Fastify route', value: baseline.p99 },
      // autocannon counts whole milliseconds: a bare route's p99 can be 0.
      ratio: merit.p99 / Math.max(baseline.p99, 1),
    },
  ];
}

await runAlone(run, import.meta.url);
