import type { MyReminders, ReminderRules, ReminderRulesSave } from '@merit/contract';
import { defaultReminderRules, reminderMessages } from '@merit/domain';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { auditLog, proposalReviewers, reminderDispatches } from '../src/db/schema.js';
import { sweepReminders } from '../src/modules/reminders/reminders.sweep.js';
import { createTestApp, type TestContext } from './helpers.js';
import {
  dayOf,
  deadlineOf,
  HOUR,
  mailWatcher,
  reminderWorld,
  submit,
  whoGotWhat,
  type ReminderWorld,
} from './reminders-fixtures.js';

/**
 * Reminders (issue 28) on a real database with the real job runner and the outbox: the
 * chairs' rules (GET, PUT with its stale and unknown-field refusals), the sweep as the
 * schedule runs it when the clock reaches a due time (one mail per person per due time,
 * listing all their items, worked out when due, sent once however often it runs), the
 * chairs' copy without what a chair is conflicted on, "Remind selected", My Account's
 * list, and restarts and outages. Two app processes on one PostgreSQL:
 * reminders.postgres.test.ts.
 */

let ctx: TestContext;
let first: TestContext['app'];
beforeAll(async () => {
  ctx = await createTestApp();
  first = ctx.app;
});
afterAll(async () => {
  // A restart below replaced the app: close the one running, then the rest.
  if (ctx.app !== first) await ctx.app.close();
  await ctx.close();
});

const rulesPath = (w: ReminderWorld) => `/calls/${w.callId}/reminders/`;
const getRules = async (w: ReminderWorld) => {
  const res = await w.people.carla.call('GET', rulesPath(w));
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as ReminderRules;
};
/** The rules as a PUT sends them back: without `nextDueAt`. */
const asSave = (rules: ReminderRules): ReminderRulesSave => ({
  version: rules.version,
  rules: rules.rules.map(({ nextDueAt: _next, ...rule }) => rule),
});
const silent = { info: () => {} };

