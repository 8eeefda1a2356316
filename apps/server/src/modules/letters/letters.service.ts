import type {
  CallLetters,
  LetterPreview,
  LettersQueued,
  LetterSummary,
  LetterTemplates,
} from '@merit/contract';
import {
  callMessages,
  decisionsReleased,
  isProposalTeam,
  OUTCOMES,
  type FieldErrors,
  type Outcome,
} from '@merit/domain';
import { letterMessages, letterTemplateProblems } from '@merit/domain/letters';
import { and, eq, inArray, not, sql } from 'drizzle-orm';
import { calls, decisionLetters, letterTemplates, proposals } from '../../db/schema.js';
import { authorize } from '../../platform/http/authorize.js';
import { conflict, forbidden, invalid, notFound, stale } from '../../platform/http/http-errors.js';
import type { ReadWork, Work } from '../../platform/data/work.js';
import { callResource, findCall, lockCall, type CallRow } from '../calls/calls.queries.js';
import { loadFor } from '../proposals/proposal-access.js';
import { conflictedSql, ownSql } from '../proposals/list-scope.queries.js';
import {
  currentLettersOf,
  insertLetters,
  letterSourcesOf,
  recipientsOf,
  templatesOf,
  type LetterRow,
  type LetterSource,
  type LetterTemplateRow,
} from './letters.queries.js';
import { templateFor, writeLetter, type LetterCall } from './letters.values.js';

/*
 * Decision letters (issue 29): the chairs' templates per outcome, a proposal's letter as it
 * would be sent, releasing the decisions of a closed call (one letter per proposal with an
 * outcome, each queued as a job that makes its PDF and mails it once: letters.job.ts),
 * each proposal's letter state, and sending a failed or corrected letter again.
 */

/** The job that makes one letter's PDF and mails it (letters.job.ts). */
export const SEND_LETTER_JOB = 'letters.send';
export interface SendLetter {
  letterId: number;
}

const notOfCall =
  'One of these proposals is not a submitted proposal of this call that you may decide on: reload the letters to see them as they are.';

/** The call as its rules read it, with when its decisions were released. */
const resourceOf = (call: CallRow) => ({
  ...callResource(call, []),
  decisionsReleasedAt: call.decisionsReleasedAt,
});

async function callOf(work: ReadWork, callId: number) {
  const found = await findCall(work.tx, callId);
  if (!found) throw notFound(callMessages.notFound);
  return found;
}

/** GET .../letter_templates/ as the call has them: a stored template, else the default. */
function presentTemplates(
  call: Pick<CallRow, 'letterSignature' | 'outcomeLabels' | 'lettersVersion'>,
  templates: Map<Outcome, LetterTemplateRow>,
): LetterTemplates {
  return {
    templates: OUTCOMES.map((outcome) => {
      const { subject, body } = templateFor(templates, outcome);
      return { outcome, subject, body };
    }),
    signature: call.letterSignature,
    outcomeLabels: Object.fromEntries(
      OUTCOMES.map((outcome) => [outcome, call.outcomeLabels[outcome] ?? '']),
    ) as LetterTemplates['outcomeLabels'],
    version: call.lettersVersion,
  };
}

/** GET /calls/{callId}/letter_templates/ (`call.decide`: the chairs, admins). */
export async function getTemplates(work: ReadWork, callId: number): Promise<LetterTemplates> {
  const { call } = await callOf(work, callId);
  authorize(work.actor, 'call.decide', resourceOf(call), work.now);
  return presentTemplates(call, await templatesOf(work.tx, call.id));
}

/**
 * PUT /calls/{callId}/letter_templates/ (`call.decide`): all four templates, the signature
 * and the outcomes' words, from `version`. Each template is checked as the domain checks
 * one (`letterTemplateProblems`: no unknown field, no tag but conditions); letters
 * written from now on name the new version, so a changed template is a new letter.
 */
