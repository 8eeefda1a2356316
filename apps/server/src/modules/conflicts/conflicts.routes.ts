import {
  callConflictsPage,
  callConflictsQuery,
  callIdParams,
  conflictBulkChange,
  conflictBulkResult,
  conflictChange,
  conflictCreate,
  conflictDeclarationAnswer,
  conflictDeclarationGate,
  conflictDeclarationsSave,
  conflictItem,
  errorBody,
  idParams,
  noContent,
  proposalConflicts,
  recentCollaboratorsBody,
} from '@merit/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { changeRefusals } from '../../platform/http/routes.js';
import {
  addConflict,
  answerDeclaration,
  changeConflict,
  changeConflicts,
  getCallConflicts,
  getDeclarationGate,
  getProposalConflicts,
  getRecentCollaborators,
  removeConflict,
  saveDeclarations,
  saveRecentCollaborators,
} from './conflicts.service.js';

const tags = ['conflicts'];
const refusals = changeRefusals;
const readRefusals = { 401: errorBody, 403: errorBody, 404: errorBody } as const;

/**
 * Conflicts of interest (issue 26): the applicants' declarations, the chairs' judgements,
 * the member's declaration before a proposal opens for them, and one's recent
 * collaborators. Every route loads the proposal (or the call) and decides with the
 * domain's conflict rules; detection itself runs in a job (conflicts.jobs.ts).
 */
export const conflictsRoutes: FastifyPluginAsyncZod = async (app) => {
  const publicUrl = app.config.publicUrl;

  app.get(
    '/proposals/:id/conflicts/',
    {
      schema: {
        tags,
        summary:
          "A proposal's conflicts: its team's own declarations and the committee to choose from, or every one for chairs",
        params: idParams,
        response: { 200: proposalConflicts, ...readRefusals },
      },
    },
    async (request) => app.read(request, (work) => getProposalConflicts(work, request.params.id)),
  );

  app.post(
    '/proposals/:id/conflicts/',
    {
      schema: {
        tags,
        summary:
          'Declare a conflict with a committee member (author, collaborators), or add one (chairs)',
        params: idParams,
        body: conflictCreate,
        response: { 200: conflictItem, 201: conflictItem, ...refusals },
      },
    },
    async (request, reply) => {
      const { item, created } = await app.write(request, (work) =>
        addConflict(work, request.params.id, request.body),
      );
      return reply.code(created ? 201 : 200).send(item);
    },
  );

  app.put(
    '/proposals/:id/conflicts/',
    {
      schema: {
        tags,
        summary:
          "Save the applicants' Conflicts panel whole, from the version it was opened at (author, collaborators)",
        params: idParams,
        body: conflictDeclarationsSave,
        response: { 200: proposalConflicts, ...refusals },
      },
    },
    async (request) =>
      app.write(request, (work) => saveDeclarations(work, request.params.id, request.body)),
  );

  app.delete(
    '/conflicts/:id/',
    {
      schema: {
        tags,
        summary:
          'Remove a conflict (the applicants their unpinned declarations; chairs any but their own)',
        params: idParams,
        response: { 204: noContent, ...refusals },
      },
    },
    async (request, reply) => {
      await app.write(request, (work) => removeConflict(work, request.params.id));
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/conflicts/bulk/',
    {
      schema: {
        tags,
        summary: 'Confirm or dismiss many conflicts at once (chairs)',
        body: conflictBulkChange,
        response: { 200: conflictBulkResult, ...refusals },
      },
    },
    async (request) => app.write(request, (work) => changeConflicts(work, request.body)),
  );

  app.post(
    '/conflicts/:id/',
    {
      schema: {
        tags,
        summary: 'Confirm, dismiss, pin or unpin a conflict (chairs)',
        params: idParams,
        body: conflictChange,
        response: { 200: conflictItem, ...refusals },
      },
    },
    async (request) =>
      app.write(request, (work) => changeConflict(work, request.params.id, request.body)),
  );

  app.get(
    '/calls/:callId/conflicts/',
    {
      schema: {
        tags,
        summary: "A page of the call's conflicts, filtered (chairs)",
        params: callIdParams,
        querystring: callConflictsQuery,
        response: { 200: callConflictsPage, 400: errorBody, ...readRefusals },
      },
    },
    async (request) =>
      app.read(request, (work) => getCallConflicts(work, request.params.callId, request.query)),
  );

  app.get(
    '/proposals/:id/conflict_declaration/',
    {
      schema: {
        tags,
        summary:
          'What a member answers about a proposal before it opens for them, and their answer',
        params: idParams,
        response: { 200: conflictDeclarationGate, ...readRefusals },
      },
    },
    async (request) => app.read(request, (work) => getDeclarationGate(work, request.params.id)),
  );

  app.post(
    '/proposals/:id/conflict_declaration/',
    {
      schema: {
        tags,
        summary: 'Answer "No conflict" or "I have a conflict" for a proposal, once (members)',
        params: idParams,
        body: conflictDeclarationAnswer,
        response: { 200: conflictDeclarationGate, ...refusals },
      },
    },
    async (request) =>
      app.write(request, (work) =>
        answerDeclaration(work, request.params.id, request.body, publicUrl),
      ),
  );

  app.get(
    '/recent_collaborators/',
    {
      schema: {
        tags,
        summary: "The caller's recent collaborators, for conflict detection",
        response: { 200: recentCollaboratorsBody, 401: errorBody },
      },
    },
    async (request) => app.read(request, (work) => getRecentCollaborators(work)),
  );

  app.put(
    '/recent_collaborators/',
    {
      schema: {
        tags,
        summary: "Save the caller's recent collaborators whole",
        body: recentCollaboratorsBody,
        response: { 200: recentCollaboratorsBody, 400: errorBody, 401: errorBody },
      },
    },
    async (request) => app.write(request, (work) => saveRecentCollaborators(work, request.body)),
  );
};