describe('the rules of a call', () => {
  let w: ReminderWorld;
  beforeAll(async () => {
    w = await reminderWorld(ctx);
  });

  it('start as the defaults on a new call, each with when it is next due for the call', async () => {
    const rules = await getRules(w);
    expect(rules.version).toBe(1);
    expect(rules.rules.map(({ id: _id, nextDueAt: _n, ...rule }) => rule)).toEqual(
      defaultReminderRules(),
    );
    expect(rules.rules.map((rule) => rule.nextDueAt)).toEqual(
      [3, 9, 13, 18, 21].map((days) => dayOf(w, days).toISOString()),
    );
  });

  it.each([
    ['a chair', 'carla', 200],
    ['a chair with a conflict in the call', 'cleo', 200],
    ['an admin with no role', 'adam', 200],
    ['a member', 'rita', 403],
    ['an applicant', 'ada', 403],
  ] as const)('are read by %s: %s', async (_name, who, status) => {
    const res = await w.people[who].call('GET', rulesPath(w));
    expect(res.statusCode, res.body).toBe(status);
  });

  it('are 404 for a call that does not exist', async () => {
    expect((await w.people.carla.call('GET', '/calls/999999/reminders/')).statusCode).toBe(404);
  });

  it('are changed by a chair only', async () => {
    const body = asSave(await getRules(w));
    for (const who of ['rita', 'ada'] as const) {
      const res = await w.people[who].call('PUT', rulesPath(w), body);
      expect(res.statusCode, res.body).toBe(403);
    }
    expect((await getRules(w)).version).toBe(1);
  });

  it('refuse an unknown field in a text, naming it, keyed by rule and part', async () => {
    const body = asSave(await getRules(w));
    body.rules[1]!.body = 'Dear {{ nmae }}, {{ items }}';
    body.rules[3]!.subject = 'Due {{ when }}';
    const res = await w.people.carla.call('PUT', rulesPath(w), body);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toEqual({
      code: 'validation_error',
      detail: reminderMessages.unknownField('nmae'),
      fields: {
        'rules.1.body': [reminderMessages.unknownField('nmae')],
        'rules.3.subject': [reminderMessages.unknownField('when')],
      },
    });
  });

  it('refuse applicants reminded after submission closes, and a rule of another call', async () => {
    const other = await reminderWorld(ctx);
    const foreign = (await getRules(other)).rules[0]!.id;
    const body = asSave(await getRules(w));
    body.rules[0]!.offsetHours = 2;
    body.rules[2]!.id = foreign;
    const res = await w.people.carla.call('PUT', rulesPath(w), body);
    expect(res.statusCode, res.body).toBe(400);
    expect(Object.keys(res.json().fields).sort()).toEqual(['rules.0.offsetHours', 'rules.2.id']);
    expect(res.json().fields['rules.0.offsetHours']).toEqual([reminderMessages.authorsBeforeClose]);
  });

  it('save the whole list: changed, added, deleted, in order, audited, from the version it started from', async () => {
    const before = await getRules(w);
    const body = asSave(before);
    const [a7, a1, r7, r2, overdue] = body.rules as [
      (typeof body.rules)[0],
      (typeof body.rules)[0],
      (typeof body.rules)[0],
      (typeof body.rules)[0],
      (typeof body.rules)[0],
    ];
    body.rules = [
      { ...r2, subject: 'Two days left for {{ call }}' },
      a7,
      { ...a1, enabled: false },
      overdue,
      {
        audience: 'reviewers_pending',
        anchor: 'review_close',
        offsetHours: -24,
        enabled: true,
        subject: 'Tomorrow: reviews for {{ call }}',
        body: 'Dear {{ name }},\n{{ items }}\n{{ link }}',
      },
    ];
    const res = await w.people.carla.call('PUT', rulesPath(w), body);
    expect(res.statusCode, res.body).toBe(200);
    const saved = res.json() as ReminderRules;
    expect(saved.version).toBe(2);
    expect(saved).toEqual(await getRules(w));
    expect(saved.rules.map((rule) => rule.subject)).toEqual([
      'Two days left for {{ call }}',
      a7.subject,
      a1.subject,
      overdue.subject,
      'Tomorrow: reviews for {{ call }}',
    ]);
    // r7 is gone; a1, turned off, is not due; the new one is due a day before review closes.
    expect(saved.rules.map((rule) => rule.id).slice(0, 4)).toEqual([
      r2.id,
      a7.id,
      a1.id,
      overdue.id,
    ]);
    expect(saved.rules.map((rule) => rule.nextDueAt)).toEqual([
      dayOf(w, 18).toISOString(),
      dayOf(w, 3).toISOString(),
      null,
      dayOf(w, 21).toISOString(),
      dayOf(w, 19).toISOString(),
    ]);
    expect(saved.rules.map((rule) => rule.id)).not.toContain(r7.id);

    const [audit] = await ctx.app.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'call.update_reminders'), eq(auditLog.entityId, w.callId)));
    expect(audit!.actorId).toBe(w.people.carla.user.id);
    const changes = audit!.changes as Record<string, { before?: unknown; after?: unknown }>;
    expect(changes[`rule ${r7.id}`]).toEqual({
      before: expect.objectContaining({ offsetHours: -168 }),
    });
    expect(changes[`rule ${r2.id}`]).toEqual({
      before: expect.objectContaining({ position: 3, subject: r2.subject }),
      after: expect.objectContaining({ position: 0, subject: 'Two days left for {{ call }}' }),
    });
    expect(changes[`rule ${a1.id}`]!.after).toMatchObject({ enabled: false });
  });

  it('refuse a save from a version someone changed since (409 stale, with the rules as they are)', async () => {
    const current = await getRules(w);
    const res = await w.people.cleo.call('PUT', rulesPath(w), {
      ...asSave(current),
      version: current.version - 1,
    });
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json()).toEqual({ code: 'stale', detail: reminderMessages.stale, current });
  });

  it('count a rule turned on again from then on (`since`), and keep it for a rule only edited', async () => {
    const { reminderRules } = await import('../src/db/schema.js');
    const body = asSave(await getRules(w));
    body.rules[2]!.enabled = true; // a1, off since the save above
    body.rules[1]!.subject = 'Soon: {{ call }}'; // a7, on all along
    ctx.clock.advance(HOUR);
    const res = await w.people.carla.call('PUT', rulesPath(w), body);
    expect(res.statusCode, res.body).toBe(200);
    const rows = await ctx.app.db
      .select()
      .from(reminderRules)
      .where(eq(reminderRules.callId, w.callId));
    const since = (id: number) => rows.find((row) => row.id === id)!.since.toISOString();
    expect(since(body.rules[2]!.id!)).toBe(ctx.clock.now().toISOString());
    expect(since(body.rules[1]!.id!)).toBe(w.start.toISOString());
  });
});

