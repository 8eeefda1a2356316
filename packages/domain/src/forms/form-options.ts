import { addErrors, type FieldErrors } from '../validation/fields.js';
import {
  FORM_TYPE_LABELS,
  hasOptions,
  isResourceForm,
  isScoreForm,
  type FormType,
} from './form-types.js';

/** A JSON object as it arrives in a request: a form's schema, UI schema or options. */
export type JsonObject = Record<string, unknown>;

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** How a Review Score Form turns its score fields into the review's score. */
export const SCORE_METHODS = ['average', 'total'] as const;
export type ScoreMethod = (typeof SCORE_METHODS)[number];

/** Options of a Review Score Form (type 3). */
export interface ScoreFormOptions {
  method: ScoreMethod;
  /** Numeric top-level fields of the form's schema that make up the score. */
  fields: string[];
}

/** Options of a resource form (types 4 and 5). */
export interface ResourceFormOptions {
  /** The field whose value names the facility; null for one unnamed facility. */
  institution_field: string | null;
  /** Numeric top-level fields summed per facility. */
  data_fields: string[];
}

export type FormOptions = ScoreFormOptions | ResourceFormOptions;

const fieldList = (title: string) => ({
  type: 'array',
  title,
  items: { type: 'string' },
  // A score or a resource total over no fields means nothing, and a field named twice
  // would count twice.
  minItems: 1,
  uniqueItems: true,
});

/**
 * JSON schemas of the options objects, for the form builder's options editors. The
 * checks below apply exactly these rules by hand (the domain has no JSON Schema
 * validator); a server test holds the two to agreement.
 */
export const SCORE_OPTIONS_SCHEMA = {
  type: 'object',
  properties: {
    method: { type: 'string', title: 'Method', enum: [...SCORE_METHODS] },
    fields: fieldList('Score fields'),
  },
  required: ['method', 'fields'],
  additionalProperties: false,
} as const;

export const RESOURCE_OPTIONS_SCHEMA = {
  type: 'object',
  properties: {
    institution_field: { type: ['string', 'null'], title: 'Facility field' },
    data_fields: fieldList('Data fields'),
  },
  required: ['institution_field', 'data_fields'],
  additionalProperties: false,
} as const;

/** The JSON schema of a type's options, or null when the type takes none. */
export function optionsSchemaFor(
  type: FormType,
): typeof SCORE_OPTIONS_SCHEMA | typeof RESOURCE_OPTIONS_SCHEMA | null {
  if (isScoreForm(type)) return SCORE_OPTIONS_SCHEMA;
  if (isResourceForm(type)) return RESOURCE_OPTIONS_SCHEMA;
  return null;
}

const typeName = (type: FormType) => `type ${type} (${FORM_TYPE_LABELS[type]})`;

export const formOptionMessages = {
  notObject: 'Options must be a JSON object.',
  required: (type: FormType) =>
    `Forms of ${typeName(type)} need options: ${
      isScoreForm(type)
        ? '{"method": "average" or "total", "fields": [score fields]}'
        : '{"institution_field": facility field or null, "data_fields": [numeric fields]}'
    }.`,
  none: (type: FormType) =>
    `Forms of ${typeName(type)} take no options. Leave the options empty (null).`,
  unknownOption: (key: string, allowed: readonly string[]) =>
    `"${key}" is not an option of this form type. The options are: ${allowed.join(', ')}.`,
  missingOption: (key: string) => `The option "${key}" is required.`,
  method: `The method must be "average" or "total".`,
  fieldList: (key: string) => `"${key}" must be a list of field names (strings).`,
  emptyList: (key: string) => `"${key}" must name at least one field.`,
  duplicate: (key: string, name: string) => `"${key}" names "${name}" more than once.`,
  institutionField: '"institution_field" must be a field name (a string) or null.',
  fieldMissing: (name: string) =>
    `The schema has no field "${name}". Name a field listed under the schema's top-level "properties".`,
  fieldNotNumeric: (name: string) =>
    `The field "${name}" must be numeric: give it "type": "number" or "type": "integer" in the schema.`,
} as const;

function checkFieldList(errors: FieldErrors, options: JsonObject, key: string): void {
  const path = `options.${key}`;
  const value = options[key];
  if (value === undefined) return;
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) {
    addErrors(errors, path, [formOptionMessages.fieldList(key)]);
    return;
  }
  if (value.length === 0) addErrors(errors, path, [formOptionMessages.emptyList(key)]);
  const seen = new Set<string>();
  for (const name of value as string[]) {
    if (seen.has(name)) addErrors(errors, path, [formOptionMessages.duplicate(key, name)]);
    seen.add(name);
  }
}

/**
 * Problems with the shape of a form's options for its type, keyed as the error envelope
 * keys them (`options`, `options.method`, ...). Null, absent or `{}` count as "no
 * options", which types 0 to 2 require and types 3 to 5 refuse.
 */