export async function saveTemplates(
  work: Work,
  callId: number,
  input: LetterTemplates,
): Promise<LetterTemplates> {
  const { tx, now } = work;
  const call = await lockCall(tx, callId);
  if (!call) throw notFound(callMessages.notFound);
  authorize(work.actor, 'call.decide', resourceOf(call), now);
  const current = await templatesOf(tx, call.id);
  if (input.version !== call.lettersVersion)
    throw stale(letterMessages.stale, presentTemplates(call, current));

  const errors: FieldErrors = {};
  input.templates.forEach((template, n) => {
    for (const { path, message } of letterTemplateProblems(template))
      (errors[`templates.${n}.${path}`] ??= []).push(message);
  });
  if (new Set(input.templates.map((template) => template.outcome)).size !== OUTCOMES.length)
    errors.templates = [letterMessages.oneTemplatePerOutcome];
  const first = Object.values(errors)[0]?.[0];
  // The envelope's detail is the first problem, so it names the unknown field too.
  if (first) throw invalid(errors, first);

  for (const { outcome, subject, body } of input.templates) {
    await tx
      .insert(letterTemplates)
      .values({ callId: call.id, outcome, subject, body, updatedAt: now })
      .onConflictDoUpdate({
        target: [letterTemplates.callId, letterTemplates.outcome],
        set: { subject, body, updatedAt: now },
      });
  }
  // An outcome whose word is left empty keeps its label (`outcomeLabel`).
  const outcomeLabels = Object.fromEntries(
    Object.entries(input.outcomeLabels).filter(([, label]) => label.trim() !== ''),
  );
  const saved = {
    letterSignature: input.signature,
    outcomeLabels,
    lettersVersion: call.lettersVersion + 1,
  };
  await tx.update(calls).set(saved).where(eq(calls.id, call.id));
  const after = await templatesOf(tx, call.id);
  await work.audit({
    action: 'call.update_letters',
    entityId: call.id,
    before: auditedLetters(presentTemplates(call, current)),
    after: auditedLetters(presentTemplates({ ...call, ...saved }, after)),
  });
  return presentTemplates({ ...call, ...saved }, after);
}

/**
 * The templates as one audit snapshot, a field per outcome: the log keeps each value
 * whole up to 1,000 characters, and the History shows only those that changed.
 */
const auditedLetters = (letters: LetterTemplates) => ({
  ...Object.fromEntries(
    letters.templates.map(({ outcome, subject, body }) => [outcome, { subject, body }]),
  ),
  signature: letters.signature,
  outcomeLabels: letters.outcomeLabels,
});

/** What every letter of a call is written with. */
async function letterCallOf(
  work: ReadWork,
  call: CallRow,
  committeeName: string,
  publicUrl: string,
): Promise<LetterCall> {
  return { call, committeeName, templates: await templatesOf(work.tx, call.id), publicUrl };
}

const withOutcome = (source: LetterSource): source is LetterSource & { outcome: Outcome } =>
  source.outcome !== null;

/**
 * GET /proposals/{proposalId}/letter/preview/: its letter as it would be sent now, for
 * those who read its outcome (`proposal.viewOutcome`) and are not its applicants: a
 * preview is the chairs'. 409 when it has no outcome.
 */
export async function previewLetter(
  work: ReadWork,
  proposalId: number,
  publicUrl: string,
): Promise<LetterPreview> {
  const loaded = await loadFor(work, 'proposal.viewOutcome', proposalId);
  if (isProposalTeam(work.actor, loaded.resource))
    throw forbidden(letterMessages.previewChairsOnly);
  const { call, committeeName } = await callOf(work, loaded.call.id);
  const [source] = await letterSourcesOf(work.tx, call.id, eq(proposals.id, proposalId));
  if (!source || !withOutcome(source)) throw conflict(letterMessages.noOutcome);
  const letter = writeLetter(source, await letterCallOf(work, call, committeeName, publicUrl));
  const { to, cc } = await recipientsOf(work.tx, proposalId);
  return { outcome: source.outcome, to: [...(to ? [to] : []), ...cc], ...letter };
}

