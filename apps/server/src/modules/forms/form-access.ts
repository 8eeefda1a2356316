import {
  answerErrorMessage,
  answerSchema,
  checkFormVersion,
  checkSchemaShape,
  fieldLabel,
  formMessages,
  validateFormOptions,
  type FieldErrors,
  type FormOptions,
  type FormType,
} from '@merit/domain';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { NON_FIELD } from '../../platform/http/errors.js';

/*
 * The forms module's face: a form's schema checked when an admin saves it, and answers
 * checked against their form when a proposal or a review is saved or submitted.
 */

// The formats react-jsonschema-form's ajv validator adds beyond ajv-formats (file
// widgets send data URLs), so a schema behaves the same in the builder and here.
const DATA_URL = /^data:([a-z]+\/[a-z0-9-+.]+)?;(?:name=(.*);)?base64,(.*)$/;
const COLOR =
  /^#?([0-9a-f]{3}|[0-9a-f]{6})$|^[a-z]+$|^rgb\(\s*\d{1,3}%?\s*,\s*\d{1,3}%?\s*,\s*\d{1,3}%?\s*\)$/i;

/**
 * A JSON Schema validator configured like the web's (@rjsf/validator-ajv8): draft-07,
 * every error at once, and not strict, because form schemas carry keywords ajv does not
 * know (`enumNames`, widget hints) that must not fail the form. A new instance each time:
 * ajv caches schemas by `$id`, and two forms may well share one.
 *
 * Schemas come from admins only. ajv compiles a schema to code; it escapes what it
 * generates, but a schema is still treated like configuration, not like user input.
 */
export function createFormAjv(): Ajv {
  const ajv = new Ajv({
    allErrors: true,
    strict: false,
    logger: false,
    multipleOfPrecision: 8,
  });
  addFormats(ajv);
  ajv.addFormat('data-url', DATA_URL);
  ajv.addFormat('color', COLOR);
  return ajv;
}

