import { callMessages, callDateMessages } from '@merit/domain';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobs, proposalCollaborators, proposals } from '../src/db/schema.js';
import { closeCall } from '../src/modules/calls/calls.service.js';
import { decisionAvailableMail } from '../src/modules/proposals/proposals.mails.js';
import { SEND_MAIL_JOB } from '../src/platform/io/mail-job.js';
import type { Mail } from '../src/platform/io/mailer.js';
import { outbox } from './mail.js';
import { proposalTypeOf } from './proposal-fixtures.js';
import {
  auth,
  createTestApp,
  giveRole,
  login,
  makeCommittee,
  makeUser,
  type TestContext,
} from './helpers.js';
import {
  assignReviewers as assign,
  callPayload,
  makeCallForms,
  makeProposal,
  makeReview,
  typesToSave,
  type CallForms,
} from './call-fixtures.js';

const assignReviewers = (proposalId: number, userIds: number[]) =>
  assign(ctx.app, proposalId, userIds);

const DAY = 24 * 60 * 60 * 1000;
let ctx: TestContext;
let forms: CallForms;
let committee: { id: number };
let otherCommittee: { id: number };
let chair: Record<string, string>;
let member: Record<string, string>;
let user: Record<string, string>;
let userId: number;
let chairId: number;
let admin: Record<string, string>;

beforeAll(async () => {
  ctx = await createTestApp();
  forms = await makeCallForms(ctx.app);
  committee = await makeCommittee(ctx.app, 'Astronomy');
  otherCommittee = await makeCommittee(ctx.app, 'Biology');
  const now = ctx.clock.now();
  const c = await makeUser(ctx.app);
  const m = await makeUser(ctx.app);
  const u = await makeUser(ctx.app, { firstName: 'Ursula', lastName: 'Franklin' });
  const a = await makeUser(ctx.app, { isAdmin: true });
  await giveRole(ctx.app, c.id, committee.id, 'CHAIR', now);
  await giveRole(ctx.app, m.id, committee.id, 'MEMBER', now);
  chair = auth(await login(ctx.app, c.username));
  chairId = c.id;
  member = auth(await login(ctx.app, m.username));
  user = auth(await login(ctx.app, u.username));
  userId = u.id;
  admin = auth(await login(ctx.app, a.username));
});
afterAll(() => ctx.close());

const inject = (
  method: 'GET' | 'POST' | 'DELETE',
  url: string,
  headers: Record<string, string>,
  payload?: object,
) => ctx.app.inject({ method, url: `/api/v1${url}`, headers, ...(payload ? { payload } : {}) });

