import { errorBody, errorCodes, healthResponse } from '@merit/contract';
import { messages } from '@merit/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

const PING_TIMEOUT_MS = 2_000;

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  // Liveness: the process answers HTTP. Deliberately blind to the database, so that an
  // orchestrator restarts a hung process but not every process while the database is down.
  app.get(
    '/live',
    {
      config: { access: 'public' },
      logLevel: 'warn',
      schema: {
        tags: ['health'],
        summary: 'Alive when the process answers, whatever the database does',
        response: { 200: healthResponse },
      },
    },
    async () => ({ status: 'ok' as const }),
  );

  // Readiness: send this process traffic only while its database answers.
  app.get(
    '/health',
    {
      config: { access: 'public' },
      logLevel: 'warn',
      schema: {
        tags: ['health'],
        summary: 'Ready when the database answers',
        response: { 200: healthResponse, 503: errorBody },
      },
    },
    async (_request, reply) => {
      try {
        await withTimeout(app.database.ping(), PING_TIMEOUT_MS);
        return { status: 'ok' as const };
      } catch (error) {
        app.log.warn({ err: error }, 'health check: database not reachable');
        return reply
          .code(503)
          .send({ detail: messages.serviceUnavailable, code: errorCodes.unavailable });
      }
    },
  );
};

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
