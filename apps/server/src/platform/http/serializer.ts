import type { FastifyInstance } from 'fastify';
import fastJson from 'fast-json-stringify';
import { createSerializerCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';

type SerializerCompiler = Parameters<FastifyInstance['setSerializerCompiler']>[0];

/**
 * Responses are written by fast-json-stringify, compiled once per route and status from
 * the zod response schema (as JSON Schema). It writes only the properties the contract
 * declares, so a presenter that returns more (an email, a score) cannot leak it, and it
 * does not re-validate every row of a 10,000-row list on each request, which
 * `bench/serialization.ts` shows costs an order of magnitude more.
 *
 * With `validate` (tests and development), each response is also checked against the
 * zod schema first, so a presenter that drifts from the contract fails loudly there.
 */
export function createResponseSerializer(options: { validate: boolean }): SerializerCompiler {
  const validating = createSerializerCompiler({});
  return (route) => {
    const compile = () => {
      const schema = route.schema as z.ZodType;
      const jsonSchema = z.toJSONSchema(schema, {
        target: 'draft-7',
        io: 'output',
        unrepresentable: 'any',
      });
      return fastJson(jsonSchema as Parameters<typeof fastJson>[0]);
    };
    // In production each one is compiled by the first answer that needs it: compiling all
    // of them took about a tenth of a cold start (bench figure (f)), mostly for routes and
    // statuses a start never serves. The tests compile every one up front (below), so a
    // schema that cannot be compiled fails there, not on someone's first request.
    if (!options.validate) {
      let compiled: ((data: unknown) => string) | undefined;
      return (data: unknown) => (compiled ??= compile())(data);
    }
    const stringify = compile();
    const check = validating(route as Parameters<typeof validating>[0]);
    return (data: unknown) => {
      check(data);
      return stringify(data);
    };
  };
}
