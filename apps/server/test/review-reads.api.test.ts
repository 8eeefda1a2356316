import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, reviews } from '../src/db/schema.js';
import { loggerOptions } from '../src/platform/http/log-options.js';
import { captureLog } from './log-capture.js';
import { createTestApp, type TestContext } from './helpers.js';
import { reviewedProposal, type ReviewedProposal } from './privacy-fixtures.js';

/**
 * Reads of reviews' content are audited (ASVS V8.3.5): one `review.read` line in the
 * security log per read, with the reader, the call, the proposal and how many reviews,
 * and never what the reviews say. The app runs with the server's own log settings.
 */
const { stream: logStream, lines: logLines } = captureLog();

let ctx: TestContext;
let w: ReviewedProposal;
let reviewIds: number[];
beforeAll(async () => {
  ctx = await createTestApp({ logger: { ...loggerOptions('info'), stream: logStream } });
  w = await reviewedProposal(ctx);
  reviewIds = (
    await ctx.app.db
      .select({ id: reviews.id })
      .from(reviews)
      .where(eq(reviews.proposalId, w.proposalId))
      .orderBy(reviews.id)
  ).map((row) => row.id);
});
afterAll(() => ctx.close());

type Response = Awaited<ReturnType<ReviewedProposal['chair']['call']>>;

/** The lines the request that got `res` logged, raw and parsed. */
function linesOf(res: Response) {
  const reqId = res.headers['x-request-id'];
  return logLines
    .map((line) => ({ line, entry: JSON.parse(line) as Record<string, unknown> }))
    .filter(({ entry }) => entry.reqId === reqId);
}

/** The request's `review.read` lines: there must be at most one. */
function reviewReadsOf(res: Response) {
  return linesOf(res).filter(({ entry }) => entry.securityEvent === 'review.read');
}

const auditRows = async () => (await ctx.app.db.select({ n: count() }).from(auditLog))[0]!.n;

describe('review.read (V8.3.5)', () => {
  it.each([
    [
      'one review',
      () => `/reviews/${w.proposalId}/${reviewIds[1]}/`,
      () => ({ kind: 'review', callId: w.callId, proposalId: w.proposalId, reviews: 1 }),
    ],
    [
      "a proposal's review list",
      () => `/calls/${w.callId}/proposals/${w.proposalId}/reviews/`,
      () => ({ kind: 'proposal_reviews', callId: w.callId, proposalId: w.proposalId, reviews: 2 }),
    ],
    [
      "the chair's export with the reviews' scores and comments",
      () => `/calls/${w.callId}/proposals/export/?include=allReviewScores,allReviewComments`,
      () => ({ kind: 'call_export', callId: w.callId, proposals: 1, reviews: 2 }),
    ],
    [
      "the chair's export with the reviews' comments",
      () => `/calls/${w.callId}/proposals/export/?include=allReviewComments`,
      () => ({ kind: 'call_export', callId: w.callId, proposals: 1, reviews: 2 }),
    ],
    [
      "the chair's export with the reviews' scores",
      () => `/calls/${w.callId}/proposals/export/?include=allReviewScores`,
      () => ({ kind: 'call_export', callId: w.callId, proposals: 1, reviews: 2 }),
    ],
  ])('logs one line for %s, by the reader, without the text', async (_name, url, fields) => {
    const auditBefore = await auditRows();
    const res = await w.chair.call('GET', url());
    expect(res.statusCode, res.body).toBe(200);
    // The answer names a reviewer and holds scores; the log line must not.
    expect(res.body).toContain('Ben Example');
    expect(res.body).toContain('significance');

    const lines = reviewReadsOf(res);
    expect(lines).toHaveLength(1);
    expect(lines[0]!.entry).toMatchObject({
      level: 30,
      securityEvent: 'review.read',
      userId: w.chair.user.id,
      ...fields(),
    });
    for (const { line } of linesOf(res)) {
      expect(line).not.toContain('Review text by');
      expect(line).not.toContain('Example');
      expect(line).not.toContain('significance');
    }
    // A log line, not a database write.
    expect(await auditRows()).toBe(auditBefore);
  });

  it('logs the reviewer reading their own review too', async () => {
    const res = await w.rita.call('GET', `/reviews/${w.proposalId}/${reviewIds[0]}/`);
    expect(res.statusCode, res.body).toBe(200);
    expect(reviewReadsOf(res).map(({ entry }) => entry)).toEqual([
      expect.objectContaining({ userId: w.rita.user.id, kind: 'review', reviews: 1 }),
    ]);
  });

  it('logs no read when no review was sent: refused, or an export without reviews', async () => {
    const refused = await w.author.call('GET', `/reviews/${w.proposalId}/${reviewIds[0]}/`);
    expect(refused.statusCode).toBe(404);
    expect(reviewReadsOf(refused)).toEqual([]);
    const plainExport = await w.chair.call('GET', `/calls/${w.callId}/proposals/export/`);
    expect(plainExport.statusCode).toBe(200);
    expect(plainExport.body).not.toContain('Review text by');
    expect(reviewReadsOf(plainExport)).toEqual([]);
  });
});
