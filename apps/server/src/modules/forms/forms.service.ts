import type { Form, FormName, FormSave, FormNameSave } from '@merit/contract';
import {
  formMessages,
  messages,
  validateFormName,
  validationMessages,
  type FormOptions,
  type FormType,
} from '@merit/domain';
import { and, asc, eq, ne, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Tx } from '../../db/client.js';
import { formNames, forms, proposalTypeForms } from '../../db/schema.js';
import { anyOf, isForeignKeyViolation, isUniqueViolation } from '../../platform/data/db-errors.js';
import { checkFormDefinition } from './form-access.js';
import { authorize } from '../../platform/http/authorize.js';
import { conflict, invalid, notFound } from '../../platform/http/http-errors.js';
import type { ReadWork, Work } from '../../platform/data/work.js';

export const formNameNotFound = 'There is no form name with this id.';
export const formNotFound = 'There is no form with this id.';

// --- Form names ----------------------------------------------------------------------

/** A form name is in use while any form is a version of it. */
function formNameReferences(id: AnyPgColumn): SQL[] {
  return [sql`exists (select 1 from ${forms} where ${forms.formNameId} = ${id})`];
}

const formNameColumns = {
  id: formNames.id,
  name: formNames.name,
  display_name: formNames.displayName,
  type: formNames.type,
  isUsed: anyOf(formNameReferences(formNames.id)),
};

type FormNameRow = Omit<FormName, 'type'> & { type: number };

// The type column's check constraint keeps it within 0 to 5.
const presentFormName = (row: FormNameRow): FormName => ({ ...row, type: row.type as FormType });

export async function listFormNames(db: Tx): Promise<FormName[]> {
  const rows = await db
    .select(formNameColumns)
    .from(formNames)
    .orderBy(asc(sql`lower(${formNames.name})`), asc(formNames.id));
  return rows.map(presentFormName);
}

export async function findFormName(db: Tx, id: number): Promise<FormName | undefined> {
  const [row] = await db.select(formNameColumns).from(formNames).where(eq(formNames.id, id));
  return row && presentFormName(row);
}

async function nameTaken(db: Tx, name: string): Promise<boolean> {
  const rows = await db
    .select({ id: formNames.id })
    .from(formNames)
    .where(eq(sql`lower(${formNames.name})`, name.toLowerCase()))
    .limit(1);
  return rows.length > 0;
}

export async function createFormName(work: Work, input: FormNameSave): Promise<FormName> {
  const { tx } = work;
  const errors = validateFormName(input);
  const name = input.name?.trim() ?? '';
  if (!errors.name && (await nameTaken(tx, name))) errors.name = [formMessages.nameTaken];
  if (Object.keys(errors).length > 0) throw invalid(errors);
  let id: number;
  try {
    const [row] = await tx
      .insert(formNames)
      .values({
        name,
        displayName: input.display_name!.trim(),
        type: input.type!,
        createdAt: work.now,
        updatedAt: work.now,
      })
      .returning({ id: formNames.id });
    id = row!.id;
  } catch (error) {
    if (isUniqueViolation(error)) throw invalid({ name: [formMessages.nameTaken] });
    throw error;
  }
  const created = (await findFormName(tx, id))!;
  await work.audit({
    action: 'form_name.create',
    entityId: id,
    after: { name: created.name, display_name: created.display_name, type: created.type },
  });
  return created;
}

/** The form name, locked for the rest of the transaction, or a 404. */
async function lockFormName(tx: Tx, id: number): Promise<FormName> {
  const [locked] = await tx
    .select({ id: formNames.id })
    .from(formNames)
    .where(eq(formNames.id, id))
    .for('update');
  const found = locked && (await findFormName(tx, id));
  if (!found) throw notFound(formNameNotFound);
  return found;
}

