import { checkSchemaShape } from '@merit/domain';
import type { Schema } from '@cfworker/json-schema';
import { DRAFT_07_META_SCHEMA } from './draft-07-meta-schema';
import { errorsText, prepare, run, toAjvErrors, type Lookup } from './interpret';

let meta: ReturnType<typeof prepare> | undefined;

/** The value at an ajv-style JSON pointer (`/properties/a/pattern`). */
function valueAt(document: unknown, pointer: string): unknown {
  let node = document;
  for (const segment of pointer.split('/').slice(1)) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string, unknown>)[segment.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return node;
}

/** Every `$ref` in a prepared schema, with the address it resolved to. */
function* references(node: unknown): Generator<{ ref: string; absolute: string }> {
  if (typeof node !== 'object' || node === null) return;
  if (Array.isArray(node)) {
    for (const item of node) yield* references(item);
    return;
  }
  const schema = node as Schema;
  if (typeof schema.$ref === 'string' && typeof schema.__absolute_ref__ === 'string')
    yield { ref: schema.$ref, absolute: schema.__absolute_ref__ };
  for (const value of Object.values(schema)) yield* references(value);
}

/**
 * Why a form's JSON schema cannot be used, in the words of the server's ajv, or null
 * when it can: it must describe an object (the domain's rule), follow the draft-07
 * meta-schema, and every `$ref` must lead somewhere.
 */
export function schemaProblem(schema: unknown): string | null {
  const [shape] = checkSchemaShape(schema);
  if (shape) return shape;

  meta ??= prepare(DRAFT_07_META_SCHEMA, 'draft-07');
  const result = run(meta, schema, false);
  if (!result.valid) {
    const errors = toAjvErrors(result.errors, DRAFT_07_META_SCHEMA);
    // The server's ajv meets a bad pattern when it compiles it, and says what is wrong.
    for (const error of errors) {
      if (error.keyword !== 'format' || error.params.format !== 'regex') continue;
      const pattern = valueAt(schema, error.instancePath);
      if (typeof pattern !== 'string') continue;
      try {
        new RegExp(pattern, 'u');
      } catch (regexError) {
        if (regexError instanceof Error) return regexError.message;
      }
    }
    // A rule reached twice (through two references) is one problem to fix.
    const unique = errors.filter(
      (error, index) =>
        errors.findIndex(
          (other) => other.instancePath === error.instancePath && other.message === error.message,
        ) === index,
    );
    return `schema is invalid: ${errorsText(unique)}`;
  }

  let prepared: { schema: Schema; lookup: Lookup };
  try {
    prepared = prepare(schema, 'form');
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  for (const { ref, absolute } of references(prepared.schema)) {
    if (!(absolute in prepared.lookup)) return `can't resolve reference ${ref} from id #`;
  }
  return null;
}
