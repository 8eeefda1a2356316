import type { CallProposal, CallProposalPage, ProposalDetail } from '@merit/contract';
import { callMessages, proposalMessages } from '@merit/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { proposalResponses, proposals } from '../src/db/schema.js';
import { saveCall } from '../src/modules/calls/calls.service.js';
import { auditOf, caller, makeForm, makeFormName } from './admin-fixtures.js';
import { callPayload, makeProposal } from './call-fixtures.js';
import {
  auth,
  createTestApp,
  giveRole,
  login,
  makeCommittee,
  makeUser,
  type TestContext,
} from './helpers.js';
import { outbox } from './mail.js';

/**
 * The chair's view (issue 14) on a real database: the proposal list with resources,
 * reviewers and scores for chairs and nothing of them for anyone else, the call's
 * resource totals, decision summaries hidden from authors until the call closes, and the
 * mails that closing sends. The SQL totals are held to the domain's sums on awkward
 * entries in src/modules/proposals/resource-totals.api.test.ts.
 */
let ctx: TestContext;
const DAY = 24 * 60 * 60 * 1000;

/** The fields only chairs' rows carry; absent, not empty, for everyone else. */
const CHAIR_ROW_FIELDS = [
  'resourceValues',
  'reviewers',
  'isReviewed',
  'reviewScores',
  'score',
  'allReviewScores',
  'allReviewComments',
] as const;
/** The fields of the review columns: absent on a chair's own proposals too. */
const REVIEW_ROW_FIELDS = CHAIR_ROW_FIELDS.filter((f) => f !== 'resourceValues');

const projectSchema = {
  type: 'object',
  required: ['title'],
  properties: { title: { type: 'string', title: 'Title' } },
};
/** A multi-entry resource form: each entry asks one telescope for hours and nights. */
const telescopeSchema = {
  type: 'object',
  required: ['facility'],
  properties: {
    facility: { type: 'string', title: 'Telescope', enum: ['ATCA', 'Parkes'] },
    hours: { type: 'number', title: 'Hours' },
    nights: { type: 'integer', title: 'Nights' },
  },
};
/** A one-entry resource form for computing time at one site. */
const computeSchema = {
  type: 'object',
  required: ['facility'],
  properties: {
    facility: { type: 'string', title: 'Site', enum: ['ATCA', 'Parkes'] },
    hours: { type: 'number', title: 'Hours' },
  },
};
const reviewSchema = {
  type: 'object',
  required: ['strengths'],
  properties: {
    strengths: { type: 'string', title: 'Strengths' },
    weaknesses: { type: 'string', title: 'Weaknesses' },
  },
};
const scoreSchema = {
  type: 'object',
  properties: {
    significance: { type: 'integer', title: 'Significance', minimum: 1, maximum: 5 },
    feasibility: { type: 'integer', title: 'Feasibility', minimum: 1, maximum: 5 },
  },
};

async function form(type: number, jsonSchema: object, options?: object) {
  const name = await makeFormName(ctx.app, { type });
  return (
    await makeForm(ctx.app, name.id, {
      jsonSchema: jsonSchema as Record<string, unknown>,
      ...(options ? { options: options as Record<string, unknown> } : {}),
    })
  ).id;
}

/** Someone with a name, who logs in again whenever the clock has moved on. */
async function person(firstName: string, lastName: string, isAdmin = false) {
  const user = await makeUser(ctx.app, { firstName, lastName, isAdmin });
  let key = await login(ctx.app, user.username);
  return {
    user,
    call: (...args: Parameters<ReturnType<typeof caller>>) => caller(ctx.app, auth(key))(...args),
    relogin: async () => {
      key = await login(ctx.app, user.username);
    },
  };
}
type Person = Awaited<ReturnType<typeof person>>;

let forms: Awaited<ReturnType<typeof makeForms>>;
async function makeForms() {
  return {
    project: await form(0, projectSchema),
    telescope: await form(5, telescopeSchema, {
      institution_field: 'facility',
      data_fields: ['hours', 'nights'],
    }),
    compute: await form(4, computeSchema, {
      institution_field: 'facility',
      data_fields: ['hours'],
    }),
    review: await form(2, reviewSchema),
    score: await form(3, scoreSchema, {
      method: 'average',
      fields: ['significance', 'feasibility'],
    }),
  };
}

let hashes = 0;

