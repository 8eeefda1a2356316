import zlib from 'node:zlib';
import { callIdParams, callProgress, errorBody } from '@merit/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { getProgress } from './progress.service.js';

const tags = ['progress'];

/**
 * The answer's compression: fast rather than small, as for the chair's export. A
 * 10,000-proposal call's progress is 2 MB of JSON, which Brotli at the plugin's quality 4
 * took 120 ms to compress on a busy machine, and at quality 1 64 ms, for 1 % more bytes
 * (bench/README.md, figure (h)).
 */
const COMPRESSION = {
  brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 1 } },
  zlibOptions: { level: 1 },
};

/** The chair's review progress of a call (issue 28). */
export const progressRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/calls/:callId/progress/',
    {
      schema: {
        tags,
        summary:
          "The call's review progress: each member's reviews, each proposal's reviews and score spread, the totals and saves per day (chairs and admins; without what the caller is conflicted on or part of)",
        params: callIdParams,
        response: { 200: callProgress, 401: errorBody, 403: errorBody, 404: errorBody },
      },
      compress: COMPRESSION,
    },
    async (request) => app.read(request, (work) => getProgress(work, request.params.callId)),
  );
};
