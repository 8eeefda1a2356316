import {
  CALL_SAVE_BODY_LIMIT,
  callDetail,
  callIdBody,
  callIdParams,
  callList,
  callManagement,
  callSave,
  deadlineImpact,
  deadlineImpactQuery,
  errorBody,
  extension,
  extensionCreate,
  extensionDelete,
  formOrder,
  idParams,
  noContent,
} from '@merit/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { CallFilter } from './calls.queries.js';
import {
  addExtension,
  closeCall,
  deleteExtension,
  getCall,
  getCallManagement,
  getCalls,
  getDeadlineImpact,
  getFormOrder,
  saveCall,
} from './calls.service.js';

const tags = ['calls'];

/** Calls, their proposal types and forms, extensions and closing (spec sections 2, 4, 6, 7). */
export const callsRoutes: FastifyPluginAsyncZod = async (app) => {
  const list = (path: string, filter: CallFilter, summary: string) =>
    app.get(
      path,
      { schema: { tags, summary, response: { 200: callList, 401: errorBody } } },
      async (request) => app.read(request, (work) => getCalls(work, filter)),
    );
  list('/calls/', 'all', "Every call, newest opening first, with the caller's roles and abilities");
  list('/calls/open/', 'open', 'Calls not yet closed (Current)');
  list('/calls/closed/', 'closed', 'Closed calls (History)');

  app.get(
    '/calls/:id/',
    {
      schema: {
        tags,
        summary: 'One call: details, proposal types and their forms, extensions, abilities',
        params: idParams,
        response: { 200: callDetail, 401: errorBody, 404: errorBody },
      },
    },
    async (request) => app.read(request, (work) => getCall(work, request.params.id)),
  );

  app.get(
    '/calls/:id/manage/',
    {
      schema: {
        tags,
        summary: "Counts for the chair's Manage Call page",
        params: idParams,
        response: { 200: callManagement, 401: errorBody, 403: errorBody, 404: errorBody },
      },
    },
    async (request) => app.read(request, (work) => getCallManagement(work, request.params.id)),
  );

  app.get(
    '/calls/:id/deadline_impact/',
    {
      schema: {
        tags,
        summary: 'Who saving these submission and review deadlines would reach (chairs)',
        params: idParams,
        querystring: deadlineImpactQuery,
        response: {
          200: deadlineImpact,
          400: errorBody,
          401: errorBody,
          403: errorBody,
          404: errorBody,
        },
      },
    },
    async (request) =>
      app.read(request, (work) => getDeadlineImpact(work, request.params.id, request.query)),
  );

  app.post(
    '/new_call/',
    {
      // A description may hold images (ARCHITECTURE.md "Rich text"): more than the default 1 MB.
      bodyLimit: CALL_SAVE_BODY_LIMIT,
      schema: {
        tags,
        summary: 'Create (new: true) or update a call with its proposal types and forms',
        body: callSave,
        response: {
          200: callDetail,
          201: callDetail,
          400: errorBody,
          401: errorBody,
          403: errorBody,
          404: errorBody,
          409: errorBody,
          413: errorBody,
        },
      },
    },
    async (request, reply) => {
      const detail = await app.write(request, async (work) =>
        getCall(work, await saveCall(work, request.body, app.config.publicUrl)),
      );
      return reply.code(request.body.new ? 201 : 200).send(detail);
    },
  );

  app.post(
    '/close_call/',
    {
      schema: {
        tags,
        summary: 'Close a call once its review period has ended (chairs)',
        body: callIdBody,
        response: {
          200: callDetail,
          400: errorBody,
          401: errorBody,
          403: errorBody,
          404: errorBody,
          409: errorBody,
        },
      },
    },
    async (request) =>
      app.write(request, async (work) => {
        await closeCall(work, request.body.callId, app.config.publicUrl);
        return getCall(work, request.body.callId);
      }),
  );

  app.post(
    '/new_extension/',
    {
      schema: {
        tags,
        summary: 'Give one user their own submission window for a call (chairs)',
        body: extensionCreate,
        response: {
          201: extension,
          400: errorBody,
          401: errorBody,
          403: errorBody,
          404: errorBody,
          409: errorBody,
        },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await app.write(request, (work) => addExtension(work, request.body))),
  );

  app.delete(
    '/delete_extension/',
    {
      schema: {
        tags,
        summary: 'Remove an extension (chairs)',
        body: extensionDelete,
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
      await app.write(request, (work) =>
        deleteExtension(work, request.body.callId, request.body.extensionId),
      );
      return reply.code(204).send(null);
    },
  );

  const formOrderRoute = (path: string, kind: 'proposal' | 'review', summary: string) =>
    app.get(
      path,
      {
        schema: {
          tags,
          summary,
          params: callIdParams,
          response: { 200: formOrder, 401: errorBody, 404: errorBody },
        },
      },
      async (request) =>
        app.read(request, (work) => getFormOrder(work, request.params.callId, kind)),
    );
  formOrderRoute(
    '/proposal_form_order/:callId/',
    'proposal',
    'Per proposal type, its proposal forms in order, with their schemas',
  );
  formOrderRoute(
    '/review_form_order/:callId/',
    'review',
    'Per proposal type, its review forms in order, with their schemas',
  );
};
