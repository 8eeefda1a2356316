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
  users,
} from '../../db/schema.js';
import type { AnswerForm } from '../forms/form-access.js';
import { personNameSql, runNamed } from '../../platform/data/sql.js';

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

/** A saved entry as the proposal's page reads it (`loadProposal`), JSON from the database. */
export interface PageEntry extends SavedEntry {
  entryId: string;
  version: number;
  /** The time the entry was last saved, as the database writes it in JSON. */
  savedAt: string;
  /** Who saved it last, as people read the name; null when that account is gone. */
  savedBy: string | null;
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

/** One saved entry as a save or a delete checks it: where it is, its version, who saved it. */
export interface StoredEntry {
  entryId: string;
  index: number;
  version: number;
  data: Record<string, unknown>;
  savedAt: Date;
  savedBy: string | null;
}

/**
 * The entry of a proposal's form with this id (`entryId`) or at this index (`index`);
 * undefined when there is none (an id of another proposal or form is none).
 */
export async function findEntry(
  tx: Tx,
  at: { proposalId: number; formId: number } & ({ entryId: string } | { index: number }),
): Promise<StoredEntry | undefined> {
  const [row] = await tx
    .select({
      entryId: proposalResponses.entryId,
      index: proposalResponses.entryIndex,
      version: proposalResponses.version,
      data: proposalResponses.data,
      savedAt: proposalResponses.updatedAt,
      savedBy: personNameSql(users),
    })
    .from(proposalResponses)
    .leftJoin(users, eq(users.id, proposalResponses.updatedBy))
    .where(
      and(
        eq(proposalResponses.proposalId, at.proposalId),
        eq(proposalResponses.formId, at.formId),
        'entryId' in at
          ? eq(proposalResponses.entryId, at.entryId)
          : eq(proposalResponses.entryIndex, at.index),
      ),
    );
  return row;
}

/**
 * How many bytes a proposal's answers take, but for one entry (the one a save replaces):
 * each as its JSON text, in one statement over the proposal's rows (found by its index).
 */
export async function answersBytesBesides(
  tx: Tx,
  proposalId: number,
  entryId: string | null,
): Promise<number> {
  const [row] = await runNamed(
    'answers_bytes',
    tx
      .select({
        bytes: sql<
          string | number
        >`coalesce(sum(octet_length(${proposalResponses.data}::text)), 0)`,
      })
      .from(proposalResponses)
      .where(
        and(
          eq(proposalResponses.proposalId, proposalId),
          sql`${proposalResponses.entryId} is distinct from ${entryId}::uuid`,
        ),
      ),
  );
  return Number(row?.bytes ?? 0);
}

/** Writes a new entry at `index`; its id (drawn by the database) and version 1. */
export async function insertEntry(
  tx: Tx,
  entry: SavedEntry & { proposalId: number; by: number; now: Date },
): Promise<{ entryId: string; version: number }> {
  const [row] = await runNamed(
    'insert_entry',
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
      .returning({ entryId: proposalResponses.entryId, version: proposalResponses.version }),
  );
  return row!;
}

/** Replaces a saved entry's answers, raising its version; its new version. */
export async function updateEntry(
  tx: Tx,
  entry: { entryId: string; data: Record<string, unknown>; by: number; now: Date },
): Promise<number> {
  const [row] = await runNamed(
    'update_entry',
    tx
      .update(proposalResponses)
      .set({
        data: entry.data,
        version: sql`${proposalResponses.version} + 1`,
        updatedAt: entry.now,
        updatedBy: entry.by,
      })
      .where(eq(proposalResponses.entryId, entry.entryId))
      .returning({ version: proposalResponses.version }),
  );
  return row!.version;
}

/**
 * One save of a Save All batch (`hash`): a new entry's by the index it was sent with, a
 * saved entry's by its id (`entryIndex` -1), as `proposal_saves` keys them.
 */
export interface SaveKey {
  proposalId: number;
  formId: number;
  hash: number;
  entryIndex: number;
  /** The saved entry the save names; none for a new entry. */
  entryId?: string;
}

/** What an applied save left: its answers' digest, and the entry and version it wrote. */
export interface AppliedSave {
  digest: string;
  entryId: string;
  version: number;
}

/** The save `key` as it was applied already (a retry finds it), or undefined. */
export async function appliedSave(tx: Tx, key: SaveKey): Promise<AppliedSave | undefined> {
  const [row] = await tx
    .select({
      digest: proposalSaves.digest,
      entryId: proposalSaves.entryId,
      version: proposalSaves.version,
    })
    .from(proposalSaves)
    .where(
      and(
        eq(proposalSaves.proposalId, key.proposalId),
        eq(proposalSaves.formId, key.formId),
        eq(proposalSaves.hash, key.hash),
        eq(proposalSaves.entryIndex, key.entryIndex),
        key.entryId === undefined ? undefined : eq(proposalSaves.entryId, key.entryId),
      ),
    )
    .limit(1);
  return row;
}

/** Records that the save `key` is applied, with what it wrote. */
export async function recordSave(tx: Tx, key: SaveKey, applied: AppliedSave, now: Date) {
  await runNamed(
    'record_save',
    tx.insert(proposalSaves).values({
      proposalId: key.proposalId,
      formId: key.formId,
      entryIndex: key.entryIndex,
      hash: key.hash,
      savedAt: now,
      ...applied,
    }),
  );
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

/**
 * Removes entry `index` of a multi-entry form and moves the later ones up one, each
 * keeping its id and version. The later entries are taken out and put back renumbered:
 * renumbering them in place would pass through two rows with one index, which the unique
 * index refuses mid-statement. Returns the removed entry's answers, or undefined when
 * there was no such entry.
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
