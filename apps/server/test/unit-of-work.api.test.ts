import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import Fastify from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { App } from '../src/app.js';
import { openDatabase, type Tx } from '../src/db/client.js';
import { auditLog, committeeRoles, committees, jobs } from '../src/db/schema.js';
import { AUDIT_VALUE_CAP, changesBetween } from '../src/platform/data/audit.js';
import { createJobRunner, enqueueJob } from '../src/platform/data/jobs.js';
import { registerUnitOfWork } from '../src/platform/data/work.js';
import { registerErrorHandling } from '../src/platform/http/errors.js';
import { createResponseSerializer } from '../src/platform/http/serializer.js';
import { auditOf, caller } from './admin-fixtures.js';
import { callPayload, makeCallForms } from './call-fixtures.js';
import {
  auth,
  createTestApp,
  giveRole,
  login,
  makeCommittee,
  makeUser,
  type TestContext,
} from './helpers.js';

let ctx: TestContext;
let chair: ReturnType<typeof caller>;
let committeeId: number;
let forms: Awaited<ReturnType<typeof makeCallForms>>;

beforeAll(async () => {
  ctx = await createTestApp();
  committeeId = (await makeCommittee(ctx.app)).id;
  forms = await makeCallForms(ctx.app);
  const user = await makeUser(ctx.app);
  await giveRole(ctx.app, user.id, committeeId, 'CHAIR', ctx.clock.now());
  chair = caller(ctx.app, auth(await login(ctx.app, user.username)));
});
afterAll(() => ctx.close());

const DAY = 24 * 60 * 60 * 1000;

async function newCall(daysAgo = 0) {
  const at = new Date(ctx.clock.now().getTime() - daysAgo * DAY);
  const res = await chair('POST', '/new_call/', callPayload(committeeId, forms, at));
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: number; version: number; proposalTypes: unknown[] };
}

describe('concurrent changes to one call', () => {
  it('two edits made on the same version: one is saved, the other is told to reload, one audit row', async () => {
    const call = await newCall();
    const edit = (name: string) =>
      chair('POST', '/new_call/', {
        ...callPayload(committeeId, forms, ctx.clock.now(), { name }),
        new: false,
        id: call.id,
        version: call.version,
        proposalTypes: (call.proposalTypes as { typeId: number }[]).map((t) => ({
          typeName: 'Standard',
          typeId: t.typeId,
          proposalForms: [forms.proposal, forms.proposalMulti],
          reviewForms: [forms.review, forms.score],
        })),
      });
    const answers = await Promise.all([edit('First editor'), edit('Second editor')]);
    const statuses = answers.map((r) => r.statusCode).sort();
    expect(statuses).toEqual([200, 409]);
    const refused = answers.find((r) => r.statusCode === 409)!;
    expect(refused.json()).toEqual({
      code: 'conflict',
      detail:
        'Someone else changed this call since you opened it. Reload it to see their changes, then make yours again.',
    });
    const saved = answers.find((r) => r.statusCode === 200)!.json();
    expect(saved.version).toBe(call.version + 1);
    const updates = (await auditOf(ctx.app, 'call', call.id)).filter(
      (r) => r.action === 'call.update',
    );
    expect(updates).toHaveLength(1);
    // The row holds what changed, and only that.
    expect(updates[0]!.changes).toEqual({
      name: { before: 'Telescope time 2026', after: saved.name },
    });
  });

  it('two closes at once: one closes it, the other is told it is closed, one audit row', async () => {
    const call = await newCall(60);
    const answers = await Promise.all([
      chair('POST', '/close_call/', { callId: call.id }),
      chair('POST', '/close_call/', { callId: call.id }),
    ]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(answers.find((r) => r.statusCode === 409)!.json().detail).toBe(
      'This call is already closed.',
    );
    const closes = await ctx.app.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityId, call.id), eq(auditLog.action, 'call.close')));
    expect(closes).toHaveLength(1);
  });
});

