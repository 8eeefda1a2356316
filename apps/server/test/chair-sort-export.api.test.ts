import {
  exportColumnsMessage,
  exportTypeNotInCall,
  resourceSortMessages,
  type CallProposal,
  type CallProposalExport,
  type CallProposalPage,
} from '@merit/contract';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  proposalCollaborators,
  proposalResponses,
  proposals,
  reviewResponses,
  reviews,
} from '../src/db/schema.js';
import { saveCall } from '../src/modules/calls/calls.service.js';
import { caller, makeForm, makeFormName } from './admin-fixtures.js';
import { assignReviewers, callPayload, makeProposal } from './call-fixtures.js';
import {
  auth,
  createTestApp,
  giveRole,
  login,
  makeCommittee,
  makeUser,
  type TestContext,
} from './helpers.js';

/**
 * The chair's list sorted by a resource column across the whole call, in SQL, in the
 * order the domain's `resourceValues` give (issue 14: "sorting by any column, numbers
 * sort as numbers, N/A last"), and the chair's export: the whole call's list in one read,
 * the same rows as the pages give, for chairs only.
 */
let ctx: TestContext;

async function form(type: number, jsonSchema: object, options?: object) {
  const name = await makeFormName(ctx.app, { type });
  return (
    await makeForm(ctx.app, name.id, {
      jsonSchema: jsonSchema as Record<string, unknown>,
      ...(options ? { options: options as Record<string, unknown> } : {}),
    })
  ).id;
}

const facilitySchema = (fields: string[]) => ({
  type: 'object',
  properties: {
    facility: { type: 'string' },
    ...Object.fromEntries(fields.map((f) => [f, { type: 'number' }])),
  },
});

type Entries = [formId: number, data: Record<string, unknown>][];

let w: Awaited<ReturnType<typeof makeWorld>>;

/**
 * A call of one type with three resource forms: telescopes (many entries: hours and
 * nights per facility), computing (one entry: hours per facility) and an unnamed
 * facility's disk (no facility field). Its proposals ask for amounts whose order by
 * number differs from their order as text and by name; some ask nothing, some give text,
 * zero, or split one facility's hours over several entries and forms.
 */
