import { isAnyChair, messages } from '@merit/domain';
import { loadActor } from '../../lib/actor.js';
import {
  errorBody,
  form,
  formDelete,
  formExampleList,
  formList,
  formSave,
  formsQuery,
  noContent,
} from '@merit/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { forbidden, invalid, notFound } from '../../lib/http-errors.js';
import { FORM_EXAMPLES } from './form-examples.js';
import { deleteForm, findForm, formNotFound, listForms, saveForm } from './forms.service.js';

/** Forms, the Forms tab of the Form Builder and its editor (spec section 2). Admins only. */
export const formsRoutes: FastifyPluginAsyncZod = async (app) => {
  const config = { access: 'admin' as const };
  const tags = ['forms'];

  app.get(
    '/forms/',
    {
      // Chairs read forms too: they choose them for their calls' proposal types.
      config: { access: 'user' },
      schema: {
        tags,
        summary: 'Every form, or with ?id= that one form (admins and chairs)',
        querystring: formsQuery,
        response: {
          200: z.union([formList, form]),
          400: errorBody,
          401: errorBody,
          403: errorBody,
          404: errorBody,
        },
      },
    },
    async (request) => {
      if (!isAnyChair(await loadActor(app.db, request.user!), app.now())) {
        throw forbidden(messages.noPermission);
      }
      const { id } = request.query;
      if (id === undefined) return listForms(app.db);
      const found = await findForm(app.db, id);
      if (!found) throw notFound(formNotFound);
      return found;
    },
  );

  app.post(
    '/forms/',
    {
      config,
      schema: {
        tags,
        summary:
          'Create a form (`isNew`, 201) or replace an unused one (`formId`, 200); the schema must compile and the options fit it',
        body: formSave,
        response: {
          200: form,
          201: form,
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
      const { isNew, formId } = request.body;
      if (isNew) {
        const created = await app.db.transaction((tx) =>
          saveForm(tx, request.body, undefined, change),
        );
        return reply.code(201).send(created);
      }
      if (formId == null) {
        throw invalid({
          formId: ['Send the id of the form to change, or isNew: true to create one.'],
        });
      }
      return app.db.transaction(async (tx) => {
        const existing = await findForm(tx, formId);
        if (!existing) throw notFound(formNotFound);
        return saveForm(tx, request.body, existing, change);
      });
    },
  );

  app.delete(
    '/forms/',
    {
      config,
      schema: {
        tags,
        summary: 'Delete a form no call uses',
        body: formDelete,
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
        const existing = await findForm(tx, request.body.id);
        if (!existing) throw notFound(formNotFound);
        await deleteForm(tx, existing, change);
      });
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/form_examples/',
    {
      config,
      schema: {
        tags,
        summary: 'Ready-made example forms to load into the builder',
        response: { 200: formExampleList, 401: errorBody, 403: errorBody },
      },
    },
    async () => [...FORM_EXAMPLES],
  );
};
