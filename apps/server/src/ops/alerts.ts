import { utcTime } from '@merit/domain';
import { and, eq, lt, sql } from 'drizzle-orm';
import { type AlertKind } from '../config/alerts.js';
import { alertCounts, alertsRaised, users } from '../db/schema.js';
import { linkMail, type Mail } from '../platform/io/mailer.js';
import { logSecurityEvent, type SecurityOrigin } from '../platform/security/security-log.js';
import type { App } from '../platform/http/app-types.js';
import { enqueueMail } from '../platform/io/mail-job.js';
import type { AnonymousWork } from '../platform/data/work.js';

/**
 * Abnormal request rates, detected and mailed to the administrators (OWASP ASVS V8.1.4).
 * Each kind counts one sort of event that signals an attack or a fault.
 */

/** Events are counted per fixed window of this length, by `now`. */
export const ALERT_WINDOW_MS = 5 * 60 * 1000;
/** A kind alerts at most once per hour (of the window that passed its threshold). */
const ALERT_PERIOD_MS = 60 * 60 * 1000;
/** Counts are kept a day, for an administrator who looks into an alert in the database. */
const KEEP_COUNTS_MS = 24 * 60 * 60 * 1000;
/** Raised alerts are kept 90 days, as a record of them. */
const KEEP_RAISED_MS = 90 * 24 * 60 * 60 * 1000;

const WINDOW_MINUTES = ALERT_WINDOW_MS / 60_000;

/** What each kind counts, in a mail's words, and what an administrator should look at. */
const KIND_TEXT: Record<AlertKind, { what: string; check: string[] }> = {
  login_failed: {
    what: 'failed logins',
    check: [
      'Look in the server log for the "security event: login.failed" lines of this time. Many usernames from a few addresses is password guessing; one username from many addresses is an attack on that account.',
      'The login limits slow guessing down (a captcha, then a wait per address). If it goes on, block the addresses at your proxy or firewall, and tell the account holders concerned to choose new passwords.',
    ],
  },
  access_refused: {
    what: 'refused requests (401 or 403)',
    check: [
      'Look in the server log for the "security event: access.refused" lines of this time: one account or address trying pages and data it may not use is probing; many refusals of one logged-out client are often a script or a bookmark with an expired login.',
      'If one account is probing, consider deactivating it (Administration, Users) until you know why.',
    ],
  },
  rate_limited: {
    what: 'requests refused as too many (429)',
    check: [
      'Some address is sending many requests to the login, registration, captcha or password reset pages. The server log names the addresses (the "remoteAddress" of the 429 answers).',
      'If every user seems to share one address, Merit is behind a proxy that TRUST_PROXY does not name: set it, or all users count as one address. Otherwise block the address at your proxy or firewall if it goes on.',
    ],
  },
  server_error: {
    what: 'server errors (5xx)',
    check: [
      'Look in the server log for the error lines of this time ("request failed", "database unavailable", "the disk is full"). Check GET /api/v1/health, the database, and the free disk space of the database and of DATA_DIR.',
      'If the errors come from one page and nothing is out of reach, it is likely a bug: send the log lines (they hold no passwords) to whoever maintains your Merit.',
    ],
  },
};

export interface Alerts {
  /** Counts one event now; nothing is written until the next flush. */
  record(kind: AlertKind): void;
  /** Adds this process's counts to the shared table and raises the alerts they pass. */
  flush(): Promise<void>;
  start(): void;
  /** Stops the timer and writes what is still counted. */
  stop(): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The counts behind the abnormal-rate alerts (ops/alerts.ts). */
    alerts: Alerts;
  }
}

// Merit's one date format, in UTC: the server has no reader's zone (issue 30).
const utc = utcTime;

/** The mail of one alert to one recipient. */
export function alertMail(
  to: string,
  publicUrl: string,
  alert: { kind: AlertKind; count: number; threshold: number; windowStart: Date },
): Mail {
  const text = KIND_TEXT[alert.kind];
  const end = new Date(alert.windowStart.getTime() + ALERT_WINDOW_MS);
  return linkMail({
    to,
    subject: `Merit alert: ${alert.count} ${text.what} in ${WINDOW_MINUTES} minutes`,
    greeting: 'Hello,',
    lines: [
      `Merit counted ${alert.count} ${text.what} since ${utc(alert.windowStart)}, in the ${WINDOW_MINUTES} minutes from ${utc(alert.windowStart)} to ${utc(end)}. This alert is raised at ${alert.threshold} in ${WINDOW_MINUTES} minutes, far more than normal use causes.`,
      ...text.check,
      `Merit sends this alert at most once an hour for ${text.what}; the server log has it as "security event: alert.raised". More may have happened after this count.`,
    ],
    action: 'Open Merit',
    link: publicUrl,
    footer:
      'You get this mail as an administrator of Merit (or as an address in ALERT_EMAILS). The thresholds are the ALERT_* settings.',
  });
}

/** `kind`, then the window's start in milliseconds: the key of one in-memory count. */
type CountKey = `${AlertKind} ${number}`;

/**
 * The counter of one app process. `record` only adds to a map in memory, so an attack
 * costs no database write per request; `flush` (every `flushMs`, and on close) adds the
 * map's counts to `alert_counts` in one transaction and empties it, so each event is
 * counted once whichever process saw it, and the processes' counts add up. The flush
 * that takes a window's count to its kind's threshold raises the alert, in the same
 * transaction: a row in `alerts_raised` per kind and hour (the first insert wins, on
 * every process), the mails queued and, once committed, an error-level security event.
 */
