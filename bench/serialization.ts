/**
 * `npm run bench:serialization`: what writing a large list costs, per response.
 *
 * The server writes responses with fast-json-stringify compiled from the contract
 * (apps/server/src/platform/http/serializer.ts). The alternative it replaced validates the
 * whole response with zod and then JSON.stringifies it, which fastify-type-provider-zod
 * does by default. Both are timed here on the same rows in the same run: 10,000 call
 * summaries (the size of list the proposal list will reach), median of --runs runs.
 */
import { parseArgs } from 'node:util';
import { callList, type CallSummary } from '@merit/contract';
import { createSerializerCompiler } from 'fastify-type-provider-zod';
import { createResponseSerializer } from '../apps/server/src/platform/http/serializer.js';

const { values } = parseArgs({
  options: { runs: { type: 'string', default: '15' }, rows: { type: 'string', default: '10000' } },
});
const runs = Number(values.runs);
const rowCount = Number(values.rows);

const at = (day: number) => new Date(Date.UTC(2026, 0, 1 + day)).toISOString();
const rows: CallSummary[] = Array.from({ length: rowCount }, (_, i) => ({
  id: i + 1,
  name: `Call for proposals number ${i + 1}`,
  committeeId: (i % 20) + 1,
  committeeName: `Committee ${(i % 20) + 1}`,
  commencement: at(i % 300),
  termination: at((i % 300) + 30),
  reviewCommencement: at((i % 300) + 31),
  reviewTermination: at((i % 300) + 60),
  isReviewOpen: i % 2 === 0,
  closed: i % 3 === 0,
  myRoles: i % 5 === 0 ? ['Author', 'Committee'] : [],
  abilities: {
    view: true,
    edit: false,
    manage: false,
    close: false,
    manageExtensions: false,
    addProposal: i % 4 === 0,
    assign: false,
    bid: false,
    followReview: false,
    remind: false,
    decide: false,
    releaseDecisions: false,
  },
}));

const route = { schema: callList, method: 'GET', url: '/api/v1/calls/', httpStatus: '200' };
const candidates = {
  'zod validate + JSON.stringify (replaced)': createSerializerCompiler({})(route as never),
  'fast-json-stringify from the contract (in use)': createResponseSerializer({ validate: false })(
    route as never,
  ),
};

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

console.log(`\n## Writing ${rowCount} call summaries (median of ${runs} runs)\n`);
const outputs = new Set<string>();
const results: [string, number][] = [];
for (const [name, serialize] of Object.entries(candidates)) {
  for (let i = 0; i < 3; i += 1) serialize(rows); // warm up the JIT
  const times: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const started = performance.now();
    const out = serialize(rows) as string;
    times.push(performance.now() - started);
    outputs.add(out);
  }
  results.push([name, median(times)]);
}
for (const [name, time] of results) console.log(`  ${name.padEnd(48)} ${time.toFixed(1)} ms`);
console.log(`\n  ratio: ${(results[0]![1] / results[1]![1]).toFixed(1)}x`);
// Both must write the same JSON for the comparison to mean anything.
if (outputs.size !== 1) throw new Error('The two serializers wrote different JSON.');
console.log('  both wrote the same JSON');