async function makeWorld() {
  const now = ctx.clock.now();
  const committeeId = (await makeCommittee(ctx.app)).id;
  const person = async (firstName: string, lastName: string, isAdmin = false) => {
    const user = await makeUser(ctx.app, { firstName, lastName, isAdmin });
    const headers = auth(await login(ctx.app, user.username));
    return { user, headers, call: caller(ctx.app, headers) };
  };
  const chair = await person('Carla', 'Chair');
  const member = await person('Mia', 'Member');
  const author = await person('Ada', 'Author');
  const admin = await person('Adam', 'Admin', true);
  await giveRole(ctx.app, chair.user.id, committeeId, 'CHAIR', now);
  await giveRole(ctx.app, member.user.id, committeeId, 'MEMBER', now);

  const forms = {
    project: await form(0, { type: 'object', properties: { title: { type: 'string' } } }),
    telescope: await form(5, facilitySchema(['hours', 'nights']), {
      institution_field: 'facility',
      data_fields: ['hours', 'nights'],
    }),
    compute: await form(4, facilitySchema(['hours']), {
      institution_field: 'facility',
      data_fields: ['hours'],
    }),
    disk: await form(4, facilitySchema(['hours', 'terabytes']), {
      institution_field: null,
      data_fields: ['terabytes'],
    }),
    review: await form(2, {
      type: 'object',
      properties: { strengths: { type: 'string', title: 'Strengths' } },
    }),
    score: await form(
      3,
      { type: 'object', properties: { merit: { type: 'integer', title: 'Merit' } } },
      { method: 'average', fields: ['merit'] },
    ),
  };
  const callId = await ctx.app.writeAs({ id: admin.user.id, isAdmin: true }, (work) =>
    saveCall(
      work,
      callPayload(
        committeeId,
        { proposal: forms.project, proposalMulti: forms.telescope, ...forms },
        now,
        {
          name: 'Sorted sky',
          proposalTypes: [
            {
              typeName: 'Observing',
              typeId: null,
              proposalForms: [forms.project, forms.telescope, forms.compute, forms.disk],
              reviewForms: [forms.review, forms.score],
            },
          ],
        },
      ),
    ),
  );
  const typeId = (await chair.call('GET', `/calls/${callId}/`)).json().proposalTypes[0]
    .typeId as number;

  const { telescope, compute, disk } = forms;
  const propose = async (
    name: string,
    entries: Entries,
    { stateVal = 1, authorId = author.user.id } = {},
  ) => {
    const proposal = await makeProposal(ctx.app, {
      callId,
      proposalTypeId: typeId,
      authorId,
      stateVal,
    });
    await ctx.app.db.update(proposals).set({ name }).where(eq(proposals.id, proposal.id));
    const indexes = new Map<number, number>();
    for (const [formId, data] of entries) {
      const entryIndex = indexes.get(formId) ?? 0;
      indexes.set(formId, entryIndex + 1);
      await ctx.app.db
        .insert(proposalResponses)
        .values({ proposalId: proposal.id, formId, entryIndex, data, updatedAt: now });
    }
    return proposal.id;
  };
  // Made in an order that is neither the names' nor the amounts'.
  const ids = {
    /** 10 + 2.5 telescope hours and 100 computing hours at ATCA: 112.5. */
    split: await propose('Quasars', [
      [telescope, { facility: 'ATCA', hours: 10, nights: 1 }],
      [telescope, { facility: 'Parkes', hours: 4 }],
      [telescope, { facility: 'ATCA', hours: 2.5, nights: 2 }],
      [compute, { facility: 'ATCA', hours: 100 }],
      [disk, { terabytes: 3 }],
    ]),
    /** 1000 hours: after 112.5 as a number, before it as text. */
    large: await propose('Andromeda', [[telescope, { facility: 'ATCA', hours: 1000 }]]),
    seven: await propose('Magellan', [
      [telescope, { facility: 'ATCA', hours: 7, nights: 30 }],
      [disk, { terabytes: 0.5 }],
    ]),
    /** Parkes only: N/A under ATCA. */
    parkes: await propose('Pulsars', [[telescope, { facility: 'Parkes', hours: 50, nights: 5 }]]),
    /** Names ATCA with nights only: N/A under ATCA hours. */
    nightsOnly: await propose('Nebulae', [[telescope, { facility: 'ATCA', nights: 2 }]]),
    nothing: await propose('Blank', []),
    zero: await propose('Zodiac', [[telescope, { facility: 'ATCA', hours: 0 }]]),
    /** Text is no number: N/A. */
    text: await propose('Comets', [[telescope, { facility: 'ATCA', hours: 'lots' }]]),
    /** Drafts are in the chair's list, and sort with the rest. */
    draft: await propose('Draft dust', [[compute, { facility: 'ATCA', hours: 20 }]], {
      stateVal: 0,
    }),
    /** Computing hours without a facility: the unnamed facility's, not ATCA's. */
    unnamed: await propose('Galaxies', [[compute, { hours: 5 }]]),
    /** The chair's own: its resources show in the chair's list, and sort. */
    own: await propose('Chair’s own', [[telescope, { facility: 'ATCA', hours: 30 }]], {
      authorId: chair.user.id,
    }),
    /** A draft the chair collaborates on: the chair may edit it. */
    shared: await propose('Shared draft', [[compute, { facility: 'Parkes', hours: 1 }]], {
      stateVal: 0,
      authorId: member.user.id,
    }),
  };
  await ctx.app.db
    .insert(proposalCollaborators)
    .values({ proposalId: ids.shared, userId: chair.user.id });

  // Reviews, so the export's rows carry scores and comments (and the chair's own none).
  await assignReviewers(ctx.app, ids.split, [member.user.id]);
  await assignReviewers(ctx.app, ids.own, [member.user.id]);
  for (const [proposalId, merit] of [
    [ids.split, 4],
    [ids.seven, 2],
    [ids.own, 5],
  ] as const) {
    const [review] = await ctx.app.db
      .insert(reviews)
      .values({
        proposalId,
        reviewerId: member.user.id,
        score: merit,
        scores: [{ name: 'merit', value: merit }],
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    await ctx.app.db.insert(reviewResponses).values([
      {
        reviewId: review!.id,
        formId: forms.review,
        data: { strengths: `Merit ${merit}` },
        updatedAt: now,
      },
      { reviewId: review!.id, formId: forms.score, data: { merit }, updatedAt: now },
    ]);
  }
  return { committeeId, forms, callId, ids, people: { chair, member, author, admin } };
}

beforeAll(async () => {
  ctx = await createTestApp();
  w = await makeWorld();
});
afterAll(() => ctx.close());

type Person = (typeof w.people)['chair'];

const get = (who: Person, query: string) =>
  who.call('GET', `/calls/${w.callId}/proposals/?${query}`);

async function pageOf(who: Person, query: string) {
  const res = await get(who, query);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as CallProposalPage;
}

/** Every row of the list, page after page of `pageSize`. */
async function allPages(who: Person, query: string, pageSize: number) {
  const rows: CallProposal[] = [];
  for (let page = 1; ; page += 1) {
    const answer = await pageOf(who, `${query}&page=${page}&pageSize=${pageSize}`);
    rows.push(...answer.items);
    if (rows.length >= answer.total) return { rows, last: answer };
  }
}

/**
 * Spec section 9: "Proposals in state Draft that are not reviewed are excluded from
 * downloads", so the export holds the list's rows but those.
 */
const inDownloads = (row: CallProposal) => !(row.stateVal === 0 && !row.isReviewed);

const resourceQuery = (facility: string, field: string, descending = false) =>
  new URLSearchParams({
    sort: descending ? '-resource' : 'resource',
    sortFacility: facility,
    sortField: field,
  }).toString();

/**
 * The order the domain's values give: the rows with an amount in the column by amount
 * (ties by id, as the server breaks them), then those without one (N/A) by id.
 */
function domainOrder(
  rows: readonly CallProposal[],
  facility: string,
  field: string,
  descending: boolean,
) {
  const amount = (row: CallProposal) => row.resourceValues?.[facility]?.[field];
  const byId = (a: CallProposal, b: CallProposal) => a.id - b.id;
  const valued = rows.filter((row) => amount(row) !== undefined);
  const missing = rows.filter((row) => amount(row) === undefined);
  valued.sort((a, b) => {
    const difference = amount(a)! - amount(b)!;
    return (descending ? -difference : difference) || byId(a, b);
  });
  return [...valued, ...missing.sort(byId)].map((row) => row.id);
}

describe('sorting the chair’s list by a resource column', () => {
  it('sorts the whole call by amount, numbers as numbers, N/A last, page after page', async () => {
    const { ids } = w;
    const query = resourceQuery('ATCA', 'hours');
    const ascending = await allPages(w.people.chair, query, 3);
    expect(ascending.rows.map((r) => r.id)).toEqual([
      ids.zero,
      ids.seven,
      ids.draft,
      ids.own,
      ids.split,
      ids.large,
      // N/A, made first first.
      ids.parkes,
      ids.nightsOnly,
      ids.nothing,
      ids.text,
      ids.unnamed,
      ids.shared,
    ]);
    expect(ascending.last.sort).toBe('resource');
    const descending = await allPages(w.people.chair, resourceQuery('ATCA', 'hours', true), 5);
    expect(descending.rows.map((r) => r.id)).toEqual([
      ids.large,
      ids.split,
      ids.own,
      ids.draft,
      ids.seven,
      ids.zero,
      ids.parkes,
      ids.nightsOnly,
      ids.nothing,
      ids.text,
      ids.unnamed,
      ids.shared,
    ]);
    // The amounts the rows show in that column: multi-entry and multi-form sums.
    const shown = (id: number) => ascending.rows.find((r) => r.id === id)!.resourceValues;
    expect(shown(ids.split)).toEqual({
      ATCA: { hours: 112.5, nights: 3 },
      Parkes: { hours: 4 },
      '': { terabytes: 3 },
    });
    expect(shown(ids.nightsOnly)).toEqual({ ATCA: { nights: 2 } });
    expect(shown(ids.text)).toEqual({ ATCA: {} });
  });

  it.each([
    ['ATCA', 'hours'],
    ['ATCA', 'nights'],
    ['Parkes', 'hours'],
    ['Parkes', 'nights'],
    ['', 'terabytes'],
    ['', 'hours'],
  ])('agrees with the domain’s values on %j %s, both ways', async (facility, field) => {
    const everything = (await pageOf(w.people.chair, 'pageSize=100')).items;
    for (const descending of [false, true]) {
      const sorted = await allPages(w.people.chair, resourceQuery(facility, field, descending), 4);
      expect(
        sorted.rows.map((r) => r.id),
        `${descending ? 'descending' : 'ascending'}`,
      ).toEqual(domainOrder(everything, facility, field, descending));
    }
  });

  it('sorts the rows a search finds', async () => {
    const page = await pageOf(w.people.chair, `${resourceQuery('ATCA', 'hours', true)}&q=dr`);
    // The names with "dr" in them, by ATCA hours, most first, N/A last.
    expect(page.items.map((i) => i.proposalName)).toEqual([
      'Andromeda',
      'Draft dust',
      'Shared draft',
    ]);
    expect(page.total).toBe(3);
  });

  it('gives admins the chairs’ order', async () => {
    const chairs = await allPages(w.people.chair, resourceQuery('Parkes', 'hours', true), 100);
    const admins = await allPages(w.people.admin, resourceQuery('Parkes', 'hours', true), 100);
    expect(admins.rows.map((r) => r.id)).toEqual(chairs.rows.map((r) => r.id));
  });

  it('gives members and authors no order from it, whatever it names', async () => {
    for (const who of [w.people.member, w.people.author]) {
      for (const query of [resourceQuery('ATCA', 'hours', true), resourceQuery('Nowhere', 'x')]) {
        const page = await pageOf(who, `${query}&pageSize=100`);
        expect(page.items.length).toBeGreaterThan(0);
        for (const item of page.items) expect(item).not.toHaveProperty('resourceValues');
        const ids = page.items.map((i) => i.id);
        expect(ids).toEqual([...ids].sort((a, b) => a - b));
      }
    }
  });

  it.each([
    ['sort=resource&sortField=hours', 'sortFacility', resourceSortMessages.noFacility],
    ['sort=-resource&sortFacility=ATCA', 'sortField', resourceSortMessages.noField],
    ['sort=name&sortFacility=ATCA', 'sortFacility', resourceSortMessages.stray],
    ['sortField=hours', 'sortField', resourceSortMessages.stray],
  ])('refuses %s: %s', async (query, field, message) => {
    const res = await get(w.people.chair, query);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'validation_error', fields: { [field]: [message] } });
  });

  it.each([
    [
      'a facility no proposal names',
      resourceQuery('Mopra', 'hours'),
      'sortFacility',
      resourceSortMessages.unknownFacility('Mopra'),
    ],
    [
      'a field no resource form has',
      resourceQuery('ATCA', 'title'),
      'sortField',
      resourceSortMessages.unknownField('title'),
    ],
    [
      'the unnamed facility’s field of no form',
      resourceQuery('', 'gigabytes'),
      'sortField',
      resourceSortMessages.unknownField('gigabytes'),
    ],
  ])('refuses %s with a message that says so', async (_what, query, field, message) => {
    const res = await get(w.people.chair, query);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      detail: message,
      code: 'validation_error',
      fields: { [field]: [message] },
    });
  });

  it('refuses a facility or field given twice', async () => {
    const res = await get(
      w.people.chair,
      'sort=resource&sortFacility=ATCA&sortFacility=Parkes&sortField=hours',
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toHaveProperty('sortFacility');
  });
});

