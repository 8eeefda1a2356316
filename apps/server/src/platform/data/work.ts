import { TAB_HEADER, TAB_ID_MAX } from '@merit/contract';
import type { CommitteeActor, CommitteeRoleName } from '@merit/domain';
import { messages } from '@merit/domain';
import { eq, type SQL } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Tx } from '../../db/client.js';
import { committeeRoles } from '../../db/schema.js';
import type { App } from '../http/app-types.js';
import { writeAudit, writeAudits, type AuditEntry, type AuditOrigin } from './audit.js';
import { pgCode } from './db-errors.js';
import { notAuthenticated } from '../http/http-errors.js';
import { enqueueJob, enqueueJobsFrom } from './jobs.js';

/** The caller as the rules see them: their id, the admin flag and their committee roles. */
export type Actor = CommitteeActor;

/** What a read needs: where to query, who is asking, and the one `now` its rules use. */
export interface ReadWork {
  tx: Tx;
  actor: Actor;
  now: Date;
}

/** A change in progress: one transaction, with its audit rows and jobs in it. */
export interface Work extends ReadWork {
  /** Records the change in the audit log, in this transaction. */
  audit(entry: AuditEntry): Promise<void>;
  /** `audit` for many changes at once (one statement per batch: `writeAudits`). */
  audits(entries: readonly AuditEntry[]): Promise<void>;
  /** Queues a job (a mail) that runs only once this transaction has committed. */
  enqueue(kind: string, payload: unknown): Promise<void>;
  /**
   * Queues a job per row of `payloads` (a query of one jsonb column, each row a job's
   * payload) in one statement: `enqueue` for many at once. How many it queued.
   */
  enqueueEach(kind: string, payloads: SQL): Promise<number>;
}

/** A change made for an anonymous caller (registration, password reset). */
export type AnonymousWork = Omit<Work, 'actor'>;

/** The caller with their committee roles, as every rule reads them. */
export async function loadActor(db: Tx, userId: number, isAdmin: boolean): Promise<Actor> {
  const roles = await db
    .select({
      committeeId: committeeRoles.committeeId,
      role: committeeRoles.role,
      commencement: committeeRoles.commencement,
      termination: committeeRoles.termination,
    })
    .from(committeeRoles)
    .where(eq(committeeRoles.userId, userId));
  return {
    id: userId,
    isAdmin,
    roles: roles.map((r) => ({ ...r, role: r.role as CommitteeRoleName })),
  };
}

/** What a tab id may be: the web app's are 32 hex digits. */
const TAB_ID = new RegExp(`^[A-Za-z0-9_-]{1,${TAB_ID_MAX}}$`);

/**
 * The browser tab the request names in TAB_HEADER, or '' without one. A malformed id is
 * read as none: it only makes the session alone the editor, as for a client that sends
 * no header, and never reaches the database.
 */
export function tabIdOf(request: FastifyRequest): string {
  const value = request.headers[TAB_HEADER];
  return typeof value === 'string' && TAB_ID.test(value) ? value : '';
}

/** The login session and browser tab a request comes from: one editor of a proposal. */
export function sessionOf(request: FastifyRequest): Actor['session'] {
  return request.user ? { tokenId: request.user.tokenId, tabId: tabIdOf(request) } : undefined;
}

/**
 * The request a change came from, as its audit rows record it: its id (its log lines
 * carry the same) and the caller's address, as the request log has it (`request.ip`,
 * which follows TRUST_PROXY).
 */
export const originOf = (request: FastifyRequest): AuditOrigin => ({
  // As the columns keep them (64 characters): a client may send its own long x-request-id.
  requestId: request.id.slice(0, 64),
  address: request.ip.slice(0, 64),
});

/** Whom `writeAs` acts as. */
export interface WriteAsUser {
  id: number;
  isAdmin: boolean;
  session?: Actor['session'];
}

