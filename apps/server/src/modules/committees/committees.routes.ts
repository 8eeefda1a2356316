import {
  committee,
  committeeCreate,
  committeeDetail,
  committeeList,
  committeeMemberList,
  committeeMembersQuery,
  errorBody,
  idParams,
} from '@merit/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { deleteByIdRoute } from '../../platform/http/routes.js';
import {
  createCommittee,
  committeeMembers,
  currentMembers,
  deleteCommittee,
  getCommittee,
  listCommittees,
} from './committees.service.js';

/**
 * Manage Committees (spec section 2, Admin screens), admins only, and a committee's
 * members, which its chairs read too.
 */
export const committeesRoutes: FastifyPluginAsyncZod = async (app) => {
  const config = { access: 'admin' as const };
  const tags = ['committees'];

  app.get(
    '/committees/',
    {
      config,
      schema: {
        tags,
        summary: 'Every committee, each saying whether it can be deleted',
        response: { 200: committeeList, 401: errorBody, 403: errorBody },
      },
    },
    async (request) => app.read(request, (work) => listCommittees(work.tx)),
  );

  app.post(
    '/committees/',
    {
      config,
      schema: {
        tags,
        summary: 'Create a committee; names are unique whatever their case',
        body: committeeCreate,
        response: { 201: committee, 400: errorBody, 401: errorBody, 403: errorBody },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await app.write(request, (work) => createCommittee(work, request.body))),
  );

  deleteByIdRoute(
    app,
    '/committees/',
    { tags, config, summary: 'Delete a committee that has no roles and no calls' },
    deleteCommittee,
  );

  app.get(
    '/committees/:id/',
    {
      config,
      schema: {
        tags,
        summary: 'One committee with its current members',
        params: idParams,
        response: {
          200: committeeDetail,
          400: errorBody,
          401: errorBody,
          403: errorBody,
          404: errorBody,
        },
      },
    },
    async (request) =>
      app.read(request, async (work) => {
        const found = await getCommittee(work, request.params.id);
        return { ...found, members: await currentMembers(work.tx, found.id, work.now) };
      }),
  );

  app.get(
    '/committee_members/',
    {
      // Its chairs read it too, to choose reviewers: decided in the service.
      schema: {
        tags,
        summary: "A committee's current members with their role and its dates",
        querystring: committeeMembersQuery,
        response: {
          200: committeeMemberList,
          400: errorBody,
          401: errorBody,
          403: errorBody,
          404: errorBody,
        },
      },
    },
    async (request) => app.read(request, (work) => committeeMembers(work, request.query.committee)),
  );
};