describe('the sweep', () => {
  let w: ReminderWorld;
  let mails: ReturnType<typeof mailWatcher>;
  beforeAll(async () => {
    w = await reminderWorld(ctx);
    mails = mailWatcher(ctx, w);
    await mails.next();
  });
  const at = async (days: number, ms = 0) => {
    ctx.clock.current = dayOf(w, days, ms);
    return mails.next();
  };
  const dispatchCount = async () =>
    (
      await ctx.app.db
        .select()
        .from(reminderDispatches)
        .where(eq(reminderDispatches.callId, w.callId))
    ).length;

  it('sends nothing a millisecond before a reminder is due', async () => {
    expect(await at(3, -1)).toEqual([]);
  });

  it('mails each applicant with a draft once when it is due, listing all their drafts with their links', async () => {
    const sent = await at(3);
    const subject = `Submission to ${w.callName} closes on ${deadlineOf(w, 10)}`;
    // Eve's own close is 2 days later; the submitted proposals' authors are not reminded of them.
    expect(whoGotWhat(w, sent)).toEqual([
      ['ada', subject],
      ['col', subject],
      ['zed', subject],
    ]);
    const ada = sent.find((mail) => mail.to === w.people.ada.user.email)!;
    const link = (id: number) => `${ctx.app.config.publicUrl}/calls/${w.callId}/proposals/${id}/`;
    expect(ada.text).toContain('Dear Ada Author,');
    expect(ada.text).toContain(
      `- Second draft: ${link(w.ids.second)}\n- Unfinished idea: ${link(w.ids.unfinished)}`,
    );
    expect(ada.links).toEqual([
      link(w.ids.second),
      link(w.ids.unfinished),
      `${ctx.app.config.publicUrl}/`,
    ]);
    expect(ada.text).not.toContain('Pulsar timing');
    const col = sent.find((mail) => mail.to === w.people.col.user.email)!;
    expect(col.links).toEqual([link(w.ids.unfinished), `${ctx.app.config.publicUrl}/`]);
  });

  it('sends it once: the next sweeps, and two more at once, find it sent', async () => {
    const before = await dispatchCount();
    expect(before).toBe(3);
    expect(await at(3, 10 * 60 * 1000)).toEqual([]);
    // Sweeps over everything still due (no window), twice at once: the dispatch rows stop them.
    const now = ctx.clock.now();
    const runs = await Promise.all([
      sweepReminders(ctx.app.db, now, silent),
      sweepReminders(ctx.app.db, now, silent),
    ]);
    expect(runs[0]!.found).toBeGreaterThanOrEqual(3);
    expect(runs[1]!.found).toBe(runs[0]!.found);
    expect(await mails.next()).toEqual([]);
    expect(await dispatchCount()).toBe(before);
  });

  it('follows an extension: the applicant’s own due time, 7 days before their own close', async () => {
    expect(whoGotWhat(w, await at(5))).toEqual([
      ['eve', `Submission to ${w.callName} closes on ${deadlineOf(w, 12)}`],
    ]);
  });

  it('works out who is reminded when it is due: an applicant who submitted since gets nothing', async () => {
    await submit(ctx, w.ids.zeds);
    const subject = `Tomorrow: submission to ${w.callName} closes`;
    const sent = await at(9);
    expect(whoGotWhat(w, sent)).toEqual([
      ['ada', subject],
      ['col', subject],
    ]);
    // The extended applicant's 1-day reminder comes a day before her own close.
    expect(await at(10)).toEqual([]);
    expect(whoGotWhat(w, await at(11))).toEqual([['eve', subject]]);
  });

  it('mails each reviewer once with all their reviews to write, never naming another reviewer', async () => {
    const sent = await at(13);
    const subject = `Reviews for ${w.callName} are due on ${deadlineOf(w, 20)}`;
    // Mia's only assignment is one she has a conflict with; Ben saved one of his two.
    expect(whoGotWhat(w, sent)).toEqual([
      ['ben', subject],
      ['rita', subject],
    ]);
    const review = (id: number) =>
      `${ctx.app.config.publicUrl}/calls/${w.callId}/proposals/${id}/review/`;
    const rita = sent.find((mail) => mail.to === w.people.rita.user.email)!;
    expect(rita.links).toEqual([
      review(w.ids.halos),
      review(w.ids.galaxy),
      review(w.ids.pulsar),
      `${ctx.app.config.publicUrl}/pending_reviews/`,
    ]);
    expect(rita.text).not.toMatch(/Ben|Second|Mia/);
    const ben = sent.find((mail) => mail.to === w.people.ben.user.email)!;
    expect(ben.links).toEqual([
      review(w.ids.pulsar),
      `${ctx.app.config.publicUrl}/pending_reviews/`,
    ]);
    expect(ben.text).not.toContain('Rita');
  });

  it('lists on My Account what a person will be reminded of, and what was sent', async () => {
    ctx.clock.current = dayOf(w, 13, HOUR);
    const res = await w.people.rita.call('GET', '/my_reminders/');
    expect(res.statusCode, res.body).toBe(200);
    const mine = res.json() as MyReminders;
    const ours = mine.upcoming.filter((row) => row.callId === w.callId);
    expect(ours).toEqual([
      {
        callId: w.callId,
        callName: w.callName,
        audience: 'reviewers_pending',
        dueAt: dayOf(w, 18).toISOString(),
        subject: `Reviews for ${w.callName} are due on ${deadlineOf(w, 20)}`,
        items: 3,
      },
      {
        callId: w.callId,
        callName: w.callName,
        audience: 'reviewers_pending',
        dueAt: dayOf(w, 21).toISOString(),
        subject: `Overdue: your reviews for ${w.callName}`,
        items: 3,
      },
    ]);
    expect(mine.sent).toEqual([
      {
        callId: w.callId,
        callName: w.callName,
        sentAt: dayOf(w, 13).toISOString(),
        kind: 'rule',
        items: 3,
      },
    ]);
    // An applicant whose drafts are all submitted, or past her close, is told of nothing to come.
    const zed = (await w.people.zed.call('GET', '/my_reminders/')).json() as MyReminders;
    expect(zed.upcoming.filter((row) => row.callId === w.callId)).toEqual([]);
    expect(zed.sent.map((row) => row.kind)).toEqual(['rule']);
  });

  it('gives a reviewer assigned late the next reminder, not the one already due, and takes a changed rule at the next sweep', async () => {
    await ctx.app.db
      .insert(proposalReviewers)
      .values({ proposalId: w.ids.galaxy, userId: w.people.sam.user.id });
    expect(await at(14)).toEqual([]);
    const body = asSave(await getRules(w));
    body.rules[3]!.subject = 'Two days left for {{ call }}';
    const saved = await w.people.carla.call('PUT', rulesPath(w), body);
    expect(saved.statusCode, saved.body).toBe(200);
    const subject = `Two days left for ${w.callName}`;
    const sent = await at(18);
    expect(whoGotWhat(w, sent)).toEqual([
      ['ben', subject],
      ['rita', subject],
      ['sam', subject],
    ]);
  });

  it('copies the chairs after review closed, naming each late reviewer, without the proposals a chair is conflicted on', async () => {
    const sent = await at(21);
    const overdue = `Overdue: your reviews for ${w.callName}`;
    expect(whoGotWhat(w, sent)).toEqual([
      ['ben', overdue],
      ['carla', `Copy: 5 reviews of ${w.callName} not saved`],
      ['cleo', `Copy: 3 reviews of ${w.callName} not saved`],
      ['rita', overdue],
      ['sam', overdue],
    ]);
    const copyOf = (who: 'carla' | 'cleo') =>
      sent.find((mail) => mail.to === w.people[who].user.email)!.text;
    const line = (reviewer: string, proposal: string, id: number) =>
      `- ${reviewer}: ${proposal}: ${ctx.app.config.publicUrl}/calls/${w.callId}/proposals/${id}/`;
    expect(copyOf('carla')).toContain(
      [
        line('Rita Reviewer', 'Dark matter halos', w.ids.halos),
        // By proposal, then by the reviewer's last name (Late, Reviewer, Second).
        line('Sam Late', 'Galaxy rotation', w.ids.galaxy),
        line('Rita Reviewer', 'Galaxy rotation', w.ids.galaxy),
        line('Rita Reviewer', 'Pulsar timing', w.ids.pulsar),
        line('Ben Second', 'Pulsar timing', w.ids.pulsar),
      ].join('\n'),
    );
    expect(copyOf('cleo')).not.toContain('Galaxy rotation');
    expect(copyOf('cleo')).toContain(line('Ben Second', 'Pulsar timing', w.ids.pulsar));
    const copies = await ctx.app.db
      .select()
      .from(reminderDispatches)
      .where(and(eq(reminderDispatches.callId, w.callId), eq(reminderDispatches.kind, 'copy')));
    expect(copies.map((row) => [row.userId, row.items]).sort()).toEqual(
      [
        [w.people.carla.user.id, 5],
        [w.people.cleo.user.id, 3],
      ].sort(),
    );
  });

  it('sends nothing more once the call is closed', async () => {
    const { calls } = await import('../src/db/schema.js');
    await ctx.app.db.update(calls).set({ closed: true }).where(eq(calls.id, w.callId));
    const before = await dispatchCount();
    await sweepReminders(ctx.app.db, dayOf(w, 21, HOUR), silent);
    expect(await at(22)).toEqual([]);
    expect(await dispatchCount()).toBe(before);
  });
});

