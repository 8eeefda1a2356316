import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../src/demo/accounts.js';
import { DEMO_CALLS } from '../src/demo/content.js';
import { buildDemoWorld, type DemoWorld } from '../src/demo/world.js';
import { auth, createTestApp, login, type TestContext } from './helpers.js';

/*
 * The demo world (issue 30) built on a fresh database as `npm run demo` builds it, then
 * walked through the HTTP API as its chair, a member and the applicants would: each call
 * in its phase, with what each of them should find there.
 */

const PASSWORD = 'Demo-Aurora-Passw0rd';
let ctx: TestContext;
let world: DemoWorld;
const keys = new Map<string, string>();

beforeAll(async () => {
  ctx = await createTestApp();
  world = await buildDemoWorld(ctx.app, {
    now: ctx.clock.now(),
    password: PASSWORD,
    clock: { set: (at) => (ctx.clock.current = at) },
  });
}, 120_000);
afterAll(() => ctx?.close());

async function get<T>(username: string, url: string): Promise<T> {
  let key = keys.get(username);
  if (!key) keys.set(username, (key = await login(ctx.app, username, PASSWORD)));
  const res = await ctx.app.inject({ method: 'GET', url: `/api/v1${url}`, headers: auth(key) });
  expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
  return res.json() as T;
}

interface CallRow {
  id: number;
  name: string;
  closed: boolean;
  commencement: string;
  termination: string;
  reviewCommencement: string;
  reviewTermination: string;
  abilities: { addProposal: boolean; close: boolean };
}
interface ChairRow {
  id: number;
  proposalName: string;
  state: string;
  author: string;
  reviewers: { id: number; name: string }[];
}
interface MyProposal {
  id: number;
  callId: number;
  proposalName: string;
  state: string;
  role: string;
}

const proposalNamed = (name: string) => world.proposals.find((p) => p.name === name)!;