export function createAlerts(app: App, flushMs: number): Alerts {
  const settings = app.config.alerts;
  let pending = new Map<CountKey, number>();
  let running: Promise<void> | null = null;
  let timer: NodeJS.Timeout | undefined;

  async function write(counts: Map<CountKey, number>) {
    const raised = await app.writeAnonymous(async (work) => {
      const alerts: Array<{ kind: AlertKind; count: number; windowStart: Date }> = [];
      // The same order on every process, so two flushes never wait on each other's rows.
      for (const [key, added] of [...counts].sort(([a], [b]) => a.localeCompare(b))) {
        const [kind, start] = key.split(' ') as [AlertKind, string];
        const windowStart = new Date(Number(start));
        const [row] = await work.tx
          .insert(alertCounts)
          .values({ kind, windowStart, count: added })
          .onConflictDoUpdate({
            target: [alertCounts.kind, alertCounts.windowStart],
            set: { count: sql`${alertCounts.count} + excluded.count` },
          })
          .returning({ count: alertCounts.count });
        const threshold = settings.thresholds[kind];
        if (threshold > 0 && row!.count >= threshold) {
          if (await raise(work, { kind, count: row!.count, threshold, windowStart }))
            alerts.push({ kind, count: row!.count, windowStart });
        }
      }
      await work.tx
        .delete(alertCounts)
        .where(lt(alertCounts.windowStart, new Date(work.now.getTime() - KEEP_COUNTS_MS)));
      return alerts;
    });
    for (const alert of raised) logRaised({ log: app.log, events: app.securityEvents }, alert);
  }

  async function flush() {
    while (running) await running;
    if (pending.size === 0) return;
    const counts = pending;
    pending = new Map();
    running = write(counts)
      .catch((error: unknown) => {
        // Nothing was written: the counts go back, to be added by the next flush.
        for (const [key, count] of counts) pending.set(key, (pending.get(key) ?? 0) + count);
        app.log.warn({ err: error }, 'the alert counts could not be written; trying again');
      })
      .finally(() => {
        running = null;
      });
    await running;
  }

  return {
    record(kind) {
      const start = Math.floor(app.now().getTime() / ALERT_WINDOW_MS) * ALERT_WINDOW_MS;
      const key: CountKey = `${kind} ${start}`;
      pending.set(key, (pending.get(key) ?? 0) + 1);
    },
    flush,
    start() {
      timer ??= setInterval(() => void flush(), flushMs);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      await flush();
    },
  };

  /** Inserts the kind's row for the hour and queues the mails; false when the hour has one. */
  async function raise(
    work: AnonymousWork,
    alert: { kind: AlertKind; count: number; threshold: number; windowStart: Date },
  ): Promise<boolean> {
    const hourStart = new Date(
      Math.floor(alert.windowStart.getTime() / ALERT_PERIOD_MS) * ALERT_PERIOD_MS,
    );
    const [inserted] = await work.tx
      .insert(alertsRaised)
      .values({
        kind: alert.kind,
        hourStart,
        windowStart: alert.windowStart,
        count: alert.count,
        raisedAt: work.now,
      })
      .onConflictDoNothing()
      .returning({ kind: alertsRaised.kind });
    if (!inserted) return false;
    const admins = await work.tx
      .select({ email: users.email })
      .from(users)
      .where(and(eq(users.isAdmin, true), eq(users.isActive, true)));
    const recipients = new Map<string, string>();
    for (const address of [...admins.map((a) => a.email), ...settings.emails])
      if (address) recipients.set(address.toLowerCase(), address);
    for (const to of recipients.values())
      await enqueueMail(work, alertMail(to, app.config.publicUrl, alert));
    await work.tx
      .delete(alertsRaised)
      .where(lt(alertsRaised.hourStart, new Date(work.now.getTime() - KEEP_RAISED_MS)));
    return true;
  }
}

/** Outside any request: no request id or address, only the process's log and its store. */
function logRaised(
  origin: SecurityOrigin,
  alert: { kind: AlertKind; count: number; windowStart: Date },
) {
  const end = new Date(alert.windowStart.getTime() + ALERT_WINDOW_MS);
  logSecurityEvent(origin, 'alert.raised', {
    userId: null,
    kind: alert.kind,
    count: alert.count,
    window: `${alert.windowStart.toISOString()}/${end.toISOString()}`,
  });
}

/** The kind a response counts as, or null for the many that signal nothing. */
function kindOfStatus(status: number): AlertKind | null {
  if (status === 401 || status === 403) return 'access_refused';
  if (status === 429) return 'rate_limited';
  if (status >= 500) return 'server_error';
  return null;
}

/**
 * Counts the answers that signal an attack or a fault, on every route, and flushes the
 * counts every `flushMs` (and on close). Failed logins are counted by the login route itself, since
 * they answer 400 or 429.
 */
export function registerAlerts(app: App, flushMs: number): void {
  const alerts = createAlerts(app, flushMs);
  app.decorate('alerts', alerts);
  // A callback hook, not an async one: it runs on every answer and needs no promise.
  app.addHook('onResponse', (_request, reply, done) => {
    const kind = kindOfStatus(reply.statusCode);
    if (kind) alerts.record(kind);
    done();
  });
  // 0: no timer, for tests, which flush when they choose (as they drain the jobs).
  if (flushMs > 0) app.addHook('onReady', async () => alerts.start());
  // Before the database closes (onClose): what this process counted is not lost.
  app.addHook('preClose', () => alerts.stop());
}