/** Saves a proposal's forms through the API, the first save making it; returns its id. */
async function propose(
  author: Person,
  callId: number,
  typeId: number,
  name: string,
  answers: { formId: number; data: Record<string, unknown> }[],
): Promise<number> {
  let proposalId: number | null = null;
  const indexes = new Map<number, number>();
  for (const { formId, data } of answers) {
    const index = indexes.get(formId) ?? 0;
    indexes.set(formId, index + 1);
    const res = await author.call('POST', '/proposal_responses/', {
      call: callId,
      proposalTypeId: typeId,
      new: proposalId === null,
      proposal: proposalId,
      proposalName: name,
      hash: (hashes += 1),
      formId,
      index,
      data,
    });
    expect(res.statusCode, res.body).toBeLessThan(300);
    proposalId = res.json().proposalId as number;
  }
  return proposalId!;
}

async function submit(author: Person, proposalId: number) {
  const res = await author.call('POST', '/proposal_state/', { proposalId, state: 1 });
  expect(res.statusCode, res.body).toBe(200);
}

/** Two reviews' worth of forms: the written one, then the scores. */
async function review(
  who: Person,
  callId: number,
  proposalId: number,
  written: Record<string, unknown>,
  scores: Record<string, unknown>,
) {
  // A Save All: the second form names the review and version the first save answered.
  let saved: { reviewId: number; version: number } | undefined;
  for (const [formId, data] of [
    [forms.review, written],
    [forms.score, scores],
  ] as const) {
    const res = await who.call('POST', '/review_responses/', {
      call: callId,
      proposal: proposalId,
      formId,
      hash: (hashes += 1),
      data,
      ...(saved ? { reviewId: saved.reviewId, version: saved.version } : {}),
    });
    expect(res.statusCode, res.body).toBe(200);
    saved = res.json();
  }
}

/**
 * The committee's world: a chair, three members (Rita and Ben review), two authors and a
 * collaborator, an admin; a call with two proposal types (Observing asks telescopes for
 * hours and nights, entry by entry; Computing asks one site for hours), three submitted
 * proposals and a draft, and the reviews Rita and Ben saved in the review window.
 */
let w: Awaited<ReturnType<typeof makeWorld>>;
async function makeWorld() {
  const now = ctx.clock.now();
  const committeeId = (await makeCommittee(ctx.app)).id;
  const chair = await person('Carla', 'Chair');
  const rita = await person('Rita', 'Reviewer');
  const ben = await person('Ben', 'Second');
  const mia = await person('Mia', 'Member');
  const ada = await person('Ada', 'Author');
  const col = await person('Col', 'Laborator');
  const bob = await person('Bob', 'Writer');
  const outsider = await person('Otto', 'Outsider');
  const admin = await person('Adam', 'Admin', true);
  await giveRole(ctx.app, chair.user.id, committeeId, 'CHAIR', now);
  for (const m of [rita, ben, mia]) await giveRole(ctx.app, m.user.id, committeeId, 'MEMBER', now);

  const callId = await ctx.app.writeAs({ id: admin.user.id, isAdmin: true }, (work) =>
    saveCall(
      work,
      callPayload(
        committeeId,
        { ...forms, proposal: forms.project, proposalMulti: forms.telescope },
        now,
        {
          name: 'Sky 2026',
          proposalTypes: [
            {
              typeName: 'Observing',
              typeId: null,
              proposalForms: [forms.project, forms.telescope],
              reviewForms: [forms.review, forms.score],
            },
            {
              typeName: 'Computing',
              typeId: null,
              proposalForms: [forms.project, forms.compute],
              reviewForms: [forms.review, forms.score],
            },
          ],
        },
      ),
    ),
  );
  const types = (await chair.call('GET', `/calls/${callId}/`)).json().proposalTypes as {
    typeId: number;
    typeName: string;
  }[];
  const observing = types.find((t) => t.typeName === 'Observing')!.typeId;
  const computing = types.find((t) => t.typeName === 'Computing')!.typeId;

  const galaxy = await propose(ada, callId, observing, 'Galaxy survey', [
    { formId: forms.project, data: { title: 'Galaxies' } },
    { formId: forms.telescope, data: { facility: 'ATCA', hours: 10, nights: 2 } },
    { formId: forms.telescope, data: { facility: 'Parkes', hours: 4 } },
    { formId: forms.telescope, data: { facility: 'ATCA', hours: 2.5, nights: 1 } },
  ]);
  const hash = (await col.call('GET', '/user_hash/')).json().hash as string;
  expect((await ada.call('POST', '/collaborators/', { proposalId: galaxy, hash })).statusCode).toBe(
    201,
  );
  const pulsar = await propose(bob, callId, observing, 'Pulsar timing', [
    { formId: forms.project, data: { title: 'Pulsars' } },
    { formId: forms.telescope, data: { facility: 'Parkes', hours: 6, nights: 3 } },
  ]);
  const simulation = await propose(bob, callId, computing, 'Simulations', [
    { formId: forms.project, data: { title: 'Simulations' } },
    { formId: forms.compute, data: { facility: 'ATCA', hours: 100 } },
  ]);
  // A draft asks for much, and counts for nothing in the totals.
  const draft = await propose(ada, callId, computing, 'Draft idea', [
    { formId: forms.project, data: { title: 'Later' } },
    { formId: forms.compute, data: { facility: 'Parkes', hours: 1000 } },
  ]);
  for (const [author, id] of [
    [ada, galaxy],
    [bob, pulsar],
    [bob, simulation],
  ] as const)
    await submit(author, id);

  const assign = async (proposalId: number, reviewer: Person) =>
    expect(
      (await chair.call('POST', '/reviewers/', { proposalId, userId: reviewer.user.id }))
        .statusCode,
    ).toBe(201);
  await assign(galaxy, rita);
  await assign(galaxy, ben);
  await assign(pulsar, rita);
  await assign(simulation, ben);
  return {
    callId,
    observing,
    computing,
    proposals: { galaxy, pulsar, simulation, draft },
    people: { chair, rita, ben, mia, ada, col, bob, outsider, admin },
  };
}

