import type { CallLetters, LetterPreview, LetterTemplates } from '@merit/contract';
import { decisionMessages, OUTCOMES } from '@merit/domain';
import { DEFAULT_LETTER_TEMPLATES, letterMessages } from '@merit/domain/letters';
import { and, asc, eq } from 'drizzle-orm';
import { PDFParse } from 'pdf-parse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, decisionLetters } from '../src/db/schema.js';
import { enqueueJob } from '../src/platform/data/jobs.js';
import { SEND_LETTER_JOB } from '../src/modules/letters/letters.service.js';
import { createTestApp, type TestContext } from './helpers.js';
import {
  addressesOf,
  closeCall,
  decide,
  HOSTILE_NAME,
  letterMails,
  letterWorld,
  type LetterWorld,
} from './letters-fixtures.js';

/**
 * Decision letters (issue 29) on a real database with the real job runner, file storage
 * and outbox: the chairs' templates (defaults, an unknown field and a tag refused by name,
 * stale saves), the preview (values escaped in the HTML, the chairs' only), releasing a
 * closed call's decisions (one letter per proposal with an outcome, mailed once with the
 * collaborators in copy, its PDF downloaded through a ticket), the chairs' list, and a
 * changed outcome's corrected letter superseding the old. Two app processes on one
 * PostgreSQL: letters.postgres.test.ts.
 */

let ctx: TestContext;
let w: LetterWorld;
beforeAll(async () => {
  ctx = await createTestApp();
  w = await letterWorld(ctx);
});
afterAll(() => ctx.close());

const templatesPath = () => `/calls/${w.callId}/letter_templates/`;
/** The letters of the world's people in the outbox: those whose subject is a decision's. */
const letters = async () =>
  (await letterMails(ctx, addressesOf(w))).filter((mail) => mail.subject.includes('decision on'));
const lettersOf = (proposalId: number) =>
  ctx.app.db
    .select()
    .from(decisionLetters)
    .where(eq(decisionLetters.proposalId, proposalId))
    .orderBy(asc(decisionLetters.id));

describe('letter templates', () => {
  it('start as the defaults, one per outcome in order, for the chairs only', async () => {
    const res = await w.people.carla.call('GET', templatesPath());
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as LetterTemplates;
    expect(body.templates).toEqual(
      OUTCOMES.map((outcome) => ({ outcome, ...DEFAULT_LETTER_TEMPLATES[outcome] })),
    );
    expect(body.version).toBe(0);
    expect(body.outcomeLabels).toEqual({
      approved: '',
      partly_approved: '',
      waitlisted: '',
      declined: '',
    });
    expect((await w.people.rita.call('GET', templatesPath())).statusCode).toBe(403);
    expect((await w.people.ada.call('GET', templatesPath())).statusCode).toBe(403);
  });

  const edited = (body: LetterTemplates, n: number, text: string): LetterTemplates => ({
    ...body,
    templates: body.templates.map((template, i) =>
      i === n ? { ...template, body: text } : template,
    ),
  });

  it('refuse an unknown field by name, at its place, and save nothing', async () => {
    const current = (await w.people.carla.call('GET', templatesPath())).json() as LetterTemplates;
    const res = await w.people.carla.call(
      'PUT',
      templatesPath(),
      edited(current, 1, 'Dear {{ applicant.email }},'),
    );
    expect(res.statusCode, res.body).toBe(400);
    const error = res.json() as { detail: string; fields: Record<string, string[]> };
    expect(error.fields['templates.1.body']).toEqual([
      letterMessages.unknownField('applicant.email'),
    ]);
    expect(error.detail).toContain('applicant.email');
    const after = (await w.people.carla.call('GET', templatesPath())).json() as LetterTemplates;
    expect(after.version).toBe(0);
  });

  it('refuse {% include %}, which would read a file on the server', async () => {
    const current = (await w.people.carla.call('GET', templatesPath())).json() as LetterTemplates;
    const res = await w.people.carla.call(
      'PUT',
      templatesPath(),
      edited(current, 0, "{% include '/etc/passwd' %}"),
    );
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().fields['templates.0.body']).toEqual([
      letterMessages.tagNotAllowed('include'),
    ]);
  });

  it('refuse two templates for one outcome', async () => {
    const current = (await w.people.carla.call('GET', templatesPath())).json() as LetterTemplates;
    const twice = {
      ...current,
      templates: current.templates.map((t, i) => (i === 1 ? { ...t, outcome: 'approved' } : t)),
    };
    const res = await w.people.carla.call('PUT', templatesPath(), twice);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().fields.templates).toEqual([letterMessages.oneTemplatePerOutcome]);
  });

  it('save from their version, audited, and refuse a save from an older one with what is saved', async () => {
    const current = (await w.people.carla.call('GET', templatesPath())).json() as LetterTemplates;
    const mine = {
      ...edited(current, 0, `${current.templates[0]!.body}\n\nWelcome aboard.`),
      signature: 'Carla Chair, for the committee',
      outcomeLabels: { ...current.outcomeLabels, approved: 'Granted' },
    };
    const res = await w.people.carla.call('PUT', templatesPath(), mine);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ version: 1, signature: mine.signature });
    const [audit] = await ctx.app.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'call.update_letters'), eq(auditLog.entityId, w.callId)));
    expect(audit).toBeDefined();

    const late = await w.people.cleo.call('PUT', templatesPath(), {
      ...current,
      signature: 'Cleo',
    });
    expect(late.statusCode, late.body).toBe(409);
    expect(late.json()).toMatchObject({
      code: 'stale',
      detail: letterMessages.stale,
      current: { version: 1, signature: mine.signature },
    });
  });
});