describe('the chair’s export: the whole call in one read', () => {
  const exportOf = (who: Person, callId = w.callId, query = '') =>
    who.call('GET', `/calls/${callId}/proposals/export/${query}`);
  const everything = '?include=allReviewScores,allReviewComments';

  it('holds the rows the pages hold, in the list’s order, with the call’s totals', async () => {
    // The pages' rows but for the conflicts' counts: the list's badges, which no download
    // writes (counting them was most of a 30,000-proposal export).
    const withoutCounts = ({ conflicts: _counts, ...row }: CallProposal) => row;
    for (const who of [w.people.chair, w.people.admin]) {
      const res = await exportOf(who, w.callId, everything);
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json() as CallProposalExport;
      const pages = await allPages(who, 'sort=name', 2);
      expect(pages.rows.some((row) => row.conflicts !== undefined)).toBe(true);
      expect(body.items.some((row) => row.conflicts !== undefined)).toBe(false);
      expect(body.items).toEqual(pages.rows.filter(inDownloads).map(withoutCounts));
      expect(body.total).toBe(body.items.length);
      expect(body.total).toBe(Object.keys(w.ids).length - 2);
      expect(body.resourceTotals).toEqual(pages.last.resourceTotals);
      expect(body.facilities).toEqual(pages.last.facilities);
    }
  });

  it('leaves out the drafts, which no download holds, and only them', async () => {
    const pages = await allPages(w.people.chair, 'sort=name', 5);
    const drafts = pages.rows.filter((row) => row.stateVal === 0).map((row) => row.id);
    expect(drafts.sort()).toEqual([w.ids.draft, w.ids.shared].sort());
    for (const query of [
      '',
      everything,
      '?columns=lean',
      `?type=${pages.rows[0]!.proposalTypeId}`,
    ]) {
      const res = await exportOf(w.people.chair, w.callId, query);
      expect(res.statusCode, res.body).toBe(200);
      const ids = (res.json() as CallProposalExport).items.map((item) => item.id);
      expect(ids, query).toEqual(pages.rows.filter(inDownloads).map((row) => row.id));
      for (const draft of drafts) expect(ids, query).not.toContain(draft);
      // Not a word of them: the draft's name and its resources.
      expect(res.body, query).not.toContain('Draft dust');
    }
  });

  it('sends each review’s scores and comments only when include names them', async () => {
    const full = (
      await exportOf(w.people.chair, w.callId, everything)
    ).json() as CallProposalExport;
    const without = (...fields: ('allReviewScores' | 'allReviewComments')[]) =>
      full.items.map((item) => {
        const row: Record<string, unknown> = { ...item };
        for (const field of fields) delete row[field];
        return row;
      });
    const cases = [
      ['', without('allReviewScores', 'allReviewComments')],
      ['?include=', without('allReviewScores', 'allReviewComments')],
      ['?include=allReviewScores', without('allReviewComments')],
      ['?include=allReviewComments', without('allReviewScores')],
      ['?include=allReviewComments,allReviewScores,allReviewComments', without()],
    ] as const;
    for (const [query, items] of cases) {
      const res = await exportOf(w.people.chair, w.callId, query);
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json() as CallProposalExport;
      expect(body.items, query).toEqual(items);
      expect({ ...body, items: [] }).toEqual({ ...full, items: [] });
    }
    // Without comments, not one word of a review's answers is sent.
    const scoresOnly = (await exportOf(w.people.chair)).body;
    expect(full.items.some((item) => (item.allReviewComments ?? []).length > 0)).toBe(true);
    expect(scoresOnly).not.toContain('Merit 4');
    expect(scoresOnly).toContain('"reviewScores"');
  });

  it('refuses an include it does not know, naming the parts it knows', async () => {
    for (const query of [
      '?include=comments',
      '?include=allReviewScores,secrets',
      `?include=${'a'.repeat(300)}`,
    ]) {
      const res = await exportOf(w.people.chair, w.callId, query);
      expect(res.statusCode, query).toBe(400);
      expect(res.json()).toMatchObject({
        code: 'validation_error',
        fields: {
          include: [
            'Include any of: allReviewScores, allReviewComments, decisions, ranking, comma-separated.',
          ],
        },
      });
    }
  });

  it('carries the chair’s columns, and nothing of the reviews of the chair’s own', async () => {
    const body = (
      await exportOf(w.people.chair, w.callId, everything)
    ).json() as CallProposalExport;
    const row = (id: number) => body.items.find((i) => i.id === id)!;
    expect(row(w.ids.split)).toMatchObject({
      reviewers: [{ id: w.people.member.user.id, name: 'Mia Member' }],
      score: 4,
      allReviewComments: [
        { reviewer: { name: 'Mia Member' }, comments: [{ name: 'Strengths', value: 'Merit 4' }] },
      ],
      resourceValues: { ATCA: { hours: 112.5, nights: 3 } },
    });
    const own = row(w.ids.own);
    expect(own.resourceValues).toEqual({ ATCA: { hours: 30 } });
    for (const field of [
      'reviewers',
      'score',
      'reviewScores',
      'allReviewScores',
      'allReviewComments',
    ])
      expect(own).not.toHaveProperty(field);
    expect(JSON.stringify(body)).not.toContain('Merit 5');
    // Only a draft may be edited, and no download holds one.
    for (const item of body.items) expect(item.editable).toBe(false);
    expect(body.resourceTotals).toEqual({
      '': { hours: 5, terabytes: 3.5 },
      ATCA: { hours: 1149.5, nights: 35 },
      Parkes: { hours: 54, nights: 5 },
    });
  });

  it('refuses everyone but the call’s chairs', async () => {
    for (const who of [w.people.member, w.people.author])
      for (const query of ['', everything, '?include=allReviewComments']) {
        const res = await exportOf(who, w.callId, query);
        expect(res.statusCode, query).toBe(403);
        expect(res.json()).toMatchObject({ code: 'forbidden', detail: expect.any(String) });
        expect(res.body).not.toContain('Quasars');
        expect(res.body).not.toContain('Merit');
      }
    const anonymous = await ctx.app.inject({
      method: 'GET',
      url: `/api/v1/calls/${w.callId}/proposals/export/`,
    });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().code).toBe('not_authenticated');
    for (const missing of [String(w.callId + 1000), 'x1', '0']) {
      const res = await w.people.chair.call(
        'GET',
        `/calls/${missing}/proposals/export/?include=allReviewComments`,
      );
      expect(res.statusCode).toBe(404);
      expect(res.json().code).toBe('not_found');
    }
  });

  it('writes each review’s comments as the list does: texts only, blanks left out, in the forms’ order', async () => {
    // Two more reviews of one proposal: a text where the score form has a number, a blank
    // and an undeclared answer, spaces kept; and a review without answers. The export
    // reads only answers holding a text and writes the comments as JSON text itself.
    const now = ctx.clock.now();
    const later = (seconds: number) => new Date(now.getTime() + seconds * 1000);
    const reviewed = await ctx.app.db
      .insert(reviews)
      .values(
        [w.people.admin, w.people.author].map((who, i) => ({
          proposalId: w.ids.seven,
          reviewerId: who.user.id,
          score: null,
          scores: [],
          createdAt: later(i + 1),
          updatedAt: later(i + 1),
        })),
      )
      .returning();
    await ctx.app.db.insert(reviewResponses).values([
      {
        reviewId: reviewed[0]!.id,
        formId: w.forms.review,
        data: { strengths: ' \u00a0\u3000\n ', unasked: 'not a question of the form' },
        updatedAt: now,
      },
      { reviewId: reviewed[0]!.id, formId: w.forms.score, data: { merit: 'five' }, updatedAt: now },
    ]);
    try {
      const res = await exportOf(w.people.chair, w.callId, '?include=allReviewComments');
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json() as CallProposalExport;
      const seven = body.items.find((item) => item.id === w.ids.seven)!;
      expect(seven.allReviewComments).toEqual([
        {
          reviewer: { id: w.people.member.user.id, name: 'Mia Member' },
          comments: [{ name: 'Strengths', value: 'Merit 2' }],
        },
        {
          reviewer: { id: w.people.admin.user.id, name: 'Adam Admin' },
          comments: [{ name: 'Merit', value: 'five' }],
        },
        { reviewer: { id: w.people.author.user.id, name: 'Ada Author' }, comments: [] },
      ]);
      expect(res.body).not.toContain('not a question of the form');
      // The list's pages make the same comments from every answer, as objects.
      const pages = await allPages(w.people.chair, 'sort=name', 3);
      expect(body.items.map((item) => item.allReviewComments)).toEqual(
        pages.rows.filter(inDownloads).map((row) => row.allReviewComments),
      );
    } finally {
      await ctx.app.db.delete(reviews).where(
        inArray(
          reviews.id,
          reviewed.map((review) => review.id),
        ),
      );
    }
  });

  it('gives a call without proposals no rows, no totals and no facilities', async () => {
    const { forms } = w;
    const emptyCallId = await ctx.app.writeAs(
      { id: w.people.admin.user.id, isAdmin: true },
      (work) =>
        saveCall(
          work,
          callPayload(
            w.committeeId,
            { proposal: forms.project, proposalMulti: forms.telescope, ...forms },
            ctx.clock.now(),
            { name: 'Empty call' },
          ),
        ),
    );
    const res = await exportOf(w.people.chair, emptyCallId);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      items: [],
      total: 0,
      resourceTotals: {},
      facilities: [],
      resourceTitles: {},
    });
  });
});

