import {
  applyResponse,
  assignmentCsv,
  assignmentOverview,
  assignmentRun,
  assignmentRunParams,
  assignmentSettingsPatch,
  bidRequest,
  bidResponse,
  bidsResponse,
  callIdParams,
  csvUploadResponse,
  errorBody,
  lockRequest,
  matrixQuery,
  matrixResponse,
  myCapRequest,
  myCapResponse,
  noContent,
  proposeRequest,
  proposeResponse,
} from '@merit/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { changeRefusals } from '../../platform/http/routes.js';
import { logSecurityEvent } from '../../platform/security/security-log.js';
import { CSV_BODY_LIMIT } from './assignment-csv.js';
import {
  applyRun,
  discardRun,
  getOverview,
  getRun,
  patchSettings,
  setLock,
  setMyCap,
  startProposal,
} from './assignment.service.js';
import { getBids, saveBid } from './bidding.service.js';
import { downloadCsv, uploadCsv } from './csv.service.js';
import { getMatrix } from './matrix.service.js';

const tags = ['assignment'];
const refusals = changeRefusals;
const readRefusals = { 401: errorBody, 403: errorBody, 404: errorBody } as const;

/**
 * Reviewer assignment for a whole call (issue 27): the Assignment page's settings, bidding,
 * a member's own cap, Propose with its preview, Apply and Discard, the matrix, locks and
 * the CSV. Every route loads the call and decides with the domain's assignment rules
 * (`call.assign`, `mayManageAssignment`, `mayBid`). Single cells of the matrix are the
 * reviews module's POST and DELETE /reviewers/.
 */
