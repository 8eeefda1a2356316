import {
  authMethods,
  completeRegistrationRequest,
  errorBody,
  loginResponse,
  oidcExchangeRequest,
  oidcLinkResponse,
  userDetails,
} from '@merit/contract';
import { messages, safeNext } from '@merit/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { badRequest, notFound } from '../../platform/http/http-errors.js';
import { logSecurityEvent } from '../../platform/security/security-log.js';
import { issueToken } from '../auth/tokens.queries.js';
import { userDetailsOf } from '../me/me-access.js';
import {
  createOidcClient,
  randomNonce,
  randomPKCECodeVerifier,
  randomState,
} from './oidc.client.js';
import {
  OidcLoginError,
  completeRegistration,
  issueLoginCode,
  linkIdentity,
  saveState,
  takeLoginCode,
  takeState,
  userForIdentity,
} from './oidc.service.js';

export const oidcRoutes: FastifyPluginAsyncZod = async (app) => {
  const settings = app.config.oidc;
  const oidc = settings ? createOidcClient(settings) : null;
  const redirectUri = `${app.config.publicUrl}/api/v1/auth/oidc/callback/`;
  const webUrl = (path: string, query: Record<string, string> = {}) => {
    const search = new URLSearchParams(query).toString();
    return `${app.config.publicUrl}${path}${search ? `?${search}` : ''}`;
  };
  const requireOidc = () => {
    if (!oidc || !settings) throw notFound(messages.notFoundApi);
    return { oidc, settings };
  };

  /** Starts a login at the provider; the callback finds what it needs under `state`. */
  async function startLogin(next: string, linkUserId: number | null): Promise<string> {
    const { oidc: rp } = requireOidc();
    const state = randomState();
    const nonce = randomNonce();
    const codeVerifier = randomPKCECodeVerifier();
    await saveState(app.db, { state, nonce, codeVerifier, next, linkUserId }, app.now());
    return (await rp.authorizationUrl({ redirectUri, state, nonce, codeVerifier })).toString();
  }

  app.get(
    '/auth/methods/',
    {
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'Which ways to log in this installation offers, and its privacy notice if any',
        response: { 200: authMethods },
      },
    },
    async () => ({
      oidc: settings
        ? { displayName: settings.displayName, loginUrl: '/api/v1/auth/oidc/login/' }
        : null,
      ...(app.config.privacyNoticeUrl ? { privacyNoticeUrl: app.config.privacyNoticeUrl } : {}),
    }),
  );

  app.get(
    '/auth/oidc/login/',
    {
      config: { access: 'public', authRateLimit: true },
      schema: {
        tags: ['auth'],
        summary: 'Start a federated login (redirects to the identity provider)',
        querystring: z.object({ next: z.string().max(2000).optional() }),
        response: { 302: z.null(), 404: errorBody, 429: errorBody },
      },
    },
    async (request, reply) => {
      const next = safeNext(request.query.next) ?? '/';
      return reply.redirect(await startLogin(next, null), 302);
    },
  );

  app.post(
    '/auth/oidc/link/',
    {
      schema: {
        tags: ['auth'],
        summary:
          'Start linking a federated login to your account; returns the provider URL to open',
        response: { 200: oidcLinkResponse, 401: errorBody, 404: errorBody },
      },
    },
    async (request) => ({ url: await startLogin('/account/', request.user!.id) }),
  );

  app.get(
    '/auth/oidc/callback/',
    {
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'Where the identity provider returns; redirects to the web app',
        querystring: z.object({ state: z.string().max(200).optional() }).passthrough(),
        response: { 302: z.null(), 404: errorBody },
      },
    },
    async (request, reply) => {
      const { oidc: rp, settings: conf } = requireOidc();
      const now = app.now();
      const fail = (reason: string) => reply.redirect(webUrl('/auth/oidc/error', { reason }), 302);
      const saved = request.query.state
        ? await takeState(app.db, request.query.state, now)
        : undefined;
      if (!saved) return fail('state');
      if ('error' in request.query) {
        request.log.warn({ error: request.query.error }, 'the identity provider refused the login');
        return fail('provider');
      }
      let claims: Record<string, unknown>;
      try {
        const url = new URL(request.url, redirectUri);
        claims = await rp.claims(url, {
          state: saved.state,
          nonce: saved.nonce,
          codeVerifier: saved.codeVerifier,
        });
      } catch (error) {
        // A replayed code, a bad signature, a wrong audience or issuer, an expired token.
        request.log.warn({ err: error }, 'federated login rejected');
        return fail('token');
      }
      try {
        if (saved.linkUserId !== null) {
          await linkIdentity(app.db, saved.linkUserId, conf.issuer, String(claims.sub), now);
          return reply.redirect(webUrl('/account/', { linked: '1' }), 302);
        }
        const user = await userForIdentity(app.db, conf.issuer, claims, now);
        const code = await issueLoginCode(app.db, user.id, now);
        return reply.redirect(webUrl('/auth/oidc/complete', { code, next: saved.next }), 302);
      } catch (error) {
        if (error instanceof OidcLoginError) return fail(error.reason);
        throw error;
      }
    },
  );

  app.post(
    '/auth/oidc/exchange/',
    {
      config: { access: 'public', authRateLimit: true },
      schema: {
        tags: ['auth'],
        summary: 'Trade the one-time code from a federated login for a token',
        body: oidcExchangeRequest,
        response: { 200: loginResponse, 400: errorBody, 404: errorBody, 429: errorBody },
      },
    },
    async (request) => {
      requireOidc();
      const now = app.now();
      const userId = await takeLoginCode(app.db, request.body.code, now);
      if (userId === null)
        throw badRequest('This login link has expired or was already used. Please log in again.');
      const key = await issueToken(app.db, userId, now, {
        method: 'federated',
        userAgent: request.headers['user-agent'],
      });
      // As a password login logs it (auth.routes.ts), so the log shows every way in.
      logSecurityEvent(request, 'login.succeeded', { userId, method: 'federated' });
      return { key };
    },
  );

  app.post(
    '/auth/complete_registration/',
    {
      config: { access: 'registering' },
      schema: {
        tags: ['auth'],
        summary: 'Complete a federated account: institution, gender, phone and student flag',
        body: completeRegistrationRequest,
        response: { 200: userDetails, 400: errorBody, 401: errorBody, 409: errorBody },
      },
    },
    async (request) =>
      app.write(request, async (work) =>
        userDetailsOf(
          work.tx,
          await completeRegistration(work, request.body, app.config.privacyNoticeUrl !== undefined),
          work.now,
          app.config.adminTwoFactor,
        ),
      ),
  );
};
