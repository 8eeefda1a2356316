import type {
  CallDetail,
  CallSave,
  DeadlineImpact,
  DeadlineImpactQuery,
  Extension,
  ExtensionCreate,
} from '@merit/contract';
import {
  addErrors,
  callDetailsErrors,
  callMessages,
  extensionErrors,
  hasErrors,
  pinnedTypeErrors,
  proposalTypeErrors,
  type FieldErrors,
  type FormType,
} from '@merit/domain';
import { and, eq, inArray } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import {
  calls,
  committees,
  extensions,
  formNames,
  forms,
  proposalTypeForms,
  proposalTypes,
  users,
} from '../../db/schema.js';
import { authorize } from '../../platform/http/authorize.js';
import { conflict, invalid, notFound } from '../../platform/http/http-errors.js';
import { enqueueMailList, enqueueMails } from '../../platform/io/mail-job.js';
import { ImageTooLargeError, sanitizeRichText } from '../../platform/security/rich-text.js';
import type { ReadWork, Work } from '../../platform/data/work.js';
import { queueDetection } from '../conflicts/conflicts.queries.js';
import { insertDefaultRules } from '../reminders/reminders.queries.js';
import { decisionAvailableMail } from '../proposals/proposals.mails.js';
import { listScopeSql } from '../proposals/list-scope.queries.js';
import { submittedTeamsMailRows } from '../proposals/proposals.queries.js';
import { deadlineEarlierMail } from './calls.mails.js';
import {
  callDetail,
  callManagement,
  callResource,
  deadlineImpact,
  draftTeamsMovedEarlier,
  extensionsOfActor,
  findCall,
  formOrder,
  listCalls,
  loadExtensions,
  loadProposalTypes,
  lockCall,
  type CallFilter,
  type CallRow,
} from './calls.queries.js';

const extensionNotFound = 'There is no such extension on this call.';

/** The call as the policy reads it for the caller, with the caller's own extensions. */
async function resourceFor(work: ReadWork, call: CallRow) {
  return callResource(call, await extensionsOfActor(work.tx, work.actor.id, call.id));
}

// --- Reads -------------------------------------------------------------------------

export async function getCalls(work: ReadWork, filter: CallFilter) {
  return listCalls(work.tx, work.actor, filter, work.now);
}

export async function getCall(work: ReadWork, callId: number): Promise<CallDetail> {
  const found = await findCall(work.tx, callId);
  if (!found) throw notFound(callMessages.notFound);
  const resource = await resourceFor(work, found.call);
  authorize(work.actor, 'call.view', resource, work.now);
  return callDetail(work.tx, work.actor, found, resource.actorExtensions, work.now);
}

export async function getCallManagement(work: ReadWork, callId: number) {
  const found = await findCall(work.tx, callId);
  if (!found) throw notFound(callMessages.notFound);
  authorize(work.actor, 'call.manage', await resourceFor(work, found.call), work.now);
  const { reviewed } = listScopeSql(work.actor, found.call, work.now);
  return callManagement(work.tx, found.call.id, reviewed);
}

export async function getFormOrder(work: ReadWork, callId: number, kind: 'proposal' | 'review') {
  const found = await findCall(work.tx, callId);
  if (!found) throw notFound(callMessages.notFound);
  authorize(work.actor, 'call.view', await resourceFor(work, found.call), work.now);
  return formOrder(work.tx, found.call.id, kind);
}

/**
 * Who saving these deadlines would reach (issue 30), for the chair to read before the
 * call edit page saves them: the same right as the edit itself.
 */
export async function getDeadlineImpact(
  work: ReadWork,
  callId: number,
  query: DeadlineImpactQuery,
): Promise<DeadlineImpact> {
  const found = await findCall(work.tx, callId);
  if (!found) throw notFound(callMessages.notFound);
  authorize(work.actor, 'call.edit', await resourceFor(work, found.call), work.now);
  return deadlineImpact(work.tx, found.call, {
    termination: new Date(query.termination),
    reviewTermination: new Date(query.reviewTermination),
  });
}

// --- Writes ------------------------------------------------------------------------

/**
 * The type of each form, with the forms locked against change (FOR SHARE) until the call
 * is saved: an admin replacing a form checks "used by a call" under FOR UPDATE, so the
 * two take turns and a call can never end up pointing at a form that changed under it.
 */
