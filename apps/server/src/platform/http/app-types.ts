import type { VirusScanner } from '../io/virus-scan.js';
import type {
  FastifyBaseLogger,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { ZodType } from 'zod';
import type { CommitteeActor } from '@merit/domain';
import type { Config } from '../../config/config.js';
import type { Database, Db } from '../../db/client.js';
import type { FileStorage } from '../io/file-storage.js';
import type { JobRunner } from '../data/jobs.js';
import type { ServerKeys } from '../security/server-key.js';
import type { Captcha } from '../security/captcha-store.js';
import type { Mailer } from '../io/mailer.js';

export interface RegisteredRoute {
  method: string;
  url: string;
  body?: ZodType;
  /** The query string and path parameter schemas, for the route fuzzer (test/fuzz). */
  query?: ZodType;
  params?: ZodType;
}

/** Who a request acts as, once its token has been checked. */
export interface AuthUser {
  id: number;
  username: string;
  isAdmin: boolean;
  registrationComplete: boolean;
  /**
   * An admin who must turn on two-step verification before administering
   * (ADMIN_TWO_FACTOR=required): `isAdmin` is then false, so they act as the user they
   * otherwise are, and admin routes say why they are refused.
   */
  adminNeedsTwoFactor?: boolean;
  /** The id of the token this request came with, so logout can revoke exactly it. */
  tokenId: number;
  /** Their committee roles, read with the token: a read's rules need no second query. */
  roles: CommitteeActor['roles'];
}

/**
 * Who may call a route, checked before anything else (modules/auth/auth-access.ts):
 * - `public`: anyone, logged in or not;
 * - `registering`: any logged-in user, even a federated one whose registration is
 *   incomplete (only what completing it needs: their details, completing it, logging out);
 * - `user` (the default): a logged-in user whose registration is complete;
 * - `admin`: such a user who is an administrator.
 * Finer rules (chair of this committee, author of this proposal) are decided in the
 * service against the loaded resource, by `authorize` with the domain's policies.
 */
export type RouteAccess = 'public' | 'registering' | 'user' | 'admin';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    /** The keys derived from the server's secret (platform/security/server-key.ts), never logged. */
    keys: ServerKeys;
    database: Database;
    db: Db;
    /** The clock every rule reads; tests replace it to pin time. */
    now: () => Date;
    /** Every registered route, with its body schema. */
    routes: readonly RegisteredRoute[];
    mailer: Mailer;
    captcha: Captcha;
    /** Work done after commit (mail); see platform/data/jobs.ts. */
    jobs: JobRunner;
    /** Where uploaded files' bytes live: DATA_DIR/files, or S3 (platform/io/file-storage.ts). */
    files: FileStorage;
    /** The ClamAV daemon uploads are scanned by (CLAMD_URL); null when none is set. */
    virusScanner: VirusScanner | null;
  }
  interface FastifyRequest {
    user: AuthUser | null;
  }
  interface FastifyContextConfig {
    access?: RouteAccess;
    /** Counts against the per-address limit shared by the login, registration, captcha and reset endpoints. */
    authRateLimit?: boolean;
    /** Also takes the auth token as the `token` query parameter (the spec's download links). */
    tokenInQuery?: boolean;
  }
}

export type App = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>;
