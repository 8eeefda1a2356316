import {
  callIdParams,
  callProposalExport,
  callProposalExportQuery,
  isReviewExportPart,
  callProposalPage,
  callProposalsQuery,
  collaborator,
  collaboratorAdd,
  collaboratorRemove,
  DECISION_SAVE_BODY_LIMIT,
  decisionSummarySave,
  errorBody,
  idParams,
  lockState,
  multiFormEntryDelete,
  myProposalList,
  noContent,
  proposalDetail,
  proposalIdParams,
  proposalNameSave,
  proposalResponseSave,
  proposalResponseSaved,
  proposalStateChange,
  RESPONSE_SAVE_BODY_LIMIT,
} from '@merit/contract';
import { constants as zlib } from 'node:zlib';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { changeRefusals } from '../../platform/http/routes.js';
import { logSecurityEvent } from '../../platform/security/security-log.js';
import { logExportRead } from '../reviews/review-access.js';
import { projectingSerializer } from '../../platform/http/projecting-serializer.js';
import {
  changeProposalState,
  deleteProposal,
  getMyProposals,
  getProposal,
  saveProposalName,
} from './proposals.service.js';
import { getCallProposalExport, getCallProposals, saveDecisionSummary } from './chair.service.js';
import {
  addCollaborator,
  lockProposal,
  removeCollaborator,
  unlockProposal,
} from './team.service.js';
import { deleteEntry, saveResponse } from './answers.service.js';

const tags = ['proposals'];

const refusals = changeRefusals;

/**
 * The export's compression: fast rather than small. Its body is 3 to 26 MB of JSON, which
 * the plugin's default (Brotli quality 4) took 200-270 ms to compress, on the way of every
 * download (8.9 MB, the Comments of one type of a 10,000-proposal call, at load average
 * 10); quality 1 took 41-50 ms for 1.35 MB instead of 1.19 (bench/README.md, figure (d)).
 * Gzip, for a browser without Brotli, at level 1 for the same reason (72-87 ms, not 400-490).
 */
const EXPORT_COMPRESSION = {
  brotliOptions: { params: { [zlib.BROTLI_PARAM_QUALITY]: 1 } },
  zlibOptions: { level: 1 },
};

/**
 * Proposals: the editor's reads and saves, the lock, collaborators, submit and retract
 * (spec sections 2 to 9, issue 11). Each route parses, then hands the service a unit of
 * work that loads the proposal, authorizes with `proposalPolicy`, and changes it with
 * its audit row.
 */