async function lockFormTypes(tx: Tx, ids: number[]): Promise<Map<number, FormType>> {
  if (ids.length === 0) return new Map();
  const rows = await tx
    .select({ id: forms.id, type: formNames.type })
    .from(forms)
    .innerJoin(formNames, eq(formNames.id, forms.formNameId))
    .where(inArray(forms.id, ids))
    .for('share', { of: forms });
  return new Map(rows.map((r) => [r.id, r.type as FormType]));
}

/** A call as the audit log compares it before and after an edit. */
function auditView(
  call: Pick<
    CallRow,
    'name' | 'commencement' | 'termination' | 'reviewCommencement' | 'reviewTermination'
  > &
    Partial<Pick<CallRow, 'conflictsEnabled' | 'declarationRequired'>> & { description: string },
  types: readonly {
    typeId?: number | null;
    typeName: string;
    proposalForms: readonly number[];
    reviewForms: readonly number[];
  }[],
) {
  return {
    name: call.name,
    ...('conflictsEnabled' in call ? { conflictsEnabled: call.conflictsEnabled } : {}),
    ...('declarationRequired' in call ? { declarationRequired: call.declarationRequired } : {}),
    commencement: call.commencement,
    termination: call.termination,
    reviewCommencement: call.reviewCommencement,
    reviewTermination: call.reviewTermination,
    description: call.description,
    proposalTypes: types.map((t) => ({
      typeId: t.typeId ?? null,
      typeName: t.typeName,
      proposalForms: t.proposalForms,
      reviewForms: t.reviewForms,
    })),
  };
}

/**
 * Creates or updates a call with its proposal types and their ordered forms. Everything
 * the wizard checks is checked again here, plus what only the server knows: the chair's
 * committees, which types saved work pins, and whether the edit was made on the current
 * version of the call. An edit that moves the submission deadline earlier mails the
 * people of each draft it cuts short (`mailDraftsMovedEarlier`), with links to
 * `publicUrl`; code that only creates calls (set-ups, the demo) need not give one.
 */
