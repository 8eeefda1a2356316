import { errorBody, formName, formNameList, formNameSave } from '@merit/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { deleteByIdRoute } from '../../platform/http/routes.js';
import { createFormName, deleteFormName, listFormNames, updateFormName } from './forms.service.js';

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
    async (request) => app.read(request, (work) => listFormNames(work.tx)),
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
      const { id } = request.body;
      if (id == null)
        return reply
          .code(201)
          .send(await app.write(request, (work) => createFormName(work, request.body)));
      return app.write(request, (work) => updateFormName(work, id, request.body));
    },
  );

  deleteByIdRoute(
    app,
    '/form_names/',
    { tags, config, summary: 'Delete a form name no form uses' },
    deleteFormName,
  );
};
