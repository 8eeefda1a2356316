/**
 * The benchmark data generator (bench/data.ts) writes its 10,000 proposals and 40,000
 * reviews by bulk SQL (bench/lib/bulk.ts), not through the services. This proves the
 * shortcut changes nothing: one small plan is written both ways, into two fresh
 * databases, and the two must hold the same rows and give the same API answers (the
 * chair's list with scores and resource totals, each proposal, each proposal's reviews).
 * Conflicts (declared by applicants and members, and detected), bids and members'
 * declarations included: the bulk writer runs the detector's domain function itself, the
 * services queue its job.
 */
import { asc, getTableColumns, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertUsers, insertVolume } from '../../../bench/lib/bulk.js';
import { makePlan, type Plan } from '../../../bench/lib/plan.js';
import { createUsers, writeViaServices } from '../../../bench/lib/service-writer.js';
import { setUpCalls, type SetUp } from '../../../bench/lib/setup.js';
import {
  assignmentBids,
  conflictDeclarations,
  conflicts,
  proposalCollaborators,
  proposalResponses,
  proposalReviewers,
  proposals,
  reviewResponses,
  reviews,
  users,
} from '../src/db/schema.js';
import { hashPassword } from '../src/platform/security/passwords.js';
import { issueToken } from '../src/modules/auth/tokens.queries.js';
import { auth, createTestApp, TEST_PASSWORD, type TestContext } from './helpers.js';

const plan: Plan = makePlan({
  proposals: 14,
  reviews: 36,
  facilities: 3,
  editors: 3,
  now: new Date('2026-06-01T00:00:00Z'),
  seed: 14,
});

interface Written {
  ctx: TestContext;
  setUp: SetUp;
  proposalIds: number[];
  chairToken: string;
}

async function write(how: 'bulk' | 'services'): Promise<Written> {
  const ctx = await createTestApp();
  const { app, clock } = ctx;
  clock.current = new Date(plan.now);
  const userIds =
    how === 'bulk'
      ? await insertUsers(app.db, plan, await hashPassword(TEST_PASSWORD, app.keys.passwordPepper))
      : await createUsers(app, plan, TEST_PASSWORD);
  const setUp = await setUpCalls(
    app,
    plan,
    userIds,
    'equivalence',
    (at) => (clock.current = new Date(at)),
  );
  const proposalIds =
    how === 'bulk'
      ? (await insertVolume(app.db, plan, setUp, userIds)).proposalIds
      : await writeViaServices(app, (at) => (clock.current = new Date(at)), plan, setUp, userIds);
  clock.current = new Date(plan.now);
  // The jobs the services queued (conflict detection among them) run now, as the bulk
  // writer's detection does at its end.
  await app.jobs.drain();
  const chairToken = await issueToken(app.db, userIds[plan.chairs[0]!]!, plan.now);
  return { ctx, setUp, proposalIds, chairToken };
}

let bulk: Written;
let services: Written;

beforeAll(async () => {
  bulk = await write('bulk');
  services = await write('services');
}, 400_000);

afterAll(async () => {
  await bulk?.ctx.close();
  await services?.ctx.close();
});

const { entryId: _entryId, ...responseColumns } = getTableColumns(proposalResponses);
const { id: _conflictId, ...conflictColumns } = getTableColumns(conflicts);

/** A proposal's page without its entries' ids, which are drawn at random. */
function withoutEntryIds(page: { status: number; body: Record<string, unknown> }) {
  const entries = page.body.entries as Record<string, { entryId: string }[]>;
  return {
    ...page,
    body: {
      ...page.body,
      entries: Object.fromEntries(
        Object.entries(entries).map(([form, list]) => [
          form,
          list.map(({ entryId: _id, ...entry }) => entry),
        ]),
      ),
    },
  };
}