export async function saveCall(work: Work, input: CallSave, publicUrl?: string): Promise<number> {
  const { tx, actor, now } = work;
  const dates = {
    commencement: new Date(input.openDateTime),
    termination: new Date(input.closeDateTime),
    reviewCommencement: new Date(input.reviewOpenDateTime),
    reviewTermination: new Date(input.reviewCloseDateTime),
  };

  let existing: CallRow | undefined;
  // A committee that does not exist is bad input (a field error, below), not a refusal.
  const committeeFound = input.new && (await committeeExists(tx, input.committee));
  if (input.new) {
    if (committeeFound)
      authorize(actor, 'committee.createCall', { committeeId: input.committee }, now);
  } else {
    if (!input.id) throw invalid({ id: ['This field is required.'] });
    existing = await lockCall(tx, input.id);
    if (!existing) throw notFound(callMessages.notFound);
    authorize(actor, 'call.edit', await resourceFor(work, existing), now);
    if (input.version !== undefined && input.version !== existing.version)
      throw conflict(callMessages.staleCopy);
  }

  const allFormIds = input.proposalTypes.flatMap((t) => [...t.proposalForms, ...t.reviewForms]);
  const currentTypes = existing ? await loadProposalTypes(tx, existing.id) : [];
  const errors: FieldErrors = {
    ...callDetailsErrors({ ...dates, name: input.name, committee: input.committee }),
    ...proposalTypeErrors(input.proposalTypes, await lockFormTypes(tx, [...new Set(allFormIds)])),
  };
  if (input.new && !committeeFound)
    addErrors(errors, 'committee', ['There is no committee with this id.']);
  if (existing) {
    if (input.committee !== existing.committeeId)
      addErrors(errors, 'committee', [callMessages.committeeFixed]);
    if (input.isReviewOpen !== existing.isReviewOpen)
      addErrors(errors, 'isReviewOpen', [callMessages.reviewOpenFixed]);
    for (const [field, problems] of Object.entries(
      pinnedTypeErrors(currentTypes, input.proposalTypes),
    ))
      addErrors(errors, field, problems);
  }
  let description = '';
  try {
    description = sanitizeRichText(input.description);
  } catch (error) {
    if (!(error instanceof ImageTooLargeError)) throw error;
    addErrors(errors, 'description', [callMessages.imageTooLarge]);
  }
  if (hasErrors(errors)) throw invalid(errors);

  // Conflict settings: a new call's are both on unless said; an edit keeps them unless sent.
  const conflictSettings = input.conflicts
    ? {
        conflictsEnabled: input.conflicts.enabled,
        declarationRequired: input.conflicts.declarationRequired,
      }
    : existing
      ? {}
      : { conflictsEnabled: true, declarationRequired: true };
  const values = {
    name: input.name.trim(),
    ...dates,
    description,
    ...conflictSettings,
    lastModified: now,
  };
  let callId: number;
  if (existing) {
    callId = existing.id;
    await tx
      .update(calls)
      .set({ ...values, version: existing.version + 1 })
      .where(eq(calls.id, callId));
  } else {
    const [created] = await tx
      .insert(calls)
      .values({
        ...values,
        committeeId: input.committee,
        isReviewOpen: input.isReviewOpen,
        createdAt: now,
      })
      .returning({ id: calls.id });
    callId = created!.id;
    await insertDefaultRules(tx, callId, now);
  }

  if (existing && dates.termination < existing.termination)
    await mailDraftsMovedEarlier(work, existing, dates.termination, publicUrl ?? '');

  // Conflicts turned on (again) for a call with proposals: look for them now, as detection
  // skipped it while they were off.
  if (existing && !existing.conflictsEnabled && input.conflicts?.enabled)
    await queueDetection(work, { callId });

  const keptIds = new Set(input.proposalTypes.map((t) => t.typeId).filter(Boolean));
  const removed = currentTypes.filter((t) => !keptIds.has(t.typeId));
  if (removed.length > 0) {
    await tx.delete(proposalTypes).where(
      inArray(
        proposalTypes.id,
        removed.map((t) => t.typeId),
      ),
    );
  }
  const savedTypes = [];
  for (const [position, type] of input.proposalTypes.entries()) {
    let typeId = type.typeId ?? null;
    if (typeId) {
      await tx
        .update(proposalTypes)
        .set({ name: type.typeName.trim(), position })
        .where(eq(proposalTypes.id, typeId));
      await tx.delete(proposalTypeForms).where(eq(proposalTypeForms.proposalTypeId, typeId));
    } else {
      const [created] = await tx
        .insert(proposalTypes)
        .values({ callId, name: type.typeName.trim(), position })
        .returning({ id: proposalTypes.id });
      typeId = created!.id;
    }
    savedTypes.push({ ...type, typeId, typeName: type.typeName.trim() });
    await tx.insert(proposalTypeForms).values([
      ...type.proposalForms.map((formId, i) => ({
        proposalTypeId: typeId,
        formId,
        kind: 'proposal',
        position: i,
      })),
      ...type.reviewForms.map((formId, i) => ({
        proposalTypeId: typeId,
        formId,
        kind: 'review',
        position: i,
      })),
    ]);
  }

  await work.audit({
    action: existing ? 'call.update' : 'call.create',
    entityId: callId,
    before: existing ? auditView(existing, currentTypes) : undefined,
    after: {
      ...auditView(values, savedTypes),
      ...(existing ? {} : { committeeId: input.committee, isReviewOpen: input.isReviewOpen }),
    },
  });
  return callId;
}

/**
 * Mails the author and collaborators of each draft whose own submission deadline the
 * edit moved earlier, queued in the edit's transaction (sent once it commits, in one
 * statement however many): a later deadline needs no mail, and a draft whose author's
 * extension still runs past the old deadline keeps its own.
 */
async function mailDraftsMovedEarlier(
  work: Work,
  call: CallRow,
  termination: Date,
  publicUrl: string,
): Promise<void> {
  const recipients = await draftTeamsMovedEarlier(work.tx, call.id, call.termination, termination);
  await enqueueMailList(
    work,
    recipients.map((to) =>
      deadlineEarlierMail(
        { email: to.email, firstName: to.name, username: to.name },
        {
          callName: call.name,
          proposalName: to.proposalName,
          typeName: to.typeName,
          link: `${publicUrl}/calls/${call.id}/proposals/${to.proposalId}/`,
        },
        { before: to.before, after: to.after, now: work.now },
      ),
    ),
  );
}

async function committeeExists(tx: Tx, id: number): Promise<boolean> {
  const rows = await tx.select({ id: committees.id }).from(committees).where(eq(committees.id, id));
  return rows.length > 0;
}

