import {
  dereference,
  encodePointer,
  format,
  validate,
  type OutputUnit,
  type Schema,
  type ValidationResult,
} from '@cfworker/json-schema';

/**
 * JSON Schema validation without generated code. Ajv (and so @rjsf/validator-ajv8)
 * compiles every schema into a function with `new Function`, which the app's Content
 * Security Policy (`script-src 'self'`, no 'unsafe-eval') forbids: in the browser every
 * compile throws, so every form would report its schema as broken. Precompiling is no
 * way out either, because admins write the schemas at run time. @cfworker/json-schema
 * interprets the schema instead, and this module gives it the dialect and the error
 * shape of ajv, which the server uses: the builder's preview and the server agree.
 */

/** Form schemas are draft-07, ajv's default, as on the server. */
export const DRAFT = '7';

// The formats @rjsf/validator-ajv8 adds to ajv-formats (file widgets send data URLs), as
// the server does too (apps/server/src/modules/forms/form-access.ts).
const DATA_URL = /^data:([a-z]+\/[a-z0-9-+.]+)?;(?:name=(.*);)?base64,(.*)$/;
const COLOR =
  /^#?([0-9a-f]{3}|[0-9a-f]{6})$|^[a-z]+$|^rgb\(\s*\d{1,3}%?\s*,\s*\d{1,3}%?\s*,\s*\d{1,3}%?\s*\)$/i;
format['data-url'] = (value) => DATA_URL.test(value);
format.color = (value) => COLOR.test(value);

/** Where schemas live for reference resolution; never fetched, only a namespace. */
const BASE = 'https://merit.invalid/schemas/';
export const schemaUri = (name: string) => new URL(name, BASE);

export type SchemaNode = Record<string, unknown>;
export type Lookup = Record<string, Schema | boolean>;

/** A JSON copy: cfworker marks the schema objects it reads, which must not be rjsf's own. */
export function jsonCopy<T>(value: T): T {
  return value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T);
}

/** A schema made ready for `run`: copied, with its references indexed in `lookup`. */
export interface Prepared {
  schema: Schema;
  lookup: Lookup;
}

/**
 * Prepares `schema`, named `name` for references into it, on top of `lookup` (the
 * schemas its references may reach). Throws when a reference cannot be indexed.
 */
export function prepare(schema: unknown, name: string, lookup?: Lookup): Prepared {
  const copy = jsonCopy(schema) as Schema;
  const index: Lookup = Object.assign(Object.create(null) as Lookup, lookup);
  dereference(copy, index, schemaUri(name));
  return { schema: copy, lookup: index };
}

/**
 * Validates `data` as JSON: `undefined` properties count as absent, as in ajv (rjsf
 * leaves them behind when a field is cleared), and an absent value as null.
 */
export function run(prepared: Prepared, data: unknown, shortCircuit: boolean): ValidationResult {
  const json = data === undefined ? null : jsonCopy(data);
  return validate(json, prepared.schema, DRAFT, prepared.lookup, shortCircuit);
}

/** The shape of an ajv error, which rjsf's error processing and the server's messages use. */
export interface AjvError {
  keyword: string;
  instancePath: string;
  schemaPath: string;
  params: Record<string, unknown>;
  message: string;
  parentSchema?: SchemaNode;
}

// Units that only say "something inside me failed"; the failures inside are reported too.
const WRAPPERS = new Set([
  'properties',
  'patternProperties',
  'items',
  'prefixItems',
  'unevaluatedItems',
  'unevaluatedProperties',
  'allOf',
  '$ref',
  '$recursiveRef',
  'dependentSchemas',
]);

const quoted = (error: string) => /"([^"]*)"/.exec(error)?.[1] ?? '';

