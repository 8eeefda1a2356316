import { type FormType } from '@merit/domain';
import { and, asc, count, eq, gte, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import {
  formNames,
  forms,
  proposalResponses,
  proposalSaves,
  proposalTypeForms,
  proposals,
} from '../../db/schema.js';
import type { AnswerForm } from '../forms/form-access.js';
import { runNamed } from '../../platform/data/sql.js';

/*
 * The forms of a proposal's type and the answers saved to them, with the log of saves
 * that makes a retried save change nothing.
 */

/** A proposal form of a type: its id and form type (one entry or several). */
export interface TypeForm {
  id: number;
  type: FormType;
}

/** The proposal forms of a type, in the call's order. */
export async function proposalFormsOf(tx: Tx, proposalTypeId: number): Promise<TypeForm[]> {
  const rows = await runNamed(
    'proposal_forms_of_type',
    tx
      .select({ id: forms.id, type: formNames.type })
      .from(proposalTypeForms)
      .innerJoin(forms, eq(forms.id, proposalTypeForms.formId))
      .innerJoin(formNames, eq(formNames.id, forms.formNameId))
      .where(
        and(
          eq(proposalTypeForms.proposalTypeId, proposalTypeId),
          eq(proposalTypeForms.kind, 'proposal'),
        ),
      )
      .orderBy(asc(proposalTypeForms.position)),
  );
  return rows.map((r) => ({ ...r, type: r.type as FormType }));
}

/** The schemas that answers to these forms are checked against. */
export async function answerFormsOf(tx: Tx, ids: number[]): Promise<Map<number, AnswerForm>> {
  if (ids.length === 0) return new Map();
  // One array parameter, not a list of them: one SQL text however many forms, so named.
  const rows = await runNamed(
    'answer_forms',
    tx
      .select({
        id: forms.id,
        jsonSchema: forms.jsonSchema,
        uiSchema: forms.uiSchema,
        updatedAt: forms.updatedAt,
      })
      .from(forms)
      .where(sql`${forms.id} = any(${sql.param(ids)}::int[])`),
  );
  return new Map(rows.map((r) => [r.id, r]));
}

export interface SavedEntry {
  formId: number;
  index: number;
  data: Record<string, unknown>;
}

/** Every saved answer of a proposal, by form and then entry, in index order. */
export async function responsesOf(tx: Tx, proposalId: number): Promise<SavedEntry[]> {
  return tx
    .select({
      formId: proposalResponses.formId,
      index: proposalResponses.entryIndex,
      data: proposalResponses.data,
    })
    .from(proposalResponses)
    .where(eq(proposalResponses.proposalId, proposalId))
    .orderBy(asc(proposalResponses.formId), asc(proposalResponses.entryIndex));
}

export async function entryCount(tx: Tx, proposalId: number, formId: number): Promise<number> {
  const [row] = await runNamed(
    'entry_count',
    tx
      .select({ n: count() })
      .from(proposalResponses)
      .where(
        and(eq(proposalResponses.proposalId, proposalId), eq(proposalResponses.formId, formId)),
      ),
  );
  return row?.n ?? 0;
}

export interface SaveKey {
  proposalId: number;
  formId: number;
  index: number;
  hash: number;
}

/**
 * Records that the save `key` is applied; false when it was already (a retry of a save
 * that succeeded), and then nothing else may change.
 */
export async function recordSave(tx: Tx, key: SaveKey, now: Date): Promise<boolean> {
  const rows = await runNamed(
    'record_save',
    tx
      .insert(proposalSaves)
      .values({
        proposalId: key.proposalId,
        formId: key.formId,
        entryIndex: key.index,
        hash: key.hash,
        savedAt: now,
      })
      .onConflictDoNothing()
      .returning({ hash: proposalSaves.hash }),
  );
  return rows.length > 0;
}

/**
 * The actor's proposal in this call on which this very save (form, entry, hash) was
 * applied already: a `new: true` save retried after its answer was lost must not create
 * a second proposal.
 */
export async function proposalOfRetriedSave(
  tx: Tx,
  input: { callId: number; authorId: number; formId: number; index: number; hash: number },
): Promise<number | undefined> {
  const [row] = await tx
    .select({ id: proposals.id })
    .from(proposalSaves)
    .innerJoin(proposals, eq(proposals.id, proposalSaves.proposalId))
    .where(
      and(
        eq(proposals.callId, input.callId),
        eq(proposals.authorId, input.authorId),
        eq(proposalSaves.formId, input.formId),
        eq(proposalSaves.entryIndex, input.index),
        eq(proposalSaves.hash, input.hash),
      ),
    )
    .limit(1);
  return row?.id;
}

export async function writeEntry(
  tx: Tx,
  entry: SavedEntry & { proposalId: number; by: number; now: Date },
) {
  await runNamed(
    'write_entry',
    tx
      .insert(proposalResponses)
      .values({
        proposalId: entry.proposalId,
        formId: entry.formId,
        entryIndex: entry.index,
        data: entry.data,
        updatedAt: entry.now,
        updatedBy: entry.by,
      })
      .onConflictDoUpdate({
        target: [
          proposalResponses.proposalId,
          proposalResponses.formId,
          proposalResponses.entryIndex,
        ],
        set: { data: entry.data, updatedAt: entry.now, updatedBy: entry.by },
      }),
  );
}

/**
 * Removes entry `index` of a multi-entry form and moves the later ones up one. The later
 * entries are taken out and put back renumbered: renumbering them in place would pass
 * through two rows with one index, which the unique index refuses mid-statement.
 * Returns the removed entry's answers, or undefined when there was no such entry.
 */
export async function removeEntry(
  tx: Tx,
  input: { proposalId: number; formId: number; index: number },
): Promise<Record<string, unknown> | undefined> {
  const taken = await tx
    .delete(proposalResponses)
    .where(
      and(
        eq(proposalResponses.proposalId, input.proposalId),
        eq(proposalResponses.formId, input.formId),
        gte(proposalResponses.entryIndex, input.index),
      ),
    )
    .returning();
  const removed = taken.find((r) => r.entryIndex === input.index);
  const later = taken.filter((r) => r.entryIndex > input.index);
  if (later.length > 0) {
    await tx
      .insert(proposalResponses)
      .values(later.map(({ id: _id, ...r }) => ({ ...r, entryIndex: r.entryIndex - 1 })));
  }
  return removed?.data;
}
