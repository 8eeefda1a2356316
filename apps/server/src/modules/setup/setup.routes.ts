import {
  errorBody,
  idParams,
  invitation,
  invitationLink,
  invitationParams,
  setupStatus,
} from '@merit/contract';
import { eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Tx } from '../../db/client.js';
import { committees } from '../../db/schema.js';
import { authorize } from '../../platform/http/authorize.js';
import { notFound } from '../../platform/http/http-errors.js';
import { invitationToken, invitedCommitteeId } from './invitations.js';
import { setupCounts } from './setup.queries.js';

const committeeNotFound = 'There is no committee with this id.';
export const invitationNotValid =
  'This invitation link is not valid. Ask the person who sent it for a new link, or register without one.';

async function committeeName(db: Tx, id: number): Promise<string | null> {
  const [row] = await db
    .select({ name: committees.name })
    .from(committees)
    .where(eq(committees.id, id));
  return row?.name ?? null;
}

/**
 * The guided first run (issue 30): the admin's checklist counts, and invitation links to
 * registration that name a committee, made by its chairs and admins and read by anyone.
 */
export const setupRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['setup'];

  app.get(
    '/admin/setup/',
    {
      config: { access: 'admin' },
      schema: {
        tags,
        summary: 'What the installation has so far, counted, for the first-run checklist',
        response: { 200: setupStatus, 401: errorBody, 403: errorBody },
      },
    },
    async (request) => app.read(request, ({ tx, now }) => setupCounts(tx, now)),
  );

  app.get(
    '/committees/:id/invitation/',
    {
      schema: {
        tags,
        summary: 'A link to registration that names the committee, for its chairs to send',
        params: idParams,
        response: {
          200: invitationLink,
          400: errorBody,
          401: errorBody,
          403: errorBody,
          404: errorBody,
        },
      },
    },
    async (request) =>
      app.read(request, async ({ tx, actor, now }) => {
        const { id } = request.params;
        // Chairs of the committee and admins: the same people who read its members.
        authorize(actor, 'committee.readMembers', { committeeId: id }, now);
        const name = await committeeName(tx, id);
        if (name === null) throw notFound(committeeNotFound);
        return { token: invitationToken(app.keys.invitationKey, id), committeeName: name };
      }),
  );

  app.get(
    '/invitations/:token',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'The committee an invitation link names, shown on the registration page',
        params: invitationParams,
        response: { 200: invitation, 400: errorBody, 404: errorBody },
      },
    },
    async (request) => {
      const id = invitedCommitteeId(app.keys.invitationKey, request.params.token);
      // A deleted committee's link says no more than a forged one.
      const name = id === null ? null : await committeeName(app.db, id);
      if (name === null) throw notFound(invitationNotValid);
      return { committeeName: name };
    },
  );
};
