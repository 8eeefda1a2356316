import { errorBody, idBody, noContent } from '@merit/contract';
import type { FastifyContextConfig } from 'fastify';
import type { App } from './app-types.js';
import type { Work } from '../data/work.js';

/**
 * The refusals a change to a proposal or one of its parts can meet: bad input, not logged
 * in, not allowed, not seen, and its state (a lock, a closed window).
 */
export const changeRefusals = {
  400: errorBody,
  401: errorBody,
  403: errorBody,
  404: errorBody,
  409: errorBody,
} as const;

/**
 * `DELETE <path>` with the body `{id}`, the spec's shape for deleting committees, form
 * names and forms (spec section 7): 204 when `remove` succeeds, or its refusal (404
 * unknown, 409 in use) in the error envelope.
 */
export function deleteByIdRoute(
  app: App,
  path: string,
  options: { tags: string[]; summary: string; config?: FastifyContextConfig },
  remove: (work: Work, id: number) => Promise<void>,
): void {
  app.delete(
    path,
    {
      config: options.config,
      schema: {
        tags: options.tags,
        summary: options.summary,
        body: idBody,
        response: {
          204: noContent,
          400: errorBody,
          401: errorBody,
          403: errorBody,
          404: errorBody,
          409: errorBody,
        },
      },
    },
    async (request, reply) => {
      await app.write(request, (work) => remove(work, request.body.id));
      return reply.code(204).send(null);
    },
  );
}