describe('the preview of a letter', () => {
  const preview = (who: keyof LetterWorld['people'], proposalId: number) =>
    w.people[who].call('GET', `/proposals/${proposalId}/letter/preview/`);

  it('escapes the applicant’s name in the HTML and keeps it as written in the text', async () => {
    const res = await preview('carla', w.ids.pulsar);
    expect(res.statusCode, res.body).toBe(200);
    const letter = res.json() as LetterPreview;
    expect(letter.outcome).toBe('approved');
    expect(letter.to).toEqual([w.people.ada.user.email, w.people.col.user.email]);
    expect(letter.html).not.toContain('<script>');
    expect(letter.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(letter.text).toContain(`Ada ${HOSTILE_NAME}`);
    // The call's own word for the outcome, the signature, the summary and the awards.
    expect(letter.text).toContain(': Granted.');
    expect(letter.text).toContain('Carla Chair, for the committee');
    expect(letter.text).toContain('Strong science case.\n• Observe in winter');
    expect(letter.html).toContain('<p>Strong science case.</p>');
    expect(letter.text).toContain('Parkes  |  nights  |  4  |  3');
    expect(letter.text).toContain(`/calls/${w.callId}/proposals/${w.ids.pulsar}/`);
  });

  it('is 409 for a proposal without an outcome', async () => {
    const res = await preview('carla', w.ids.exoplanet);
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().detail).toBe(letterMessages.noOutcome);
  });

  it('is kept from a chair conflicted on the proposal, members and applicants', async () => {
    expect((await preview('cleo', w.ids.galaxy)).statusCode).toBe(404);
    expect((await preview('cleo', w.ids.pulsar)).statusCode).toBe(200);
    expect((await preview('rita', w.ids.pulsar)).statusCode).toBe(403);
    expect((await preview('ada', w.ids.pulsar)).statusCode).toBe(403);
  });
});

describe('releasing the decisions', () => {
  const release = (who: 'carla' | 'rita' = 'carla') =>
    w.people[who].call('POST', `/calls/${w.callId}/release_decisions/`);

  it('is refused before the call is closed', async () => {
    const res = await release();
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().detail).toBe(decisionMessages.releaseBeforeClose);
    expect(await lettersOf(w.ids.pulsar)).toEqual([]);
  });

  it('queues one letter per proposal with an outcome, mailed once with the collaborators in copy', async () => {
    await closeCall(ctx, w.callId);
    expect((await release('rita')).statusCode).toBe(403);
    const res = await release();
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ queued: 3, withoutOutcome: 1 });
    expect((await release()).statusCode).toBe(409);

    const mails = await letters();
    expect(mails.map((mail) => [mail.to, mail.cc]).sort()).toEqual(
      [
        [w.people.ada.user.email, [w.people.col.user.email]],
        [w.people.col.user.email, []],
        [w.people.col.user.email, []],
      ].sort(),
    );
    const pulsar = mails.find((mail) => mail.to === w.people.ada.user.email)!;
    expect(pulsar.html).not.toContain('<script>');
    expect(pulsar.text).toContain(HOSTILE_NAME);
    expect(await lettersOf(w.ids.exoplanet)).toEqual([]);
    for (const id of [w.ids.pulsar, w.ids.galaxy, w.ids.halos]) {
      const [letter, ...more] = await lettersOf(id);
      expect(more).toEqual([]);
      expect(letter).toMatchObject({ state: 'sent', lettersVersion: 1, error: null });
      expect(letter!.storageKey).not.toBeNull();
    }
  });

  it('sends nothing again when a letter’s job runs again', async () => {
    const before = (await letters()).length;
    const [letter] = await lettersOf(w.ids.pulsar);
    await ctx.app.db.transaction((tx) =>
      enqueueJob(tx, SEND_LETTER_JOB, { letterId: letter!.id }, ctx.clock.now()),
    );
    expect((await letters()).length).toBe(before);
  });

  it('gives the letter’s PDF to its applicants through a ticket, the name written as text', async () => {
    const [letter] = await lettersOf(w.ids.pulsar);
    const ticket = await w.people.col.call('POST', '/download_tickets/', { letterId: letter!.id });
    expect(ticket.statusCode, ticket.body).toBe(200);
    const res = await ctx.app.inject({ method: 'GET', url: ticket.json().url });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const parser = new PDFParse({ data: new Uint8Array(res.rawPayload) });
    const { text } = await parser.getText();
    await parser.destroy();
    expect(text).toContain(HOSTILE_NAME);
    expect(text).toContain('Strong science case.');
    // Once only, and never for someone who may not read the outcome.
    expect((await ctx.app.inject({ method: 'GET', url: ticket.json().url })).statusCode).toBe(404);
    const other = await w.people.zed.call('POST', '/download_tickets/', { letterId: letter!.id });
    expect(other.statusCode).toBe(404);
  });

  it('lists each proposal’s letter for the chairs, those without an outcome first, not what they are conflicted on', async () => {
    const res = await w.people.carla.call('GET', `/calls/${w.callId}/letters/`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as CallLetters;
    expect(body.releasedAt).not.toBeNull();
    expect(
      body.proposals.map((p) => [p.proposalId, p.outcome, p.state, p.letter?.state ?? null]),
    ).toEqual([
      [w.ids.exoplanet, null, 'draft', null],
      [w.ids.halos, 'waitlisted', 'sent', 'sent'],
      [w.ids.galaxy, 'declined', 'sent', 'sent'],
      [w.ids.pulsar, 'approved', 'sent', 'sent'],
    ]);
    const cleo = (
      await w.people.cleo.call('GET', `/calls/${w.callId}/letters/`)
    ).json() as CallLetters;
    expect(cleo.proposals.map((p) => p.proposalId)).not.toContain(w.ids.galaxy);
    expect(cleo.proposals).toHaveLength(3);
    expect((await w.people.ada.call('GET', `/calls/${w.callId}/letters/`)).statusCode).toBe(403);
  });

  it('refuses the applicants a preview once released too', async () => {
    const res = await w.people.ada.call('GET', `/proposals/${w.ids.pulsar}/letter/preview/`);
    expect(res.statusCode).toBe(403);
    expect(res.json().detail).toBe(letterMessages.previewChairsOnly);
  });
});

