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
 */

type JsonSchema = {
  $ref?: string;
  allOf?: JsonSchema[];
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  additionalProperties?: JsonSchema | boolean;
  items?: JsonSchema;
  definitions?: Record<string, JsonSchema>;
};

/** Copies a value as its schema declares it; throws on a value of another kind. */
type Projection = (value: unknown, path: string) => unknown;

class UndeclaredValue extends Error {}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);

/**
 * The projection of a JSON Schema as `z.toJSONSchema` writes a response schema: objects
 * with declared properties (others dropped), records (`additionalProperties` a schema),
 * arrays, `$ref`s to its definitions, one-schema `allOf`s, and scalars, which must be
 * scalars (a Date is written as JSON.stringify writes it). Anything else (`anyOf`, a
 * tuple) is refused when it is compiled, so a schema it cannot keep to fails its tests.
 */
function compile(schema: JsonSchema, definitions: Record<string, JsonSchema>): Projection {
  if (schema.$ref !== undefined) {
    const name = schema.$ref.replace(/^#\/definitions\//, '');
    const target = definitions[name];
    if (!target) throw new Error(`No definition ${schema.$ref}`);
    let compiled: Projection | undefined;
    return (value, path) => (compiled ??= compile(target, definitions))(value, path);
  }
  if (schema.allOf !== undefined) {
    if (schema.allOf.length !== 1) throw new Error('allOf of more than one schema');
    return compile(schema.allOf[0]!, definitions);
  }
  const types = new Set(Array.isArray(schema.type) ? schema.type : [schema.type ?? 'any']);
  const nullable = types.delete('null');
  const orNull =
    (projection: Projection): Projection =>
    (value, path) =>
      value === null && nullable ? null : projection(value, path);
  if (types.size === 1 && types.has('object') && schema.properties) {
    const properties = Object.entries(schema.properties).map(
      ([key, property]) => [key, compile(property, definitions)] as const,
    );
    const declared = new Set(properties.map(([key]) => key));
    return orNull((value, path) => {
      if (!isPlainObject(value)) throw new UndeclaredValue(`${path} is not an object`);
      // Copied only when something in it is not declared: an exact body is written as it is.
      let changed = false;
      for (const key in value) if (!declared.has(key)) changed = true;
      const projected: unknown[] = [];
      for (const [key, projection] of properties) {
        const property = value[key];
        const written = property === undefined ? undefined : projection(property, `${path}.${key}`);
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
    const entry = compile(schema.additionalProperties, definitions);
    return orNull((value, path) => {
      if (!isPlainObject(value)) throw new UndeclaredValue(`${path} is not an object`);
      let copy: Record<string, unknown> | undefined;
      for (const key of Object.keys(value)) {
        const property = value[key];
        const written = property === undefined ? undefined : entry(property, `${path}.${key}`);
        if (written !== property) copy ??= { ...value };
        if (copy) copy[key] = written;
      }
      return copy ?? value;
    });
  }
  if (types.size === 1 && types.has('array') && schema.items && !Array.isArray(schema.items)) {
    const item = compile(schema.items, definitions);
    return orNull((value, path) => {
      if (!Array.isArray(value)) throw new UndeclaredValue(`${path} is not an array`);
      let copy: unknown[] | undefined;
      for (let i = 0; i < value.length; i++) {
        const written = item(value[i], path);
        if (written !== value[i]) copy ??= value.slice();
        if (copy) copy[i] = written;
      }
      return copy ?? value;
    });
  }
  if ([...types].every((type) => ['string', 'number', 'integer', 'boolean'].includes(type)))
    return (value, path) => {
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
  const project = compile(json, json.definitions ?? {});
  return (data) => JSON.stringify(project(data, '$'));
}