describe('Remind selected', () => {
  let w: ReminderWorld;
  let mails: ReturnType<typeof mailWatcher>;
  beforeAll(async () => {
    w = await reminderWorld(ctx);
    mails = mailWatcher(ctx, w);
    await mails.next();
  });
  const send = (who: 'carla' | 'cleo' | 'rita', userIds: number[]) =>
    w.people[who].call('POST', `/calls/${w.callId}/reminders/send/`, { userIds });

  it('refuses a person who is neither a member nor a reviewer of the call', async () => {
    const { rita, ada } = w.people;
    const res = await send('carla', [rita.user.id, ada.user.id]);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().detail).toBe(reminderMessages.notMembers);
    expect(await mails.next()).toEqual([]);
  });

  it('is refused to a member', async () => {
    const res = await send('rita', [w.people.ben.user.id]);
    expect(res.statusCode, res.body).toBe(403);
  });

  it('mails the chosen now with the reviewers’ text, leaving out what the chair is conflicted on; records and audits it', async () => {
    const { rita, ben, mia, sam, cleo } = w.people;
    const res = await send('cleo', [rita.user.id, ben.user.id, mia.user.id, sam.user.id]);
    expect(res.statusCode, res.body).toBe(200);
    // Mia's one review is one she is conflicted on; Sam has none.
    expect(res.json()).toEqual({
      sent: [rita.user.id, ben.user.id],
      skipped: [mia.user.id, sam.user.id],
    });
    const sent = await mails.next();
    const subject = `Reviews for ${w.callName} are due on ${deadlineOf(w, 20)}`;
    expect(whoGotWhat(w, sent)).toEqual([
      ['ben', subject],
      ['rita', subject],
    ]);
    const ritas = sent.find((mail) => mail.to === rita.user.email)!;
    expect(ritas.text).toContain('Dark matter halos');
    expect(ritas.text).toContain('Pulsar timing');
    // Cleo has a conflict with "Galaxy rotation": her reminder does not name it.
    expect(ritas.text).not.toContain('Galaxy rotation');
    const rows = await ctx.app.db
      .select()
      .from(reminderDispatches)
      .where(eq(reminderDispatches.callId, w.callId));
    expect(
      rows.map((row) => [row.userId, row.kind, row.items, row.sentBy, row.ruleId]).sort(),
    ).toEqual(
      [
        [rita.user.id, 'manual', 2, cleo.user.id, null],
        [ben.user.id, 'manual', 1, cleo.user.id, null],
      ].sort(),
    );
    const [audit] = await ctx.app.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'call.send_reminders'), eq(auditLog.entityId, w.callId)));
    expect(audit!.actorId).toBe(cleo.user.id);
    expect(audit!.changes).toEqual({ userIds: { after: [rita.user.id, ben.user.id] } });
  });
});

