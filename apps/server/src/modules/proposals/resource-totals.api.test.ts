import type { CallProposalPage } from '@merit/contract';
import { facilitiesOf, resourceTotals, type ResourceValues } from '@merit/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caller, makeForm, makeFormName } from '../../../test/admin-fixtures.js';
import { callPayload, makeCallForms, makeProposal } from '../../../test/call-fixtures.js';
import {
  auth,
  createTestApp,
  giveRole,
  login,
  makeCommittee,
  makeUser,
  type TestContext,
} from '../../../test/helpers.js';
import { eq } from 'drizzle-orm';
import { proposalResponses, proposals } from '../../db/schema.js';
import { saveCall } from '../calls/calls.service.js';

/**
 * A call's resource totals, one rule written twice: the domain's `resourceTotals` and
 * `facilitiesOf` over the rows' values, and resource-totals.queries.ts's SQL
 * (`resourceTotalsOf`), which sums them in the database so that thousands of proposals
 * need not travel to the app. The chair's list of a call of awkward entries must carry
 * the totals and facilities the domain works out from the same rows.
 */
let ctx: TestContext;
const DAY = 24 * 60 * 60 * 1000;

async function form(type: number, jsonSchema: object, options?: object) {
  const name = await makeFormName(ctx.app, { type });
  return (
    await makeForm(ctx.app, name.id, {
      jsonSchema: jsonSchema as Record<string, unknown>,
      ...(options ? { options: options as Record<string, unknown> } : {}),
    })
  ).id;
}

/** A committee with its chair (logged in), an author, an admin, and a call's usual forms. */
let w: Awaited<ReturnType<typeof makeWorld>>;
async function makeWorld() {
  const committeeId = (await makeCommittee(ctx.app)).id;
  const chair = await makeUser(ctx.app, { firstName: 'Carla', lastName: 'Chair' });
  await giveRole(ctx.app, chair.id, committeeId, 'CHAIR', ctx.clock.now());
  return {
    committeeId,
    chair: caller(ctx.app, auth(await login(ctx.app, chair.username))),
    bob: await makeUser(ctx.app, { firstName: 'Bob', lastName: 'Writer' }),
    admin: await makeUser(ctx.app, { firstName: 'Adam', lastName: 'Admin', isAdmin: true }),
    forms: await makeCallForms(ctx.app),
  };
}

beforeAll(async () => {
  ctx = await createTestApp();
  w = await makeWorld();
});
afterAll(() => ctx.close());

describe('resource totals, summed in SQL, as the domain sums them', () => {
  it('agree on a call of awkward entries: no facility field, missing values, text, drafts', async () => {
    const now = ctx.clock.now();
    const admin = { id: w.admin.id, isAdmin: true };
    const unnamed = await form(
      4,
      { type: 'object', properties: { cpu: { type: 'number' }, gpu: { type: 'number' } } },
      { institution_field: null, data_fields: ['cpu', 'gpu'] },
    );
    const sites = await form(
      5,
      {
        type: 'object',
        properties: { site: { type: ['string', 'integer'] }, hours: { type: 'number' } },
      },
      { institution_field: 'site', data_fields: ['hours'] },
    );
    const callId = await ctx.app.writeAs(admin, (work) =>
      saveCall(
        work,
        callPayload(w.committeeId, w.forms, new Date(now.getTime() - 30 * DAY), {
          name: 'Awkward call',
          proposalTypes: [
            {
              typeName: 'Mixed',
              typeId: null,
              proposalForms: [unnamed, sites],
              reviewForms: [w.forms.review],
            },
          ],
        }),
      ),
    );
    const typeId = (await w.chair('GET', `/calls/${callId}/`)).json().proposalTypes[0]
      .typeId as number;
    const entries: [number, [number, Record<string, unknown>][]][] = [
      [
        1,
        [
          [unnamed, { cpu: 10, gpu: 2 }],
          [sites, { site: 'Narrabri', hours: 5 }],
        ],
      ],
      [
        1,
        [
          [unnamed, { cpu: 1.5 }],
          [sites, { site: 'Narrabri' }],
          [sites, { site: 7, hours: 3 }],
        ],
      ],
      [
        1,
        [
          [sites, { hours: 4 }],
          [sites, { site: '', hours: 1 }],
          [unnamed, { cpu: 'lots' }],
        ],
      ],
      [1, [[sites, { site: 'Mopra' }]]],
      [
        0,
        [
          [unnamed, { cpu: 500 }],
          [sites, { site: 'Draftville', hours: 9 }],
        ],
      ],
      [1, []],
    ];
    for (const [stateVal, answers] of entries) {
      const proposal = await makeProposal(ctx.app, {
        callId,
        proposalTypeId: typeId,
        authorId: w.bob.id,
        stateVal,
      });
      const indexes = new Map<number, number>();
      for (const [formId, data] of answers) {
        const entryIndex = indexes.get(formId) ?? 0;
        indexes.set(formId, entryIndex + 1);
        await ctx.app.db
          .insert(proposalResponses)
          .values({ proposalId: proposal.id, formId, entryIndex, data, updatedAt: now });
      }
    }

    const res = await w.chair('GET', `/calls/${callId}/proposals/?pageSize=100`);
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json() as CallProposalPage;
    const values = page.items.map((i) => ({
      stateVal: i.stateVal,
      values: i.resourceValues as ResourceValues,
    }));
    // The same answer as the domain's sums of the rows' values (worked out in the app)...
    expect(page.resourceTotals).toEqual(resourceTotals(values));
    expect(page.facilities).toEqual(facilitiesOf(values.map((v) => v.values)));
    // ...and the figures a person works out by hand.
    expect(page.resourceTotals).toEqual({
      '': { cpu: 11.5, gpu: 2, hours: 5 },
      '7': { hours: 3 },
      Mopra: {},
      Narrabri: { hours: 5 },
    });
    expect(page.facilities).toEqual(['', '7', 'Draftville', 'Mopra', 'Narrabri']);
  });
});