/** Changes the display name; the name and type stay as they were created. */
export async function updateFormName(
  work: Work,
  id: number,
  input: FormNameSave,
): Promise<FormName> {
  const existing = await lockFormName(work.tx, id);
  const errors = validateFormName(input, existing);
  if (Object.keys(errors).length > 0) throw invalid(errors);
  await work.tx
    .update(formNames)
    .set({ displayName: input.display_name!.trim(), updatedAt: work.now })
    .where(eq(formNames.id, existing.id));
  const updated = (await findFormName(work.tx, existing.id))!;
  await work.audit({
    action: 'form_name.update',
    entityId: existing.id,
    before: { display_name: existing.display_name },
    after: { display_name: updated.display_name },
  });
  return updated;
}

export async function deleteFormName(work: Work, id: number): Promise<void> {
  const existing = await lockFormName(work.tx, id);
  if (existing.isUsed) throw conflict(formMessages.formNameInUse);
  try {
    await work.tx.delete(formNames).where(eq(formNames.id, existing.id));
  } catch (error) {
    // A form created between the check and the delete: its foreign key keeps the name.
    if (isForeignKeyViolation(error)) throw conflict(formMessages.formNameInUse);
    throw error;
  }
  await work.audit({
    action: 'form_name.delete',
    entityId: existing.id,
    before: { name: existing.name, display_name: existing.display_name, type: existing.type },
  });
}

// --- Forms ---------------------------------------------------------------------------

/**
 * What makes a form "used": a call that lists it among a proposal type's proposal or
 * review forms. The link's foreign key restricts deletion too, so a race ends as a 409.
 */
function formReferences(id: AnyPgColumn): SQL[] {
  return [
    sql`exists (select 1 from ${proposalTypeForms} where ${proposalTypeForms.formId} = ${id})`,
  ];
}

const formColumns = {
  id: forms.id,
  formNameId: forms.formNameId,
  displayName: formNames.displayName,
  type: formNames.type,
  version: forms.version,
  jsonSchema: forms.jsonSchema,
  uiSchema: forms.uiSchema,
  initialData: forms.initialData,
  options: forms.options,
  isUsed: anyOf(formReferences(forms.id)),
};

type FormRow = {
  id: number;
  formNameId: number;
  displayName: string;
  type: number;
  version: string;
  jsonSchema: Record<string, unknown>;
  uiSchema: Record<string, unknown>;
  initialData: Record<string, unknown> | null;
  options: Record<string, unknown> | null;
  isUsed: boolean;
};

function presentForm(row: FormRow): Form {
  return {
    id: row.id,
    name: row.formNameId,
    display_name: row.displayName,
    type: row.type as FormType,
    version: row.version,
    jsonSchema: row.jsonSchema,
    uiSchema: row.uiSchema,
    initialData: row.initialData,
    // Stored only after checkFormDefinition accepted them for this type.
    options: row.options as FormOptions | null,
    isUsed: row.isUsed,
  };
}

const selectForms = (db: Tx) =>
  db.select(formColumns).from(forms).innerJoin(formNames, eq(formNames.id, forms.formNameId));

export async function listForms(db: Tx): Promise<Form[]> {
  const rows = await selectForms(db).orderBy(
    asc(sql`lower(${formNames.name})`),
    asc(forms.version),
    asc(forms.id),
  );
  return rows.map(presentForm);
}

export async function findForm(db: Tx, id: number): Promise<Form | undefined> {
  const [row] = await selectForms(db).where(eq(forms.id, id));
  return row && presentForm(row);
}

/** GET /forms/: every form, or with `id` that one; admins and chairs (who choose them for calls). */
export async function getForms({ tx, actor, now }: ReadWork, id?: number): Promise<Form[] | Form> {
  authorize(actor, 'global.readForms', null, now);
  if (id === undefined) return listForms(tx);
  const found = await findForm(tx, id);
  if (!found) throw notFound(formNotFound);
  return found;
}

async function versionTaken(
  db: Tx,
  formNameId: number,
  version: string,
  exceptId?: number,
): Promise<boolean> {
  const conditions = [
    eq(forms.formNameId, formNameId),
    eq(sql`lower(${forms.version})`, version.toLowerCase()),
  ];
  if (exceptId !== undefined) conditions.push(ne(forms.id, exceptId));
  const rows = await db
    .select({ id: forms.id })
    .from(forms)
    .where(and(...conditions))
    .limit(1);
  return rows.length > 0;
}