/**
 * Writes the letters of these proposals as `queued`, each once (`insertLetters`), and
 * queues a job for each one written now, in the same transaction. How many.
 */
async function writeAndQueue(
  work: Work,
  letterCall: LetterCall,
  sources: readonly (LetterSource & { outcome: Outcome })[],
): Promise<number> {
  const ids = await insertLetters(
    work.tx,
    sources.map((source) => {
      const letter = writeLetter(source, letterCall);
      return {
        proposalId: source.proposalId,
        decisionVersion: source.decisionVersion,
        lettersVersion: letterCall.call.lettersVersion,
        outcome: source.outcome,
        subject: letter.subject,
        bodyText: letter.text,
        bodyHtml: letter.html,
        createdBy: work.actor.id,
      };
    }),
    work.now,
  );
  await queueLetters(work, ids);
  return ids.length;
}

/** One job per letter, in one statement however many (`Work.enqueueEach`). */
const queueLetters = (work: Work, ids: readonly number[]) =>
  ids.length === 0
    ? Promise.resolve(0)
    : work.enqueueEach(
        SEND_LETTER_JOB,
        sql`select jsonb_build_object('letterId', (value)::int) from jsonb_array_elements(${JSON.stringify(ids)}::jsonb) with ordinality as l(value, n) order by n`,
      );

/**
 * POST /calls/{callId}/release_decisions/ (`call.releaseDecisions`: chairs, once the call
 * is closed, once): the applicants may read their outcomes from now on, and each
 * submitted proposal with an outcome gets its letter, queued. Those without get none.
 */
export async function releaseDecisions(
  work: Work,
  callId: number,
  publicUrl: string,
): Promise<LettersQueued> {
  const { tx, now } = work;
  // Locked: two releases at once take turns, and the second finds it released.
  const call = await lockCall(tx, callId);
  if (!call) throw notFound(callMessages.notFound);
  authorize(work.actor, 'call.releaseDecisions', resourceOf(call), now);
  const { committeeName } = await callOf(work, call.id);
  await tx.update(calls).set({ decisionsReleasedAt: now }).where(eq(calls.id, call.id));
  const sources = await letterSourcesOf(tx, call.id);
  const decided = sources.filter(withOutcome);
  const queued = await writeAndQueue(
    work,
    await letterCallOf(work, call, committeeName, publicUrl),
    decided,
  );
  const withoutOutcome = sources.length - decided.length;
  await work.audit({
    action: 'call.release_decisions',
    entityId: call.id,
    after: { releasedAt: now.toISOString(), letters: queued, withoutOutcome },
  });
  return { queued, withoutOutcome };
}

export const presentLetter = (letter: LetterRow): LetterSummary => ({
  id: letter.id,
  state: letter.state,
  outcome: letter.outcome,
  createdAt: letter.createdAt.toISOString(),
  sentAt: letter.sentAt?.toISOString() ?? null,
  hasPdf: letter.storageKey !== null,
});

/** The submitted proposals of a call a chair decides on: not their own, not conflicted. */
const decidableBy = (work: ReadWork, call: CallRow) =>
  and(not(ownSql(work.actor.id)), not(conflictedSql(work.actor.id, call)));

/**
 * GET /calls/{callId}/letters/ (`call.decide`): each submitted proposal the caller decides
 * on with its current letter, those without an outcome first, then by name.
 */