describe('Filter by Facility and the resource fields’ titles', () => {
  it('lists only the proposals asking of the facility, and names the fields by their titles', async () => {
    const now = ctx.clock.now();
    const admin = { id: w.admin.id, isAdmin: true };
    const cloud = await form(
      5,
      {
        type: 'object',
        properties: {
          site: { type: 'string', title: 'Facility' },
          cpu_hours: { type: 'number', title: 'CPU hours' },
          disk: { type: 'number' },
        },
      },
      { institution_field: 'site', data_fields: ['cpu_hours', 'disk'] },
    );
    const callId = await ctx.app.writeAs(admin, (work) =>
      saveCall(
        work,
        callPayload(w.committeeId, w.forms, new Date(now.getTime() - 30 * DAY), {
          name: 'Filtered call',
          proposalTypes: [
            {
              typeName: 'Cloud',
              typeId: null,
              proposalForms: [cloud],
              reviewForms: [w.forms.review],
            },
          ],
        }),
      ),
    );
    const typeId = (await w.chair('GET', `/calls/${callId}/`)).json().proposalTypes[0]
      .typeId as number;
    const asks: [string, Record<string, unknown>[]][] = [
      ['Alpha', [{ site: 'GPU Cloud', cpu_hours: 10 }]],
      ['Beta', [{ site: 'Tape', disk: 4 }, { site: 'GPU Cloud' }]],
      ['Gamma', [{ site: 'Tape', disk: 2 }]],
      ['Delta', [{ cpu_hours: 1 }]],
      ['Epsilon', []],
    ];
    for (const [name, answers] of asks) {
      const proposal = await makeProposal(ctx.app, {
        callId,
        proposalTypeId: typeId,
        authorId: w.bob.id,
        stateVal: 1,
      });
      await ctx.app.db.update(proposals).set({ name }).where(eq(proposals.id, proposal.id));
      for (const [entryIndex, data] of answers.entries())
        await ctx.app.db
          .insert(proposalResponses)
          .values({ proposalId: proposal.id, formId: cloud, entryIndex, data, updatedAt: now });
    }
    const names = async (query: string) => {
      const res = await w.chair('GET', `/calls/${callId}/proposals/?pageSize=100${query}`);
      expect(res.statusCode, res.body).toBe(200);
      const page = res.json() as CallProposalPage;
      return { names: page.items.map((i) => i.proposalName), page };
    };

    const all = await names('');
    expect(all.names).toEqual(['Alpha', 'Beta', 'Delta', 'Epsilon', 'Gamma']);
    // A field without a title is named by its key: it is absent here.
    expect(all.page.resourceTitles).toEqual({ cpu_hours: 'CPU hours' });
    // An entry naming the facility without an amount still asks of it (Beta's).
    expect((await names('&facility=GPU%20Cloud')).names).toEqual(['Alpha', 'Beta']);
    const tape = await names('&facility=Tape&sort=-resource&sortFacility=Tape&sortField=disk');
    expect(tape.names).toEqual(['Beta', 'Gamma']);
    expect(tape.page.total).toBe(2);
    // The unnamed facility is the empty name; searching narrows the filtered rows further.
    expect((await names('&facility=')).names).toEqual(['Delta']);
    expect((await names('&facility=Tape&q=gam')).names).toEqual(['Gamma']);
    expect((await names('&facility=Nowhere')).names).toEqual([]);

    // The export carries the same titles; its lean rows none.
    const exported = await w.chair('GET', `/calls/${callId}/proposals/export/`);
    expect(exported.json().resourceTitles).toEqual({ cpu_hours: 'CPU hours' });
    const lean = await w.chair('GET', `/calls/${callId}/proposals/export/?columns=lean`);
    expect(lean.json().resourceTitles).toEqual({});
  });
});