describe('the chair’s export of one proposal type', () => {
  /** A call of two types, each with its own resource and review forms, beside `w`'s. */
  let two: Awaited<ReturnType<typeof makeTwoTypes>>;

  async function makeTwoTypes() {
    const { forms, people } = w;
    const now = ctx.clock.now();
    const risks = await form(2, {
      type: 'object',
      properties: { risks: { type: 'string', title: 'Risks' } },
    });
    const callId = await ctx.app.writeAs({ id: people.admin.user.id, isAdmin: true }, (work) =>
      saveCall(
        work,
        callPayload(
          w.committeeId,
          { proposal: forms.project, proposalMulti: forms.telescope, ...forms },
          now,
          {
            name: 'Two kinds',
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
                proposalForms: [forms.project, forms.compute, forms.disk],
                reviewForms: [risks, forms.score],
              },
            ],
          },
        ),
      ),
    );
    const types = (await people.chair.call('GET', `/calls/${callId}/`)).json().proposalTypes as {
      typeId: number;
    }[];
    const [observing, computing] = types.map((type) => type.typeId) as [number, number];
    const propose = async (
      name: string,
      proposalTypeId: number,
      entries: Entries,
      { stateVal = 1, authorId = people.author.user.id } = {},
    ) => {
      const proposal = await makeProposal(ctx.app, { callId, proposalTypeId, authorId, stateVal });
      await ctx.app.db.update(proposals).set({ name }).where(eq(proposals.id, proposal.id));
      for (const [i, [formId, data]] of entries.entries())
        await ctx.app.db
          .insert(proposalResponses)
          .values({ proposalId: proposal.id, formId, entryIndex: i, data, updatedAt: now });
      return proposal.id;
    };
    const review = async (proposalId: number, answers: [number, Record<string, unknown>][]) => {
      await assignReviewers(ctx.app, proposalId, [people.member.user.id]);
      const [row] = await ctx.app.db
        .insert(reviews)
        .values({
          proposalId,
          reviewerId: people.member.user.id,
          score: 3,
          scores: [{ name: 'merit', value: 3 }],
          createdAt: now,
          updatedAt: now,
        })
        .returning();
      await ctx.app.db
        .insert(reviewResponses)
        .values(
          answers.map(([formId, data]) => ({ reviewId: row!.id, formId, data, updatedAt: now })),
        );
    };
    const alpha = await propose('Alpha', observing, [
      [forms.telescope, { facility: 'ATCA', hours: 10, nights: 1 }],
    ]);
    await propose('Arc', observing, [[forms.telescope, { facility: 'Parkes', hours: 3 }]], {
      stateVal: 0,
    });
    const beta = await propose('Beta', computing, [
      [forms.compute, { facility: 'Pawsey', hours: 100 }],
      [forms.disk, { terabytes: 2 }],
    ]);
    await propose('Bog', computing, [[forms.compute, { facility: 'ATCA', hours: 7 }]]);
    await propose(
      'Chair’s computing',
      computing,
      [[forms.compute, { facility: 'Pawsey', hours: 1 }]],
      {
        authorId: people.chair.user.id,
      },
    );
    await review(alpha, [
      [forms.review, { strengths: 'Observing words' }],
      [forms.score, { merit: 3 }],
    ]);
    await review(beta, [
      [risks, { risks: 'Computing words' }],
      [forms.score, { merit: 3 }],
    ]);
    return { callId, observing, computing };
  }

  beforeAll(async () => {
    two = await makeTwoTypes();
  });

  const everything = 'include=allReviewScores,allReviewComments';
  const exportOf = (who: Person, query: string, callId = two.callId) =>
    who.call('GET', `/calls/${callId}/proposals/export/?${query}`);

  it('holds that type’s proposals only: the whole call’s rows of the type, with their scores and comments', async () => {
    const whole = (await exportOf(w.people.chair, everything)).json() as CallProposalExport;
    // Five proposals, of which the draft Arc is in no download.
    expect(whole.total).toBe(4);
    for (const [typeId, names, words, others] of [
      [two.observing, ['Alpha'], 'Observing words', 'Computing words'],
      [two.computing, ['Beta', 'Bog', 'Chair’s computing'], 'Computing words', 'Observing words'],
    ] as const) {
      for (const include of ['', 'include=allReviewComments', everything]) {
        const res = await exportOf(w.people.chair, `${include}&type=${typeId}`);
        expect(res.statusCode, res.body).toBe(200);
        const body = res.json() as CallProposalExport;
        const unfiltered = (await exportOf(w.people.chair, include)).json() as CallProposalExport;
        const ofType = unfiltered.items.filter((item) => item.proposalTypeId === typeId);
        expect(body.items, include).toEqual(ofType);
        expect(body.total).toBe(ofType.length);
        expect(body.items.map((item) => item.proposalName)).toEqual(names);
        if (include !== '') expect(res.body).toContain(words);
        expect(res.body).not.toContain(others);
      }
    }
    // The comments are the type's review forms' (Strengths or Risks), as in the whole call.
    const computing = (
      await exportOf(w.people.chair, `${everything}&type=${two.computing}`)
    ).json() as CallProposalExport;
    expect(computing.items[0]!.allReviewComments).toEqual([
      {
        reviewer: { id: w.people.member.user.id, name: 'Mia Member' },
        comments: [{ name: 'Risks', value: 'Computing words' }],
      },
    ]);
    const beta = whole.items.find((item) => item.proposalName === 'Beta')!;
    expect(beta.allReviewScores).toHaveLength(1);
    expect(computing.items[0]!.allReviewScores).toEqual(beta.allReviewScores);
  });

  it('gives the type’s resource totals and the facilities its proposals name', async () => {
    const whole = (await exportOf(w.people.chair, '')).json() as CallProposalExport;
    expect(whole.resourceTotals).toEqual({
      '': { terabytes: 2 },
      ATCA: { hours: 17, nights: 1 },
      Pawsey: { hours: 101 },
    });
    expect(whole.facilities).toEqual(['', 'ATCA', 'Parkes', 'Pawsey']);
    const observing = (
      await exportOf(w.people.chair, `type=${two.observing}`)
    ).json() as CallProposalExport;
    // The draft's Parkes hours are not counted, but Parkes is named (the list's rule).
    expect(observing.resourceTotals).toEqual({ ATCA: { hours: 10, nights: 1 } });
    expect(observing.facilities).toEqual(['ATCA', 'Parkes']);
    const computing = (
      await exportOf(w.people.chair, `type=${two.computing}`)
    ).json() as CallProposalExport;
    expect(computing.resourceTotals).toEqual({
      '': { terabytes: 2 },
      ATCA: { hours: 7 },
      Pawsey: { hours: 101 },
    });
    expect(computing.facilities).toEqual(['', 'ATCA', 'Pawsey']);
  });

  it('refuses a type that is not an id, or not one of the call’s types', async () => {
    const otherCallsType = (await w.people.chair.call('GET', `/calls/${w.callId}/`)).json()
      .proposalTypes[0].typeId as number;
    for (const type of [otherCallsType, 2147483647]) {
      const res = await exportOf(w.people.chair, `${everything}&type=${type}`);
      expect(res.statusCode, String(type)).toBe(400);
      expect(res.json()).toEqual({
        code: 'validation_error',
        detail: exportTypeNotInCall,
        fields: { type: [exportTypeNotInCall] },
      });
      expect(res.body).not.toContain('Quasars');
    }
    for (const type of ['', 'x', '0', '01', '1.0', '-1', '2147483648', ' 1']) {
      const res = await exportOf(w.people.chair, `type=${encodeURIComponent(type)}`);
      expect(res.statusCode, type).toBe(400);
      expect(res.json()).toMatchObject({
        code: 'validation_error',
        fields: { type: ['Expected an id: a whole number from 1 to 2147483647.'] },
      });
    }
  });

  it('refuses everyone but the call’s chairs, whatever the type', async () => {
    for (const who of [w.people.member, w.people.author])
      for (const type of [two.observing, two.computing, 2147483647]) {
        const res = await exportOf(who, `${everything}&type=${type}`);
        expect(res.statusCode, String(type)).toBe(403);
        expect(res.json()).toMatchObject({ code: 'forbidden' });
        expect(res.body).not.toContain('words');
      }
    const anonymous = await ctx.app.inject({
      method: 'GET',
      url: `/api/v1/calls/${two.callId}/proposals/export/?type=${two.observing}`,
    });
    expect(anonymous.statusCode).toBe(401);
    const missing = await exportOf(w.people.chair, `type=${two.observing}`, two.callId + 1000);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().code).toBe('not_found');
  });
});

