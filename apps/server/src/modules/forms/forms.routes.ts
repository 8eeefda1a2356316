import { errorBody, form, formExampleList, formList, formSave, formsQuery } from '@merit/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { deleteByIdRoute } from '../../platform/http/routes.js';
import { z } from 'zod';
import { FORM_EXAMPLES } from './form-examples.js';
import { deleteForm, getForms, saveForm } from './forms.service.js';

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
    async (request) => app.read(request, (work) => getForms(work, request.query.id)),
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
      const saved = await app.write(request, (work) => saveForm(work, request.body));
      return reply.code(request.body.isNew ? 201 : 200).send(saved);
    },
  );

  deleteByIdRoute(
    app,
    '/forms/',
    { tags, config, summary: 'Delete a form no call uses' },
    deleteForm,
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
