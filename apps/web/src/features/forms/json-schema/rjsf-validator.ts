import {
  ID_KEY,
  ROOT_SCHEMA_PREFIX,
  withIdRefPrefix,
  type CustomValidator,
  type ErrorTransformer,
  type RJSFSchema,
  type UiSchema,
  type ValidationData,
  type ValidatorType,
} from '@rjsf/utils';
// Only rjsf's step from ajv-shaped errors to its own (titles, custom validation); the
// package's validator itself, and ajv with it, stays out of the bundle.
import processRawValidationErrors from '@rjsf/validator-ajv8/lib/processRawValidationErrors.js';
import { prepare, run, toAjvErrors, type AjvError, type Prepared } from './interpret';

type FormData = unknown;

/** Prepared schemas kept while rjsf asks about the same ones on every render. */
const MAX_CACHED = 200;

/** The root schema prepared once, and the sub-schemas rjsf asks about, by their JSON. */
interface RootEntry {
  root: Prepared;
  subschemas: Map<string, Prepared>;
}

/** A root schema's own `$id` would move its references away from where rjsf points them. */
function withoutId(schema: RJSFSchema): RJSFSchema {
  if (!(ID_KEY in schema)) return schema;
  const copy = { ...schema };
  delete copy[ID_KEY];
  return copy;
}

/**
 * rjsf's validator on @cfworker/json-schema, safe under the Content Security Policy (see
 * ./interpret.ts): the same answers and error shapes as @rjsf/validator-ajv8.
 */
export class InterpretingValidator implements ValidatorType<FormData, RJSFSchema> {
  private readonly roots = new WeakMap<object, RootEntry>();

  private entryFor(rootSchema: RJSFSchema): RootEntry {
    let entry = this.roots.get(rootSchema);
    if (!entry) {
      entry = { root: prepare(withoutId(rootSchema), ROOT_SCHEMA_PREFIX), subschemas: new Map() };
      this.roots.set(rootSchema, entry);
    }
    return entry;
  }

  /**
   * Validates `formData` against `schema` as the form's root. A schema that cannot be
   * used (an unresolvable `$ref`) comes back as `validationError`, as with ajv.
   */
  rawValidation<Result = AjvError>(
    schema: RJSFSchema,
    formData?: FormData,
  ): { errors?: Result[]; validationError?: Error } {
    try {
      const { root } = this.entryFor(schema);
      const result = run(root, formData, false);
      if (result.valid) return {};
      return { errors: toAjvErrors(result.errors, schema) as Result[] };
    } catch (error) {
      return { validationError: error instanceof Error ? error : new Error(String(error)) };
    }
  }

  validateFormData(
    formData: FormData,
    schema: RJSFSchema,
    customValidate?: CustomValidator<FormData, RJSFSchema>,
    transformErrors?: ErrorTransformer<FormData, RJSFSchema>,
    uiSchema?: UiSchema<FormData, RJSFSchema>,
  ): ValidationData<FormData> {
    const raw = this.rawValidation<AjvError>(schema, formData);
    return processRawValidationErrors(
      this,
      // Ajv's ErrorObject, which AjvError reproduces field by field.
      raw as Parameters<typeof processRawValidationErrors>[1],
      formData,
      schema,
      customValidate,
      transformErrors,
      uiSchema,
    );
  }

  /**
   * Whether `formData` satisfies `schema`, a part of `rootSchema` (rjsf asks this to pick
   * the matching `oneOf` option or apply `dependencies`). References inside it point at
   * the root, as @rjsf/validator-ajv8 arranges with the same prefix.
   */
  isValid(schema: RJSFSchema, formData: FormData, rootSchema: RJSFSchema): boolean {
    try {
      const entry = this.entryFor(rootSchema);
      const prefixed = withIdRefPrefix(schema);
      const key = JSON.stringify(prefixed);
      let prepared = entry.subschemas.get(key);
      if (!prepared) {
        if (entry.subschemas.size >= MAX_CACHED) entry.subschemas.clear();
        prepared = prepare(withoutId(prefixed), 'subschema', entry.root.lookup);
        entry.subschemas.set(key, prepared);
      }
      return run(prepared, formData, true).valid;
    } catch (error) {
      // As @rjsf/validator-ajv8: a schema that cannot be used matches nothing.
      console.warn('Error encountered compiling schema:', error);
      return false;
    }
  }

  reset(): void {
    // Entries are keyed weakly by the schemas themselves: nothing to clear.
  }
}

/** One validator for every form: it keeps nothing between forms but a cache. */
export const formValidator = new InterpretingValidator();