async function createCall(overrides = {}, as = chair) {
  const res = await inject(
    'POST',
    '/new_call/',
    as,
    callPayload(committee.id, forms, ctx.clock.now(), overrides),
  );
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

describe('creating a call', () => {
  it('creates it for a committee the chair chairs, with its types and ordered forms', async () => {
    const call = await createCall();
    expect(call).toMatchObject({
      name: 'Telescope time 2026',
      committeeId: committee.id,
      committeeName: 'Astronomy',
      closed: false,
      isReviewOpen: false,
      abilities: { edit: true, manage: true, close: false, addProposal: true },
    });
    expect(call.proposalTypes).toHaveLength(1);
    expect(call.proposalTypes[0]).toMatchObject({
      typeName: 'Standard',
      proposalForms: [forms.proposal, forms.proposalMulti],
      reviewForms: [forms.review, forms.score],
      hasProposals: false,
    });
    const order = await inject('GET', `/proposal_form_order/${call.id}/`, user);
    expect(order.json()[0].forms.map((f: { id: number }) => f.id)).toEqual([
      forms.proposal,
      forms.proposalMulti,
    ]);
    expect(order.json()[0].forms[0].jsonSchema.type).toBe('object');
    const reviewOrder = await inject('GET', `/review_form_order/${call.id}/`, user);
    expect(reviewOrder.json()[0].forms.map((f: { id: number }) => f.id)).toEqual([
      forms.review,
      forms.score,
    ]);
  });

  it('refuses a chair a committee they do not chair, and everyone who chairs nothing', async () => {
    const payload = callPayload(otherCommittee.id, forms, ctx.clock.now());
    expect((await inject('POST', '/new_call/', chair, payload)).statusCode).toBe(403);
    expect(
      (
        await inject(
          'POST',
          '/new_call/',
          member,
          callPayload(committee.id, forms, ctx.clock.now()),
        )
      ).statusCode,
    ).toBe(403);
    expect((await inject('POST', '/new_call/', admin, payload)).statusCode).toBe(201);
  });

  it.each([
    [
      'close before open',
      { closeDateTime: '2026-05-01T00:00:00Z' },
      'closeDateTime',
      callDateMessages.closeBeforeOpen,
    ],
    [
      'review open before close',
      { reviewOpenDateTime: '2026-06-02T00:00:00Z' },
      'reviewOpenDateTime',
      callDateMessages.reviewOpenBeforeClose,
    ],
    [
      'review close before review open',
      { reviewCloseDateTime: '2026-06-07T00:00:00Z' },
      'reviewCloseDateTime',
      callDateMessages.reviewCloseBeforeOpen,
    ],
    ['no name', { name: '  ' }, 'name', 'This field is required.'],
    [
      'a long name',
      { name: 'x'.repeat(256) },
      'name',
      'Ensure this field has no more than 255 characters.',
    ],
    ['no proposal types', { proposalTypes: [] }, 'proposalTypes', callMessages.noTypes],
  ])('refuses %s with the spec message', async (_name, change, field, message) => {
    const res = await inject(
      'POST',
      '/new_call/',
      chair,
      callPayload(committee.id, forms, ctx.clock.now(), change),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().fields[field]).toEqual([message]);
  });

  it('refuses types without forms, with review forms among proposal forms, and duplicate names', async () => {
    const res = await inject(
      'POST',
      '/new_call/',
      chair,
      callPayload(committee.id, forms, ctx.clock.now(), {
        proposalTypes: [
          { typeName: 'A', typeId: null, proposalForms: [forms.review], reviewForms: [] },
          {
            typeName: 'a',
            typeId: null,
            proposalForms: [forms.proposal],
            reviewForms: [forms.review],
          },
        ],
      }),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toEqual({
      'proposalTypes.0.proposalForms': [callMessages.notProposalForm],
      'proposalTypes.0.reviewForms': [callMessages.noReviewForm],
      'proposalTypes.1.typeName': [callMessages.duplicateTypeName],
    });
  });

  it('sanitises the description and refuses an image over 500 KB', async () => {
    const call = await createCall({
      description:
        '<p onclick="steal()">Hi<script>alert(1)</script><img src="x" onerror="x()"></p>',
    });
    expect(call.description).toBe('<p>Hi</p>');
    const big = `<p><img src="data:image/png;base64,${'A'.repeat(Math.ceil((512 * 1024 + 10) * (4 / 3)))}"></p>`;
    const res = await inject(
      'POST',
      '/new_call/',
      chair,
      callPayload(committee.id, forms, ctx.clock.now(), { description: big }),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().fields.description).toEqual(['The image cannot be larger than 500KB.']);
  });

  it('marks the forms used and the committee undeletable', async () => {
    await createCall();
    const formList = await inject('GET', '/forms/', admin);
    const used = formList
      .json()
      .filter((f: { id: number; isUsed: boolean }) => f.isUsed)
      .map((f: { id: number }) => f.id);
    expect(used).toEqual(expect.arrayContaining([forms.proposal, forms.review]));
    const committees = await inject('GET', '/committees/', admin);
    expect(committees.json().find((c: { id: number }) => c.id === committee.id).canDelete).toBe(
      false,
    );
    expect((await inject('DELETE', '/forms/', admin, { id: forms.proposal })).statusCode).toBe(409);
  });
});

describe('editing a call', () => {
  it('saves changes, but not the committee nor the review-open flag', async () => {
    const call = await createCall();
    const base = {
      new: false,
      id: call.id,
      proposalTypes: typesToSave(call),
    };
    const renamed = await inject(
      'POST',
      '/new_call/',
      chair,
      callPayload(committee.id, forms, ctx.clock.now(), { ...base, name: 'Renamed' }),
    );
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json().name).toBe('Renamed');
    const moved = await inject(
      'POST',
      '/new_call/',
      admin,
      callPayload(otherCommittee.id, forms, ctx.clock.now(), { ...base }),
    );
    expect(moved.json().fields.committee).toEqual([callMessages.committeeFixed]);
    const opened = await inject(
      'POST',
      '/new_call/',
      chair,
      callPayload(committee.id, forms, ctx.clock.now(), { ...base, isReviewOpen: true }),
    );
    expect(opened.json().fields.isReviewOpen).toEqual([callMessages.reviewOpenFixed]);
    expect(
      (
        await inject(
          'POST',
          '/new_call/',
          member,
          callPayload(committee.id, forms, ctx.clock.now(), base),
        )
      ).statusCode,
    ).toBe(403);
  });

  it('keeps the forms of types with saved proposals or reviews, and the types themselves', async () => {
    const call = await createCall();
    const type = call.proposalTypes[0];
    const proposal = await makeProposal(ctx.app, {
      callId: call.id,
      proposalTypeId: type.typeId,
      authorId: userId,
      stateVal: 1,
    });
    await makeReview(ctx.app, proposal.id, userId);
    const typeOf = (change: Record<string, unknown>) => ({
      typeId: type.typeId,
      typeName: 'Standard',
      proposalForms: type.proposalForms,
      reviewForms: type.reviewForms,
      ...change,
    });
    const save = (proposalTypes: object[]) =>
      inject(
        'POST',
        '/new_call/',
        chair,
        callPayload(committee.id, forms, ctx.clock.now(), {
          new: false,
          id: call.id,
          proposalTypes: proposalTypes as never,
        }),
      );

    const reordered = await save([
      typeOf({
        proposalForms: [forms.proposalMulti, forms.proposal],
        reviewForms: [forms.score, forms.review],
      }),
    ]);
    expect(reordered.statusCode).toBe(400);
    expect(reordered.json().fields).toEqual({
      'proposalTypes.0.proposalForms': [callMessages.proposalFormsLocked('Standard')],
      'proposalTypes.0.reviewForms': [callMessages.reviewFormsLocked('Standard')],
    });
    const dropped = await save([
      {
        typeId: null,
        typeName: 'New',
        proposalForms: [forms.proposal],
        reviewForms: [forms.review],
      },
    ]);
    expect(dropped.json().fields.proposalTypes).toEqual([
      callMessages.typeHasProposals('Standard'),
    ]);

    const added = await save([
      typeOf({ typeName: 'Standard renamed' }),
      {
        typeId: null,
        typeName: 'Rapid',
        proposalForms: [forms.proposal],
        reviewForms: [forms.review],
      },
    ]);
    expect(added.statusCode, added.body).toBe(200);
    expect(
      added
        .json()
        .proposalTypes.map((t: { typeName: string; hasProposals: boolean }) => [
          t.typeName,
          t.hasProposals,
        ]),
    ).toEqual([
      ['Standard renamed', true],
      ['Rapid', false],
    ]);
  });
});

describe('lists and detail', () => {
  it('lists open and closed calls newest first, with my roles, and moves a closed call to History', async () => {
    const now = ctx.clock.now();
    const older = await createCall({
      name: 'Older',
      openDateTime: new Date(now.getTime() - 40 * DAY).toISOString(),
      closeDateTime: new Date(now.getTime() - 30 * DAY).toISOString(),
      reviewOpenDateTime: new Date(now.getTime() - 30 * DAY).toISOString(),
      reviewCloseDateTime: new Date(now.getTime() - 20 * DAY).toISOString(),
    });
    const newer = await createCall({
      name: 'Newer',
      openDateTime: new Date(now.getTime() + DAY).toISOString(),
    });
    const open = (await inject('GET', '/calls/open/', member)).json();
    const names = open.map((c: { name: string }) => c.name);
    expect(names.indexOf('Newer')).toBeLessThan(names.indexOf('Older'));
    expect(open.find((c: { id: number }) => c.id === newer.id).myRoles).toEqual(['Committee']);
    expect(
      (await inject('GET', '/calls/open/', user))
        .json()
        .find((c: { id: number }) => c.id === newer.id).myRoles,
    ).toEqual([]);

    const closed = await inject('POST', '/close_call/', chair, { callId: older.id });
    expect(closed.statusCode, closed.body).toBe(200);
    expect(closed.json().closed).toBe(true);
    expect(
      (await inject('GET', '/calls/open/', user)).json().map((c: { id: number }) => c.id),
    ).not.toContain(older.id);
    expect(
      (await inject('GET', '/calls/closed/', user)).json().map((c: { id: number }) => c.id),
    ).toContain(older.id);
    expect((await inject('GET', '/calls/', user)).json().map((c: { id: number }) => c.id)).toEqual(
      expect.arrayContaining([older.id, newer.id]),
    );
  });

  it('shows authors their role in the list', async () => {
    const call = await createCall();
    await makeProposal(ctx.app, {
      callId: call.id,
      proposalTypeId: call.proposalTypes[0].typeId,
      authorId: userId,
    });
    const mine = (await inject('GET', '/calls/', user))
      .json()
      .find((c: { id: number }) => c.id === call.id);
    expect(mine.myRoles).toEqual(['Author']);
  });

  it('answers 404 for a call that does not exist', async () => {
    expect((await inject('GET', '/calls/99999/', user)).statusCode).toBe(404);
    expect((await inject('GET', '/proposal_form_order/99999/', user)).statusCode).toBe(404);
  });
});

describe('closing', () => {
  it('refuses before the review deadline, with why, then closes once and forbids editing', async () => {
    // Review ends 8 days from now (well inside a token's idle time).
    const call = await createCall({
      reviewCloseDateTime: new Date(ctx.clock.now().getTime() + 8 * DAY).toISOString(),
    });
    const early = await inject('POST', '/close_call/', chair, { callId: call.id });
    expect(early.statusCode).toBe(409);
    expect(early.json().detail).toMatch(
      /^This call can be closed once its review period has ended/,
    );
    expect((await inject('POST', '/close_call/', member, { callId: call.id })).statusCode).toBe(
      403,
    );

    ctx.clock.advance(8 * DAY);
    try {
      expect((await inject('GET', `/calls/${call.id}/`, chair)).json().abilities.close).toBe(true);
      expect((await inject('POST', '/close_call/', chair, { callId: call.id })).statusCode).toBe(
        200,
      );
      const again = await inject('POST', '/close_call/', chair, { callId: call.id });
      expect(again.statusCode).toBe(409);
      expect(again.json().detail).toBe(callMessages.alreadyClosed);
      const detail = (await inject('GET', `/calls/${call.id}/`, chair)).json();
      expect(detail.abilities).toMatchObject({ edit: false, close: false, addProposal: false });
      const edit = await inject(
        'POST',
        '/new_call/',
        chair,
        callPayload(committee.id, forms, ctx.clock.now(), { new: false, id: call.id }),
      );
      expect(edit.statusCode).toBe(409);
    } finally {
      ctx.clock.advance(-8 * DAY);
    }
  });
});

describe('closing a call with many proposals', () => {
  /** A proposal of `callId` by `authorId` named `name`, with its collaborators. */
  async function propose(
    call: { id: number; typeId: number },
    authorId: number,
    name: string,
    { stateVal = 1, collaboratorIds = [] as number[] } = {},
  ) {
    const proposal = await makeProposal(ctx.app, {
      callId: call.id,
      proposalTypeId: call.typeId,
      authorId,
      stateVal,
    });
    await ctx.app.db.update(proposals).set({ name }).where(eq(proposals.id, proposal.id));
    for (const userId of collaboratorIds)
      await ctx.app.db.insert(proposalCollaborators).values({ proposalId: proposal.id, userId });
    return proposal.id;
  }

  /** A call of the committee whose review period ended yesterday, named `name`. */
  async function endedCall(name: string) {
    const at = (days: number) => new Date(ctx.clock.now().getTime() + days * DAY).toISOString();
    const call = await createCall({
      name,
      openDateTime: at(-30),
      closeDateTime: at(-20),
      reviewOpenDateTime: at(-20),
      reviewCloseDateTime: at(-1),
    });
    return { id: call.id as number, typeId: await proposalTypeOf(ctx.app, call.id) };
  }

  class RolledBack extends Error {
    constructor(readonly seen: { mails: { statement: string; payload: Mail }[]; writes: number }) {
      super('rolled back');
    }
  }

  /**
   * Closes the call in a transaction that is then rolled back, and says what it queued:
   * each mail with the statement (command id) that wrote it, and how many writing
   * statements the close ran in all (the command id one more write gets).
   */
  async function closeAndSee(callId: number) {
    try {
      await ctx.app.writeAs({ id: chairId, isAdmin: false }, async (work) => {
        await closeCall(work, callId, ctx.app.config.publicUrl);
        const mine = sql`${jobs.kind} = ${SEND_MAIL_JOB} and xmin = pg_current_xact_id()::xid`;
        const mails = await work.tx
          .select({ statement: sql<string>`cmin::text`, payload: jobs.payload })
          .from(jobs)
          .where(mine)
          .orderBy(jobs.id);
        const [probe] = await work.tx
          .insert(jobs)
          .values({ kind: 'test.probe', payload: {}, runAt: work.now, createdAt: work.now })
          .returning({ statement: sql<string>`cmin::text` });
        throw new RolledBack({
          mails: mails as { statement: string; payload: Mail }[],
          writes: Number(probe!.statement),
        });
      });
    } catch (error) {
      if (error instanceof RolledBack) return error.seen;
      throw error;
    }
    throw new Error('the close was not rolled back');
  }

  it('queues every mail in one statement, however many proposals, each as decisionAvailableMail writes it', async () => {
    const person = (overrides: Parameters<typeof makeUser>[1]) => makeUser(ctx.app, overrides);
    // Names HTML must escape, a person greeted by username, and one whose account is off.
    const zoe = await person({ firstName: 'Zoë <b>&"\'', lastName: 'Quote' });
    const nameless = await person({ firstName: '' });
    const col = await person({ firstName: 'Col' });
    const gone = await person({ firstName: 'Gone', isActive: false });

    const small = await endedCall('One proposal');
    await propose(small, zoe.id, 'Alone');
    const large = await endedCall('Sky <2026> & "more"');
    const made: { id: number; name: string; authorId: number; collaboratorIds: number[] }[] = [];
    for (let i = 0; i < 12; i += 1) {
      const name = i % 3 === 0 ? `Dust & <gas> "clouds" 'n' ${i}` : `Proposal ${i}`;
      const authorId = [zoe.id, nameless.id, col.id][i % 3]!;
      const collaboratorIds = i % 4 === 0 ? [col.id, gone.id] : [];
      if (authorId === col.id && collaboratorIds.length) collaboratorIds.shift();
      made.push({
        id: await propose(large, authorId, name, { collaboratorIds }),
        name,
        authorId,
        collaboratorIds,
      });
    }
    // A draft: nobody is told of it.
    await propose(large, zoe.id, 'Draft', { stateVal: 0, collaboratorIds: [col.id] });

    const people = new Map([zoe, nameless, col].map((p) => [p.id, p]));
    const mailTo = (userId: number, proposal: (typeof made)[number]) => {
      const to = people.get(userId)!;
      return decisionAvailableMail(to, {
        callName: 'Sky <2026> & "more"',
        proposalName: proposal.name,
        typeName: 'Standard',
        link: `${ctx.app.config.publicUrl}/calls/${large.id}/proposals/${proposal.id}/`,
      });
    };
    // The author of each proposal, then each active collaborator: as they were queued before.
    const expected = [
      ...made.map((p) => mailTo(p.authorId, p)),
      ...made.flatMap((p) =>
        p.collaboratorIds.filter((id) => id !== gone.id).map((id) => mailTo(id, p)),
      ),
    ];

    const few = await closeAndSee(small.id);
    const many = await closeAndSee(large.id);
    expect(few.mails).toHaveLength(1);
    expect(expected).toHaveLength(14);
    expect(many.mails.map((m) => m.payload)).toEqual(expected);
    expect(many.mails[0]!.payload.html).toContain('Hello Zoë &lt;b&gt;&amp;&quot;&#39;,');
    expect(many.mails[1]!.payload.text).toContain(`Hello ${nameless.username},`);
    // One statement wrote them all, and the close ran no more writing statements for 12
    // proposals and 14 mails than for one (it reads nothing per proposal either).
    expect(new Set(many.mails.map((m) => m.statement)).size).toBe(1);
    expect(many.writes).toBe(few.writes);

    // Closed for real, the same mails go out.
    const before = (await outbox(ctx)).length;
    const closed = await inject('POST', '/close_call/', chair, { callId: large.id });
    expect(closed.statusCode, closed.body).toBe(200);
    const sent = (await outbox(ctx)).slice(before);
    expect(sent.map((m) => [m.to, m.subject])).toEqual(expected.map((m) => [m.to, m.subject]));
    expect(sent[0]!.text).toContain('The call "Sky <2026> & "more"" has closed');
  });
});

describe('extensions', () => {
  it('open submission for one user only, are listed to chairs, and can be deleted', async () => {
    const now = ctx.clock.now();
    const call = await createCall({
      openDateTime: new Date(now.getTime() - 10 * DAY).toISOString(),
      closeDateTime: new Date(now.getTime() - DAY).toISOString(),
      reviewOpenDateTime: new Date(now.getTime() + DAY).toISOString(),
      reviewCloseDateTime: new Date(now.getTime() + 5 * DAY).toISOString(),
    });
    expect((await inject('GET', `/calls/${call.id}/`, user)).json().abilities.addProposal).toBe(
      false,
    );
    const created = await inject('POST', '/new_extension/', chair, {
      callId: call.id,
      user: userId,
      commencement: new Date(now.getTime() - DAY).toISOString(),
      termination: new Date(now.getTime() + DAY).toISOString(),
      reason: 'Fieldwork',
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({
      userId,
      userName: 'Ursula Franklin',
      reason: 'Fieldwork',
    });

    expect((await inject('GET', `/calls/${call.id}/`, user)).json().abilities.addProposal).toBe(
      true,
    );
    expect((await inject('GET', `/calls/${call.id}/`, member)).json().abilities.addProposal).toBe(
      false,
    );
    expect((await inject('GET', `/calls/${call.id}/`, member)).json().extensions).toEqual([]);
    expect((await inject('GET', `/calls/${call.id}/`, user)).json().extensions).toHaveLength(1);
    expect((await inject('GET', `/calls/${call.id}/`, chair)).json().extensions).toHaveLength(1);

    const removed = await inject('DELETE', '/delete_extension/', chair, {
      callId: call.id,
      extensionId: created.json().id,
    });
    expect(removed.statusCode).toBe(204);
    expect((await inject('GET', `/calls/${call.id}/`, user)).json().abilities.addProposal).toBe(
      false,
    );
  });

  it('checks the dates, the reason and the user', async () => {
    const call = await createCall();
    const res = await inject('POST', '/new_extension/', chair, {
      callId: call.id,
      user: 999999,
      commencement: '2026-06-10T00:00:00Z',
      termination: '2026-06-09T00:00:00Z',
      reason: 'r'.repeat(201),
    });
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().fields).sort()).toEqual(['reason', 'termination', 'user']);
    expect(res.json().fields.termination).toEqual([
      'Termination date can not be before the commencement date.',
    ]);
    const notMine = await inject('POST', '/new_extension/', member, {
      callId: call.id,
      user: userId,
      commencement: '2026-06-10T00:00:00Z',
      termination: '2026-06-11T00:00:00Z',
      reason: '',
    });
    expect(notMine.statusCode).toBe(403);
  });
});

describe('what chairs read to build calls', () => {
  it('lists forms for chairs but not for members', async () => {
    const list = await inject('GET', '/forms/', chair);
    expect(list.statusCode).toBe(200);
    expect(list.json().map((f: { id: number }) => f.id)).toEqual(
      expect.arrayContaining([forms.proposal, forms.review]),
    );
    expect((await inject('GET', '/forms/', member)).statusCode).toBe(403);
  });

  it('finds active users by name or username for extensions', async () => {
    const found = await inject('GET', '/users/lookup/?q=ursula fr', chair);
    expect(found.statusCode).toBe(200);
    expect(found.json()).toEqual([
      expect.objectContaining({ id: userId, name: 'Ursula Franklin' }),
    ]);
    expect((await inject('GET', '/users/lookup/?q=%25_%25', chair)).json()).toEqual([]);
    expect((await inject('GET', '/users/lookup/?q=ur', chair)).statusCode).toBe(400);
    expect((await inject('GET', '/users/lookup/?q=ursula', member)).statusCode).toBe(403);
  });
});

describe('managing a call', () => {
  it('counts submitted proposals and those still awaiting review', async () => {
    const call = await createCall();
    const typeId = call.proposalTypes[0].typeId;
    const counts = async () => (await inject('GET', `/calls/${call.id}/manage/`, chair)).json();
    expect(await counts()).toEqual({ submitted: 0, awaitingReview: 0 });
    const proposal = (stateVal: number) =>
      makeProposal(ctx.app, {
        callId: call.id,
        proposalTypeId: typeId,
        authorId: userId,
        stateVal,
      });
    const reviewerA = await makeUser(ctx.app);
    const reviewerB = await makeUser(ctx.app);

    await proposal(0); // a draft: neither submitted nor awaiting
    await proposal(1); // submitted, no review yet: awaiting
    const reviewedByAnyone = await proposal(1);
    await makeReview(ctx.app, reviewedByAnyone.id, reviewerA.id);
    const halfReviewed = await proposal(1); // two assigned, one has reviewed: awaiting
    await assignReviewers(halfReviewed.id, [reviewerA.id, reviewerB.id]);
    await makeReview(ctx.app, halfReviewed.id, reviewerA.id);
    const fullyReviewed = await proposal(1);
    await assignReviewers(fullyReviewed.id, [reviewerA.id, reviewerB.id]);
    await makeReview(ctx.app, fullyReviewed.id, reviewerA.id);
    await makeReview(ctx.app, fullyReviewed.id, reviewerB.id);

    expect(await counts()).toEqual({ submitted: 4, awaitingReview: 2 });
    expect((await inject('GET', `/calls/${call.id}/manage/`, member)).statusCode).toBe(403);
  });
});
