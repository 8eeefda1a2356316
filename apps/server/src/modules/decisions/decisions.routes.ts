import zlib from 'node:zlib';
import {
  callCapacity,
  callIdParams,
  callRanking,
  capacitySave,
  decisionSave,
  decisionSaved,
  errorBody,
  outcomesFromLineAnswer,
  outcomesFromLineRequest,
  proposalIdParams,
  rankingMove,
  rankingQuery,
} from '@merit/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { changeRefusals } from '../../platform/http/routes.js';
import {
  getCapacity,
  getRanking,
  moveInRanking,
  outcomesFromTheLine,
  saveCapacity,
  saveDecision,
} from './decisions.service.js';

const tags = ['decisions'];
const readRefusals = { 401: errorBody, 403: errorBody, 404: errorBody } as const;

/**
 * The ranking's compression: fast rather than small, as for the progress page (a call of
 * 10,000 proposals is megabytes of JSON, which Brotli's default quality costs more time to
 * squeeze than the bytes it saves; bench/README.md, figure (h)).
 */
const COMPRESSION = {
  brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 1 } },
  zlibOptions: { level: 1 },
};

/**
 * The decision meeting (issue 29): a proposal's outcome and awards, a call's capacities,
 * its ranking with each facility's line, moving a proposal in it, and the outcomes the
 * line proposes. The letters that tell the applicants are the letters module's.
 */
export const decisionsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/proposals/:proposalId/decision/',
    {
      schema: {
        tags,
        summary:
          "Set the proposal's outcome and awards from `version`: 400 with `fields` for an award it cannot have, 409 `stale` with `current` when another chair saved since (chairs not conflicted, once submission closed for it)",
        params: proposalIdParams,
        body: decisionSave,
        response: { 200: decisionSaved, ...changeRefusals },
      },
    },
    async (request) =>
      app.write(request, (work) => saveDecision(work, request.params.proposalId, request.body)),
  );

  app.get(
    '/calls/:callId/capacity/',
    {
      schema: {
        tags,
        summary:
          "Each facility's capacity per data field, and the facilities and fields the call's proposals ask for (chairs, admins)",
        params: callIdParams,
        response: { 200: callCapacity, ...readRefusals },
      },
    },
    async (request) => app.read(request, (work) => getCapacity(work, request.params.callId)),
  );

  app.put(
    '/calls/:callId/capacity/',
    {
      schema: {
        tags,
        summary:
          "Replace the call's capacities from `version`: 409 `stale` with `current` when they changed since (chairs, admins)",
        params: callIdParams,
        body: capacitySave,
        response: { 200: callCapacity, ...changeRefusals },
      },
    },
    async (request) =>
      app.write(request, (work) => saveCapacity(work, request.params.callId, request.body)),
  );

  app.get(
    '/calls/:callId/ranking/',
    {
      schema: {
        tags,
        summary:
          "The call's submitted proposals in rank order with each facility's running totals and line; `facility` and `type` keep some rows, ranks stay the call's (chairs and admins; without what the caller is conflicted on or part of)",
        params: callIdParams,
        querystring: rankingQuery,
        response: { 200: callRanking, ...readRefusals },
      },
      compress: COMPRESSION,
    },
    async (request) =>
      app.read(request, (work) => getRanking(work, request.params.callId, request.query)),
  );

  app.post(
    '/calls/:callId/ranking/move/',
    {
      schema: {
        tags,
        summary:
          'Move a proposal just below another (or to the top) with a reason, from its decision’s `version`; answers the new ranking (chairs not conflicted on it)',
        params: callIdParams,
        body: rankingMove,
        response: { 200: callRanking, ...changeRefusals },
      },
    },
    async (request) =>
      app.write(request, (work) => moveInRanking(work, request.params.callId, request.body)),
  );

  app.post(
    '/calls/:callId/ranking/outcomes/',
    {
      schema: {
        tags,
        summary:
          'Approved above the line, Waitlisted for the next `waitlist`, Declined below: a preview, saved only with `apply` (chairs, admins; the proposals they may decide)',
        params: callIdParams,
        body: outcomesFromLineRequest,
        response: { 200: outcomesFromLineAnswer, ...changeRefusals },
      },
    },
    async (request) =>
      app.write(request, (work) => outcomesFromTheLine(work, request.params.callId, request.body)),
  );
};
