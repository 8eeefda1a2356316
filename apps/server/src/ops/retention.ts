import type { SessionPolicy } from '@merit/domain';
import { lte, sql, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { FastifyBaseLogger } from 'fastify';
import type { RetentionSettings } from '../config/retention.js';
import type { Db } from '../db/client.js';
import {
  alertCounts,
  alertsRaised,
  auditLog,
  captchaUses,
  jobs,
  loginThrottle,
  rateLimitHits,
  securityEvents,
} from '../db/schema.js';
import { ALERT_WINDOW_MS } from './alerts.js';
import { AUTH_WINDOW_MS } from '../platform/security/rate-limit.js';

/**
 * Data retention (OWASP ASVS V8.3.8): what personal data Merit keeps, for how long after
 * it stopped being of use, and the job that deletes it once that time has passed. Each
 * module classifies its own tables (`modules/<name>/<name>.retention.ts`); this file holds
 * the job and the classes of the tables below the modules (platform and ops). The app
 * hands the job the whole list (app.ts, `RETENTION_CLASSES`).
 */

export const HOUR_MS = 60 * 60 * 1000;
export const DAY_MS = 24 * HOUR_MS;

/** What a rule needs to say which rows are past their period. */
export interface RetentionContext {
  now: Date;
  settings: RetentionSettings;
  /** How long sessions last (SESSION_*): a session's end is worked out from it. */
  session: SessionPolicy;
}

/** One kind of data: what it holds, how long it is kept, and what deletes it. */
export interface RetentionClass {
  /** Its name in the job's log line and in the docs. */
  kind: string;
  /** Where it lives: database tables, or a place outside the database. */
  where: string;
  /** The personal data (or secrets) it holds. */
  holds: string;
  /** How long it is kept after it stopped being of use, with the default periods. */
  kept: string;
  /** The setting that changes the period; null when the period is fixed. */
  setting: string | null;
  /**
   * The rows the job deletes: its table and the condition of the rows past their period
   * at `now` (undefined when the settings keep them all). Absent: the job never deletes
   * this kind.
   */
  deletes?: {
    table: PgTable;
    pastPeriod: (at: RetentionContext) => SQL | undefined;
  };
}

/** `ms` before now. */
export const before = (at: RetentionContext, ms: number) => new Date(at.now.getTime() - ms);
/**
 * Keys, links, tickets and counters are useless once spent or expired; a day more lets an
 * administrator who looks into a login problem that day still find them.
 */
export const GRACE_MS = DAY_MS;
/** A mail that failed for good stays this long for an operator to see why. */
const FAILED_JOB_KEPT_MS = 30 * DAY_MS;
/** As ops/alerts.ts keeps them: counts a day, raised alerts 90 days. */
const ALERT_COUNTS_KEPT_MS = DAY_MS;
const ALERTS_RAISED_KEPT_MS = 90 * DAY_MS;
/** A year of logins, refusals and exports: enough to look back on an account's or an attack's story. */
const SECURITY_EVENTS_KEPT_MS = 365 * DAY_MS;

/**
 * The classification of the platform's and ops' tables, one row per kind of data, and
 * what lives outside the database or is the committees' record. Rows with `deletes` are
 * what the job removes; the others say why Merit keeps that data and who may remove it.
 * The docs quote the whole list (docs/security.md V8.3.8, the manual's "Data retention").
 */
export const PLATFORM_RETENTION: readonly RetentionClass[] = [
  {
    kind: 'captcha_uses',
    where: 'captcha_uses',
    holds: 'No personal data: the ids of solved human checks, so none is used twice.',
    kept: '1 day after the check expired.',
    setting: null,
    deletes: {
      table: captchaUses,
      pastPeriod: (at) => lte(captchaUses.expiresAt, before(at, GRACE_MS)),
    },
  },
  {
    kind: 'login_throttle',
    where: 'login_throttle',
    holds: 'Usernames tried at login, alone and with the client’s network address, and how often.',
    kept: '1 day after its 15-minute window ended; a successful login clears its own at once.',
    setting: null,
    deletes: {
      table: loginThrottle,
      pastPeriod: (at) => lte(loginThrottle.windowStart, before(at, AUTH_WINDOW_MS + GRACE_MS)),
    },
  },
  {
    kind: 'rate_limit_hits',
    where: 'rate_limit_hits',
    holds: 'Client network addresses and how many requests each made to the login pages.',
    kept: '1 day after its 15-minute window ended.',
    setting: null,
    deletes: {
      table: rateLimitHits,
      pastPeriod: (at) => lte(rateLimitHits.windowStart, before(at, AUTH_WINDOW_MS + GRACE_MS)),
    },
  },
  {
    kind: 'alert_counts',
    where: 'alert_counts',
    holds: 'No personal data: counts of failed logins, refusals and errors per 5 minutes.',
    kept: '1 day after its window, for an administrator looking into an alert.',
    setting: null,
    deletes: {
      table: alertCounts,
      pastPeriod: (at) =>
        lte(alertCounts.windowStart, before(at, ALERT_WINDOW_MS + ALERT_COUNTS_KEPT_MS)),
    },
  },
  {
    kind: 'alerts_raised',
    where: 'alerts_raised',
    holds: 'No personal data: which alert mails went out, per kind and hour.',
    kept: '90 days, as a record of the alerts.',
    setting: null,
    deletes: {
      table: alertsRaised,
      pastPeriod: (at) => lte(alertsRaised.hourStart, before(at, ALERTS_RAISED_KEPT_MS)),
    },
  },
  {
    kind: 'failed_jobs',
    where: 'jobs (failed for good)',
    holds: 'A mail that could not be sent after its last try: its address and text, and the error.',
    kept: '30 days after its last try, for an operator to see why. Sent mail leaves nothing here.',
    setting: null,
    deletes: {
      table: jobs,
      pastPeriod: (at) => lte(jobs.failedAt, before(at, FAILED_JOB_KEPT_MS)),
    },
  },
  {
    kind: 'security_events',
    where: 'security_events',
    holds:
      'Security events (logins, two-step changes, refusals, review reads, exports) with account ids, request ids and client network addresses.',
    kept: '365 days, for the administrators’ Activity page. A deleted account’s addresses go with it.',
    setting: null,
    deletes: {
      table: securityEvents,
      pastPeriod: (at) => lte(securityEvents.at, before(at, SECURITY_EVENTS_KEPT_MS)),
    },
  },
  {
    kind: 'audit_log',
    where: 'audit_log',
    holds:
      'Who changed what and when, with each changed field before and after: names, email addresses, roles, answers, decisions; the request and the network address it came from (forgotten when its author deletes their account).',
    kept: 'Kept: it is the committees’ record of who did what. With AUDIT_RETENTION_DAYS set, deleted that many days after it was written.',
    setting: 'AUDIT_RETENTION_DAYS',
    deletes: {
      table: auditLog,
      pastPeriod: (at) =>
        at.settings.auditDays === null
          ? undefined
          : lte(auditLog.at, before(at, at.settings.auditDays * DAY_MS)),
    },
  },
  {
    kind: 'committee_records',
    where:
      'committees, calls, extensions, proposals and their answers, collaborators, reviewers, reviews, proposal files (and their bytes), forms',
    holds: 'Proposals and reviews with their authors, answers, scores, files and decisions.',
    kept: 'Not deleted by Merit: they are the committees’ record of their calls. A draft is deleted by its author, a file by whoever may edit the proposal, and unshared drafts go with a deleted account.',
    setting: null,
  },
  {
    kind: 'outside_the_database',
    where:
      'the server log, backups, DATA_DIR/outbox (mail written to files when SMTP_URL is unset)',
    holds:
      'Security events (logins, refusals, review reads) with account ids and client addresses; copies of the database; mail.',
    kept: 'As the operator’s log storage, backup rotation and mail handling decide: Merit does not delete them.',
    setting: null,
  },
];

/** Rows one statement deletes at most: a backlog goes in many short statements, never one long lock. */
export const RETENTION_BATCH = 1000;
/** How often each process runs the job, besides once at start. */
export const RETENTION_EVERY_MS = HOUR_MS;

/**
 * Deletes up to RETENTION_BATCH rows of `table` that match `pastPeriod`, in one statement.
 * Rows another transaction holds are skipped (they are taken next time), so two processes
 * running this at once each take different rows and neither waits for the other; deleting
 * what is already gone deletes nothing.
 */
async function deleteBatch(db: Db, table: PgTable, pastPeriod: SQL): Promise<number> {
  return db.transaction(async (tx) => {
    // The audit log refuses deletes but in a transaction that says it is retention's
    // (migration 0024's trigger); the setting ends with the transaction.
    await tx.execute(sql`select set_config('merit.audit_retention', 'on', true)`);
    // `ctid = any(array(...))` lets PostgreSQL fetch the chosen rows by their address,
    // whatever the table's key, where `in (select ...)` would scan the table again.
    const gone = await tx
      .delete(table)
      .where(
        sql`ctid = any(array(select ctid from ${table} where ${pastPeriod} limit ${RETENTION_BATCH} for update skip locked))`,
      )
      .returning({ one: sql<number>`1` });
    return gone.length;
  });
}

export interface Retention {
  /**
   * Deletes everything past its period now, after any run under way; resolves with the
   * rows deleted per kind (only kinds with some).
   */
  run(): Promise<Record<string, number>>;
  /** Runs once now and then every `everyMs` (0: only when asked). */
  start(): void;
  /** Stops the timer and waits for the run under way. */
  stop(): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The job that deletes data past its retention period (ops/retention.ts). */
    retention: Retention;
  }
}