/** A table's rows, in a fixed order, without what is random by design. */
async function rowsOf(written: Written) {
  const db = written.ctx.app.db;
  return {
    users: await db
      .select({
        id: users.id,
        username: users.username,
        email: users.email,
        firstName: users.firstName,
        lastName: users.lastName,
        institution: users.institution,
        isAdmin: users.isAdmin,
        emailVerified: users.emailVerified,
        isActive: users.isActive,
        passwordSet: sql<boolean>`${users.passwordHash} is not null`,
      })
      .from(users)
      .orderBy(asc(users.id)),
    proposals: await db.select().from(proposals).orderBy(asc(proposals.id)),
    // Each entry's id is drawn at random when it is written.
    responses: await db
      .select(responseColumns)
      .from(proposalResponses)
      .orderBy(
        asc(proposalResponses.proposalId),
        asc(proposalResponses.formId),
        asc(proposalResponses.entryIndex),
      ),
    collaborators: await db
      .select()
      .from(proposalCollaborators)
      .orderBy(asc(proposalCollaborators.proposalId), asc(proposalCollaborators.userId)),
    reviewers: await db
      .select()
      .from(proposalReviewers)
      .orderBy(asc(proposalReviewers.proposalId), asc(proposalReviewers.userId)),
    reviews: await db.select().from(reviews).orderBy(asc(reviews.id)),
    reviewResponses: await db
      .select()
      .from(reviewResponses)
      .orderBy(asc(reviewResponses.reviewId), asc(reviewResponses.formId)),
    // Ids follow the order they were made in, which differs; and a detected conflict's
    // time is when the job runner got to its detection after a commit, not the plan's.
    conflicts: (
      await db
        .select(conflictColumns)
        .from(conflicts)
        .orderBy(asc(conflicts.proposalId), asc(conflicts.userId))
    ).map((c) => (c.source === 'detected' ? { ...c, changedAt: null } : c)),
    declarations: await db
      .select()
      .from(conflictDeclarations)
      .orderBy(asc(conflictDeclarations.proposalId), asc(conflictDeclarations.userId)),
    bids: await db
      .select()
      .from(assignmentBids)
      .orderBy(asc(assignmentBids.proposalId), asc(assignmentBids.userId)),
  };
}

/** A GET as the chair: its status and body. */
async function get(written: Written, url: string) {
  const res = await written.ctx.app.inject({
    method: 'GET',
    url: `/api/v1${url}`,
    headers: auth(written.chairToken),
  });
  return { status: res.statusCode, body: res.json() };
}

describe('benchmark data: bulk SQL writes what the services write', () => {
  it('writes the plan: drafts, submitted proposals, answers, collaborators and reviews', async () => {
    const rows = await rowsOf(bulk);
    const main = plan.proposals.filter((p) => p.call === 'main');
    expect(rows.proposals).toHaveLength(plan.proposals.length);
    expect(rows.proposals.filter((p) => p.stateVal === 1).length).toBe(
      main.filter((p) => p.submitted).length,
    );
    expect(rows.proposals.some((p) => p.stateVal === 0)).toBe(true);
    expect(rows.collaborators.length).toBeGreaterThan(0);
    expect(rows.reviews).toHaveLength(36);
    expect(rows.reviewResponses).toHaveLength(72);
    // Scores were worked out, as saving the score form does.
    expect(rows.reviews.every((r) => typeof r.score === 'number')).toBe(true);
    // Conflicts of every source, and no reviewer assigned where there is one.
    const sources = new Set(rows.conflicts.map((c) => c.source));
    expect([...sources].sort()).toEqual(['applicant', 'detected', 'reviewer']);
    expect(rows.declarations).toHaveLength(plan.memberDeclarations.length);
    expect(rows.bids).toHaveLength(plan.bids.length);
    expect(rows.bids.length).toBeGreaterThan(0);
    const conflicted = new Set(rows.conflicts.map((c) => `${c.proposalId}:${c.userId}`));
    expect(rows.reviewers.filter((r) => conflicted.has(`${r.proposalId}:${r.userId}`))).toEqual([]);
  });

  it('holds the same rows both ways', async () => {
    expect(bulk.setUp).toEqual(services.setUp);
    expect(bulk.proposalIds).toEqual(services.proposalIds);
    const [fromBulk, fromServices] = [await rowsOf(bulk), await rowsOf(services)];
    for (const table of Object.keys(fromBulk) as (keyof typeof fromBulk)[])
      expect(fromBulk[table], table).toEqual(fromServices[table]);
  });

  it('gives the chair the same list, scores, totals, proposals and reviews both ways', async () => {
    const callId = bulk.setUp.mainCallId;
    for (const sort of ['name', '-score', 'state']) {
      const url = `/calls/${callId}/proposals/?pageSize=100&sort=${sort}`;
      const { status, body: list } = await get(bulk, url);
      expect(status).toBe(200);
      expect(list).toEqual((await get(services, url)).body);
      if (sort === 'name') {
        expect(list.total).toBe(14);
        expect(Object.keys(list.resourceTotals)).toHaveLength(3);
        expect(list.items.some((p: { isReviewed: boolean }) => p.isReviewed)).toBe(true);
        expect(list.items.some((p: { score: number | null }) => p.score !== null)).toBe(true);
      }
    }
    for (const id of bulk.proposalIds.slice(0, 14)) {
      const proposal = await get(bulk, `/proposals/${id}/`);
      expect(proposal.status).toBe(200);
      expect(withoutEntryIds(proposal)).toEqual(
        withoutEntryIds(await get(services, `/proposals/${id}/`)),
      );
      const reviewsUrl = `/calls/${callId}/proposals/${id}/reviews/`;
      expect(await get(bulk, reviewsUrl)).toEqual(await get(services, reviewsUrl));
    }
    // Twenty requests each way: more than the default timeout on a busy machine.
  }, 120_000);
});