export const assignmentRoutes: FastifyPluginAsyncZod = async (app) => {
  const publicUrl = app.config.publicUrl;

  // The CSV upload's body is the file's text; only this module's routes read it.
  app.addContentTypeParser(
    'text/csv',
    { parseAs: 'string', bodyLimit: CSV_BODY_LIMIT },
    (_request, body, done) => done(null, body),
  );

  app.get(
    '/calls/:callId/assignment/settings/',
    {
      schema: {
        tags,
        summary:
          "The call's Assignment page: k, caps, bidding, the counts, the members with their loads, the latest proposal (chairs)",
        params: callIdParams,
        response: { 200: assignmentOverview, ...readRefusals },
      },
    },
    async (request) => app.read(request, (work) => getOverview(work, request.params.callId)),
  );

  app.patch(
    '/calls/:callId/assignment/settings/',
    {
      schema: {
        tags,
        summary: "Change k, a proposal's k, a member's cap or bidding (chairs)",
        params: callIdParams,
        body: assignmentSettingsPatch,
        response: { 200: assignmentOverview, ...refusals },
      },
    },
    async (request) =>
      app.write(request, (work) => patchSettings(work, request.params.callId, request.body)),
  );

  app.get(
    '/calls/:callId/bids/',
    {
      schema: {
        tags,
        summary:
          "The proposals the caller may bid on, with their bids, cap and load (current members of the call's committee)",
        params: callIdParams,
        response: { 200: bidsResponse, ...readRefusals },
      },
    },
    async (request) => app.read(request, (work) => getBids(work, request.params.callId)),
  );

  app.post(
    '/calls/:callId/bids/',
    {
      schema: {
        tags,
        summary:
          "Save the caller's bid on one proposal; neutral clears it (members, while bidding is open)",
        params: callIdParams,
        body: bidRequest,
        response: { 200: bidResponse, ...refusals },
      },
    },
    async (request) =>
      app.write(request, (work) => saveBid(work, request.params.callId, request.body)),
  );

  app.post(
    '/calls/:callId/assignment/my_cap/',
    {
      schema: {
        tags,
        summary:
          "Lower the caller's own cap of reviews in the call, or clear it with null (members)",
        params: callIdParams,
        body: myCapRequest,
        response: { 200: myCapResponse, ...refusals },
      },
    },
    async (request) =>
      app.write(request, (work) => setMyCap(work, request.params.callId, request.body.cap)),
  );

  app.post(
    '/calls/:callId/assignment/proposals/',
    {
      schema: {
        tags,
        summary:
          'Start working out a proposed assignment of reviewers in the background (chairs); poll it by its id',
        params: callIdParams,
        body: proposeRequest,
        response: { 202: proposeResponse, ...refusals },
      },
    },
    async (request, reply) =>
      reply
        .code(202)
        .send(
          await app.write(request, (work) =>
            startProposal(work, request.params.callId, request.body),
          ),
        ),
  );

  app.get(
    '/calls/:callId/assignment/proposals/:id/',
    {
      schema: {
        tags,
        summary: 'A proposed assignment: its progress, or the preview once it is ready (chairs)',
        params: assignmentRunParams,
        response: { 200: assignmentRun, ...readRefusals },
      },
    },
    async (request) =>
      app.read(request, (work) => getRun(work, request.params.callId, request.params.id)),
  );

  app.delete(
    '/calls/:callId/assignment/proposals/:id/',
    {
      schema: {
        tags,
        summary: 'Discard a proposed assignment (chairs)',
        params: assignmentRunParams,
        response: { 204: noContent, ...refusals },
      },
    },
    async (request, reply) => {
      await app.write(request, (work) =>
        discardRun(work, request.params.callId, request.params.id),
      );
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/calls/:callId/assignment/proposals/:id/apply/',
    {
      schema: {
        tags,
        summary:
          'Save a proposed assignment in one transaction, with one digest mail per member (chairs); 409 stale when the call changed since',
        params: assignmentRunParams,
        response: { 200: applyResponse, ...refusals },
      },
    },
    async (request) =>
      app.write(request, (work) =>
        applyRun(work, request.params.callId, request.params.id, publicUrl),
      ),
  );

  app.get(
    '/calls/:callId/assignment/matrix/',
    {
      schema: {
        tags,
        summary:
          "A page of the call's proposals by its members: assignments, bids and conflicts, with loads and caps (chairs)",
        params: callIdParams,
        querystring: matrixQuery,
        response: { 200: matrixResponse, 400: errorBody, ...readRefusals },
      },
    },
    async (request) =>
      app.read(request, (work) => getMatrix(work, request.params.callId, request.query)),
  );

  app.patch(
    '/calls/:callId/assignment/locks/',
    {
      schema: {
        tags,
        summary: 'Lock an assignment so Propose never takes it back, or unlock it (chairs)',
        params: callIdParams,
        body: lockRequest,
        response: { 200: lockRequest, ...refusals },
      },
    },
    async (request) =>
      app.write(request, (work) => setLock(work, request.params.callId, request.body)),
  );

  app.get(
    '/calls/:callId/assignment/csv/',
    {
      schema: {
        tags,
        summary: 'Every assignment of the call as CSV: proposal_id,username,action (chairs)',
        params: callIdParams,
        produces: ['text/csv'],
        response: { 200: assignmentCsv, ...readRefusals },
      },
    },
    async (request, reply) => {
      const text = await app.read(request, (work) => downloadCsv(work, request.params.callId));
      logSecurityEvent(request, 'export.downloaded', {
        userId: request.user!.id,
        kind: 'assignment_csv',
        callId: request.params.callId,
      });
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header(
          'content-disposition',
          `attachment; filename="assignments-call-${request.params.callId}.csv"`,
        )
        .send(text);
    },
  );

  app.post(
    '/calls/:callId/assignment/csv/',
    {
      bodyLimit: CSV_BODY_LIMIT,
      schema: {
        tags,
        summary:
          'Assign and remove reviewers from a CSV file (Content-Type: text/csv), all lines or none (chairs)',
        params: callIdParams,
        consumes: ['text/csv'],
        body: assignmentCsv,
        response: { 200: csvUploadResponse, ...refusals, 413: errorBody },
      },
    },
    async (request) =>
      app.write(request, (work) => uploadCsv(work, request.params.callId, request.body, publicUrl)),
  );
};
