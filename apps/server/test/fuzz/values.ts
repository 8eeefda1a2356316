import fc from 'fast-check';

/**
 * Valid-shaped values from a route's zod contract, through its JSON Schema (zod's own
 * `toJSONSchema`, as the OpenAPI document shows it): the fuzzer starts from requests the
 * schema accepts, so its mutations reach the handlers and not only the validator.
 */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: JsonSchema | boolean;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
}

/**
 * Ids biased to the ones that exist: every table counts from 1 and the world the fuzzer
 * builds is small, so most ids name a real row; a few are far away.
 */
export const idArb: fc.Arbitrary<number> = fc.oneof(
  { weight: 8, arbitrary: fc.integer({ min: 1, max: 16 }) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 300 }) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 2147483647 }) },
);

/** Dates around the test clock (2026), and a few far ones PostgreSQL can still store. */
const dateArb = fc
  .oneof(
    { weight: 4, arbitrary: fc.date({ min: new Date('2026-04-01'), max: new Date('2026-09-01') }) },
    { weight: 1, arbitrary: fc.date({ min: new Date('1900-01-01'), max: new Date('2200-01-01') }) },
  )
  .filter((date) => !Number.isNaN(date.getTime()))
  .map((date) => date.toISOString());

/** Text a person might type, with the odd accent and emoji. */
const textArb = (minLength: number, maxLength: number) =>
  fc.oneof(
    { weight: 3, arbitrary: fc.string({ minLength, maxLength: Math.min(maxLength, 24) }) },
    {
      weight: 1,
      arbitrary: fc.string({
        minLength,
        maxLength: Math.min(maxLength, 12),
        unit: 'grapheme',
      }),
    },
  );

const ID_PATTERN = /^\^\[1-9\]\[0-9\]\{0,\d+\}\$$/;

function stringArb(schema: JsonSchema): fc.Arbitrary<string> {
  if (schema.format === 'date-time') return dateArb;
  if (schema.format === 'email') return fc.emailAddress();
  if (schema.pattern && ID_PATTERN.test(schema.pattern)) return idArb.map(String);
  if (schema.pattern) return fc.stringMatching(new RegExp(schema.pattern));
  return textArb(schema.minLength ?? 0, schema.maxLength ?? 200);
}

function integerArb(schema: JsonSchema): fc.Arbitrary<number> {
  const min = Math.max(schema.minimum ?? -1000, Number.MIN_SAFE_INTEGER);
  const max = Math.min(schema.maximum ?? 1000, Number.MAX_SAFE_INTEGER);
  // An id (or anything from 1 up to PostgreSQL's integer range) names a row.
  if (min === 1 && max >= 2147483647) return idArb;
  if (min >= 0 && max > 200)
    return fc.oneof(fc.integer({ min, max: min + 10 }), fc.integer({ min, max }));
  return fc.integer({ min, max });
}

/** Any JSON, small: what a schema that takes anything (form answers, JSON Schemas) gets. */
export const anyJson = fc.jsonValue({ maxDepth: 3 });

/** A value the JSON Schema accepts (or nearly: refinements the JSON Schema cannot say). */
export function valueFor(schema: JsonSchema | boolean | undefined): fc.Arbitrary<unknown> {
  if (schema === undefined || schema === true || schema === false) return anyJson;
  if (schema.anyOf) return fc.oneof(...schema.anyOf.map((option) => valueFor(option)));
  if (schema.enum) return fc.constantFrom(...schema.enum);
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.type))
    return fc.oneof(...schema.type.map((type) => valueFor({ ...schema, type })));
  switch (schema.type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return integerArb(schema);
    case 'number':
      return fc.oneof(
        fc.integer({ min: 0, max: 5 }),
        fc.double({ noNaN: true, noDefaultInfinity: true }),
      );
    case 'string':
      return stringArb(schema);
    case 'array':
      return fc.array(valueFor(schema.items), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.max(schema.minItems ?? 0, Math.min(schema.maxItems ?? 4, 4)),
      });
    case 'object': {
      const properties = schema.properties ?? {};
      if (Object.keys(properties).length === 0)
        return fc.dictionary(fc.string({ maxLength: 12 }), anyJson, { maxKeys: 5 });
      const model = Object.fromEntries(
        Object.entries(properties).map(([name, property]) => [name, valueFor(property)]),
      );
      return fc
        .record(model, { requiredKeys: schema.required ?? [] })
        .map((record) => ({ ...record }));
    }
    default:
      return anyJson;
  }
}