/** Transactions that lost a deadlock or a serialization check are tried again this often. */
const RETRIES = 3;
const isRetryable = (error: unknown) => ['40P01', '40001'].includes(pgCode(error) ?? '');

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Runs one read for a logged-in caller: `{tx, actor, now}`. No transaction: a read
     * that must see one consistent state of several tables uses `write` instead.
     */
    read<T>(request: FastifyRequest, fn: (work: ReadWork) => Promise<T>): Promise<T>;
    /**
     * Runs one change for a logged-in caller in one transaction: load (rows that a check
     * guards `FOR UPDATE`), `authorize`, change, `audit`, all or nothing. Jobs it queued
     * run after the commit; a deadlock is retried.
     */
    write<T>(request: FastifyRequest, fn: (work: Work) => Promise<T>): Promise<T>;
    /**
     * `write` for the public routes, where nobody is logged in; with the request's
     * `origin` (`originOf`) when there is one, none for a job.
     */
    writeAnonymous<T>(fn: (work: AnonymousWork) => Promise<T>, origin?: AuditOrigin): Promise<T>;
    /**
     * `write` as a given user: outside a request (command-line tools, test fixtures), or
     * for one whose caller is not the request's usual one (an upload's hooks), then with
     * the request's `session` (`sessionOf`), so that they edit as the editor they are, and
     * its `origin` (`originOf`) for the audit rows; without, the rows name no request.
     */
    writeAs<T>(user: WriteAsUser, fn: (work: Work) => Promise<T>, origin?: AuditOrigin): Promise<T>;
  }
}

/**
 * The one unit of work every handler goes through (ARCHITECTURE.md, STYLE.md "One
 * checkpoint"): parse (the route's schema), then `app.read`/`app.write` hands the service
 * `{tx, actor, now}` and the service loads, authorizes, changes with its audit row, and
 * returns what the route presents.
 */
export function registerUnitOfWork(app: App): void {
  const callerOf = (request: FastifyRequest) => {
    // The auth hook refuses anonymous callers on every route that is not public.
    if (!request.user) throw notAuthenticated(messages.notAuthenticated);
    return request.user;
  };

  async function transaction<T>(
    actorId: number | null,
    load: (tx: Tx) => Promise<Actor | null>,
    fn: (work: Work) => Promise<T>,
    origin?: AuditOrigin,
  ): Promise<T> {
    for (let attempt = 1; ; attempt += 1) {
      let queued = 0;
      try {
        const result = await app.db.transaction(async (tx) => {
          const now = app.now();
          const actor = await load(tx);
          return fn({
            tx,
            actor: actor as Actor,
            now,
            audit: (entry) => writeAudit(tx, actorId, now, entry, origin),
            audits: (entries) => writeAudits(tx, actorId, now, entries, origin),
            enqueue: async (kind, payload) => {
              await enqueueJob(tx, kind, payload, now);
              queued += 1;
            },
            enqueueEach: async (kind, payloads) => {
              const count = await enqueueJobsFrom(tx, kind, payloads, now);
              queued += count;
              return count;
            },
          });
        });
        if (queued > 0) app.jobs.nudge();
        return result;
      } catch (error) {
        if (attempt < RETRIES && isRetryable(error)) continue;
        throw error;
      }
    }
  }

  const writeAs = <T>(user: WriteAsUser, fn: (work: Work) => Promise<T>, origin?: AuditOrigin) =>
    transaction(
      user.id,
      async (tx) => ({
        ...(await loadActor(tx, user.id, user.isAdmin)),
        ...(user.session ? { session: user.session } : {}),
      }),
      fn,
      origin,
    );

  // The caller's roles came with their token (modules/auth/tokens.queries.ts), read in the same query:
  // one query fewer for every request, read or change. The session and tab make the
  // caller one editor of a proposal (its editing lock).
  const actorOf = (request: FastifyRequest): Actor => {
    const user = callerOf(request);
    return { id: user.id, isAdmin: user.isAdmin, roles: user.roles, session: sessionOf(request) };
  };

  app.decorate('read', async <T>(request: FastifyRequest, fn: (work: ReadWork) => Promise<T>) => {
    const actor = actorOf(request);
    return fn({ tx: app.db, actor, now: app.now() });
  });
  app.decorate('write', <T>(request: FastifyRequest, fn: (work: Work) => Promise<T>) => {
    const actor = actorOf(request);
    return transaction(actor.id, async () => actor, fn, originOf(request));
  });
  app.decorate('writeAs', writeAs);
  app.decorate(
    'writeAnonymous',
    <T>(fn: (work: AnonymousWork) => Promise<T>, origin?: AuditOrigin) =>
      transaction(null, async () => null, fn, origin),
  );
}
