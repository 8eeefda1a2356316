import type { FastifyBaseLogger } from 'fastify';
import { and, asc, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.js';
import { jobs } from '../../db/schema.js';

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

export interface JobRunner {
  /** Registers the handler of one kind of job. */
  handle<P>(kind: string, handler: (payload: P, context: JobContext) => Promise<void>): void;
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
