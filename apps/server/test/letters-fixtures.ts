import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Outcome, ResourceValues } from '@merit/domain';
import { eq, sql } from 'drizzle-orm';
import PostalMime from 'postal-mime';
import { calls, proposalDecisions, proposalResponses, proposals, users } from '../src/db/schema.js';
import { makeForm, makeFormName } from './admin-fixtures.js';
import type { TestContext } from './helpers.js';
import { DAY, reminderWorld } from './reminders-fixtures.js';

/*
 * A call at its decision meeting (issue 29), for the letters' tests: the reminders' world
 * (reminders-fixtures.ts) past its submission close, with a decision summary, resources
 * asked for, and outcomes written straight in `proposal_decisions` as the decisions API
 * would save them (that API is tested on its own).
 *
 * Submitted: "Pulsar timing" (Ada's, Col her collaborator; Approved, 3 of the 4 Parkes
 * nights it asks for; a decision summary), "Galaxy rotation" (Col's; Declined; Cleo has a
 * confirmed conflict with it), "Dark matter halos" (Col's; Waitlisted), "Exoplanet
 * transits" (Col's; no outcome). Ada's last name holds a script tag, as an attack would.
 */

export const HOSTILE_NAME = '<script>alert(1)</script>';
export const SUMMARY_HTML = '<p>Strong science case.</p><ul><li>Observe in winter</li></ul>';

export async function letterWorld(ctx: TestContext) {
  const w = await reminderWorld(ctx);
  const { app } = ctx;
  await app.db
    .update(users)
    .set({ lastName: HOSTILE_NAME })
    .where(eq(users.id, w.people.ada.user.id));
  await app.db
    .update(proposals)
    .set({ decisionSummary: SUMMARY_HTML, decisionSummaryVersion: 1 })
    .where(eq(proposals.id, w.ids.pulsar));
  // What "Pulsar timing" asks for: 4 nights at Parkes, in a resource form with a facility.
  const name = await makeFormName(app, { type: 5 });
  const form = await makeForm(app, name.id, {
    jsonSchema: {
      type: 'object',
      properties: { site: { type: 'string' }, nights: { type: 'number' } },
    },
    options: { institution_field: 'site', data_fields: ['nights'] },
  });
  await app.db.insert(proposalResponses).values({
    proposalId: w.ids.pulsar,
    formId: form.id,
    entryIndex: 0,
    data: { site: 'Parkes', nights: 4 },
    updatedAt: w.start,
  });
  // Past its submission close (day 10): outcomes may be set.
  ctx.clock.current = new Date(w.start.getTime() + 11 * DAY);
  await decide(ctx, w.ids.pulsar, 'approved', { Parkes: { nights: 3 } });
  await decide(ctx, w.ids.galaxy, 'declined');
  await decide(ctx, w.ids.halos, 'waitlisted');
  return w;
}
export type LetterWorld = Awaited<ReturnType<typeof letterWorld>>;

/** A chair's save of a proposal's decision: its outcome and awards, its version raised. */
export async function decide(
  ctx: TestContext,
  proposalId: number,
  outcome: Outcome | null,
  awards: ResourceValues = {},
) {
  const now = ctx.clock.now();
  await ctx.app.db
    .insert(proposalDecisions)
    .values({ proposalId, outcome, awards, version: 1, decidedAt: now })
    .onConflictDoUpdate({
      target: proposalDecisions.proposalId,
      set: { outcome, awards, version: sql`${proposalDecisions.version} + 1`, decidedAt: now },
    });
}

/** Closes the call, as its chair's Close would (without the mails that sends). */
export const closeCall = (ctx: TestContext, callId: number) =>
  ctx.app.db
    .update(calls)
    .set({ closed: true, closedAt: ctx.clock.now() })
    .where(eq(calls.id, callId));

export interface LetterMail {
  to: string;
  cc: string[];
  subject: string;
  text: string;
  html: string;
}

/**
 * The mails in the outbox with their copies (mail.ts's reader has no Cc), oldest first,
 * once every job queued so far has run; of `addresses` only when given.
 */
export async function letterMails(
  ctx: Pick<TestContext, 'app' | 'dataDir'>,
  addresses?: ReadonlySet<string>,
): Promise<LetterMail[]> {
  await ctx.app.jobs.drain();
  const dir = path.join(ctx.dataDir, 'outbox');
  const names = (await readdir(dir).catch(() => [])).filter((n) => n.endsWith('.eml')).sort();
  const mails = await Promise.all(
    names.map(async (name) => {
      const email = await PostalMime.parse(await readFile(path.join(dir, name)));
      return {
        to: email.to?.map((a) => a.address ?? '').join(', ') ?? '',
        cc: email.cc?.map((a) => a.address ?? '') ?? [],
        subject: email.subject ?? '',
        text: email.text ?? '',
        html: email.html ?? '',
      };
    }),
  );
  return addresses ? mails.filter((mail) => addresses.has(mail.to.toLowerCase())) : mails;
}

/** The world's people's addresses, for `letterMails`. */
export const addressesOf = (w: LetterWorld) =>
  new Set(Object.values(w.people).map((p) => p.user.email.toLowerCase()));
