import type { FastifyBaseLogger } from 'fastify';

/**
 * The security events the log records, each naming the account (OWASP ASVS V7.1.3,
 * V7.2.1). Changes of roles and of the admin flag are in the audit table instead, with
 * who made them (platform/data/audit.ts), as every other change is.
 */
export type SecurityEvent =
  | 'login.succeeded'
  | 'login.failed'
  | 'logout'
  /**
   * The user ended one of their sessions from their session list (`sessionId`, the
   * token's row id): `reason` says whether it was the one they asked from
   * (`this_session`, a logout) or another (`other_session`).
   */
  | 'session.ended'
  /** A 401 or 403: the caller (null when anonymous) and the status. */
  | 'access.refused'
  | 'password.changed'
  /** Two-step verification turned on or off by the user (`method`: how the code to turn it off was given). */
  | 'two_factor.enabled'
  | 'two_factor.disabled'
  /** A login or turning off two-step verification used up one of the recovery codes. */
  | 'two_factor.recovery_code_used'
  /** A login's second step offered an authenticator code already used: refused, the holder mailed. */
  | 'two_factor.replayed'
  /**
   * A security key (WebAuthn) added or removed (`keyId`); `reason` `two_factor_disabled`
   * when it went because two-step verification was turned off.
   */
  | 'security_key.added'
  | 'security_key.removed'
  /**
   * A login's second step got an answer the key signed whose signature counter did not go
   * forward (`keyId`): refused, as the key may have been copied.
   */
  | 'security_key.counter_rejected'
  /** A new password set from a reset link. */
  | 'password.reset'
  /** The user asked for a new address; it changes once the link mailed to it is followed. */
  | 'email.change_requested'
  | 'email.changed'
  /** The user deleted their own account (ASVS V8.3.2); only the id, which stays anonymised. */
  | 'account.deleted'
  /**
   * Someone read reviews' content (ASVS V8.3.5): `kind` says through which route, with the
   * call, the proposal (one proposal's reviews) and how many reviews; never their text.
   */
  | 'review.read'
  /**
   * The virus scanner found `signature` in a file `userId` uploaded to `proposalId`; the
   * file was refused and not stored (ASVS V12.4.2).
   */
  | 'file.infected'
  /**
   * An abnormal rate of one `kind` of event (ops/alerts.ts, ASVS V8.1.4): its `count` in
   * the `window` (ISO start/end) that passed the threshold; the administrators are mailed.
   */
  | 'alert.raised';

const FAILURES = new Set<SecurityEvent>([
  'login.failed',
  'access.refused',
  'file.infected',
  'security_key.counter_rejected',
]);
const ALARMS = new Set<SecurityEvent>(['alert.raised']);

/**
 * Writes one security event to the request's log, which carries the request id, the time
 * and the caller's address. Only ids, codes and statuses: never a password, a token, an
 * address or what the caller typed as their username (it may be a password typed in the
 * wrong field).
 */
export function logSecurityEvent(
  log: FastifyBaseLogger,
  event: SecurityEvent,
  fields: {
    userId: number | null;
    reason?: string;
    statusCode?: number;
    /** How a login was made (LoginMethod: `password`, `password_totp`, `password_webauthn`, `federated`). */
    method?: string;
    sessionId?: number;
    /** A security key's row id (security_key.* events). */
    keyId?: number;
    /** For `review.read`: see modules/reviews/review-access.ts. */
    kind?: string;
    callId?: number;
    proposalId?: number;
    proposals?: number;
    reviews?: number;
    /** For `alert.raised`: see ops/alerts.ts. */
    count?: number;
    window?: string;
    /** For `file.infected`: the name of what the scanner found. */
    signature?: string;
  },
): void {
  const entry = { securityEvent: event, ...fields };
  if (ALARMS.has(event)) log.error(entry, `security event: ${event}`);
  else if (FAILURES.has(event)) log.warn(entry, `security event: ${event}`);
  else log.info(entry, `security event: ${event}`);
}
