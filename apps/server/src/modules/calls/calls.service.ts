import type { CallSave, ExtensionCreate } from '@merit/contract';
import {
  callDetailsErrors,
  callMessages,
  canCreateCallFor,
  canEditCall,
  canManageCall,
  canBeClosed,
  hasErrors,
  messages,
  MAX_LENGTHS,
  checkText,
  addErrors,
  proposalTypeErrors,
  roleMessages,
  type CommitteeActor,
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
import { writeAudit } from '../../lib/audit.js';
import { conflict, forbidden, invalid, notFound } from '../../lib/http-errors.js';
import { ImageTooLargeError, sanitizeRichText } from '../../lib/rich-text.js';
import { findCall, loadProposalTypes, policyView, type CallRow } from './calls.queries.js';

export const callNotFound = 'There is no call with this id.';

async function formTypesOf(db: Tx, ids: number[]): Promise<Map<number, FormType>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: forms.id, type: formNames.type })
    .from(forms)
    .innerJoin(formNames, eq(formNames.id, forms.formNameId))
    .where(inArray(forms.id, ids));
  return new Map(rows.map((r) => [r.id, r.type as FormType]));
}

const sameList = (a: readonly number[], b: readonly number[]) =>
  a.length === b.length && a.every((x, i) => x === b[i]);

/**
 * Creates or updates a call with its proposal types and their ordered forms, in one
 * transaction. Everything the wizard checks is checked again here, plus what only the
 * server knows: the chair's committees, and which types already have saved work.
 */
export async function saveCall(
  db: Tx,
  actor: CommitteeActor,
  input: CallSave,
  now: Date,
): Promise<number> {
  const dates = {
    commencement: new Date(input.openDateTime),
    termination: new Date(input.closeDateTime),
    reviewCommencement: new Date(input.reviewOpenDateTime),
    reviewTermination: new Date(input.reviewCloseDateTime),
  };
  const allFormIds = input.proposalTypes.flatMap((t) => [...t.proposalForms, ...t.reviewForms]);
  const errors: FieldErrors = {
    ...callDetailsErrors({ ...dates, name: input.name, committee: input.committee }),
    ...proposalTypeErrors(input.proposalTypes, await formTypesOf(db, [...new Set(allFormIds)])),
  };

  let description: string;
  try {
    description = sanitizeRichText(input.description);
  } catch (error) {
    if (!(error instanceof ImageTooLargeError)) throw error;
    addErrors(errors, 'description', [callMessages.imageTooLarge]);
    description = '';
  }

  return db.transaction(async (tx) => {
    let existing: CallRow | undefined;
    if (input.new) {
      const [committee] = await tx
        .select({ id: committees.id })
        .from(committees)
        .where(eq(committees.id, input.committee));
      if (!committee) addErrors(errors, 'committee', ['There is no committee with this id.']);
      else if (!canCreateCallFor(actor, input.committee, now)) {
        throw forbidden('You can create calls only for committees you chair.');
      }
    } else {
      if (!input.id) throw invalid({ id: ['This field is required.'] });
      existing = (await findCall(tx, input.id))?.call;
      if (!existing) throw notFound(callNotFound);
      if (!canEditCall(actor, policyView(existing), now)) {
        if (existing.closed) throw conflict(callMessages.closedNoEdit);
        throw forbidden(messages.noPermission);
      }
      if (input.committee !== existing.committeeId)
        addErrors(errors, 'committee', [callMessages.committeeFixed]);
      if (input.isReviewOpen !== existing.isReviewOpen)
        addErrors(errors, 'isReviewOpen', [callMessages.reviewOpenFixed]);
    }

    // What saved work pins down on the types that exist.
    const currentTypes = existing ? await loadProposalTypes(tx, existing.id) : [];
    const currentById = new Map(currentTypes.map((t) => [t.typeId, t]));
    input.proposalTypes.forEach((type, i) => {
      if (!type.typeId) return;
      const current = currentById.get(type.typeId);
      if (!current) {
        addErrors(errors, `proposalTypes.${i}.typeId`, [
          'This proposal type does not belong to this call.',
        ]);
        return;
      }
      if (current.hasProposals && !sameList(current.proposalForms, type.proposalForms)) {
        addErrors(errors, `proposalTypes.${i}.proposalForms`, [
          callMessages.proposalFormsLocked(current.typeName),
        ]);
      }
      if (current.hasReviews && !sameList(current.reviewForms, type.reviewForms)) {
        addErrors(errors, `proposalTypes.${i}.reviewForms`, [
          callMessages.reviewFormsLocked(current.typeName),
        ]);
      }
    });
    const keptIds = new Set(input.proposalTypes.map((t) => t.typeId).filter(Boolean));
    const removed = currentTypes.filter((t) => !keptIds.has(t.typeId));
    for (const type of removed.filter((t) => t.hasProposals)) {
      addErrors(errors, 'proposalTypes', [callMessages.typeHasProposals(type.typeName)]);
    }
    if (hasErrors(errors)) throw invalid(errors);

    const values = {
      name: input.name.trim(),
      ...dates,
      description,
      lastModified: now,
    };
    let callId: number;
    if (existing) {
      callId = existing.id;
      await tx.update(calls).set(values).where(eq(calls.id, callId));
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
    }

    if (removed.length > 0) {
      await tx.delete(proposalTypes).where(
        inArray(
          proposalTypes.id,
          removed.map((t) => t.typeId),
        ),
      );
    }
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
      const rows = [
        ...type.proposalForms.map((formId, i) => ({
          proposalTypeId: typeId!,
          formId,
          kind: 'proposal',
          position: i,
        })),
        ...type.reviewForms.map((formId, i) => ({
          proposalTypeId: typeId!,
          formId,
          kind: 'review',
          position: i,
        })),
      ];
      await tx.insert(proposalTypeForms).values(rows);
    }

    await writeAudit(tx, {
      actorId: actor.id,
      at: now,
      action: existing ? 'call.update' : 'call.create',
      entityId: callId,
      before: existing ? { ...existing, proposalTypes: currentTypes } : undefined,
      after: { ...values, committeeId: input.committee, proposalTypes: input.proposalTypes },
    });
    return callId;
  });
}

