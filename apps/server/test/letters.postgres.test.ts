import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decisionLetters } from '../src/db/schema.js';
import { enqueueJob } from '../src/platform/data/jobs.js';
import { SEND_LETTER_JOB } from '../src/modules/letters/letters.service.js';
import { auth, createTestApp, login, secondProcess, type TestContext } from './helpers.js';
import { addressesOf, closeCall, letterMails, letterWorld } from './letters-fixtures.js';

// PostgreSQL only (the server:postgres project; `*.postgres.test.ts` is left out of the
// PGlite run): two apps, each on its own connections to one database and with its own job
// runner, as two app processes are, releasing and sending the same letters at once.

let ctx: TestContext;
let second: Awaited<ReturnType<typeof secondProcess>>;
beforeAll(async () => {
  ctx = await createTestApp();
  second = await secondProcess(ctx);
});
afterAll(async () => {
  await second?.close();
  await ctx?.close();
});

describe('decision letters with two app processes', () => {
  it('releases once, and mails each letter once however often and wherever its job runs', async () => {
    const w = await letterWorld(ctx);
    await closeCall(ctx, w.callId);
    const decisionMails = async () =>
      (await letterMails(ctx, addressesOf(w))).filter((mail) =>
        mail.subject.includes('decision on'),
      );
    const before = (await decisionMails()).length;
    const path = `/api/v1/calls/${w.callId}/release_decisions/`;
    // Both processes release at once: one does, the other finds it done.
    const headers = auth(await login(ctx.app, w.people.carla.user.username));
    const answers = await Promise.all(
      [ctx.app, second.app].map((app) => app.inject({ method: 'POST', url: path, headers })),
    );
    expect(answers.map((res) => res.statusCode).sort()).toEqual([200, 409]);
    expect(answers.find((res) => res.statusCode === 200)!.json()).toEqual({
      queued: 3,
      withoutOutcome: 1,
    });
    const ids = [w.ids.pulsar, w.ids.galaxy, w.ids.halos];
    const written = await ctx.app.db
      .select()
      .from(decisionLetters)
      .where(inArray(decisionLetters.proposalId, ids));
    // Each letter's job queued twice more, as retries would, before any has run.
    await ctx.app.db.transaction(async (tx) => {
      for (const letter of written)
        for (let i = 0; i < 2; i += 1)
          await enqueueJob(tx, SEND_LETTER_JOB, { letterId: letter.id }, ctx.clock.now());
    });
    await Promise.all([
      ctx.app.jobs.drain(),
      second.app.jobs.drain(),
      ctx.app.jobs.drain(),
      second.app.jobs.drain(),
    ]);
    await Promise.all([ctx.app.jobs.drain(), second.app.jobs.drain()]);
    const mails = (await decisionMails()).slice(before);
    expect(mails.map((mail) => mail.to).sort()).toEqual(
      [w.people.ada.user.email, w.people.col.user.email, w.people.col.user.email].sort(),
    );
    for (const letter of written) {
      const [row] = await ctx.app.db
        .select()
        .from(decisionLetters)
        .where(eq(decisionLetters.id, letter.id));
      expect(row).toMatchObject({ state: 'sent', error: null });
      expect(row!.storageKey).not.toBeNull();
    }
  });
});