/**
 * The form, locked for the rest of the transaction, or a 404. A call that starts using
 * the form locks it FOR SHARE first, so "is it used?" cannot change between the check
 * and the write that depends on it.
 */
async function lockForm(tx: Tx, id: number): Promise<Form> {
  const [locked] = await tx
    .select({ id: forms.id })
    .from(forms)
    .where(eq(forms.id, id))
    .for('update');
  const found = locked && (await findForm(tx, id));
  if (!found) throw notFound(formNotFound);
  return found;
}

/** What the audit log keeps of a form: its definition. */
const formAuditView = (
  form: Pick<Form, 'name' | 'version' | 'jsonSchema' | 'uiSchema' | 'initialData' | 'options'>,
) => ({
  name: form.name,
  version: form.version,
  jsonSchema: form.jsonSchema,
  uiSchema: form.uiSchema,
  initialData: form.initialData,
  options: form.options,
});

/**
 * Creates a form (`isNew`), or replaces an unused one (`formId`). Checks, in the order a
 * person fixes them: the form name exists, the version, the schema compiles, the options
 * fit the type and name numeric fields of the schema, and the version is new for that name.
 */
export async function saveForm(work: Work, input: FormSave): Promise<Form> {
  const { tx } = work;
  let existing: Form | undefined;
  if (!input.isNew) {
    if (input.formId == null)
      throw invalid({
        formId: ['Send the id of the form to change, or isNew: true to create one.'],
      });
    existing = await lockForm(tx, input.formId);
  }
  if (existing?.isUsed) throw conflict(formMessages.formInUse);
  // An edit that leaves the form name out keeps the one it has.
  const formNameId = input.name ?? existing?.name;
  if (formNameId == null) throw invalid({ name: [validationMessages.required] });
  const formName = await findFormName(tx, formNameId);
  if (!formName) throw invalid({ name: [formMessages.formNameMissing] });
  const checked = checkFormDefinition(formName.type, input);
  if (!checked.ok) {
    const schemaProblem = Object.keys(checked.errors).some((k) => k !== 'version');
    throw invalid(
      checked.errors,
      schemaProblem ? formMessages.notSaved : messages.validationFailed,
    );
  }
  const version = input.version!.trim();
  if (await versionTaken(tx, formName.id, version, existing?.id))
    throw invalid({ version: [formMessages.versionTaken] });

  const values = {
    formNameId: formName.id,
    version,
    jsonSchema: input.jsonSchema,
    uiSchema: input.uiSchema ?? {},
    initialData: input.initialData ?? null,
    options: checked.options as Record<string, unknown> | null,
    updatedAt: work.now,
  };
  let id: number;
  try {
    if (existing) {
      await tx.update(forms).set(values).where(eq(forms.id, existing.id));
      id = existing.id;
    } else {
      const [row] = await tx
        .insert(forms)
        .values({ ...values, createdAt: work.now })
        .returning({ id: forms.id });
      id = row!.id;
    }
  } catch (error) {
    if (isUniqueViolation(error)) throw invalid({ version: [formMessages.versionTaken] });
    if (isForeignKeyViolation(error)) throw invalid({ name: [formMessages.formNameMissing] });
    throw error;
  }
  const saved = (await findForm(tx, id))!;
  await work.audit({
    action: existing ? 'form.update' : 'form.create',
    entityId: id,
    before: existing && formAuditView(existing),
    after: formAuditView(saved),
  });
  return saved;
}

export async function deleteForm(work: Work, id: number): Promise<void> {
  const existing = await lockForm(work.tx, id);
  if (existing.isUsed) throw conflict(formMessages.formInUse);
  try {
    await work.tx.delete(forms).where(eq(forms.id, existing.id));
  } catch (error) {
    if (isForeignKeyViolation(error)) throw conflict(formMessages.formInUse);
    throw error;
  }
  await work.audit({
    action: 'form.delete',
    entityId: existing.id,
    before: formAuditView(existing),
  });
}
