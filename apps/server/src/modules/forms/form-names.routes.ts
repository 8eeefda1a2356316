import {
  errorBody,
  formName,
  formNameDelete,
  formNameList,
  formNameSave,
  noContent,
} from '@merit/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { notFound } from '../../lib/http-errors.js';
import {
  createFormName,
  deleteFormName,
  findFormName,
  formNameNotFound,
  listFormNames,
  updateFormName,
} from './forms.service.js';

/** Form names, the Form Names tab of the Form Builder (spec section 2). Admins only. */
export const formNamesRoutes: FastifyPluginAsyncZod = async (app) => {
  const config = { access: 'admin' as const };
  const tags = ['forms'];

  app.get(
    '/form_names/',
    {
      config,
      schema: {
        tags,
        summary: 'Every form name, each saying whether a form uses it',
        response: { 200: formNameList, 401: errorBody, 403: errorBody },
      },
    },
    async () => listFormNames(app.db),
  );

  app.post(
    '/form_names/',
    {
      config,
      schema: {
        tags,
        summary:
          'Create a form name (201), or with `id` change its display name (200); name and type are fixed',
        body: formNameSave,
        response: {
          200: formName,
          201: formName,
          400: errorBody,
          401: errorBody,
          403: errorBody,
          404: errorBody,
        },
      },
    },
    async (request, reply) => {
      const change = { actorId: request.user!.id, now: app.now() };
      const { id } = request.body;
      if (id == null) {
        const created = await app.db.transaction((tx) => createFormName(tx, request.body, change));
        return reply.code(201).send(created);
      }
      return app.db.transaction(async (tx) => {
        const existing = await findFormName(tx, id);
        if (!existing) throw notFound(formNameNotFound);
        return updateFormName(tx, existing, request.body, change);
      });
    },
  );

  app.delete(
    '/form_names/',
    {
      config,
      schema: {
        tags,
        summary: 'Delete a form name no form uses',
        body: formNameDelete,
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
      const change = { actorId: request.user!.id, now: app.now() };
      await app.db.transaction(async (tx) => {
        const existing = await findFormName(tx, request.body.id);
        if (!existing) throw notFound(formNameNotFound);
        await deleteFormName(tx, existing, change);
      });
      return reply.code(204).send(null);
    },
  );
};
