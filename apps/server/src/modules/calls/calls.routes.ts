import {
  callDetail,
  callIdBody,
  callIdParams,
  callList,
  callManagement as callManagementSchema,
  callSave,
  errorBody,
  extension,
  extensionCreate,
  extensionDelete,
  formOrder,
  idParams,
  noContent,
} from '@merit/contract';
import { canManageCall, messages } from '@merit/domain';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { formNames, forms, proposalTypeForms, proposalTypes } from '../../db/schema.js';
import { loadActor } from '../../lib/actor.js';
import { forbidden, notFound } from '../../lib/http-errors.js';
import type { App } from '../../types.js';
import {
  callDetail as loadCallDetail,
  callManagement,
  findCall,
  listCalls,
  loadExtensions,
  policyView,
  type CallFilter,
} from './calls.queries.js';
import {
  addExtension,
  callNotFound,
  closeCall,
  deleteExtension,
  saveCall,
} from './calls.service.js';

const tags = ['calls'];

/** Calls, their proposal types and forms, extensions and closing (spec sections 2, 4, 6, 7). */
export const callsRoutes: FastifyPluginAsyncZod = async (app) => {
  const list = (path: string, filter: CallFilter, summary: string) =>
    app.get(
      path,
      { schema: { tags, summary, response: { 200: callList, 401: errorBody } } },
      async (request) =>
        listCalls(app.db, await loadActor(app.db, request.user!), filter, app.now()),
    );
  list('/calls/', 'all', "Every call, newest opening first, with the caller's roles and abilities");
  list('/calls/open/', 'open', 'Calls not yet closed (Current)');
  list('/calls/closed/', 'closed', 'Closed calls (History)');

  const detailOf = async (app: App, userId: Parameters<typeof loadActor>[1], callId: number) => {
    const detail = await loadCallDetail(app.db, await loadActor(app.db, userId), callId, app.now());
    if (!detail) throw notFound(callNotFound);
    return detail;
  };

  app.get(
    '/calls/:id/',
    {
      schema: {
        tags,
        summary: 'One call: details, proposal types and their forms, extensions, abilities',
        params: idParams,
        response: { 200: callDetail, 400: errorBody, 401: errorBody, 404: errorBody },
      },
    },
    async (request) => detailOf(app, request.user!, request.params.id),
  );

  app.get(
    '/calls/:id/manage/',
    {
      schema: {
        tags,
        summary: "Counts for the chair's Manage Call page",
        params: idParams,
        response: { 200: callManagementSchema, 401: errorBody, 403: errorBody, 404: errorBody },
      },
    },
    async (request) => {
      const found = await findCall(app.db, request.params.id);
      if (!found) throw notFound(callNotFound);
      const actor = await loadActor(app.db, request.user!);
      if (!canManageCall(actor, policyView(found.call), app.now()))
        throw forbidden(messages.noPermission);
      return callManagement(app.db, found.call.id);
    },
  );

  app.post(
    '/new_call/',
    {
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
        },
      },
    },
    async (request, reply) => {
      const actor = await loadActor(app.db, request.user!);
      const callId = await saveCall(app.db, actor, request.body, app.now());
      return reply
        .code(request.body.new ? 201 : 200)
        .send(await detailOf(app, request.user!, callId));
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
    async (request) => {
      await closeCall(
        app.db,
        await loadActor(app.db, request.user!),
        request.body.callId,
        app.now(),
      );
      return detailOf(app, request.user!, request.body.callId);
    },
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
    async (request, reply) => {
      const id = await addExtension(
        app.db,
        await loadActor(app.db, request.user!),
        request.body,
        app.now(),
      );
      const created = (await loadExtensions(app.db, request.body.callId)).find((e) => e.id === id)!;
      return reply.code(201).send(created);
    },
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
        },
      },
    },
    async (request, reply) => {
      await deleteExtension(
        app.db,
        await loadActor(app.db, request.user!),
        request.body.callId,
        request.body.extensionId,
        app.now(),
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
          response: { 200: formOrder, 400: errorBody, 401: errorBody, 404: errorBody },
        },
      },
      async (request) => {
        const found = await findCall(app.db, request.params.callId);
        if (!found) throw notFound(callNotFound);
        const types = await app.db
          .select({ id: proposalTypes.id, name: proposalTypes.name })
          .from(proposalTypes)
          .where(eq(proposalTypes.callId, found.call.id))
          .orderBy(asc(proposalTypes.position), asc(proposalTypes.id));
        const rows = types.length
          ? await app.db
              .select({
                typeId: proposalTypeForms.proposalTypeId,
                id: forms.id,
                name: forms.formNameId,
                display_name: formNames.displayName,
                type: formNames.type,
                version: forms.version,
                jsonSchema: forms.jsonSchema,
                uiSchema: forms.uiSchema,
                initialData: forms.initialData,
                options: forms.options,
              })
              .from(proposalTypeForms)
              .innerJoin(forms, eq(forms.id, proposalTypeForms.formId))
              .innerJoin(formNames, eq(formNames.id, forms.formNameId))
              .where(
                and(
                  inArray(
                    proposalTypeForms.proposalTypeId,
                    types.map((t) => t.id),
                  ),
                  eq(proposalTypeForms.kind, kind),
                ),
              )
              .orderBy(asc(proposalTypeForms.position))
          : [];
        return types.map((t) => ({
          typeId: t.id,
          typeName: t.name,
          forms: rows
            .filter((r) => r.typeId === t.id)
            .map(({ typeId: _typeId, ...form }) => ({
              ...form,
              jsonSchema: form.jsonSchema as Record<string, unknown>,
              uiSchema: (form.uiSchema ?? {}) as Record<string, unknown>,
              options: form.options as Record<string, unknown> | null,
            })),
        }));
      },
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
