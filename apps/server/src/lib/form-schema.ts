import {
  checkFormVersion,
  checkSchemaShape,
  formMessages,
  validateFormOptions,
  type FieldErrors,
  type FormOptions,
  type FormType,
} from '@merit/domain';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';

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