export const proposalsRoutes: FastifyPluginAsyncZod = async (app) => {
  const publicUrl = app.config.publicUrl;

  app.get(
    '/proposals/',
    {
      schema: {
        tags,
        summary: "The caller's own proposals, as author or collaborator, newest change first",
        response: { 200: myProposalList, 401: errorBody },
      },
    },
    async (request) => app.read(request, (work) => getMyProposals(work)),
  );

  app.get(
    '/calls/:callId/proposals/',
    {
      schema: {
        tags,
        summary: 'One page of the proposals of a call that the caller may see',
        params: callIdParams,
        querystring: callProposalsQuery,
        response: { 200: callProposalPage, 400: errorBody, 401: errorBody, 404: errorBody },
      },
    },
    async (request) =>
      app.read(request, (work) => getCallProposals(work, request.params.callId, request.query)),
  );

  app.get(
    '/calls/:callId/proposals/export/',
    {
      schema: {
        tags,
        summary:
          "Every proposal of a call (or of one of its proposal types, with type) with the chair's columns, in one read, for the downloads (chairs of the call's committee); each review's scores and comments when include names them; with columns=lean, of the chair's columns only isReviewed, and no totals or facilities; include=decisions adds each row's outcome and awards, include=ranking the call's ranking and its lines",
        params: callIdParams,
        querystring: callProposalExportQuery,
        response: {
          200: callProposalExport,
          400: errorBody,
          401: errorBody,
          403: errorBody,
          404: errorBody,
        },
      },
      // Up to 26 MB of JSON: written by JSON.stringify, still only what the schema declares.
      // Fastify hands a serializer compiler the response schema of one status.
      serializerCompiler: ({ schema }) => projectingSerializer(schema as unknown as z.ZodType),
      compress: EXPORT_COMPRESSION,
    },
    async (request) => {
      const body = await app.read(request, (work) =>
        getCallProposalExport(work, request.params.callId, request.query),
      );
      const { callId } = request.params;
      logSecurityEvent(request, 'export.downloaded', {
        userId: request.user!.id,
        kind: 'call_proposals',
        callId,
        rows: body.items.length,
      });
      // The reviews read are what the review parts carry; the decisions' parts hold none.
      const reviewParts = request.query.include.filter(isReviewExportPart);
      return logExportRead(request, callId, { ...request.query, include: reviewParts }, body);
    },
  );

  app.get(
    '/proposals/:id/',
    {
      schema: {
        tags,
        summary: 'One proposal with its answers, people, lock holder and abilities',
        params: idParams,
        response: { 200: proposalDetail, 401: errorBody, 404: errorBody },
      },
    },
    async (request) => app.read(request, (work) => getProposal(work, request.params.id)),
  );

  app.delete(
    '/proposals/:id/',
    {
      schema: {
        tags,
        summary: 'Delete a draft without reviews (its author)',
        params: idParams,
        response: { 204: noContent, ...refusals },
      },
    },
    async (request, reply) => {
      await app.write(request, (work) => deleteProposal(work, request.params.id));
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/update_proposal_name/',
    {
      schema: {
        tags,
        summary: 'Create a draft (isNew: true, 201) or rename a proposal (200)',
        body: proposalNameSave,
        response: { 200: proposalDetail, 201: proposalDetail, ...refusals },
      },
    },
    async (request, reply) => {
      const { created, detail } = await app.write(request, async (work) => {
        const saved = await saveProposalName(work, request.body);
        return { created: saved.created, detail: await getProposal(work, saved.id) };
      });
      return reply.code(created ? 201 : 200).send(detail);
    },
  );

  app.post(
    '/proposal_responses/',
    {
      bodyLimit: RESPONSE_SAVE_BODY_LIMIT,
      schema: {
        tags,
        summary:
          'Save one form, or one entry of a multi-entry form (201 when new: true created the proposal)',
        body: proposalResponseSave,
        response: {
          200: proposalResponseSaved,
          201: proposalResponseSaved,
          ...refusals,
          413: errorBody,
        },
      },
    },
    async (request, reply) => {
      const { created, ...saved } = await app.write(request, (work) =>
        saveResponse(work, request.body),
      );
      return reply.code(created ? 201 : 200).send(saved);
    },
  );

  app.delete(
    '/delete_multi_form/',
    {
      schema: {
        tags,
        summary: 'Remove one entry of a multi-entry form; the later entries move up',
        body: multiFormEntryDelete,
        response: { 204: noContent, ...refusals },
      },
    },
    async (request, reply) => {
      await app.write(request, (work) => deleteEntry(work, request.body));
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/collaborators/',
    {
      schema: {
        tags,
        summary: 'Add a collaborator by their collaborator hash (the author)',
        body: collaboratorAdd,
        response: { 201: collaborator, ...refusals },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(await app.write(request, (work) => addCollaborator(work, request.body, publicUrl))),
  );

  app.delete(
    '/collaborators/',
    {
      schema: {
        tags,
        summary: 'Remove a collaborator (the author)',
        body: collaboratorRemove,
        response: { 204: noContent, ...refusals },
      },
    },
    async (request, reply) => {
      await app.write(request, (work) => removeCollaborator(work, request.body));
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/proposal_state/',
    {
      schema: {
        tags,
        summary: 'Submit (state 1) or retract (state 0) a proposal (the author)',
        body: proposalStateChange,
        response: { 200: proposalDetail, ...refusals },
      },
    },
    async (request) =>
      app.write(request, async (work) => {
        await changeProposalState(work, request.body, publicUrl);
        return getProposal(work, request.body.proposalId);
      }),
  );

  app.post(
    '/update_decision_summary/',
    {
      bodyLimit: DECISION_SAVE_BODY_LIMIT,
      schema: {
        tags,
        summary:
          "Write a proposal's decision summary, sanitised rich text (chairs of the call's committee)",
        body: decisionSummarySave,
        response: { 200: proposalDetail, ...refusals, 413: errorBody },
      },
    },
    async (request) =>
      app.write(request, async (work) => {
        await saveDecisionSummary(work, request.body);
        return getProposal(work, request.body.proposalId);
      }),
  );

  app.get(
    '/lock/:proposalId/',
    {
      schema: {
        tags,
        summary:
          "Take or renew the editing lock for the caller's session and tab (X-Merit-Tab) when they may edit, and say who holds it, whether it is theirs, and if not why",
        params: proposalIdParams,
        response: { 200: lockState, 401: errorBody, 404: errorBody },
      },
    },
    // Not `write`: the editor polls every few seconds, and its lease is one statement,
    // atomic by itself, beside one read of the facts the lock rule needs; a transaction
    // around them would add two round trips to each poll and hold nothing together.
    async (request) => app.read(request, (work) => lockProposal(work, request.params.proposalId)),
  );

  app.delete(
    '/lock/:proposalId/',
    {
      schema: {
        tags,
        summary: "Release the caller's own editing lock (this session and tab's)",
        params: proposalIdParams,
        response: { 204: noContent, 401: errorBody, 404: errorBody },
      },
    },
    async (request, reply) => {
      await app.write(request, (work) => unlockProposal(work, request.params.proposalId));
      return reply.code(204).send(null);
    },
  );
};