describe('unique and foreign key violations that no service foresaw', () => {
  const RACE_LOST =
    'This conflicts with something that was saved at the same moment. Reload and try again.';
  const REFERENCE_GONE =
    'Something this change refers to was removed, or something still refers to what it removes. Reload and try again.';

  /**
   * Writes that break a constraint every time. The services map the violations they
   * expect to messages of their own (a taken name, a committee in use), so through the
   * real routes only a race reaches the app's catch-all; these run the same statements
   * straight away, in the unit of work and the error handling of the app, on this test
   * file's real database (PGlite, and PostgreSQL when TEST_DATABASE_URL is set).
   */
  type Committee = Awaited<ReturnType<typeof makeCommittee>>;
  interface Write {
    /** What the write needs, made beforehand (PGlite has one connection, which `tx` holds). */
    prepare?: () => Promise<Committee>;
    write: (tx: Tx, committee: Committee | undefined) => Promise<unknown>;
  }
  const WRITES: Record<string, Write> = {
    'a name the unique index already holds, in other letters': {
      prepare: () => makeCommittee(ctx.app, `Optics ${randomUUID()}`),
      write: (tx, committee) =>
        tx.insert(committees).values({ name: committee!.name.toUpperCase() }),
    },
    'a row that refers to one that is not there': {
      write: (tx) =>
        tx.insert(committeeRoles).values({
          userId: 2_000_000_000,
          committeeId: 2_000_000_000,
          role: 'MEMBER',
          commencement: ctx.clock.now(),
          termination: ctx.clock.now(),
        }),
    },
    // PostgreSQL 18 (PGlite) says 23001 for an `on delete restrict` key, 15 says 23503.
    'deleting a row that a restricting key still refers to': {
      prepare: async () => {
        const committee = await makeCommittee(ctx.app);
        const user = await makeUser(ctx.app);
        await giveRole(ctx.app, user.id, committee.id, 'MEMBER', ctx.clock.now());
        return committee;
      },
      write: (tx, committee) => tx.delete(committees).where(eq(committees.id, committee!.id)),
    },
  };

  let app: App;
  beforeAll(async () => {
    const raw = Fastify({ logger: false }).withTypeProvider<ZodTypeProvider>();
    raw.decorate('db', ctx.app.db);
    raw.decorate('now', ctx.clock.now);
    raw.decorate('jobs', ctx.app.jobs);
    registerUnitOfWork(raw);
    registerErrorHandling(raw);
    raw.post<{ Params: { write: string } }>('/:write', async (request, reply) => {
      const { prepare, write } = WRITES[request.params.write]!;
      const committee = await prepare?.();
      await raw.writeAnonymous(({ tx }) => write(tx, committee));
      return reply.code(204).send();
    });
    await raw.ready();
    app = raw;
  });
  afterAll(() => app.close());

  it.each([
    ['a name the unique index already holds, in other letters', RACE_LOST],
    ['a row that refers to one that is not there', REFERENCE_GONE],
    ['deleting a row that a restricting key still refers to', REFERENCE_GONE],
  ])('%s: 409 in the error envelope, saying what to do', async (write, detail) => {
    const res = await app.inject({ method: 'POST', url: `/${encodeURIComponent(write)}` });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ code: 'conflict', detail });
  });
});