describe('the demo world', () => {
  it('lets every account log in with the one password', async () => {
    for (const account of DEMO_ACCOUNTS)
      await expect(login(ctx.app, account.username, PASSWORD)).resolves.toBeTruthy();
    const who = async (username: string) =>
      get<{ username: string; is_admin: boolean; roles: { role: string }[] }>(
        username,
        '/user_details/',
      );
    expect(await who('admin')).toMatchObject({ username: 'admin', is_admin: true });
    const chair = await who('chair2');
    expect(chair.is_admin).toBe(false);
    expect(chair.roles.map((r) => r.role)).toEqual(['CHAIR']);
    expect((await who('member3')).roles.map((r) => r.role)).toEqual(['MEMBER']);
    expect((await who('applicant3')).roles).toEqual([]);
  });

  it('has its calls in their phases, whatever day it is built', async () => {
    const now = ctx.clock.now().getTime();
    const calls = await get<CallRow[]>('applicant1', '/calls/');
    const byName = new Map(calls.map((c) => [c.name, c]));
    const open = byName.get(DEMO_CALLS.open.name)!;
    expect(Date.parse(open.commencement)).toBeLessThan(now);
    expect(Date.parse(open.termination)).toBeGreaterThan(now);
    expect(open.abilities.addProposal).toBe(true);

    const review = byName.get(DEMO_CALLS.review.name)!;
    expect(Date.parse(review.termination)).toBeLessThan(now);
    expect(Date.parse(review.reviewCommencement)).toBeLessThanOrEqual(now);
    expect(Date.parse(review.reviewTermination)).toBeGreaterThan(now);
    expect(review).toMatchObject({ closed: false, abilities: { addProposal: false } });

    const late = byName.get(DEMO_CALLS.late.name)!;
    expect(Date.parse(late.reviewTermination)).toBeLessThan(now);
    expect(late.closed).toBe(false);

    expect(byName.get(DEMO_CALLS.closed.name)!.closed).toBe(true);
  });

  it('shows the chair the call in review: drafts, submitted, reviewed, each with reviewers', async () => {
    const { items } = await get<{ items: ChairRow[] }>(
      'chair',
      `/calls/${world.calls.review.id}/proposals/`,
    );
    const states = Object.fromEntries(items.map((p) => [p.proposalName, p.state]));
    expect(states).toEqual({
      'Exoplanet atmospheres from transit spectra': 'Submitted',
      'Genome assembly of Arctic lichens': 'Submitted',
      'Time-resolved diffraction of metal-organic frameworks': 'Submitted',
      'Climate downscaling for Nordic hydropower': 'Submitted',
      'Cryo-EM of ice-binding proteins from snow algae': 'Reviewed',
      'Sea-ice radar archive reprocessing': 'Draft',
    });
    const exoplanets = items.find((p) => p.proposalName.startsWith('Exoplanet'))!;
    expect(exoplanets.reviewers.map((r) => r.name).sort()).toEqual([
      'Amara Okafor',
      'Kenji Watanabe',
      'Tomasz Wójcik',
    ]);
  });

  it('gives a member pending reviews in the call in review, and the rapid call overdue ones', async () => {
    const pending = await get<{ callId: number; proposalName: string }[]>(
      'member1',
      '/pending_reviews/',
    );
    expect(pending.map((p) => p.proposalName).sort()).toEqual([
      'Climate downscaling for Nordic hydropower',
      'Genome assembly of Arctic lichens',
    ]);
    expect(new Set(pending.map((p) => p.callId))).toEqual(new Set([world.calls.review.id]));

    const progress = await get<{ members: { username: string; saved: number; overdue: number }[] }>(
      'chair',
      `/calls/${world.calls.late.id}/progress/`,
    );
    const overdue = Object.fromEntries(progress.members.map((m) => [m.username, m.overdue]));
    expect(overdue).toMatchObject({ member1: 1, member2: 0, member4: 1 });
  });

  it('gives applicants drafts and submitted proposals in the open call, with collaborators and PDFs', async () => {
    const open = world.calls.open.id;
    const mine = await get<MyProposal[]>('applicant1', '/proposals/');
    const inOpen = mine.filter((p) => p.callId === open);
    expect(inOpen.map((p) => [p.proposalName, p.state, p.role]).sort()).toEqual([
      ['Auroral kilometric radiation and optical arcs', 'Submitted', 'Author'],
      ['Deep learning for sea-ice forecasting', 'Draft', 'Collaborator'],
    ]);

    const arcs = proposalNamed('Auroral kilometric radiation and optical arcs');
    const files = await get<{ name: string; field: string | null; contentType: string }[]>(
      'applicant1',
      `/proposal_files/${arcs.id}/`,
    );
    expect(files.map((f) => [f.field, f.contentType]).sort()).toEqual([
      [null, 'application/pdf'],
      ['supporting_document', 'application/pdf'],
    ]);

    const drafts = await get<MyProposal[]>('applicant5', '/proposals/');
    expect(drafts.filter((p) => p.callId === open).map((p) => p.state)).toEqual(['Draft']);
    const call = await get<{ extensions: { userName: string; reason: string }[] }>(
      'chair',
      `/calls/${open}/`,
    );
    expect(call.extensions).toEqual([
      expect.objectContaining({
        userName: 'Eilidh MacLeod',
        reason: expect.stringMatching(/leave/),
      }),
    ]);
  });

  it('has the closed call decided, its letters sent, and the outcome shown to the applicant', async () => {
    const closed = world.calls.closed.id;
    const letters = await get<{
      releasedAt: string | null;
      proposals: { name: string; outcome: string; state: string }[];
    }>('chair', `/calls/${closed}/letters/`);
    expect(letters.releasedAt).not.toBeNull();
    expect(letters.proposals.map((p) => [p.name, p.outcome, p.state]).sort()).toEqual([
      ['Antifreeze protein structures by cryo-EM', 'partly_approved', 'sent'],
      ['Auroral substorm spectroscopy', 'approved', 'sent'],
      ['Coupled ice-sheet and ocean simulations', 'approved', 'sent'],
      ['Diffraction survey of Arctic sediment cores', 'declined', 'sent'],
      ['Machine-learned potentials for battery cathodes', 'waitlisted', 'sent'],
    ]);

    const capacity = await get<{
      capacity: Record<string, Record<string, number>>;
      fieldTitles: Record<string, string>;
    }>('chair', `/calls/${closed}/capacity/`);
    expect(capacity.capacity['Cryo-EM Microscope']).toEqual({ hours: 40 });
    // Fields are named as the forms title them, for the capacity table and the ranking.
    expect(capacity.fieldTitles).toMatchObject({
      cpu_hours: 'CPU hours',
      hours: 'Instrument hours',
    });
    const ranking = await get<{ fieldTitles: Record<string, string> }>(
      'chair',
      `/calls/${closed}/ranking/`,
    );
    expect(ranking.fieldTitles).toEqual(capacity.fieldTitles);

    const antifreeze = proposalNamed('Antifreeze protein structures by cryo-EM');
    const seen = await get<{
      decisionSummary?: string | null;
      decision?: { outcome: string; awards: Record<string, Record<string, number>> };
    }>('applicant2', `/proposals/${antifreeze.id}/`);
    expect(seen.decision).toMatchObject({
      outcome: 'partly_approved',
      awards: { 'Cryo-EM Microscope': { hours: 30 } },
    });
    expect(seen.decisionSummary).toMatch(/half of the requested time/);
  });
});