/** Why the schema does not compile, or null when it does. */
export function schemaCompileProblem(schema: Record<string, unknown>): string | null {
  try {
    createFormAjv().compile(schema);
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

export interface FormDefinition {
  version?: string | null;
  jsonSchema: unknown;
  options?: unknown;
}

/**
 * Every check a form must pass to be saved, for a form of `type`: the version, a JSON
 * schema that describes an object and compiles, and options that fit the type and name
 * fields of that schema. Returns the options to store or the problems by field.
 */
export function checkFormDefinition(
  type: FormType,
  input: FormDefinition,
): { ok: true; options: FormOptions | null } | { ok: false; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const version = checkFormVersion(input.version);
  if (version.length > 0) errors.version = version;
  const shape = checkSchemaShape(input.jsonSchema);
  if (shape.length > 0) {
    errors.jsonSchema = shape;
  } else {
    const problem = schemaCompileProblem(input.jsonSchema as Record<string, unknown>);
    if (problem) errors.jsonSchema = [formMessages.schemaError(problem)];
  }
  const options = validateFormOptions(type, input.options, input.jsonSchema);
  if (!options.ok) Object.assign(errors, options.errors);
  if (Object.keys(errors).length > 0 || !options.ok) return { ok: false, errors };
  return { ok: true, options: options.options };
}

// --- Answers checked against their form ------------------------------------------------

/** A proposal form as its answers are checked: its schemas and when it last changed. */
export interface AnswerForm {
  id: number;
  jsonSchema: Record<string, unknown>;
  uiSchema: Record<string, unknown>;
  updatedAt: Date;
}

/**
 * Each form's schema compiled once per version of the form: keyed by id and stamped with
 * its updatedAt, so an edited form is compiled again, and every app process reaches the
 * same answer from the same row (nothing here must agree between processes). Forms are
 * few and a form with saved answers cannot change, so this stays small.
 */
const compiled = new Map<number, { stamp: number; validate: ValidateFunction }>();

function validatorOf(form: AnswerForm): ValidateFunction {
  const stamp = form.updatedAt.getTime();
  const cached = compiled.get(form.id);
  if (cached?.stamp === stamp) return cached.validate;
  // A file field's answer is the id of the file its upload stored (spec section 3), not
  // the data URL the form's own schema names.
  const validate = createFormAjv().compile(answerSchema(form.jsonSchema, form.uiSchema));
  compiled.set(form.id, { stamp, validate });
  return validate;
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** The value at `path` inside `root`, or undefined. */
function at(root: unknown, path: readonly string[]): unknown {
  let node = root;
  for (const key of path) {
    if (!isObject(node) && !Array.isArray(node)) return undefined;
    node = (node as Json)[key];
  }
  return node;
}

/** A UI schema's title for a field: `ui:title`, or `title` among its `ui:options`. */
function uiTitle(ui: unknown): string | undefined {
  if (!isObject(ui)) return undefined;
  const options = ui['ui:options'];
  const title = ui['ui:title'] ?? (isObject(options) ? options.title : undefined);
  return typeof title === 'string' && title ? title : undefined;
}

const unescape = (segment: string) => segment.replaceAll('~1', '/').replaceAll('~0', '~');

/** A JSON pointer's segments: `/team/0/a~1b` -> `team`, `0`, `a/b`. */
const segments = (pointer: string) => pointer.split('/').slice(1).map(unescape);

/** ajv's `schemaPath` is a pointer in a URI fragment, percent-encoded: `#/properties/a%25`. */
const schemaSegments = (fragment: string) =>
  fragment
    .split('/')
    .slice(1)
    .map((s) => unescape(decodeURIComponent(s)));

/**
 * The title a person knows the failing field by, found where rjsf finds it in the browser
 * (transformRJSFValidationErrors), so both sides name it alike: the UI schema's title at
 * the field's place, or at the schema's place for a missing property; else the schema's.
 */
function titleOf(
  error: ErrorObject,
  instancePath: readonly string[],
  form: AnswerForm,
): string | undefined {
  // The schema that holds the failing keyword: `#/properties/a/maxLength` -> properties.a.
  const parentPath = schemaSegments(error.schemaPath).slice(0, -1);
  const parent = at(form.jsonSchema, parentPath);
  const missing = error.params.missingProperty as string | undefined;
  if (missing !== undefined) {
    const uiPath = [...parentPath.filter((s) => s !== 'properties'), missing];
    const title =
      uiTitle(at(form.uiSchema, [...instancePath, missing])) ??
      uiTitle(at(form.uiSchema, uiPath)) ??
      at(parent, ['properties', missing, 'title']);
    return typeof title === 'string' && title ? title : undefined;
  }
  const title = uiTitle(at(form.uiSchema, instancePath)) ?? (isObject(parent) && parent.title);
  return typeof title === 'string' && title ? title : undefined;
}

/**
 * What is wrong with `data` as answers to `form`, keyed by the path of each failing field
 * (`team.0.name`; a missing answer by the path it would have), in words for people:
 * `Project title is required.` Empty when the answers are valid.
 */
export function answerErrors(form: AnswerForm, data: unknown): FieldErrors {
  const validate = validatorOf(form);
  if (validate(data)) return {};
  const errors: FieldErrors = {};
  for (const error of validate.errors ?? []) {
    const path = segments(error.instancePath);
    const missing = error.params.missingProperty as string | undefined;
    const fieldPath = missing === undefined ? path : [...path, missing];
    const message = answerErrorMessage(
      { keyword: error.keyword, params: error.params, message: error.message },
      fieldLabel(fieldPath, titleOf(error, path, form)),
    );
    const key = fieldPath.join('.') || NON_FIELD;
    const list = (errors[key] ??= []);
    if (!list.includes(message)) list.push(message);
  }
  return errors;
}
