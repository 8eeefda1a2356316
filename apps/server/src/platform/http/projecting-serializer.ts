import { z } from 'zod';

/*
 * The serializer of the chair's export (GET /calls/{callId}/proposals/export/), whose
 * body on a 10,000-proposal call is 6 to 26 MB. fast-json-stringify, which writes every
 * other answer, took 0.8-3.3 s on it against 0.3-0.6 s for JSON.stringify (bench/README.md,
 * figure (d)). This keeps what fast-json-stringify promises, that an answer carries only
 * the properties the contract declares, another way: the body is walked as the response
 * schema declares it, every object holding a property the schema does not declare is
 * copied without it (the rest is not copied), and the result is written by
 * JSON.stringify.
 *
 * A part the database wrote as JSON text in the schema's shape (`RawJson`: each review's
 * comments, 10 MB of a large call's body) is written into the body as it is, not parsed
 * into objects and written again.
 */

import { randomBytes } from 'node:crypto';

type JsonSchema = {
  $ref?: string;
  allOf?: JsonSchema[];
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  additionalProperties?: JsonSchema | boolean;
  items?: JsonSchema;
  definitions?: Record<string, JsonSchema>;
};

/**
 * JSON text for a value where the schema has an object or an array, written into the body
 * as it is. Only for text the server made itself in the shape the schema declares there
 * (SQL that builds exactly those properties, tested against the objects it replaces):
 * the serializer cannot look inside it.
 */
export class RawJson {
  constructor(readonly json: string) {}
}

/**
 * `json` where the types say a `T`: for a part of a body the projecting serializer writes,
 * made as JSON text by the server in the shape `T` has in the response schema.
 */
export const rawJson = <T>(json: string): T => new RawJson(json) as unknown as T;

/**
 * Copies a value as its schema declares it; throws on a value of another kind. Each
 * `RawJson` met is put in `raws` and replaced by its placeholder. Paths for the messages
 * are made when compiled, not per value: a 26 MB body has millions of values.
 */
type Projection = (value: unknown, raws: Raws) => unknown;

/** The raw JSON texts of one body, each written where its placeholder string is. */
interface Raws {
  /** Unguessable for each body, so no text of the body can pass for a placeholder. */
  nonce: string;
  texts: string[];
}

/** Stands for a raw text in the body until JSON.stringify has written it. */
function placeholder(raw: RawJson, raws: Raws): string {
  raws.texts.push(raw.json);
  return `\u0000${raws.nonce}:${raws.texts.length - 1}`;
}

class UndeclaredValue extends Error {}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);

/**
 * The projection of a JSON Schema as `z.toJSONSchema` writes a response schema: objects
 * with declared properties (others dropped), records (`additionalProperties` a schema),
 * arrays, `$ref`s to its definitions, one-schema `allOf`s, scalars, which must be
 * scalars (a Date is written as JSON.stringify writes it), and the empty schema (any value). Anything else (`anyOf`, a
 * tuple) is refused when it is compiled, so a schema it cannot keep to fails its tests.
 * Where an object or an array belongs, a `RawJson` is taken as it is.
 */