/**
 * Closes a call once its review period is over; closing lets authors see decisions, and
 * the author and collaborators of each submitted proposal are told so by mail (queued in
 * this transaction, sent once it commits). Of two closes at the same moment one succeeds
 * and the other is told the call is closed.
 */
export async function closeCall(work: Work, callId: number, publicUrl: string): Promise<void> {
  const call = await lockCall(work.tx, callId);
  if (!call) throw notFound(callMessages.notFound);
  authorize(work.actor, 'call.close', await resourceFor(work, call), work.now);
  // The lock already makes a second close wait and then see `closed`; the condition keeps
  // the transition right even for a writer that did not take it.
  const [closed] = await work.tx
    .update(calls)
    .set({ closed: true, closedAt: work.now, lastModified: work.now, version: call.version + 1 })
    .where(and(eq(calls.id, call.id), eq(calls.closed, false)))
    .returning({ id: calls.id });
  if (!closed) throw conflict(callMessages.alreadyClosed);
  await work.audit({
    action: 'call.close',
    entityId: call.id,
    before: { closed: false },
    after: { closed: true },
  });
  // Every author's and collaborator's mail in one INSERT ... SELECT, whatever the call
  // holds: a statement per person and proposal would hold the call's row lock meanwhile.
  // Each is still written by decisionAvailableMail (as a template the rows fill in SQL),
  // and queued in this transaction, so a close that commits has all of its mails.
  await enqueueMails(work, submittedTeamsMailRows(call.id), (to) =>
    decisionAvailableMail(
      { email: to.email, firstName: to.name, username: to.name },
      {
        callName: call.name,
        proposalName: to.proposalName,
        typeName: to.typeName,
        link: `${publicUrl}/calls/${call.id}/proposals/${to.proposalId}/`,
      },
    ),
  );
}

/**
 * Gives one user their own submission window. The call row is locked first, so two
 * extensions for the same person cannot both pass the overlap check.
 */
export async function addExtension(work: Work, input: ExtensionCreate): Promise<Extension> {
  const call = await lockCall(work.tx, input.callId);
  if (!call) throw notFound(callMessages.notFound);
  authorize(work.actor, 'call.manageExtensions', await resourceFor(work, call), work.now);
  const [user] = await work.tx.select({ id: users.id }).from(users).where(eq(users.id, input.user));
  const others = await work.tx
    .select({ commencement: extensions.commencement, termination: extensions.termination })
    .from(extensions)
    .where(and(eq(extensions.callId, call.id), eq(extensions.userId, input.user)));
  const errors = extensionErrors(
    {
      user: input.user,
      commencement: new Date(input.commencement),
      termination: new Date(input.termination),
      reason: input.reason,
    },
    others,
  );
  if (!user) addErrors(errors, 'user', ['There is no user with this id.']);
  if (hasErrors(errors)) throw invalid(errors);
  const [created] = await work.tx
    .insert(extensions)
    .values({
      callId: call.id,
      userId: input.user,
      commencement: new Date(input.commencement),
      termination: new Date(input.termination),
      reason: input.reason.trim(),
      createdAt: work.now,
    })
    .returning();
  await work.audit({
    action: 'extension.create',
    entityId: created!.id,
    after: {
      callId: created!.callId,
      userId: created!.userId,
      commencement: created!.commencement,
      termination: created!.termination,
      reason: created!.reason,
    },
  });
  return (await loadExtensions(work.tx, call.id)).find((e) => e.id === created!.id)!;
}

export async function deleteExtension(
  work: Work,
  callId: number,
  extensionId: number,
): Promise<void> {
  const call = await lockCall(work.tx, callId);
  if (!call) throw notFound(callMessages.notFound);
  authorize(work.actor, 'call.manageExtensions', await resourceFor(work, call), work.now);
  const [removed] = await work.tx
    .delete(extensions)
    .where(and(eq(extensions.id, extensionId), eq(extensions.callId, call.id)))
    .returning();
  if (!removed) throw notFound(extensionNotFound);
  await work.audit({
    action: 'extension.delete',
    entityId: removed.id,
    // The extension is gone: its call and holder, as `writeAudit` cannot read them.
    callId: removed.callId,
    subjectUserId: removed.userId,
    before: {
      callId: removed.callId,
      userId: removed.userId,
      commencement: removed.commencement,
      termination: removed.termination,
      reason: removed.reason,
    },
  });
}