describe('the chair’s lean export (columns=lean): only what the Comments download writes', () => {
  const exportOf = (who: Person, query: string, callId = w.callId) =>
    who.call('GET', `/calls/${callId}/proposals/export/?${query}`);
  const bodyOf = async (who: Person, query: string) => {
    const res = await exportOf(who, query);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as CallProposalExport;
  };
  /**
   * The chair's columns a lean row leaves out (the web's Comments test leaves out the same,
   * but for the conflicts' counts, which no download writes).
   */
  const CHAIR_ONLY = ['resourceValues', 'reviewers', 'reviewScores', 'score', 'conflicts'];
  const withoutChairOnly = (row: CallProposal) =>
    Object.fromEntries(Object.entries(row).filter(([key]) => !CHAIR_ONLY.includes(key)));
  /** Every row's own columns, chair or not. */
  const PROPOSAL_COLUMNS = [
    'id',
    'proposalName',
    'proposalTypeId',
    'proposalTypeName',
    'author',
    'authorId',
    'state',
    'stateVal',
    'lastModified',
    'editable',
  ];
  const includes = ['', 'include=allReviewComments', 'include=allReviewScores,allReviewComments'];

  it('holds the chair’s rows without reviewers, scores and resources, and no totals', async () => {
    const typeId = (await bodyOf(w.people.chair, '')).items[0]!.proposalTypeId;
    for (const include of includes)
      for (const type of ['', `&type=${typeId}`]) {
        const query = `${include}${type}`;
        const full = await bodyOf(w.people.chair, query);
        const lean = await bodyOf(w.people.chair, `${query}&columns=lean`);
        expect(lean, query).toEqual({
          items: full.items.map(withoutChairOnly),
          total: full.total,
          resourceTotals: {},
          facilities: [],
          resourceTitles: {},
        });
        // Every proposal but the two drafts.
        expect(lean.total).toBe(Object.keys(w.ids).length - 2);
        // `chair` is what no `columns` gives.
        expect(await bodyOf(w.people.chair, `${query}&columns=chair`), query).toEqual(full);
      }
  });

  it('has exactly the proposal’s columns, isReviewed and the parts asked for; of the chair’s own, the columns only', async () => {
    const lean = await bodyOf(w.people.chair, 'include=allReviewComments&columns=lean');
    const row = (id: number) => lean.items.find((item) => item.id === id)!;
    const keys = (id: number) => Object.keys(row(id)).sort();
    expect(keys(w.ids.split)).toEqual(
      [...PROPOSAL_COLUMNS, 'isReviewed', 'allReviewComments'].sort(),
    );
    expect(row(w.ids.split)).toMatchObject({
      isReviewed: true,
      allReviewComments: [
        { reviewer: { name: 'Mia Member' }, comments: [{ name: 'Strengths', value: 'Merit 4' }] },
      ],
    });
    expect(keys(w.ids.own)).toEqual([...PROPOSAL_COLUMNS].sort());
    expect(JSON.stringify(lean)).not.toContain('Merit 5');
    // The chair's own (the draft the chair collaborates on is in no download).
    const own = [w.ids.own];
    const bare = await bodyOf(w.people.chair, 'columns=lean');
    for (const item of bare.items)
      expect(Object.keys(item).sort(), item.proposalName).toEqual(
        [...PROPOSAL_COLUMNS, ...(own.includes(item.id) ? [] : ['isReviewed'])].sort(),
      );
    // Not a word of the reviews, reviewers or resources without being asked.
    expect(JSON.stringify(bare)).not.toMatch(/Merit|"reviewer|ATCA|hours/);
  });

  it('writes comments that JSON must escape as the list’s pages write them', async () => {
    // The export writes each proposal's comments as JSON text itself; a page makes them as
    // objects. Quotes, backslashes, control and line-separator characters, and a
    // character outside the BMP, in one answer.
    const now = ctx.clock.now();
    const tricky = 'He said "no" \\ then\nleft\t\u0001\u001f \u2028\u2029 😀 </script>';
    const [review] = await ctx.app.db
      .insert(reviews)
      .values({
        proposalId: w.ids.seven,
        reviewerId: w.people.admin.user.id,
        score: null,
        scores: [],
        createdAt: new Date(now.getTime() + 1000),
        updatedAt: now,
      })
      .returning();
    await ctx.app.db.insert(reviewResponses).values({
      reviewId: review!.id,
      formId: w.forms.review,
      data: { strengths: tricky },
      updatedAt: now,
    });
    try {
      const pages = await allPages(w.people.chair, 'sort=name', 5);
      for (const columns of ['lean', 'chair']) {
        const res = await exportOf(w.people.chair, `include=allReviewComments&columns=${columns}`);
        expect(res.statusCode, res.body).toBe(200);
        const body = res.json() as CallProposalExport;
        expect(
          body.items.map((item) => item.allReviewComments),
          columns,
        ).toEqual(pages.rows.filter(inDownloads).map((row) => row.allReviewComments));
        const seven = body.items.find((item) => item.id === w.ids.seven)!;
        expect(seven.allReviewComments![1]).toEqual({
          reviewer: { id: w.people.admin.user.id, name: 'Adam Admin' },
          comments: [{ name: 'Strengths', value: tricky }],
        });
      }
    } finally {
      await ctx.app.db.delete(reviews).where(eq(reviews.id, review!.id));
    }
  });

  it('is compressed as the browser asks, and decompresses to the same answer', async () => {
    const query = 'include=allReviewComments&columns=lean';
    const plain = await exportOf(w.people.chair, query);
    expect(plain.headers['content-encoding']).toBeUndefined();
    for (const [encoding, decompress] of [
      ['br', brotliDecompressSync],
      ['gzip', gunzipSync],
    ] as const) {
      const res = await ctx.app.inject({
        method: 'GET',
        url: `/api/v1/calls/${w.callId}/proposals/export/?${query}`,
        headers: { ...w.people.chair.headers, 'accept-encoding': `${encoding}, identity` },
      });
      expect(res.statusCode, encoding).toBe(200);
      expect(res.headers['content-encoding']).toBe(encoding);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(decompress(res.rawPayload).toString('utf8')).toBe(plain.body);
    }
  });

  it('refuses a columns it does not know, naming the ones it knows', async () => {
    for (const query of [
      'columns=comments',
      'columns=LEAN',
      'columns=',
      'columns=chair,lean',
      'columns=lean&columns=chair',
      'include=allReviewComments&columns=%20lean',
    ]) {
      const res = await exportOf(w.people.chair, query);
      expect(res.statusCode, query).toBe(400);
      expect(res.json(), query).toEqual({
        code: 'validation_error',
        detail: expect.any(String),
        fields: { columns: [exportColumnsMessage] },
      });
      expect(res.body).not.toContain('Quasars');
    }
    expect(exportColumnsMessage).toBe('Columns is one of: chair, lean (chair unless given).');
  });

  it('refuses everyone but the call’s chairs, as the chair’s columns are refused', async () => {
    for (const who of [w.people.member, w.people.author])
      for (const query of ['columns=lean', 'include=allReviewComments&columns=lean']) {
        const res = await exportOf(who, query);
        const full = await exportOf(who, query.replace('columns=lean', 'columns=chair'));
        expect(res.statusCode, query).toBe(403);
        expect(res.json()).toEqual(full.json());
        expect(res.body).not.toContain('Quasars');
        expect(res.body).not.toContain('Merit');
      }
    const anonymous = await ctx.app.inject({
      method: 'GET',
      url: `/api/v1/calls/${w.callId}/proposals/export/?columns=lean`,
    });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().code).toBe('not_authenticated');
    const missing = await exportOf(w.people.chair, 'columns=lean', w.callId + 1000);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().code).toBe('not_found');
  });
});