describe('restarts and outages', () => {
  let stopped = false;
  /** Stops the app (its job runner too): nothing runs until `start`. */
  async function stop() {
    await ctx.app.close();
    stopped = true;
  }
  /** Starts another app on the same database, data folder and clock. */
  async function start() {
    const { config } = ctx.app;
    if (!stopped) await ctx.app.close();
    stopped = false;
    ctx.app = await buildApp(config, {
      database: ctx.database,
      now: ctx.clock.now,
      logger: false,
      validateResponses: true,
      alertFlushMs: 0,
    });
  }
  const restart = start;

  it('sends a reminder once across a restart just before and just after its due time', async () => {
    const w = await reminderWorld(ctx);
    const mails = mailWatcher(ctx, w);
    await mails.next();
    ctx.clock.current = dayOf(w, 3, -60_000);
    expect(await mails.next()).toEqual([]);
    await restart();
    ctx.clock.current = dayOf(w, 3);
    const sent = await mails.next();
    expect(whoGotWhat(w, sent).map(([who]) => who)).toEqual(['ada', 'col', 'zed']);
    await restart();
    ctx.clock.advance(60_000);
    expect(await mails.next()).toEqual([]);
    ctx.clock.advance(10 * 60_000);
    expect(await mails.next()).toEqual([]);
  });

  it('sends a reminder due while the server was down when it comes back, while its deadline is ahead', async () => {
    const w = await reminderWorld(ctx);
    const mails = mailWatcher(ctx, w);
    ctx.clock.current = dayOf(w, 2);
    await mails.next();
    await stop();
    // Down from day 2 to day 9.5: the 7-day reminder (day 3) and the 1-day one (day 9) were
    // due. Each person gets one mail, the latest one's: it says all the earlier would have.
    ctx.clock.current = dayOf(w, 9, 12 * HOUR);
    await start();
    const sent = await mails.next();
    expect(whoGotWhat(w, sent)).toEqual(
      [
        ['ada', `Tomorrow: submission to ${w.callName} closes`],
        ['col', `Tomorrow: submission to ${w.callName} closes`],
        // Eve's own close is day 12: only her 7-day reminder (day 5) was due.
        ['eve', `Submission to ${w.callName} closes on ${deadlineOf(w, 12)}`],
        ['zed', `Tomorrow: submission to ${w.callName} closes`],
      ].sort(),
    );
  });

  it('does not send a reminder due while the server was down once its deadline has passed', async () => {
    const w = await reminderWorld(ctx);
    const mails = mailWatcher(ctx, w);
    ctx.clock.current = dayOf(w, 8);
    await mails.next();
    await stop();
    // Down over the 1-day reminder (day 9) and submission's close (day 10).
    ctx.clock.current = dayOf(w, 10, HOUR);
    await start();
    // Only Eve, whose own close (day 12) is still ahead, is reminded: of her 1-day one? Not
    // yet (day 11); her 7-day one went out before the outage.
    expect(await mails.next()).toEqual([]);
    ctx.clock.current = dayOf(w, 11);
    expect(whoGotWhat(w, await mails.next())).toEqual([
      ['eve', `Tomorrow: submission to ${w.callName} closes`],
    ]);
  });
});
