import { errorCodes } from '@merit/contract';
import { twoFactorMessages, type LoginMethod } from '@merit/domain';
import type { FastifyRequest } from 'fastify';
import { clientKey } from '../../platform/security/client-address.js';
import { badRequest, HttpError } from '../../platform/http/http-errors.js';
import {
  admitSecondStepAttempt,
  clearLoginAttempts,
} from '../../platform/security/login-throttle.js';
import type { AnonymousWork } from '../../platform/data/work.js';
import type { App } from '../../platform/http/app-types.js';
import { findUserById, type UserRow } from '../users/users.queries.js';
import { logSecurityEvent } from '../../platform/security/security-log.js';
import { issueToken } from './tokens.queries.js';
import { countTicketFailure, spendTicket, ticketUser } from './two-factor.service.js';

export const ticketExpired = () =>
  badRequest(twoFactorMessages.ticketExpired, undefined, errorCodes.twoFactorExpired);

/** What a second factor made of the proof it was given: accepted (`ok`), or refused. */
type Verdict = { ok: boolean };
type Accepted<V extends Verdict> = Extract<V, { ok: true }>;
type Refused<V extends Verdict> = Extract<V, { ok: false }>;

/**
 * The second step of a password login, whatever proves it (a code, a security key's
 * answer): the ticket of the first step names the user; the attempt counts in the login
 * throttle before the proof is checked, as a password does; under the ticket's lock,
 * `check` judges the proof, a refusal counts against the ticket (5 end it) and an
 * acceptance spends it for a new session of `method`. Logs `login.succeeded` or
 * `login.failed` and answers the spec's login answer, `{ key }`.
 */
export async function takeSecondStep<V extends Verdict>(
  app: App,
  request: FastifyRequest,
  ticket: string,
  method: LoginMethod,
  factor: {
    /** Judges the proof, in the ticket's transaction (which commits either way). */
    check: (work: AnonymousWork, user: UserRow) => Promise<V>;
    /** The error a refusal answers with; it may log what the refusal says first. */
    refused: (verdict: Refused<V>, userId: number) => HttpError;
    /** Logs what an acceptance says, besides `login.succeeded`; returns that event's extra fields. */
    accepted?: (verdict: Accepted<V>, userId: number) => { keyId?: number };
  },
): Promise<{ key: string }> {
  const now = app.now();
  let userId: number | null = null;
  try {
    userId = await ticketUser(app.db, ticket, now);
    const user = userId === null ? undefined : await findUserById(app.db, userId);
    if (!user || !user.isActive) throw ticketExpired();
    const attempt = { username: user.username, address: clientKey(request.ip) };
    await admitSecondStepAttempt(app.db, attempt, now);
    const outcome = await app.writeAnonymous(async (work) => {
      const { tx } = work;
      // Locked, so one ticket cannot be spent twice by two requests at once.
      if ((await ticketUser(tx, ticket, now)) !== user.id) return { expired: true } as const;
      const verdict = await factor.check(work, user);
      if (!verdict.ok) {
        // Committed with whatever `check` did (a request to a key used up, a mail queued);
        // the refusal is thrown after.
        await countTicketFailure(tx, ticket);
        return { verdict };
      }
      await spendTicket(tx, ticket);
      const key = await issueToken(tx, user.id, now, {
        method,
        userAgent: request.headers['user-agent'],
      });
      return { verdict, key };
    });
    if ('expired' in outcome) throw ticketExpired();
    const { verdict } = outcome;
    if (!verdict.ok) throw factor.refused(verdict as Refused<V>, user.id);
    await clearLoginAttempts(app.db, attempt);
    const fields = factor.accepted?.(verdict as Accepted<V>, user.id) ?? {};
    logSecurityEvent(request, 'login.succeeded', { userId, method, ...fields });
    return { key: outcome.key! };
  } catch (error) {
    const reason = error instanceof HttpError ? error.code : 'error';
    logSecurityEvent(request, 'login.failed', { userId, reason });
    app.alerts.record('login_failed');
    throw error;
  }
}
