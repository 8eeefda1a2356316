import {
  errorBody,
  userDetails,
  userDetailsUpdate,
  userHashResponse,
  userLookupList,
  userLookupQuery,
} from '@merit/contract';
import { isAnyChair, messages } from '@merit/domain';
import { and, asc, eq, ilike, or, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Tx } from '../../db/client.js';
import { committeeRoles, committees, users } from '../../db/schema.js';
import { forbidden, notAuthenticated } from '../../lib/http-errors.js';
import { loadActor } from '../../lib/actor.js';
import type { App } from '../../types.js';
import { verificationMail } from '../accounts/accounts.mails.js';
import {
  createEmailConfirmation,
  pendingEmail,
  renewUserHash,
  updateAccount,
} from '../accounts/accounts.service.js';
import { hasIdentity } from '../oidc/oidc.service.js';
import { presentUserDetails } from './users.presenter.js';
import { findUserById } from './users.service.js';

async function loadUser(db: Tx, id: number) {
  const user = await findUserById(db, id);
  // The token was valid a moment ago; a user deleted since then is simply logged out.
  if (!user) throw notAuthenticated(messages.notAuthenticated);
  return user;
}

export async function userDetailsOf(app: App, id: number) {
  const user = await loadUser(app.db, id);
  const now = app.now();
  const roles = await app.db
    .select({
      id: committeeRoles.id,
      committeeId: committeeRoles.committeeId,
      committeeName: committees.name,
      role: committeeRoles.role,
      commencement: committeeRoles.commencement,
      termination: committeeRoles.termination,
    })
    .from(committeeRoles)
    .innerJoin(committees, eq(committees.id, committeeRoles.committeeId))
    .where(eq(committeeRoles.userId, user.id))
    .orderBy(asc(committees.name), asc(committeeRoles.commencement));
  return presentUserDetails(
    user,
    roles,
    await pendingEmail(app.db, user, now),
    await hasIdentity(app.db, user.id),
    now,
  );
}

export const usersRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/user_details/',
    {
      schema: {
        tags: ['users'],
        summary: 'The logged-in user, with their committee roles',
        response: { 200: userDetails, 401: errorBody },
      },
    },
    async (request) => userDetailsOf(app, request.user!.id),
  );

  app.patch(
    '/user_details/',
    {
      schema: {
        tags: ['users'],
        summary:
          'Edit your own details; a new email takes effect once its confirmation link is followed',
        body: userDetailsUpdate,
        response: { 200: userDetails, 400: errorBody, 401: errorBody },
      },
    },
    async (request) => {
      const now = app.now();
      const user = await loadUser(app.db, request.user!.id);
      const { newEmail, key } = await app.db.transaction(async (tx) => {
        const { newEmail } = await updateAccount(tx, user, request.body, now);
        const key = newEmail ? await createEmailConfirmation(tx, user.id, newEmail, now) : null;
        return { newEmail, key };
      });
      if (newEmail && key) {
        const link = `${app.config.publicUrl}/auth/registration/account-confirm-email/${key}/`;
        await app.mailer.send(
          verificationMail(newEmail, user.firstName || user.username, link, true),
        );
      }
      return userDetailsOf(app, user.id);
    },
  );

  app.get(
    '/users/lookup/',
    {
      schema: {
        tags: ['users'],
        summary:
          'Find active users by name, username or email, for chairs granting extensions (at most 20)',
        querystring: userLookupQuery,
        response: { 200: userLookupList, 400: errorBody, 401: errorBody, 403: errorBody },
      },
    },
    async (request) => {
      if (!isAnyChair(await loadActor(app.db, request.user!), app.now()))
        throw forbidden(messages.noPermission);
      const pattern = `%${request.query.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      const rows = await app.db
        .select({
          id: users.id,
          firstName: users.firstName,
          lastName: users.lastName,
          username: users.username,
          email: users.email,
        })
        .from(users)
        .where(
          and(
            eq(users.isActive, true),
            or(
              ilike(users.username, pattern),
              ilike(users.email, pattern),
              ilike(sql`${users.firstName} || ' ' || ${users.lastName}`, pattern),
            ),
          ),
        )
        .orderBy(asc(users.lastName), asc(users.firstName), asc(users.username))
        .limit(20);
      return rows.map((r) => ({
        id: r.id,
        name: `${r.firstName} ${r.lastName}`.trim() || r.username,
        username: r.username,
        email: r.email,
      }));
    },
  );

  app.get(
    '/user_hash/',
    {
      schema: {
        tags: ['users'],
        summary: 'Your collaborator hash, which authors use to add you to a proposal',
        response: { 200: userHashResponse, 401: errorBody },
      },
    },
    async (request) => ({ hash: (await loadUser(app.db, request.user!.id)).hash }),
  );

  app.post(
    '/user_hash/',
    {
      schema: {
        tags: ['users'],
        summary: 'Replace your collaborator hash with a new unique one',
        response: { 200: userHashResponse, 401: errorBody },
      },
    },
    async (request) => ({ hash: await renewUserHash(app.db, request.user!.id, app.now()) }),
  );
};