export async function callLetters(work: ReadWork, callId: number): Promise<CallLetters> {
  const { call } = await callOf(work, callId);
  authorize(work.actor, 'call.decide', resourceOf(call), work.now);
  const sources = await letterSourcesOf(work.tx, call.id, decidableBy(work, call), {
    requested: false,
  });
  const letters = await currentLettersOf(
    work.tx,
    sources.map((source) => source.proposalId),
  );
  const rows = sources.map((source) => {
    const letter = letters.get(source.proposalId) ?? null;
    return {
      proposalId: source.proposalId,
      name: source.name,
      outcome: source.outcome,
      state: letter?.state ?? ('draft' as const),
      letter: letter ? presentLetter(letter) : null,
      changedSinceLetter: letter !== null && source.decisionVersion > letter.decisionVersion,
      error: letter?.error ?? null,
    };
  });
  rows.sort(
    (a, b) =>
      Number(a.outcome !== null) - Number(b.outcome !== null) ||
      a.name.localeCompare(b.name, 'en', { sensitivity: 'base' }) ||
      a.proposalId - b.proposalId,
  );
  return { releasedAt: call.decisionsReleasedAt?.toISOString() ?? null, proposals: rows };
}

/**
 * POST /calls/{callId}/letters/send/ (`call.decide`, decisions released): for each named
 * proposal, a failed letter is queued again; a letter whose outcome changed since it was
 * written is superseded (kept, never shown to the applicants) by a corrected one, queued;
 * a proposal given its outcome after the release gets its first. Any other is skipped.
 */
export async function sendLetters(
  work: Work,
  callId: number,
  proposalIds: readonly number[],
  publicUrl: string,
): Promise<LettersQueued> {
  const { tx, now } = work;
  const call = await lockCall(tx, callId);
  if (!call) throw notFound(callMessages.notFound);
  authorize(work.actor, 'call.decide', resourceOf(call), now);
  if (!decisionsReleased(call)) throw conflict(letterMessages.notReleased);
  const named = [...new Set(proposalIds)];
  const sources = await letterSourcesOf(
    tx,
    call.id,
    and(inArray(proposals.id, named), decidableBy(work, call)),
  );
  if (sources.length !== named.length) throw invalid({ proposalIds: [notOfCall] }, notOfCall);
  const current = await currentLettersOf(tx, named);

  const again: LetterRow[] = [];
  const corrected: (LetterSource & { outcome: Outcome })[] = [];
  for (const source of sources.filter(withOutcome)) {
    const letter = current.get(source.proposalId);
    const sameKey =
      letter?.decisionVersion === source.decisionVersion &&
      letter.lettersVersion === call.lettersVersion;
    if (letter?.state === 'failed' && sameKey) again.push(letter);
    else if (
      !letter ||
      letter.state === 'failed' ||
      source.decisionVersion > letter.decisionVersion
    )
      corrected.push(source);
  }
  // A failed letter of the same key is the same letter: it is tried again as it is.
  const retried = again.length
    ? await tx
        .update(decisionLetters)
        .set({ state: 'queued', error: null })
        .where(
          and(
            inArray(
              decisionLetters.id,
              again.map((letter) => letter.id),
            ),
            eq(decisionLetters.state, 'failed'),
          ),
        )
        .returning({ id: decisionLetters.id, proposalId: decisionLetters.proposalId })
    : [];
  await queueLetters(
    work,
    retried.map((row) => row.id),
  );
  const superseded = corrected.flatMap((source) => current.get(source.proposalId)?.id ?? []);
  if (superseded.length)
    await tx
      .update(decisionLetters)
      .set({ state: 'superseded' })
      .where(inArray(decisionLetters.id, superseded));
  const { committeeName } = await callOf(work, call.id);
  const written = await writeAndQueue(
    work,
    await letterCallOf(work, call, committeeName, publicUrl),
    corrected,
  );
  const withoutOutcome = sources.length - sources.filter(withOutcome).length;
  await work.audit({
    action: 'call.send_letters',
    entityId: call.id,
    after: {
      retried: retried.map((row) => row.proposalId),
      corrected: corrected.map((source) => source.proposalId),
      superseded: superseded.length,
    },
  });
  return { queued: retried.length + written, withoutOutcome };
}
