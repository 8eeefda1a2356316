import type {
  FastifyBaseLogger,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from './config.js';
import type { Database, Db } from './db/client.js';
import type { Captcha } from './plugins/captcha.js';
import type { Mailer } from './plugins/mail.js';

/** Who a request acts as, once its token has been checked. */
export interface AuthUser {
  id: number;
  username: string;
  isAdmin: boolean;
  registrationComplete: boolean;
  /** The id of the token this request came with, so logout can revoke exactly it. */
  tokenId: number;
}

/**
 * Who may call a route. `public`: anyone; `user`: any logged-in user; `admin`: admins.
 * Finer rules (chair of this committee, author of this proposal) are checked in the
 * handler against the loaded resource, with the domain's policies.
 */
export type RouteAccess = 'public' | 'user' | 'admin';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    database: Database;
    db: Db;
    /** The clock every rule reads; tests replace it to pin time. */
    now: () => Date;
    /** Every registered route as "METHOD /path". */
    routes: readonly string[];
    mailer: Mailer;
    captcha: Captcha;
  }
  interface FastifyRequest {
    user: AuthUser | null;
  }
  interface FastifyContextConfig {
    access?: RouteAccess;
    /** Counts against the per-address limit shared by the login, registration, captcha and reset endpoints. */
    authRateLimit?: boolean;
  }
}

export type App = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>;