/** Moves the clock on, and everyone logs in again (their old sessions went idle). */
async function advance(days: number) {
  ctx.clock.advance(days * DAY);
  for (const p of Object.values(w.people)) await p.relogin();
}

beforeAll(async () => {
  ctx = await createTestApp();
  forms = await makeForms();
  w = await makeWorld();
});
afterAll(() => ctx.close());

const listOf = async (who: Person, query = 'pageSize=100') => {
  const res = await who.call('GET', `/calls/${w.callId}/proposals/?${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as CallProposalPage;
};
const rowOf = (page: CallProposalPage, id: number) => page.items.find((i) => i.id === id)!;

describe('the call management counts', () => {
  it('count real saved reviews: submitted proposals, and those not yet reviewed by all', async () => {
    const counts = async () =>
      (await w.people.chair.call('GET', `/calls/${w.callId}/manage/`)).json();
    expect(await counts()).toEqual({ submitted: 3, awaitingReview: 3 });

    // Into the review window: Rita and Ben review the galaxy survey, Ben the simulations.
    await advance(8);
    const { rita, ben } = w.people;
    const { galaxy, simulation } = w.proposals;
    await review(
      rita,
      w.callId,
      galaxy,
      { strengths: 'Clear aims' },
      { significance: 4, feasibility: 3 },
    );
    // One of two assigned reviewers has saved: still awaiting the other.
    expect(await counts()).toEqual({ submitted: 3, awaitingReview: 3 });
    await review(
      ben,
      w.callId,
      galaxy,
      { strengths: 'Ambitious', weaknesses: 'Costly' },
      { significance: 2, feasibility: 4 },
    );
    await review(
      ben,
      w.callId,
      simulation,
      { strengths: 'Sound code' },
      { significance: 5, feasibility: 5 },
    );
    // The pulsar proposal still waits for Rita.
    expect(await counts()).toEqual({ submitted: 3, awaitingReview: 1 });
  });
});

describe("the chair's proposal list", () => {
  it('gives each row its reviewers, scores, reviews and resources, and the call its totals', async () => {
    const { rita, ben } = w.people;
    const page = await listOf(w.people.chair);
    expect(page.items.map((i) => i.proposalName)).toEqual([
      'Draft idea',
      'Galaxy survey',
      'Pulsar timing',
      'Simulations',
    ]);
    const rebecca = { id: rita.user.id, name: 'Rita Reviewer' };
    const benjamin = { id: ben.user.id, name: 'Ben Second' };
    expect(rowOf(page, w.proposals.galaxy)).toEqual({
      id: w.proposals.galaxy,
      proposalName: 'Galaxy survey',
      proposalTypeId: w.observing,
      proposalTypeName: 'Observing',
      author: 'Ada Author',
      authorId: w.people.ada.user.id,
      state: 'Reviewed',
      stateVal: 2,
      lastModified: expect.any(String),
      editable: false,
      // By last name, as every list of people.
      reviewers: [rebecca, benjamin],
      isReviewed: true,
      reviewScores: [
        { name: 'significance', value: 3 },
        { name: 'feasibility', value: 3.5 },
        { name: 'result', value: 3.25 },
      ],
      score: 3.25,
      // Three entries of the multi-entry form, summed per telescope.
      resourceValues: { ATCA: { hours: 12.5, nights: 3 }, Parkes: { hours: 4 } },
      allReviewScores: [
        {
          reviewer: rebecca,
          scores: [
            { name: 'significance', value: 4 },
            { name: 'feasibility', value: 3 },
          ],
          score: 3.5,
        },
        {
          reviewer: benjamin,
          scores: [
            { name: 'significance', value: 2 },
            { name: 'feasibility', value: 4 },
          ],
          score: 3,
        },
      ],
      allReviewComments: [
        { reviewer: rebecca, comments: [{ name: 'Strengths', value: 'Clear aims' }] },
        {
          reviewer: benjamin,
          comments: [
            { name: 'Strengths', value: 'Ambitious' },
            { name: 'Weaknesses', value: 'Costly' },
          ],
        },
      ],
      // Its conflicts of interest, as the detector found them (conflict-enforcement.api.test.ts).
      conflicts: {
        confirmed: expect.any(Number),
        suggested: expect.any(Number),
        declaredByApplicants: false,
      },
    } satisfies CallProposal);
    expect(rowOf(page, w.proposals.pulsar)).toMatchObject({
      state: 'Submitted',
      reviewers: [rebecca],
      isReviewed: false,
      reviewScores: [{ name: 'result', value: null }],
      score: null,
      resourceValues: { Parkes: { hours: 6, nights: 3 } },
      allReviewScores: [],
      allReviewComments: [],
    });
    expect(rowOf(page, w.proposals.simulation)).toMatchObject({
      proposalTypeName: 'Computing',
      state: 'Reviewed',
      score: 5,
      resourceValues: { ATCA: { hours: 100 } },
    });
    expect(rowOf(page, w.proposals.draft)).toMatchObject({
      state: 'Draft',
      resourceValues: { Parkes: { hours: 1000 } },
    });
    // Over the submitted and reviewed proposals: the draft's 1000 hours are not here.
    expect(page.resourceTotals).toEqual({
      ATCA: { hours: 112.5, nights: 3 },
      Parkes: { hours: 10, nights: 3 },
    });
    expect(page.facilities).toEqual(['ATCA', 'Parkes']);
  });

  it('totals the whole call whatever page it sends', async () => {
    const first = await listOf(w.people.chair, 'pageSize=1');
    expect(first.items).toHaveLength(1);
    expect(first.total).toBe(4);
    expect(first.resourceTotals).toEqual({
      ATCA: { hours: 112.5, nights: 3 },
      Parkes: { hours: 10, nights: 3 },
    });
  });

  it('sorts by score as numbers, proposals without one last either way', async () => {
    const names = async (sort: string) =>
      (await listOf(w.people.chair, `sort=${sort}`)).items.map((i) => i.proposalName);
    // Those without a score keep the order of the tie-break (made first, first).
    expect(await names('-score')).toEqual([
      'Simulations',
      'Galaxy survey',
      'Pulsar timing',
      'Draft idea',
    ]);
    expect(await names('score')).toEqual([
      'Galaxy survey',
      'Simulations',
      'Pulsar timing',
      'Draft idea',
    ]);
  });

  it('gives admins what chairs get', async () => {
    const page = await listOf(w.people.admin);
    expect(rowOf(page, w.proposals.galaxy).score).toBe(3.25);
    expect(page.resourceTotals).toBeDefined();
  });
});

describe('what others see of the same list', () => {
  const secrets = ['Rita Reviewer', 'Ben Second', 'Clear aims', 'Costly', 'resourceTotals'];

  it.each([
    ['the author', () => w.people.ada, ['Draft idea', 'Galaxy survey']],
    ['a collaborator', () => w.people.col, ['Galaxy survey']],
    [
      'a member who reviews',
      () => w.people.rita,
      ['Galaxy survey', 'Pulsar timing', 'Simulations'],
    ],
    [
      'a member who does not',
      () => w.people.mia,
      ['Galaxy survey', 'Pulsar timing', 'Simulations'],
    ],
    ['an outsider', () => w.people.outsider, []],
  ])('%s: the rows they may see, without any of the chair’s fields', async (_name, who, names) => {
    const res = await who().call('GET', `/calls/${w.callId}/proposals/?pageSize=100`);
    expect(res.statusCode).toBe(200);
    const page = res.json() as CallProposalPage;
    expect(page.items.map((i) => i.proposalName)).toEqual(names);
    expect(page).not.toHaveProperty('resourceTotals');
    expect(page).not.toHaveProperty('facilities');
    for (const item of page.items)
      for (const field of CHAIR_ROW_FIELDS) expect(item).not.toHaveProperty(field);
    for (const secret of secrets) expect(res.body).not.toContain(secret);
    // Sorting by score is no way round it: every row sorts as having none.
    const sorted = await who().call('GET', `/calls/${w.callId}/proposals/?sort=-score`);
    expect(sorted.statusCode).toBe(200);
    expect((sorted.json() as CallProposalPage).items.map((i) => i.id)).toEqual(
      [...page.items.map((i) => i.id)].sort((a, b) => a - b),
    );
  });

  it('gives a chair who wrote a proposal its resources, and nothing of its reviews', async () => {
    const { chair } = w.people;
    const own = await makeProposal(ctx.app, {
      callId: w.callId,
      proposalTypeId: w.computing,
      authorId: chair.user.id,
      stateVal: 1,
    });
    await ctx.app.db.insert(proposalResponses).values({
      proposalId: own.id,
      formId: forms.compute,
      entryIndex: 0,
      data: { facility: 'Parkes', hours: 1 },
      updatedAt: ctx.clock.now(),
    });
    try {
      const row = rowOf(await listOf(chair), own.id);
      expect(row.resourceValues).toEqual({ Parkes: { hours: 1 } });
      for (const field of REVIEW_ROW_FIELDS) expect(row).not.toHaveProperty(field);
      // Still a submitted proposal of the call: its hour counts.
      expect((await listOf(chair)).resourceTotals?.Parkes).toEqual({ hours: 11, nights: 3 });
    } finally {
      // Its answers go with it (ON DELETE CASCADE); the tests after this one count without it.
      await ctx.app.db.delete(proposals).where(eq(proposals.id, own.id));
    }
  });
});

describe('decision summaries', () => {
  const detail = async (who: Person, id: number) => {
    const res = await who.call('GET', `/proposals/${id}/`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as ProposalDetail;
  };
  /** A save by `who`, from the version the chair reads now unless `version` says another. */
  const save = async (who: Person, proposalId: number, summary: string, version?: number) =>
    who.call('POST', '/update_decision_summary/', {
      proposalId,
      summary,
      version: version ?? (await detail(w.people.chair, proposalId)).decisionSummaryVersion,
    });
  const decision = '<p>Approved: <strong>10 nights</strong> on ATCA.</p>';

  it('lets the chair write one, with its audit row, leaving lastModified alone', async () => {
    const { galaxy } = w.proposals;
    const before = await detail(w.people.chair, galaxy);
    expect(before.decisionSummary).toBeNull();
    expect(before.decisionSummaryVersion).toBe(0);
    expect(before.abilities).toMatchObject({ viewDecision: true, editDecision: true });
    const res = await save(w.people.chair, galaxy, decision);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().decisionSummary).toBe(decision);
    // The answer carries the new version, the one the chair's next save names.
    expect(res.json().decisionSummaryVersion).toBe(1);
    expect(res.json().lastModified).toBe(before.lastModified);
    const audit = (await auditOf(ctx.app, 'proposal', galaxy)).at(-1)!;
    expect(audit.action).toBe('proposal.update_decision');
    expect(audit.changes).toEqual({ decisionSummary: { before: null, after: decision } });
    expect((await detail(w.people.admin, galaxy)).decisionSummary).toBe(decision);
  });

  it('hides it from its authors and from members while the call is open', async () => {
    const { galaxy } = w.proposals;
    for (const who of [w.people.ada, w.people.col, w.people.rita, w.people.mia]) {
      const seen = await detail(who, galaxy);
      expect(seen, who.user.firstName).not.toHaveProperty('decisionSummary');
      expect(seen, who.user.firstName).not.toHaveProperty('decisionSummaryVersion');
      expect(seen.abilities.viewDecision).toBe(false);
      expect(seen.abilities.editDecision).toBe(false);
    }
  });

  it('lets only the chairs write it', async () => {
    const { galaxy } = w.proposals;
    expect((await save(w.people.ada, galaxy, '<p>Fund me</p>')).statusCode).toBe(403);
    expect((await save(w.people.col, galaxy, '<p>Fund us</p>')).statusCode).toBe(403);
    expect((await save(w.people.rita, galaxy, '<p>Fund it</p>')).statusCode).toBe(403);
    expect((await save(w.people.outsider, galaxy, '<p>Hm</p>')).statusCode).toBe(404);
    expect((await detail(w.people.chair, galaxy)).decisionSummary).toBe(decision);
  });

  it('strips scripts, event handlers and javascript: links before storing it', async () => {
    const { pulsar } = w.proposals;
    const payload = [
      '<p onclick="steal()">Declined.</p>',
      '<script>alert(document.cookie)</script>',
      '<img src="x" onerror="alert(1)">',
      '<a href="javascript:alert(1)">details</a>',
      '<a href="https://example.org/why">why</a>',
      '<iframe src="https://evil.example"></iframe>',
      '<p style="background:url(javascript:alert(1))">Styled</p>',
    ].join('');
    const res = await save(w.people.chair, pulsar, payload);
    expect(res.statusCode, res.body).toBe(200);
    const stored = (await detail(w.people.chair, pulsar)).decisionSummary!;
    for (const bad of [
      '<script',
      'onclick',
      'onerror',
      'javascript:',
      '<iframe',
      'style=',
      'alert',
    ])
      expect(stored).not.toContain(bad);
    expect(stored).toContain('<p>Declined.</p>');
    expect(stored).toContain('href="https://example.org/why"');
  });

  it('refuses an image over the limit with the spec’s message, and keeps one under it', async () => {
    const { simulation } = w.proposals;
    const image = (bytes: number) =>
      `<img src="data:image/png;base64,${Buffer.alloc(bytes, 1).toString('base64')}">`;
    const big = await save(w.people.chair, simulation, `<p>Plot</p>${image(600 * 1024)}`);
    expect(big.statusCode).toBe(400);
    expect(big.json().fields).toEqual({ summary: [callMessages.imageTooLarge] });
    expect(callMessages.imageTooLarge).toBe('The image cannot be larger than 500KB.');
    const small = await save(w.people.chair, simulation, `<p>Plot</p>${image(1024)}`);
    expect(small.statusCode, small.body).toBe(200);
    expect(small.json().decisionSummary).toContain('src="data:image/png;base64,');
  });

  it('reaches the authors once the call is closed, told by mail without the decision', async () => {
    const { galaxy, pulsar, simulation, draft } = w.proposals;
    const { chair, ada, col, bob, mia } = w.people;
    // After the review period: the call may be closed.
    await advance(7);
    const mailsBefore = (await outbox(ctx)).length;
    const closed = await chair.call('POST', '/close_call/', { callId: w.callId });
    expect(closed.statusCode, closed.body).toBe(200);

    const mails = (await outbox(ctx)).slice(mailsBefore);
    const link = (id: number) => `${ctx.app.config.publicUrl}/calls/${w.callId}/proposals/${id}/`;
    const sent = mails.map((m) => [m.to, m.subject]).sort();
    expect(sent).toEqual(
      [
        [ada.user.email, 'Decision available: Galaxy survey'],
        [col.user.email, 'Decision available: Galaxy survey'],
        [bob.user.email, 'Decision available: Pulsar timing'],
        [bob.user.email, 'Decision available: Simulations'],
      ].sort(),
    );
    const toAda = mails.find((m) => m.to === ada.user.email)!;
    expect(toAda.links).toContain(link(galaxy));
    expect(toAda.text).toContain('Sky 2026');
    for (const mail of mails) expect(mail.text).not.toMatch(/10 nights|Declined|Plot/);

    expect((await detail(ada, galaxy)).decisionSummary).toBe(decision);
    expect((await detail(col, galaxy)).decisionSummary).toBe(decision);
    expect((await detail(ada, galaxy)).abilities.viewDecision).toBe(true);
    expect((await detail(bob, pulsar)).decisionSummary).toContain('Declined.');
    expect((await detail(bob, simulation)).decisionSummary).toContain('Plot');
    // No decision was written on the draft: its author reads none.
    expect((await detail(ada, draft)).decisionSummary).toBeNull();
    expect((await detail(ada, galaxy)).decisionSummaryVersion).toBe(1);
    // Members who are not chairs never read it.
    expect(await detail(mia, galaxy)).not.toHaveProperty('decisionSummary');
    expect(await detail(mia, galaxy)).not.toHaveProperty('decisionSummaryVersion');
    // And the chairs may still put a slip right.
    expect((await save(chair, galaxy, '<p>Approved: 9 nights.</p>')).statusCode).toBe(200);
    expect((await detail(ada, galaxy)).decisionSummary).toBe('<p>Approved: 9 nights.</p>');
  });

  it('refuses a save from a version another chair has saved over, with their text', async () => {
    const { galaxy } = w.proposals;
    const { chair, admin } = w.people;
    const opened = (await detail(chair, galaxy)).decisionSummaryVersion!;
    // Adam (an admin counts as a chair) saves while Carla still has the old version open.
    const theirs = await save(admin, galaxy, '<p>Approved: 8 nights.</p>', opened);
    expect(theirs.statusCode, theirs.body).toBe(200);
    const savedAt = ctx.clock.now();
    const mine = await save(chair, galaxy, '<p>Approved: 12 nights.</p>', opened);
    expect(mine.statusCode).toBe(409);
    expect(mine.json()).toEqual({
      code: 'stale',
      detail: proposalMessages.decisionStale('Adam Admin', savedAt),
      current: {
        summary: '<p>Approved: 8 nights.</p>',
        version: opened + 1,
        savedBy: 'Adam Admin',
        savedAt: savedAt.toISOString(),
      },
    });
    expect(mine.json().detail).toContain(`${savedAt.getUTCFullYear()},`);
    const after = await detail(chair, galaxy);
    expect(after.decisionSummary).toBe('<p>Approved: 8 nights.</p>');
    expect(after.decisionSummaryVersion).toBe(opened + 1);
    const audit = (await auditOf(ctx.app, 'proposal', galaxy)).at(-1)!;
    expect(audit.changes).toEqual({
      decisionSummary: {
        before: '<p>Approved: 9 nights.</p>',
        after: '<p>Approved: 8 nights.</p>',
      },
    });
  });

  it('saves from the current version, raising it and noting who saved it and when', async () => {
    const { pulsar } = w.proposals;
    const { chair } = w.people;
    const opened = (await detail(chair, pulsar)).decisionSummaryVersion!;
    const res = await save(chair, pulsar, '<p>Declined, with regret.</p>', opened);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      decisionSummary: '<p>Declined, with regret.</p>',
      decisionSummaryVersion: opened + 1,
    });
    const [row] = await ctx.app.db.select().from(proposals).where(eq(proposals.id, pulsar));
    expect(row).toMatchObject({
      decisionSummaryVersion: opened + 1,
      decisionSummaryBy: chair.user.id,
      decisionSummaryAt: ctx.clock.now(),
    });
    // The same text again, from the version it replaced (a retry whose answer was lost):
    // nothing is lost, so nothing is refused, and nothing more is written.
    const again = await save(chair, pulsar, '<p>Declined, with regret.</p>', opened);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().decisionSummaryVersion).toBe(opened + 1);
  });

  it('lets exactly one of two saves from one version through', async () => {
    const { simulation } = w.proposals;
    const { chair, admin } = w.people;
    const opened = (await detail(chair, simulation)).decisionSummaryVersion!;
    const answers = await Promise.all([
      save(chair, simulation, '<p>Carla’s decision.</p>', opened),
      save(admin, simulation, '<p>Adam’s decision.</p>', opened),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    const winner = answers.find((a) => a.statusCode === 200)!.json() as ProposalDetail;
    const loser = answers.find((a) => a.statusCode === 409)!.json();
    expect(loser.current).toMatchObject({
      summary: winner.decisionSummary,
      version: opened + 1,
    });
    expect((await detail(chair, simulation)).decisionSummaryVersion).toBe(opened + 1);
  });

  it('needs the version the save started from', async () => {
    const res = await w.people.chair.call('POST', '/update_decision_summary/', {
      proposalId: w.proposals.galaxy,
      summary: '<p>No version.</p>',
    });
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().fields)).toEqual(['version']);
  });
});