/**
 * The retention job of one app process. Every process runs it (at start, then hourly):
 * its deletes are idempotent and skip rows others hold, so processes need not agree on
 * who runs it. A failure is logged and the next kind still runs; the next run tries again.
 */
export function createRetention(options: {
  db: Db;
  now: () => Date;
  log: FastifyBaseLogger;
  settings: RetentionSettings;
  session: SessionPolicy;
  everyMs: number;
  /** Every kind of data, each module's and the platform's (app.ts, `RETENTION_CLASSES`). */
  classes: readonly RetentionClass[];
}): Retention {
  const { db, log } = options;
  let running: Promise<Record<string, number>> | null = null;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;

  async function sweep(): Promise<Record<string, number>> {
    const at: RetentionContext = {
      now: options.now(),
      settings: options.settings,
      session: options.session,
    };
    const deleted: Record<string, number> = {};
    for (const { kind, deletes } of options.classes) {
      const pastPeriod = deletes?.pastPeriod(at);
      if (!deletes || !pastPeriod) continue;
      try {
        let batch;
        do {
          batch = await deleteBatch(db, deletes.table, pastPeriod);
          if (batch > 0) deleted[kind] = (deleted[kind] ?? 0) + batch;
        } while (batch === RETENTION_BATCH && !stopped);
      } catch (error) {
        log.warn({ err: error, kind }, 'deleting data past its retention period failed');
      }
    }
    if (Object.keys(deleted).length > 0)
      log.info({ deleted }, 'deleted data past its retention period');
    return deleted;
  }

  async function run() {
    while (running) await running.catch(() => {});
    running = sweep().finally(() => {
      running = null;
    });
    return running;
  }

  const runLogged = () =>
    void run().catch((error: unknown) => log.warn({ err: error }, 'the retention job failed'));

  return {
    run,
    start() {
      stopped = false;
      runLogged();
      if (options.everyMs > 0) {
        timer ??= setInterval(runLogged, options.everyMs);
        timer.unref();
      }
    },
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      timer = undefined;
      while (running) await running.catch(() => {});
    },
  };
}