function compile(
  schema: JsonSchema,
  definitions: Record<string, JsonSchema>,
  path: string,
): Projection {
  if (schema.$ref !== undefined) {
    const name = schema.$ref.replace(/^#\/definitions\//, '');
    const target = definitions[name];
    if (!target) throw new Error(`No definition ${schema.$ref}`);
    let compiled: Projection | undefined;
    return (value, raws) => (compiled ??= compile(target, definitions, path))(value, raws);
  }
  if (schema.allOf !== undefined) {
    if (schema.allOf.length !== 1) throw new Error('allOf of more than one schema');
    return compile(schema.allOf[0]!, definitions, path);
  }
  // A schema that declares nothing takes any value as it is (`z.unknown()`: the `current`
  // of a 409 `stale` in the error envelope).
  if (Object.keys(schema).length === 0) return (value) => value;
  const types = new Set(Array.isArray(schema.type) ? schema.type : [schema.type ?? 'any']);
  const nullable = types.delete('null');
  const orNullOrRaw =
    (projection: Projection): Projection =>
    (value, raws) =>
      value === null && nullable
        ? null
        : value instanceof RawJson
          ? placeholder(value, raws)
          : projection(value, raws);
  if (types.size === 1 && types.has('object') && schema.properties) {
    const properties = Object.entries(schema.properties).map(
      ([key, property]) => [key, compile(property, definitions, `${path}.${key}`)] as const,
    );
    const declared = new Set(properties.map(([key]) => key));
    return orNullOrRaw((value, raws) => {
      if (!isPlainObject(value)) throw new UndeclaredValue(`${path} is not an object`);
      // Copied only when something in it is not declared: an exact body is written as it is.
      let changed = false;
      for (const key in value) if (!declared.has(key)) changed = true;
      const projected: unknown[] = [];
      for (const [key, projection] of properties) {
        const property = value[key];
        const written = property === undefined ? undefined : projection(property, raws);
        if (written !== property) changed = true;
        projected.push(written);
      }
      if (!changed) return value;
      const copy: Record<string, unknown> = {};
      properties.forEach(([key], i) => {
        if (projected[i] !== undefined) copy[key] = projected[i];
      });
      return copy;
    });
  }
  if (types.size === 1 && types.has('object') && typeof schema.additionalProperties === 'object') {
    const entry = compile(schema.additionalProperties, definitions, `${path}.*`);
    return orNullOrRaw((value, raws) => {
      if (!isPlainObject(value)) throw new UndeclaredValue(`${path} is not an object`);
      let copy: Record<string, unknown> | undefined;
      for (const key of Object.keys(value)) {
        const property = value[key];
        const written = property === undefined ? undefined : entry(property, raws);
        if (written !== property) copy ??= { ...value };
        if (copy) copy[key] = written;
      }
      return copy ?? value;
    });
  }
  if (types.size === 1 && types.has('array') && schema.items && !Array.isArray(schema.items)) {
    const item = compile(schema.items, definitions, path);
    return orNullOrRaw((value, raws) => {
      if (!Array.isArray(value)) throw new UndeclaredValue(`${path} is not an array`);
      let copy: unknown[] | undefined;
      for (let i = 0; i < value.length; i++) {
        const written = item(value[i], raws);
        if (written !== value[i]) copy ??= value.slice();
        if (copy) copy[i] = written;
      }
      return copy ?? value;
    });
  }
  if ([...types].every((type) => ['string', 'number', 'integer', 'boolean'].includes(type)))
    return (value) => {
      if (value === null && nullable) return null;
      if (typeof value === 'object' && !(value instanceof Date))
        throw new UndeclaredValue(`${path} is not a ${[...types].join(' or ')}`);
      return value;
    };
  throw new Error(`A schema the export serializer does not handle: ${JSON.stringify(schema)}`);
}

/**
 * The response serializer of one route and status: the body copied as `schema` declares
 * it, then JSON.stringify. A value of a kind the schema does not declare (an object where
 * a string belongs) is an error, never written.
 */
export function projectingSerializer(schema: z.ZodType): (data: unknown) => string {
  const json = z.toJSONSchema(schema, {
    target: 'draft-7',
    io: 'output',
    unrepresentable: 'any',
  }) as JsonSchema;
  const project = compile(json, json.definitions ?? {}, '$');
  return (data) => {
    const raws: Raws = { nonce: randomBytes(12).toString('hex'), texts: [] };
    const written = JSON.stringify(project(data, raws));
    if (raws.texts.length === 0) return written;
    // JSON.stringify wrote each placeholder, a string, as "\u0000nonce:index".
    return written.replace(
      new RegExp(`"\\\\u0000${raws.nonce}:(\\d+)"`, 'g'),
      (_match, index: string) => raws.texts[Number(index)]!,
    );
  };
}