/** An ajv-style JSON pointer (`/a/0/b`) from cfworker's URI fragment (`#/a/0/b`). */
function instancePathOf(location: string): string {
  return location
    .replace(/^#/, '')
    .split('/')
    .slice(1)
    .map((segment) => {
      let decoded = segment;
      try {
        decoded = decodeURIComponent(segment);
      } catch {
        // Not percent-encoded after all: keep it as it is.
      }
      return `/${decoded}`;
    })
    .join('');
}

/** The schema object at a `#/…` location in `root`, following `$ref`s into `root`. */
function schemaAt(root: unknown, location: string): SchemaNode | undefined {
  let node: unknown = root;
  for (const raw of location.replace(/^#/, '').split('/').slice(1)) {
    if (typeof node !== 'object' || node === null) return undefined;
    const segment = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (segment === '$ref') {
      const ref = (node as SchemaNode).$ref;
      if (typeof ref !== 'string' || !ref.includes('#')) return undefined;
      node = schemaAt(root, ref.slice(ref.indexOf('#')));
    } else {
      node = (node as Record<string, unknown>)[segment];
    }
  }
  return typeof node === 'object' && node !== null ? (node as SchemaNode) : undefined;
}

function describe(unit: OutputUnit, parent: SchemaNode | undefined) {
  const value = parent?.[unit.keyword];
  const limit = typeof value === 'number' ? value : undefined;
  switch (unit.keyword) {
    case 'required': {
      const missingProperty = quoted(unit.error);
      return {
        params: { missingProperty },
        message: `must have required property '${missingProperty}'`,
      };
    }
    case 'type': {
      const type = Array.isArray(value) ? value.join(',') : String(value);
      return { params: { type }, message: `must be ${type}` };
    }
    case 'enum':
      return {
        params: { allowedValues: value },
        message: 'must be equal to one of the allowed values',
      };
    case 'const':
      return { params: { allowedValue: value }, message: 'must be equal to constant' };
    case 'minLength':
      return { params: { limit }, message: `must NOT have fewer than ${limit} characters` };
    case 'maxLength':
      return { params: { limit }, message: `must NOT have more than ${limit} characters` };
    case 'minItems':
      return { params: { limit }, message: `must NOT have fewer than ${limit} items` };
    case 'maxItems':
      return { params: { limit }, message: `must NOT have more than ${limit} items` };
    case 'minProperties':
      return { params: { limit }, message: `must NOT have fewer than ${limit} properties` };
    case 'maxProperties':
      return { params: { limit }, message: `must NOT have more than ${limit} properties` };
    case 'minimum':
      return { params: { comparison: '>=', limit }, message: `must be >= ${limit}` };
    case 'maximum':
      return { params: { comparison: '<=', limit }, message: `must be <= ${limit}` };
    case 'exclusiveMinimum':
      return { params: { comparison: '>', limit }, message: `must be > ${limit}` };
    case 'exclusiveMaximum':
      return { params: { comparison: '<', limit }, message: `must be < ${limit}` };
    case 'multipleOf':
      return { params: { multipleOf: limit }, message: `must be multiple of ${limit}` };
    case 'pattern':
      return { params: { pattern: value }, message: `must match pattern "${String(value)}"` };
    case 'format':
      return { params: { format: value }, message: `must match format "${String(value)}"` };
    case 'uniqueItems': {
      const [, i, j] = /(\d+) and (\d+)/.exec(unit.error) ?? [];
      return {
        params: { i: Number(i), j: Number(j) },
        message: `must NOT have duplicate items (items ## ${j} and ${i} are identical)`,
      };
    }
    case 'additionalProperties':
      return {
        params: { additionalProperty: quoted(unit.error) },
        message: 'must NOT have additional properties',
      };
    case 'propertyNames':
      return {
        params: { propertyName: quoted(unit.error) },
        message: 'property name must be valid',
      };
    case 'dependencies':
    case 'dependentRequired': {
      const [, property = '', missing = ''] =
        /"([^"]*)" but does not have "([^"]*)"/.exec(unit.error) ?? [];
      return {
        params: { property, missingProperty: missing, deps: missing, depsCount: 1 },
        message: `must have property ${missing} when property ${property} is present`,
      };
    }
    case 'anyOf':
      return { params: {}, message: 'must match a schema in anyOf' };
    case 'oneOf':
      return { params: {}, message: 'must match exactly one schema in oneOf' };
    case 'not':
      return { params: {}, message: 'must NOT be valid' };
    case 'if': {
      const failingKeyword = unit.error.includes('"else"') ? 'else' : 'then';
      return { params: { failingKeyword }, message: `must match "${failingKeyword}" schema` };
    }
    case 'contains':
      return { params: { minContains: 1 }, message: 'must contain at least 1 valid item(s)' };
    case 'false':
      return { params: {}, message: 'boolean schema is false' };
    default:
      return { params: {}, message: unit.error };
  }
}

/**
 * cfworker's output as ajv's errors: the wrappers left out, the rest with ajv's keyword,
 * params and words, and the schema each rule sits in (for rjsf's field titles).
 */
export function toAjvErrors(units: readonly OutputUnit[], root: unknown): AjvError[] {
  const errors: AjvError[] = [];
  // `additionalProperties: false` fails its property with a "false schema" unit too;
  // ajv reports only the additional property.
  const refusedProperties = new Set<string>();
  // cfworker names a failed anyOf/oneOf before the failures of its branches, ajv after.
  const pending: { location: string; error: AjvError }[] = [];
  const flush = (before?: string) => {
    while (pending.length > 0 && !before?.startsWith(`${pending.at(-1)!.location}/`))
      errors.push(pending.pop()!.error);
  };
  for (const unit of units) {
    flush(unit.keywordLocation);
    if (WRAPPERS.has(unit.keyword)) continue;
    // A dependency given as a schema only wraps the failures inside it.
    if (unit.keyword === 'dependencies' && unit.error.includes('dependant schema')) continue;
    // cfworker gives a false schema's unit no location in the schema.
    const parent =
      unit.keyword === 'false'
        ? undefined
        : schemaAt(root, unit.keywordLocation.replace(/\/[^/]*$/, ''));
    if (unit.keyword === 'additionalProperties') {
      if (parent?.additionalProperties !== false) continue;
      refusedProperties.add(`${unit.instanceLocation}/${encodePointer(quoted(unit.error))}`);
    }
    if (unit.keyword === 'false' && refusedProperties.has(unit.instanceLocation)) continue;
    const { params, message } = describe(unit, parent);
    const error: AjvError = {
      keyword: unit.keyword === 'false' ? 'false schema' : unit.keyword,
      instancePath: instancePathOf(unit.instanceLocation),
      schemaPath: unit.keywordLocation,
      params,
      message,
      parentSchema: parent,
    };
    if (unit.keyword === 'anyOf' || unit.keyword === 'oneOf')
      pending.push({ location: unit.keywordLocation, error });
    else errors.push(error);
  }
  flush();
  return errors;
}

/** ajv's `errorsText`: "data/a must be string, data must have required property 'b'". */
export function errorsText(errors: readonly AjvError[], dataVar = 'data'): string {
  return errors.map((error) => `${dataVar}${error.instancePath} ${error.message}`).join(', ');
}
