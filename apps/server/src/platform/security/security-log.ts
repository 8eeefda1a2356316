import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type { Db } from '../../db/client.js';
import { securityEvents } from '../../db/schema.js';
import type { App } from '../http/app-types.js';

/**
 * The security events the log records, each naming the account (OWASP ASVS V7.1.3,
 * V7.2.1), and keeps in `security_events` too, for the administrators' Activity page
 * (issue 28). Changes of roles and of the admin flag are in the audit table instead, with
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
  | 'alert.raised'
  /**
   * A download of many people's data (issue 28): `kind` says which (`call_proposals`,
   * the call's proposals for its workbook, CSV and comments downloads; `assignment_csv`;
   * `activity_csv`, a call's or the whole system's; `user_data`, Download my data), with
   * the call and how many rows where there are.
   */
  | 'export.downloaded';

/** Each event in words, as the administrators' Activity page shows it beside the audit rows. */
export const SECURITY_EVENT_LABELS: Record<SecurityEvent, string> = {
  'login.succeeded': 'Logged in',
  'login.failed': 'Failed to log in',
  logout: 'Logged out',
  'session.ended': 'Ended a session',
  'access.refused': 'Was refused access',
  'password.changed': 'Changed their password',
  'two_factor.enabled': 'Turned on two-step verification',
  'two_factor.disabled': 'Turned off two-step verification',
  'two_factor.recovery_code_used': 'Used a recovery code',
  'two_factor.replayed': 'Offered a used two-step code',
  'security_key.added': 'Added a security key',
  'security_key.removed': 'Removed a security key',
  'security_key.counter_rejected': 'Used a security key that may be copied',
  'password.reset': 'Reset their password',
  'email.change_requested': 'Asked to change their email address',
  'email.changed': 'Changed their email address',
  'account.deleted': 'Deleted their account',
  'review.read': 'Read reviews',
  'file.infected': 'Uploaded an infected file',
  'alert.raised': 'Raised an alert',
  'export.downloaded': 'Downloaded an export',
};

export const SECURITY_EVENTS = Object.keys(SECURITY_EVENT_LABELS) as SecurityEvent[];
export const isSecurityEvent = (name: string): name is SecurityEvent =>
  Object.hasOwn(SECURITY_EVENT_LABELS, name);

const FAILURES = new Set<SecurityEvent>([
  'login.failed',
  'access.refused',
  'file.infected',
  'security_key.counter_rejected',
]);
const ALARMS = new Set<SecurityEvent>(['alert.raised']);

/** The fields an event may carry besides its account; only ids, codes, counts and statuses. */
export interface SecurityEventFields {
  userId: number | null;
  reason?: string;
  statusCode?: number;
  /** How a login was made (LoginMethod: `password`, `password_totp`, `password_webauthn`, `federated`). */
  method?: string;
  sessionId?: number;
  /** A security key's row id (security_key.* events). */
  keyId?: number;
  /** For `review.read`: see modules/reviews/review-access.ts; for `export.downloaded`, which export. */
  kind?: string;
  callId?: number;
  proposalId?: number;
  proposals?: number;
  reviews?: number;
  /** For `export.downloaded`: how many rows it held. */
  rows?: number;
  /** For `alert.raised`: see ops/alerts.ts. */
  count?: number;
  window?: string;
  /** For `file.infected`: the name of what the scanner found. */
  signature?: string;
}

/**
 * Where an event happened, outside a request (a job, the alerts' flush): its log, the
 * store that keeps it (none: the log alone), and the request and address when known.
 */
export interface SecurityOrigin {
  log: FastifyBaseLogger;
  events?: SecurityEventStore;
  requestId?: string | null;
  address?: string | null;
}

/** The longest request id and address `security_events` and `audit_log` keep. */
const ORIGIN_MAX = 64;
/** A request id or address as the tables keep it: a client's own long `x-request-id` cut short. */
export const originText = (value: string | null | undefined) =>
  value ? value.slice(0, ORIGIN_MAX) : null;

const isRequest = (origin: FastifyRequest | SecurityOrigin): origin is FastifyRequest =>
  'raw' in origin;

/**
 * Writes one security event to the log, which carries the request id, the time and the
 * caller's address, and hands it to the app's store of them (`security_events`, written a
 * moment later in one INSERT with others: a login does not wait for it). Pass the request
 * where there is one (its id and the caller's address, as the log has it, are kept with
 * the event), otherwise what there is. Only ids, codes and statuses: never a password, a
 * token or what the caller typed as their username (it may be a password typed in the
 * wrong field); the address only in its own column, which a deleted account's loses.
 */