export function checkOptionsShape(type: FormType, options: unknown): FieldErrors {
  const errors: FieldErrors = {};
  const empty =
    options === null ||
    options === undefined ||
    (isJsonObject(options) && Object.keys(options).length === 0);
  const schema = optionsSchemaFor(type);
  if (!schema) {
    if (!empty) addErrors(errors, 'options', [formOptionMessages.none(type)]);
    return errors;
  }
  if (options !== null && options !== undefined && !isJsonObject(options)) {
    addErrors(errors, 'options', [formOptionMessages.notObject]);
    return errors;
  }
  if (empty) {
    addErrors(errors, 'options', [formOptionMessages.required(type)]);
    return errors;
  }
  const allowed = Object.keys(schema.properties);
  for (const key of Object.keys(options)) {
    if (!allowed.includes(key))
      addErrors(errors, 'options', [formOptionMessages.unknownOption(key, allowed)]);
  }
  for (const key of schema.required) {
    if (options[key] === undefined)
      addErrors(errors, `options.${key}`, [formOptionMessages.missingOption(key)]);
  }
  if (isScoreForm(type)) {
    const method = options.method;
    if (method !== undefined && !(SCORE_METHODS as readonly unknown[]).includes(method))
      addErrors(errors, 'options.method', [formOptionMessages.method]);
    checkFieldList(errors, options, 'fields');
  } else {
    const institution = options.institution_field;
    if (institution !== undefined && institution !== null && typeof institution !== 'string')
      addErrors(errors, 'options.institution_field', [formOptionMessages.institutionField]);
    checkFieldList(errors, options, 'data_fields');
  }
  return errors;
}

/** The top-level `properties` of a form's JSON schema: the fields options may name. */
export function schemaProperties(jsonSchema: unknown): Record<string, unknown> {
  if (!isJsonObject(jsonSchema) || !isJsonObject(jsonSchema.properties)) return {};
  return jsonSchema.properties;
}

const NUMERIC = new Set(['number', 'integer']);

/**
 * A field holds a number when its `type` is number or integer, or a list of types that
 * are all numeric or null (an optional score) with at least one numeric.
 */
export function isNumericProperty(property: unknown): boolean {
  if (!isJsonObject(property)) return false;
  const type = property.type;
  if (typeof type === 'string') return NUMERIC.has(type);
  if (Array.isArray(type)) {
    return (
      type.some((t) => typeof t === 'string' && NUMERIC.has(t)) &&
      type.every((t) => t === 'null' || (typeof t === 'string' && NUMERIC.has(t)))
    );
  }
  return false;
}

/**
 * Every field the options name exists among the schema's top-level properties, and is
 * numeric where the option adds it up: type 3 `fields`, types 4 and 5 `data_fields`. The
 * facility field only has to exist. Assumes the options have passed `checkOptionsShape`.
 */
export function checkOptionFields(
  type: FormType,
  options: FormOptions | null,
  jsonSchema: unknown,
): FieldErrors {
  const errors: FieldErrors = {};
  if (!options || !hasOptions(type)) return errors;
  const properties = schemaProperties(jsonSchema);
  const checkNumeric = (key: string, names: string[]) => {
    for (const name of names) {
      if (!Object.hasOwn(properties, name))
        addErrors(errors, `options.${key}`, [formOptionMessages.fieldMissing(name)]);
      else if (!isNumericProperty(properties[name]))
        addErrors(errors, `options.${key}`, [formOptionMessages.fieldNotNumeric(name)]);
    }
  };
  if (isScoreForm(type)) {
    checkNumeric('fields', (options as ScoreFormOptions).fields);
  } else {
    const { institution_field: institution, data_fields } = options as ResourceFormOptions;
    if (institution !== null && !Object.hasOwn(properties, institution))
      addErrors(errors, 'options.institution_field', [
        formOptionMessages.fieldMissing(institution),
      ]);
    checkNumeric('data_fields', data_fields);
  }
  return errors;
}

/**
 * The whole options rule for a form of `type` over `jsonSchema`: the shape first, then,
 * when the shape is right, the fields it names. Returns the options to store (null for
 * types without options) or the problems.
 */
export function validateFormOptions(
  type: FormType,
  options: unknown,
  jsonSchema: unknown,
): { ok: true; options: FormOptions | null } | { ok: false; errors: FieldErrors } {
  const shape = checkOptionsShape(type, options);
  if (Object.keys(shape).length > 0) return { ok: false, errors: shape };
  if (!hasOptions(type)) return { ok: true, options: null };
  const checked = options as FormOptions;
  const fields = checkOptionFields(type, checked, jsonSchema);
  if (Object.keys(fields).length > 0) return { ok: false, errors: fields };
  return { ok: true, options: checked };
}

/**
 * A stored form's options as its type's shape. Safe to read so because a form reaches
 * the database only through validateFormOptions (admin saves and the examples), which
 * refuses options that do not fit the type; the database column itself is plain JSON.
 */
export function storedOptions<T extends FormOptions>(options: Record<string, unknown> | null): T {
  return options as unknown as T;
}
