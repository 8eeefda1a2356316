import { errorBody, userLookupList, userLookupQuery } from '@merit/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { lookUpUsers } from './users.service.js';

export const usersRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/users/lookup/',
    {
      schema: {
        tags: ['users'],
        summary:
          'Find active users by name or username (or one by their exact email), for chairs granting extensions (at most 20)',
        querystring: userLookupQuery,
        response: { 200: userLookupList, 400: errorBody, 401: errorBody, 403: errorBody },
      },
    },
    async (request) => app.read(request, (work) => lookUpUsers(work, request.query.q)),
  );
};