describe('after a changed outcome', () => {
  it('supersedes the old letter by a corrected one, sent, and the old PDF is kept from the applicants', async () => {
    const before = (await letters()).length;
    await decide(ctx, w.ids.halos, 'approved');
    const list = (
      await w.people.carla.call('GET', `/calls/${w.callId}/letters/`)
    ).json() as CallLetters;
    expect(list.proposals.find((p) => p.proposalId === w.ids.halos)?.changedSinceLetter).toBe(true);
    expect(list.proposals.find((p) => p.proposalId === w.ids.pulsar)?.changedSinceLetter).toBe(
      false,
    );
    const [old] = await lettersOf(w.ids.halos);

    const res = await w.people.carla.call('POST', `/calls/${w.callId}/letters/send/`, {
      proposalIds: [w.ids.halos, w.ids.pulsar, w.ids.exoplanet],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ queued: 1, withoutOutcome: 1 });
    const mails = await letters();
    expect(mails.slice(before).map((mail) => mail.to)).toEqual([w.people.col.user.email]);
    expect(mails.at(-1)!.text).toContain(': Granted.');

    const [superseded, corrected] = await lettersOf(w.ids.halos);
    expect(superseded).toMatchObject({ id: old!.id, state: 'superseded' });
    expect(corrected).toMatchObject({ state: 'sent', outcome: 'approved', decisionVersion: 2 });
    const ticket = await w.people.col.call('POST', '/download_tickets/', { letterId: old!.id });
    expect(ticket.statusCode).toBe(404);
  });

  it('queues a failed letter again as it is', async () => {
    const [letter] = await lettersOf(w.ids.galaxy);
    await ctx.app.db
      .update(decisionLetters)
      .set({ state: 'failed', error: 'The mail server said no.' })
      .where(eq(decisionLetters.id, letter!.id));
    const list = (
      await w.people.carla.call('GET', `/calls/${w.callId}/letters/`)
    ).json() as CallLetters;
    expect(list.proposals.find((p) => p.proposalId === w.ids.galaxy)?.error).toBe(
      'The mail server said no.',
    );
    const before = (await letters()).length;
    const res = await w.people.carla.call('POST', `/calls/${w.callId}/letters/send/`, {
      proposalIds: [w.ids.galaxy],
    });
    expect(res.json()).toEqual({ queued: 1, withoutOutcome: 0 });
    expect((await letters()).length).toBe(before + 1);
    expect(await lettersOf(w.ids.galaxy)).toMatchObject([
      { id: letter!.id, state: 'sent', error: null },
    ]);
  });

  it('refuses a proposal the chair is conflicted on', async () => {
    const res = await w.people.cleo.call('POST', `/calls/${w.callId}/letters/send/`, {
      proposalIds: [w.ids.galaxy],
    });
    expect(res.statusCode).toBe(400);
  });
});