async function loadManagedCall(
  tx: Tx,
  actor: CommitteeActor,
  callId: number,
  now: Date,
): Promise<CallRow> {
  const found = await findCall(tx, callId);
  if (!found) throw notFound(callNotFound);
  if (!canManageCall(actor, policyView(found.call), now)) throw forbidden(messages.noPermission);
  return found.call;
}

/** Closes a call once its review period is over; closing lets authors see decisions. */
export async function closeCall(
  db: Tx,
  actor: CommitteeActor,
  callId: number,
  now: Date,
): Promise<void> {
  await db.transaction(async (tx) => {
    const call = await loadManagedCall(tx, actor, callId, now);
    if (call.closed) throw conflict(callMessages.alreadyClosed);
    if (!canBeClosed(policyView(call), now))
      throw conflict(callMessages.notYetClosable(call.reviewTermination.toISOString()));
    await tx
      .update(calls)
      .set({ closed: true, closedAt: now, lastModified: now })
      .where(eq(calls.id, call.id));
    await writeAudit(tx, {
      actorId: actor.id,
      at: now,
      action: 'call.close',
      entityId: call.id,
      before: { closed: false },
      after: { closed: true },
    });
  });
}

export async function addExtension(
  db: Tx,
  actor: CommitteeActor,
  input: ExtensionCreate,
  now: Date,
): Promise<number> {
  return db.transaction(async (tx) => {
    const call = await loadManagedCall(tx, actor, input.callId, now);
    if (call.closed) throw conflict(callMessages.closedNoEdit);
    const commencement = new Date(input.commencement);
    const termination = new Date(input.termination);
    const errors: FieldErrors = {};
    if (termination < commencement)
      addErrors(errors, 'termination', [roleMessages.terminationBeforeCommencement]);
    addErrors(errors, 'reason', checkText(input.reason, { max: MAX_LENGTHS.extensionReason }));
    const [user] = await tx.select({ id: users.id }).from(users).where(eq(users.id, input.user));
    if (!user) addErrors(errors, 'user', ['There is no user with this id.']);
    if (hasErrors(errors)) throw invalid(errors);
    const [created] = await tx
      .insert(extensions)
      .values({
        callId: call.id,
        userId: input.user,
        commencement,
        termination,
        reason: input.reason.trim(),
        createdAt: now,
      })
      .returning();
    await writeAudit(tx, {
      actorId: actor.id,
      at: now,
      action: 'extension.create',
      entityId: created!.id,
      after: created,
    });
    return created!.id;
  });
}

export async function deleteExtension(
  db: Tx,
  actor: CommitteeActor,
  callId: number,
  extensionId: number,
  now: Date,
): Promise<void> {
  await db.transaction(async (tx) => {
    const call = await loadManagedCall(tx, actor, callId, now);
    const [removed] = await tx
      .delete(extensions)
      .where(and(eq(extensions.id, extensionId), eq(extensions.callId, call.id)))
      .returning();
    if (!removed) throw notFound('There is no such extension on this call.');
    await writeAudit(tx, {
      actorId: actor.id,
      at: now,
      action: 'extension.delete',
      entityId: removed.id,
      before: removed,
    });
  });
}
