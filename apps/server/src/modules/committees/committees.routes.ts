import {
  committee,
  committeeCreate,
  committeeDelete,
  committeeDetail,
  committeeList,
  committeeMemberList,
  committeeMembersQuery,
  errorBody,
  idParams,
  noContent,
} from '@merit/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Tx } from '../../db/client.js';
import { notFound } from '../../lib/http-errors.js';
import {
  committeeNotFound,
  createCommittee,
  currentMembers,
  deleteCommittee,
  findCommittee,
  listCommittees,
} from './committees.service.js';

async function loadCommittee(db: Tx, id: number) {
  const found = await findCommittee(db, id);
  if (!found) throw notFound(committeeNotFound);
  return found;
}

/** Manage Committees (spec section 2, Admin screens) and committee members. Admins only. */
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
    async () => listCommittees(app.db),
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
    async (request, reply) => {
      const change = { actorId: request.user!.id, now: app.now() };
      const created = await app.db.transaction((tx) => createCommittee(tx, request.body, change));
      return reply.code(201).send(created);
    },
  );

  app.delete(
    '/committees/',
    {
      config,
      schema: {
        tags,
        summary: 'Delete a committee that has no roles and no calls',
        body: committeeDelete,
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
      await app.db.transaction(async (tx) =>
        deleteCommittee(tx, await loadCommittee(tx, request.body.id), change),
      );
      return reply.code(204).send(null);
    },
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
    async (request) => {
      const found = await loadCommittee(app.db, request.params.id);
      return { ...found, members: await currentMembers(app.db, found.id, app.now()) };
    },
  );

  app.get(
    '/committee_members/',
    {
      config,
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
    async (request) => {
      const found = await loadCommittee(app.db, request.query.committee);
      return currentMembers(app.db, found.id, app.now());
    },
  );
};
