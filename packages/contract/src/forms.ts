import { FORM_TYPES, SCORE_METHODS } from '@merit/domain';
import { z } from 'zod';
import { entityId, idParam } from './common.js';

// Request fields are loose shapes; @merit/domain holds the rules and their messages.
const text = z.string().max(5000);
const optionalText = text.nullable().optional();
const jsonObject = z.record(z.string(), z.unknown());

export const formType = z.literal(FORM_TYPES);

/** Options of a Review Score Form (type 3). */
export const scoreFormOptions = z
  .object({ method: z.enum(SCORE_METHODS), fields: z.array(z.string()) })
  .strict();
/** Options of a resource form (types 4 and 5). */
export const resourceFormOptions = z
  .object({ institution_field: z.string().nullable(), data_fields: z.array(z.string()) })
  .strict();
/** Null for types 0, 1 and 2. */
export const formOptions = z.union([scoreFormOptions, resourceFormOptions]).nullable();

// --- Form names --------------------------------------------------------------------

export const formName = z
  .object({
    id: z.number().int(),
    name: z.string(),
    display_name: z.string(),
    type: formType,
    /** A form uses this name: it cannot be deleted (shown as In use). */
    isUsed: z.boolean(),
  })
  .meta({ id: 'FormName' });
export type FormName = z.infer<typeof formName>;
export const formNameList = z.array(formName);

/**
 * POST /form_names/: without `id`, creates; with `id`, changes only `display_name` (name
 * and type may be sent back unchanged or left out; a different one is refused).
 */
export const formNameSave = z.object({
  id: entityId.nullable().optional(),
  name: optionalText,
  display_name: optionalText,
  type: z.number().nullable().optional(),
});
export type FormNameSave = z.infer<typeof formNameSave>;

// --- Forms -------------------------------------------------------------------------

export const form = z
  .object({
    id: z.number().int(),
    /** The id of the form name. */
    name: z.number().int(),
    /** The form name's display name and type, so lists need not look them up. */
    display_name: z.string(),
    type: formType,
    version: z.string(),
    jsonSchema: jsonObject,
    uiSchema: jsonObject,
    initialData: jsonObject.nullable(),
    options: formOptions,
    /** A call uses this form: it cannot be changed or deleted (shown as In use). */
    isUsed: z.boolean(),
  })
  .meta({ id: 'Form' });
export type Form = z.infer<typeof form>;
export const formList = z.array(form);

/** GET /forms/ lists every form; GET /forms/?id= returns that one form. */
export const formsQuery = z.object({ id: idParam.optional() });

/** POST /forms/: `isNew` creates; otherwise `formId` names the form to replace. */
export const formSave = z.object({
  formId: entityId.nullable().optional(),
  isNew: z.boolean(),
  /** The id of the form name. */
  name: entityId.nullable().optional(),
  version: optionalText,
  jsonSchema: jsonObject,
  uiSchema: jsonObject.nullable().optional(),
  initialData: jsonObject.nullable().optional(),
  /** Required for types 3, 4 and 5; null or left out for the others. */
  options: jsonObject.nullable().optional(),
});
export type FormSave = z.infer<typeof formSave>;

/** A ready-made form an admin can load into the builder (GET /form_examples/). */
export const formExample = z
  .object({
    key: z.string(),
    title: z.string(),
    type: formType,
    /** Suggested form name and display name for a new form name of this type. */
    name: z.string(),
    display_name: z.string(),
    jsonSchema: jsonObject,
    uiSchema: jsonObject,
    options: formOptions,
  })
  .meta({ id: 'FormExample' });
export type FormExample = z.infer<typeof formExample>;
export const formExampleList = z.array(formExample);
