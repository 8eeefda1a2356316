import type { FastifyBaseLogger } from 'fastify';
import { and, asc, eq, inArray, isNull, lte, or, sql, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.js';
import { jobSchedules, jobs } from '../../db/schema.js';

/*
 * Merit's own job runner, on the app's own database. pg-boss 10 (the one that runs on
 * Node 20) was tried on both databases: on PostgreSQL it does all this, but on the
 * embedded PGlite it starts only through an adapter that sends its multi-statement SQL
 * with exec, adds 0.45-0.6 s to every start (2.5 s to the first; the cold-start budget is
 * 1 s), deadlocks the one connection for good when a job is sent inside a transaction
 * without its `db` option, runs the jobs one transaction queued in random order (mails
 * about one thing must go out in the order it happened), has nothing like `drain` for
 * tests, and drops a schedule's due time that was missed by more than a minute. What
 * schedules need is here instead: `schedule`, with a due time that runs once across
 * processes and is not lost while every process was down.
 */

/** What a job handler gets: the database (not a transaction: it opens its own) and the time. */
export interface JobContext {
  db: Db;
  now: Date;
  log: FastifyBaseLogger;
}

export type JobHandler = (payload: never, context: JobContext) => Promise<void>;

/** How many jobs one pass claims; the rest wait for the next pass. */
const BATCH = 10;
/** A claimed job belongs to its process this long; one that crashed lets it go after that. */
const LEASE_MS = 5 * 60 * 1000;
/**
 * Tries before a job gives up, about three hours after the first; it stays in the table
 * with `failed_at` and its last error for an operator to see.
 */
export const MAX_ATTEMPTS = 10;
/** Waits between tries: 30 s, 1 min, 2 min, ... at most an hour. */
export const retryDelayMs = (attempts: number) =>
  Math.min(60 * 60 * 1000, 30_000 * 2 ** Math.max(0, attempts - 1));

/**
 * Queues a job in the caller's transaction, so it exists exactly when the change it
 * follows does. Runs once that transaction has committed (the unit of work nudges the
 * runner then); every app process polls too, so a job queued by a process that stopped
 * still runs.
 */
export async function enqueueJob(tx: Tx, kind: string, payload: unknown, now: Date) {
  await tx.insert(jobs).values({ kind, payload, runAt: now, createdAt: now });
}

/**
 * Queues one job per row of `payloads`, a query whose one column is a job's payload
 * (jsonb), with one INSERT ... SELECT in the caller's transaction: however many rows, one
 * statement. Resolves with how many were queued.
 */
export async function enqueueJobsFrom(
  tx: Tx,
  kind: string,
  payloads: SQL,
  now: Date,
): Promise<number> {
  // Both drivers (node-postgres and PGlite) answer `{ rows }`; the shared type cannot say so.
  const result = (await tx.execute(sql`
    with queued as (
      insert into ${jobs} ("kind", "payload", "run_at", "created_at")
      select ${kind}, p."payload", ${now}, ${now} from (${payloads}) as p("payload")
      returning 1
    )
    select count(*)::int as "queued" from queued`)) as { rows: { queued: number }[] };
  return result.rows[0]?.queued ?? 0;
}

/** What a scheduled job is given: the due time it runs for. */
export interface ScheduledRun {
  dueAt: string;
}

/** Due times every `ms` milliseconds, counted from 1970 (every hour: on the hour, UTC). */
export const every =
  (ms: number) =>
  (after: Date): Date =>
    new Date((Math.floor(after.getTime() / ms) + 1) * ms);

export interface JobRunner {
  /** Registers the handler of one kind of job. */
  handle<P>(kind: string, handler: (payload: P, context: JobContext) => Promise<void>): void;
  /**
   * Runs `kind` at due times: `nextDue(after)` is the first due time later than `after`.
   * Each due time runs once, in whichever process polls first, as a job (so it is tried
   * again when it fails). Due times missed while no process ran are run once, for the
   * earliest of them, when one starts again; the first due time is the first after the
   * schedule was first seen.
   */
  schedule(
    kind: string,
    nextDue: (after: Date) => Date,
    handler: (run: ScheduledRun, context: JobContext) => Promise<void>,
  ): void;
  /** Asks for a pass soon: something was just queued. */
  nudge(): void;
  /** Runs passes until no job is due, and waits for them (tests, shutdown). */
  drain(): Promise<void>;
  start(): void;
  /** Stops polling and waits for the pass under way. */
  stop(): Promise<void>;
}

/**
 * Runs due jobs. Each pass claims a batch with FOR UPDATE SKIP LOCKED and a lease, so
 * several app processes share the table and each job runs in one of them. A job that
 * succeeds is deleted; one that fails is tried again later, and gives up after
 * MAX_ATTEMPTS tries with its last error kept. A failure is logged and never reaches the
 * request that queued the job.
 */
export function createJobRunner(options: {
  db: Db;
  now: () => Date;
  log: FastifyBaseLogger;
  pollMs: number;
}): JobRunner {
  const { db, now, log } = options;
  const handlers = new Map<string, (payload: unknown, context: JobContext) => Promise<void>>();
  const schedules = new Map<string, (after: Date) => Date>();
  /** When each schedule is next due, as last read: until then a pass need not ask. */
  const knownDue = new Map<string, number>();
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let running: Promise<void> | null = null;
  let again = false;

  async function claim(at: Date) {
    const due = db
      .select({ id: jobs.id })
      .from(jobs)
      .where(
        and(
          isNull(jobs.failedAt),
          lte(jobs.runAt, at),
          or(isNull(jobs.lockedUntil), lte(jobs.lockedUntil, at)),
        ),
      )
      .orderBy(asc(jobs.runAt), asc(jobs.id))
      .limit(BATCH)
      .for('update', { skipLocked: true });
    const claimed = await db
      .update(jobs)
      .set({
        lockedUntil: new Date(at.getTime() + LEASE_MS),
        attempts: sql`${jobs.attempts} + 1`,
      })
      .where(inArray(jobs.id, due))
      .returning();
    // UPDATE ... RETURNING keeps no order: run them in the order they were queued, so two
    // mails about one thing (assigned, then removed) go out in the order it happened.
    return claimed.sort((a, b) => a.runAt.getTime() - b.runAt.getTime() || a.id - b.id);
  }

  /**
   * Queues the job of each schedule whose due time has come. The row is locked while it
   * moves on to the next due time, and the job is queued in that same transaction: of
   * several processes, the one that moves it queues the job, and the others skip the
   * locked row or find it moved on.
   */
  async function queueDue(at: Date) {
    for (const [kind, nextDue] of schedules) {
      if ((knownDue.get(kind) ?? 0) > at.getTime()) continue;
      const next = await db.transaction(async (tx) => {
        await tx
          .insert(jobSchedules)
          .values({ kind, nextDueAt: nextDue(at) })
          .onConflictDoNothing();
        const [row] = await tx
          .select()
          .from(jobSchedules)
          .where(eq(jobSchedules.kind, kind))
          .for('update', { skipLocked: true });
        // Another process is moving it on right now: look again at the next pass.
        if (!row) return 0;
        if (row.nextDueAt > at) return row.nextDueAt.getTime();
        await enqueueJob(
          tx,
          kind,
          { dueAt: row.nextDueAt.toISOString() } satisfies ScheduledRun,
          at,
        );
        const following = nextDue(at);
        await tx
          .update(jobSchedules)
          .set({ nextDueAt: following })
          .where(eq(jobSchedules.kind, kind));
        return following.getTime();
      });
      knownDue.set(kind, next);
    }
  }

  async function runOne(job: typeof jobs.$inferSelect) {
    const handler = handlers.get(job.kind);
    const at = now();
    try {
      if (!handler) throw new Error(`No handler for jobs of kind "${job.kind}".`);
      await handler(job.payload, { db, now: at, log });
      await db.delete(jobs).where(eq(jobs.id, job.id));
    } catch (error) {
      const giveUp = job.attempts >= MAX_ATTEMPTS;
      const message = error instanceof Error ? error.message : String(error);
      log.error(
        { err: error, jobId: job.id, kind: job.kind, attempts: job.attempts, giveUp },
        giveUp ? 'job failed for the last time' : 'job failed; it will be tried again',
      );
      await db
        .update(jobs)
        .set({
          lockedUntil: null,
          lastError: message.slice(0, 2000),
          ...(giveUp
            ? { failedAt: at }
            : { runAt: new Date(at.getTime() + retryDelayMs(job.attempts)) }),
        })
        .where(eq(jobs.id, job.id));
    }
  }

  async function passes() {
    do {
      again = false;
      await queueDue(now());
      let claimed;
      do {
        claimed = await claim(now());
        for (const job of claimed) await runOne(job);
      } while (claimed.length === BATCH);
    } while (again && !stopped);
  }

  function pass(): Promise<void> {
    if (running) {
      again = true;
      return running;
    }
    running = passes()
      .catch((error: unknown) =>
        log.error({ err: error }, 'the job runner could not read its jobs'),
      )
      .finally(() => {
        running = null;
      });
    return running;
  }

  return {
    handle(kind, handler) {
      handlers.set(kind, handler as (payload: unknown, context: JobContext) => Promise<void>);
    },
    schedule(kind, nextDue, handler) {
      handlers.set(kind, handler as (payload: unknown, context: JobContext) => Promise<void>);
      schedules.set(kind, nextDue);
    },
    nudge() {
      if (!stopped) void pass();
    },
    async drain() {
      // A pass under way may have claimed its batch before the caller's job was queued.
      while (running) await running;
      await pass();
    },
    start() {
      stopped = false;
      timer ??= setInterval(() => void pass(), options.pollMs);
      timer.unref();
    },
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      timer = undefined;
      while (running) await running;
    },
  };
}
