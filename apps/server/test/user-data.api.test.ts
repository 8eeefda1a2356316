import type { UserDataExport } from '@merit/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  assignmentBids,
  assignmentCaps,
  calls,
  proposalFiles,
  proposals,
} from '../src/db/schema.js';
import { createTestApp, makeUser, login, auth, type TestContext } from './helpers.js';
import { reviewedProposal, type ReviewedProposal } from './privacy-fixtures.js';

/**
 * GET /user_data/ (ASVS V8.3.2, the export half): the caller's own data as a JSON file,
 * and nothing of anyone else's, on a proposal that others have reviewed.
 */
let ctx: TestContext;
let w: ReviewedProposal;
beforeAll(async () => {
  ctx = await createTestApp();
  w = await reviewedProposal(ctx);
  await ctx.app.db.insert(proposalFiles).values({
    proposalId: w.proposalId,
    storageKey: 'stored-name-never-shown',
    name: 'halo-map.pdf',
    size: 1234,
    contentType: 'application/pdf',
    uploadedBy: w.author.user.id,
    uploadedAt: ctx.clock.now(),
  });
  await ctx.app.db
    .update(proposals)
    .set({ decisionSummary: '<p>Funded in full</p>' })
    .where(eq(proposals.id, w.proposalId));
});
afterAll(() => ctx.close());

async function download(who: { call: ReviewedProposal['author']['call'] }) {
  const res = await who.call('GET', '/user_data/');
  expect(res.statusCode, res.body).toBe(200);
  return { res, data: res.json() as UserDataExport, text: res.body };
}

/** What must never reach `viewer`: the other people's reviews, names of reviewers, emails. */
function othersIn(text: string, viewer: ReviewedProposal['author']) {
  const others = [w.rita, w.ben, w.author, w.collaborator, w.chair].filter(
    (p) => p.user.id !== viewer.user.id,
  );
  const found = others.flatMap((p) =>
    [p.user.email, p.user.username, `Review text by ${p.user.firstName}`].filter((s) =>
      text.includes(s),
    ),
  );
  return found;
}

describe('Download my data', () => {
  it('gives the author their profile, proposal, answers and file names as an attachment, and no review', async () => {
    const listed = { name: 'Lin Colleague', email: 'lin@uu.se' };
    const put = await w.author.call('PUT', '/recent_collaborators/', { collaborators: [listed] });
    expect(put.statusCode, put.body).toBe(200);
    const { res, data, text } = await download(w.author);
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="merit-data-${w.author.user.username}-${ctx.clock.now().toISOString().slice(0, 10)}.json"`,
    );
    expect(res.headers['cache-control']).toBe('no-store');
    expect(data.profile).toMatchObject({
      id: w.author.user.id,
      username: w.author.user.username,
      email: w.author.user.email,
      first_name: 'Ada',
      privacy_consent_at: null,
      recent_collaborators: [listed],
    });
    expect(data.proposals).toHaveLength(1);
    expect(data.proposals[0]).toMatchObject({
      id: w.proposalId,
      name: 'Dark matter survey',
      role: 'author',
      state: 'Submitted',
      call: { id: w.callId, name: 'Telescope time 2026' },
      answers: [{ data: { title: 'Mapping the halo of Andromeda' }, entry_index: 0 }],
      files: [{ name: 'halo-map.pdf', size: 1234, content_type: 'application/pdf' }],
    });
    // The call is not closed: the decision is not the authors' yet.
    expect(data.proposals[0]!.decision_summary).toBeNull();
    expect(data.reviews).toEqual([]);
    expect(othersIn(text, w.author)).toEqual([]);
    expect(text).not.toContain('stored-name-never-shown');
    expect(text).not.toMatch(/"score":\s*[0-9]/);
  });

  it("gives a collaborator the proposal as collaborator, without the author's email", async () => {
    const { data, text } = await download(w.collaborator);
    expect(data.proposals.map((p) => [p.id, p.role])).toEqual([[w.proposalId, 'collaborator']]);
    expect(data.reviews).toEqual([]);
    expect(othersIn(text, w.collaborator)).toEqual([]);
  });

  it('gives a reviewer their own review, answers and scores, and not the other review', async () => {
    const { data, text } = await download(w.rita);
    expect(data.proposals).toEqual([]);
    expect(data.reviews).toHaveLength(1);
    expect(data.reviews[0]).toMatchObject({
      proposal: { id: w.proposalId, name: 'Dark matter survey' },
      call: { id: w.callId },
      score: 4,
    });
    expect(data.reviews[0]!.answers.map((a) => a.data)).toEqual(
      expect.arrayContaining([{ strengths: 'Review text by Rita' }, { significance: 4 }]),
    );
    expect(data.roles).toEqual([
      expect.objectContaining({
        role: 'MEMBER',
        committee: expect.objectContaining({ id: w.committeeId }),
      }),
    ]);
    expect(othersIn(text, w.rita)).toEqual([]);
  });

  it('gives a member their bids and the cap they set themselves, and their expertise', async () => {
    const at = new Date('2026-03-01T12:00:00.000Z');
    await ctx.app.db
      .insert(assignmentBids)
      .values({ proposalId: w.proposalId, userId: w.ben.user.id, preference: 'eager', at });
    await ctx.app.db
      .insert(assignmentCaps)
      .values({ callId: w.callId, userId: w.ben.user.id, memberCap: 4 });
    const { data } = await download(w.ben);
    expect(data.bids).toEqual([
      {
        proposal: { id: w.proposalId, name: 'Dark matter survey' },
        call: { id: w.callId, name: expect.any(String) },
        preference: 'eager',
        at: at.toISOString(),
      },
    ]);
    expect(data.caps).toEqual([{ call: { id: w.callId, name: expect.any(String) }, cap: 4 }]);
    expect(data.roles[0]).toMatchObject({ facilities: [], keywords: [] });
    // Another member's export holds none of it.
    expect((await download(w.rita)).data.bids).toEqual([]);
  });

  it('lists logins by when they were made and used, never their tokens, and says where security events are', async () => {
    const user = await makeUser(ctx.app);
    const key = await login(ctx.app, user.username);
    const res = await ctx.app.inject({
      method: 'GET',
      url: '/api/v1/user_data/',
      headers: auth(key),
    });
    const data = res.json() as UserDataExport;
    expect(data.sessions).toEqual([
      {
        created_at: ctx.clock.now().toISOString(),
        last_used_at: ctx.clock.now().toISOString(),
        ended_at: null,
      },
    ]);
    expect(res.body).not.toContain(key);
    expect(data.security_events.stored_here).toBe(true);
    expect(data.security_events.note).toMatch(/server’s log/);
    // Their login, kept with the address it came from (inject's), and nobody else's events.
    expect(data.security_events.events).toEqual([
      {
        at: ctx.clock.now().toISOString(),
        event: 'login.succeeded',
        address: '127.0.0.1',
        details: { method: 'password' },
      },
    ]);
  });

  it('shows the author the decision once the call is closed', async () => {
    await ctx.app.db.update(calls).set({ closed: true }).where(eq(calls.id, w.callId));
    try {
      const { data } = await download(w.author);
      expect(data.proposals[0]!.decision_summary).toBe('<p>Funded in full</p>');
    } finally {
      await ctx.app.db.update(calls).set({ closed: false }).where(eq(calls.id, w.callId));
    }
  });

  it('is refused without a login', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/v1/user_data/' });
    expect(res.statusCode).toBe(401);
  });
});