describe('forms keep what the admin wrote', () => {
  it('returns the schema, UI schema, initial data and options key for key, in order', async () => {
    const admin = caller(
      ctx.app,
      auth(await login(ctx.app, (await makeUser(ctx.app, { isAdmin: true })).username)),
    );
    const name = await admin('POST', '/form_names/', {
      name: `scores_${Date.now()}`,
      display_name: 'Review scores',
      type: 3,
    });
    // The review-scores example's order, which jsonb would sort by key length and bytes.
    const score = { type: 'integer', minimum: 1, maximum: 5 };
    const body = {
      isNew: true,
      name: name.json().id,
      version: '1.0',
      jsonSchema: {
        type: 'object',
        required: ['Significance', 'Feasibility'],
        properties: {
          Significance: { ...score, title: 'Significance' },
          Feasibility: { ...score, title: 'Feasibility' },
          Team: { ...score, title: 'Team' },
          'Value for money': { ...score, title: 'Value for money' },
          Comment: { type: 'string', title: 'Comment' },
        },
      },
      uiSchema: { 'ui:order': ['Team', '*'], Comment: { 'ui:widget': 'textarea' }, 'ui:a': 1 },
      initialData: { Team: 3, Comment: 'none', Feasibility: 2 },
      options: {
        method: 'average',
        fields: ['Significance', 'Feasibility', 'Team', 'Value for money'],
      },
    };
    const created = await admin('POST', '/forms/', body);
    expect(created.statusCode, created.body).toBe(201);
    const read = (await admin('GET', `/forms/?id=${created.json().id}`)).json();
    for (const key of ['jsonSchema', 'uiSchema', 'initialData', 'options'] as const)
      expect(JSON.stringify(read[key]), key).toBe(JSON.stringify(body[key]));
    expect(Object.keys(read.jsonSchema.properties)).toEqual([
      'Significance',
      'Feasibility',
      'Team',
      'Value for money',
      'Comment',
    ]);
  });
});

describe('audit rows', () => {
  it('keep the fields that changed, and cap a long value', () => {
    const long = 'x'.repeat(AUDIT_VALUE_CAP * 3);
    const changes = changesBetween(
      { name: 'A', description: 'short', dates: [1, 2], same: { a: 1 } },
      { name: 'B', description: long, dates: [1, 2], same: { a: 1 }, added: true },
    );
    expect(Object.keys(changes).sort()).toEqual(['added', 'description', 'name']);
    expect(changes.name).toEqual({ before: 'A', after: 'B' });
    expect(changes.added).toEqual({ after: true });
    const kept = changes.description!.after as string;
    expect(kept.length).toBeLessThan(AUDIT_VALUE_CAP + 100);
    expect(kept).toMatch(/… \(3002 characters in all\)$/);
  });
});

describe('responses', () => {
  const schema = z.object({ id: z.number(), name: z.string(), tags: z.array(z.string()) });
  const route = { schema, method: 'GET', url: '/x', httpStatus: '200' };

  it('are written from the contract, so a field it does not declare cannot leak', () => {
    const serialize = createResponseSerializer({ validate: false })(route as never);
    const out = JSON.parse(
      serialize({ id: 1, name: 'A', tags: ['t'], email: 'secret@example.org' }) as string,
    );
    expect(out).toEqual({ id: 1, name: 'A', tags: ['t'] });
  });

  it('are checked against the contract when asked to (tests), so a drifting presenter fails', () => {
    const serialize = createResponseSerializer({ validate: true })(route as never);
    expect(() => serialize({ id: 'one', name: 'A', tags: [] })).toThrow();
    expect(serialize({ id: 1, name: 'A', tags: [] })).toBe('{"id":1,"name":"A","tags":[]}');
  });
});

describe('jobs', () => {
  it('run each queued job once, even with several runners on one database', async () => {
    const ran: number[] = [];
    // On PostgreSQL, a second connection pool, as a second app process would have.
    const second = ctx.databaseUrl
      ? await openDatabase({ kind: 'postgres', url: ctx.databaseUrl })
      : ctx.database;
    const runners = [ctx.database.db, second.db].map((db) => {
      const runner = createJobRunner({
        db,
        now: () => ctx.clock.now(),
        log: ctx.app.log,
        pollMs: 60_000,
      });
      runner.handle<{ n: number }>('test.count', async ({ n }) => {
        ran.push(n);
      });
      return runner;
    });
    // The app's own runner does not know this kind; keep it away from these jobs.
    await ctx.app.jobs.stop();
    try {
      for (let n = 0; n < 40; n += 1)
        await enqueueJob(ctx.app.db, 'test.count', { n }, ctx.clock.now());
      await Promise.all(runners.map((runner) => runner.drain()));
      expect(ran.sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, n) => n));
      expect(await ctx.app.db.select().from(jobs).where(eq(jobs.kind, 'test.count'))).toEqual([]);
    } finally {
      ctx.app.jobs.start();
      if (second !== ctx.database) await second.close();
    }
  });
});