export function logSecurityEvent(
  origin: FastifyRequest | SecurityOrigin,
  event: SecurityEvent,
  fields: SecurityEventFields,
): void {
  const from: SecurityOrigin = isRequest(origin)
    ? {
        log: origin.log,
        events: origin.server.securityEvents,
        requestId: origin.id,
        address: origin.ip,
      }
    : origin;
  const entry = { securityEvent: event, ...fields };
  if (ALARMS.has(event)) from.log.error(entry, `security event: ${event}`);
  else if (FAILURES.has(event)) from.log.warn(entry, `security event: ${event}`);
  else from.log.info(entry, `security event: ${event}`);
  const { userId, ...details } = fields;
  from.events?.record({
    event,
    userId,
    requestId: originText(from.requestId),
    address: originText(from.address),
    details,
  });
}

/** One event as `security_events` keeps it; `at` is the store's clock when it was recorded. */
export interface SecurityEventRecord {
  event: SecurityEvent;
  userId: number | null;
  requestId: string | null;
  address: string | null;
  details: Record<string, unknown>;
}

export interface SecurityEventStore {
  /** Keeps one event in memory, to be written by the next flush. */
  record(event: SecurityEventRecord): void;
  /** Writes what is kept in one INSERT (after a flush under way); the Activity page's reads call it first. */
  flush(): Promise<void>;
  start(): void;
  /** Stops the timer and writes what is still kept. */
  stop(): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The security events waiting to be kept in `security_events` (platform/security/security-log.ts). */
    securityEvents: SecurityEventStore;
  }
}

/** Events kept in memory at most: past it (the database out of reach under an attack) the oldest go, the log still has them. */
const MAX_PENDING = 10_000;

/**
 * The store of one app process. `record` only adds to a list in memory, as the alerts'
 * counts do (ops/alerts.ts), so a login or a refusal costs no write of its own; `flush`
 * (every `flushMs`, on close, and before the Activity page reads) writes the list in one
 * statement, its rows as one JSON value. A failed write keeps the events for the next.
 */
export function createSecurityEventStore(options: {
  db: Db;
  now: () => Date;
  log: FastifyBaseLogger;
  flushMs: number;
}): SecurityEventStore {
  const { db, log } = options;
  let pending: Array<SecurityEventRecord & { at: Date }> = [];
  let running: Promise<void> | null = null;
  let timer: NodeJS.Timeout | undefined;

  const asColumns = (e: SecurityEventRecord & { at: Date }) => ({
    at: e.at,
    event: e.event,
    user_id: e.userId,
    request_id: e.requestId,
    address: e.address,
    details: e.details,
  });

  async function write(rows: typeof pending) {
    // An account id that names nobody (a login for an id since gone) is kept as none,
    // rather than failing the statement for everyone's events.
    await db.execute(sql`
      insert into ${securityEvents} ("at", "event", "user_id", "request_id", "address", "details")
      select r."at", r."event", (select u."id" from "users" u where u."id" = r."user_id"),
        r."request_id", r."address", r."details"
      from jsonb_to_recordset(${JSON.stringify(rows.map(asColumns))}::jsonb)
        as r("at" timestamptz, "event" text, "user_id" int, "request_id" text, "address" text,
          "details" jsonb)`);
  }

  async function flush() {
    while (running) await running;
    if (pending.length === 0) return;
    const rows = pending;
    pending = [];
    running = write(rows)
      .catch((error: unknown) => {
        pending = [...rows, ...pending].slice(-MAX_PENDING);
        log.warn({ err: error }, 'the security events could not be written; trying again');
      })
      .finally(() => {
        running = null;
      });
    await running;
  }

  return {
    record(event) {
      if (pending.length >= MAX_PENDING) pending.shift();
      pending.push({ ...event, at: options.now() });
    },
    flush,
    start() {
      if (options.flushMs <= 0) return;
      timer ??= setInterval(() => void flush(), options.flushMs);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      await flush();
    },
  };
}

/** How often each process writes the security events it kept, by default. */
export const SECURITY_EVENTS_FLUSH_MS = 1000;

/** The app's store of security events: written every `flushMs`, and before the database closes. */
export function registerSecurityEvents(app: App, flushMs: number): void {
  const store = createSecurityEventStore({
    db: app.db,
    now: () => app.now(),
    log: app.log,
    flushMs,
  });
  app.decorate('securityEvents', store);
  app.addHook('onReady', async () => store.start());
  // Before the database closes (onClose): what this process kept is not lost.
  app.addHook('preClose', () => store.stop());
}
