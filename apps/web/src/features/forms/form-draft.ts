import type { Form, FormName, FormSave } from '@merit/contract';
import {
  checkFormVersion,
  checkSchemaShape,
  checkOptionsShape,
  formMessages,
  hasOptions,
  isJsonObject,
  isResourceForm,
  messages,
  validateFormOptions,
  validationMessages,
  type FieldErrors,
  type FormOptions,
  type FormType,
  type JsonObject,
} from '@merit/domain';
import { orderProperties } from '@rjsf/utils';
import { schemaProblem } from './json-schema/schema-problem';

/** What the form editor holds: the editors' text as typed, and the options as chosen. */
export interface FormDraft {
  /** The form name's id, or '' before one is chosen. */
  formNameId: string;
  version: string;
  jsonSchema: string;
  uiSchema: string;
  /** Empty for none. */
  initialData: string;
  options: FormOptions | null;
}

/** The labels of the editor's fields, which also name them in the red error list. */
export const FORM_FIELD_LABELS: Record<string, string> = {
  name: 'Form name',
  version: 'Version',
  jsonSchema: 'JSON Schema',
  uiSchema: 'UI Schema',
  initialData: 'Initial data',
  options: 'Options',
  'options.method': 'Score method',
  'options.fields': 'Score fields',
  'options.institution_field': 'Facility field',
  'options.data_fields': 'Data fields',
};

const STARTER_SCHEMA = {
  type: 'object',
  title: 'Form title',
  required: [],
  properties: {},
};

export const pretty = (value: unknown) => JSON.stringify(value, null, 2);

/** The options a new form of `type` starts with: empty lists to fill in. */
export function defaultOptions(type: FormType | undefined): FormOptions | null {
  if (type === undefined || !hasOptions(type)) return null;
  return isResourceForm(type)
    ? { institution_field: null, data_fields: [] }
    : { method: 'average', fields: [] };
}

export function newDraft(): FormDraft {
  return {
    formNameId: '',
    version: '',
    jsonSchema: pretty(STARTER_SCHEMA),
    uiSchema: pretty({}),
    initialData: '',
    options: null,
  };
}

export function draftOf(form: Form): FormDraft {
  return {
    formNameId: String(form.name),
    version: form.version,
    jsonSchema: pretty(form.jsonSchema),
    uiSchema: pretty(form.uiSchema),
    initialData: form.initialData ? pretty(form.initialData) : '',
    options: form.options,
  };
}

export type Parsed = { ok: true; value: unknown } | { ok: false; error: string };

/** An editor's text as JSON; `empty` is what an empty editor means. */
export function parseJson(text: string, empty?: unknown): Parsed {
  if (text.trim() === '' && empty !== undefined) return { ok: true, value: empty };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return { ok: false, error: `This is not valid JSON: ${detail}` };
  }
}

/**
 * What is wrong with the JSON schema editor's text, in the server's words: a syntax
 * error, the shape the domain requires, or "There is an error in the schema, …" when
 * the JSON Schema itself is broken. Null when it can be used.
 */
export function jsonSchemaError(parsed: Parsed): string | null {
  if (!parsed.ok) return parsed.error;
  // The domain's own sentences about the shape; the server sends them as they are.
  const [shape] = checkSchemaShape(parsed.value);
  if (shape) return shape;
  const problem = schemaProblem(parsed.value);
  return problem === null ? null : formMessages.schemaError(problem);
}

/** An object editor's problem: the UI schema and the initial data must be JSON objects. */
export function objectError(parsed: Parsed): string | null {
  if (!parsed.ok) return parsed.error;
  if (parsed.value !== null && !isJsonObject(parsed.value)) return formMessages.notObject;
  return null;
}

/**
 * A `ui:order` that leaves out a field (without a `*` for the rest) stops
 * react-jsonschema-form from drawing the form at all: the most common slip when a schema
 * gains a field. Checked for the form and every object inside it, in rjsf's own words.
 */
export function uiOrderProblem(schema: unknown, uiSchema: unknown, path = ''): string | null {
  if (!isJsonObject(schema) || !isJsonObject(schema.properties)) return null;
  const ui = isJsonObject(uiSchema) ? uiSchema : {};
  try {
    orderProperties(Object.keys(schema.properties), ui['ui:order'] as string[] | undefined);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return path ? `at "${path}": ${message}` : message;
  }
  for (const [name, property] of Object.entries(schema.properties)) {
    const problem = uiOrderProblem(property, ui[name], path ? `${path}.${name}` : name);
    if (problem) return problem;
  }
  return null;
}

export type DraftCheck =
  { ok: true; body: FormSave } | { ok: false; detail: string; fields: FieldErrors };

/**
 * Every check the server makes before it saves a form, made before sending (spec
 * section 5, Forms): a form whose editors report an error is not saved, with the
 * server's message. Returns the request body, or the problems keyed as the server keys
 * them.
 */
export function checkDraft(
  draft: FormDraft,
  formNames: readonly FormName[],
  formId?: number,
): DraftCheck {
  const fields: FieldErrors = {};
  const add = (field: string, problem: string | null) => {
    if (problem) (fields[field] ??= []).push(problem);
  };

  const formName = formNames.find((candidate) => String(candidate.id) === draft.formNameId);
  if (!draft.formNameId) add('name', validationMessages.required);
  else if (!formName) add('name', formMessages.formNameMissing);
  for (const problem of checkFormVersion(draft.version)) add('version', problem);

  const jsonSchema = parseJson(draft.jsonSchema);
  const schemaError = jsonSchemaError(jsonSchema);
  add('jsonSchema', schemaError);
  const uiSchema = parseJson(draft.uiSchema, {});
  add(
    'uiSchema',
    objectError(uiSchema) ??
      (jsonSchema.ok && uiSchema.ok && !schemaError
        ? uiOrderProblem(jsonSchema.value, uiSchema.value)
        : null),
  );
  const initialData = parseJson(draft.initialData, null);
  add('initialData', objectError(initialData));

  if (formName) {
    // The fields the options name can only be checked against a usable schema.
    const optionProblems = schemaError
      ? checkOptionsShape(formName.type, draft.options)
      : optionErrors(formName.type, draft.options, jsonSchema.ok ? jsonSchema.value : null);
    for (const [field, problems] of Object.entries(optionProblems))
      for (const problem of problems) add(field, problem);
  }

  if (Object.keys(fields).length > 0 || !formName || !jsonSchema.ok) {
    const editorProblem = Object.keys(fields).some((key) => key !== 'version' && key !== 'name');
    return {
      ok: false,
      detail: editorProblem ? formMessages.notSaved : messages.validationFailed,
      fields,
    };
  }
  return {
    ok: true,
    body: {
      ...(formId === undefined ? { isNew: true } : { isNew: false, formId }),
      name: formName.id,
      version: draft.version.trim(),
      jsonSchema: jsonSchema.value as JsonObject,
      uiSchema: ((uiSchema.ok ? uiSchema.value : null) ?? {}) as JsonObject,
      initialData: (initialData.ok ? initialData.value : null) as JsonObject | null,
      options: hasOptions(formName.type) ? (draft.options as JsonObject | null) : null,
    },
  };
}

/** The options rule of the domain (shape, then the fields it names), as field errors. */
export function optionErrors(
  type: FormType,
  options: FormOptions | null,
  jsonSchema: unknown,
): FieldErrors {
  const result = validateFormOptions(type, options, jsonSchema);
  return result.ok ? {} : result.errors;
}
