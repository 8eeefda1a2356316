import { assignmentMessages } from '@merit/domain';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { assignmentRuns, calls } from '../../db/schema.js';
import type { JobContext } from '../../platform/data/jobs.js';
import { loadProblem, problemDigest } from './assignment-problem.js';
import { solveInWorker, type SolverLimits } from './solver-thread.js';

/** What the propose job is given: the run it works out. */
export interface ProposeJob {
  runId: number;
}

/** The run's progress is written at most this often: the page polls it. */
const PROGRESS_WRITE_MS = 1000;

/**
 * Works out a proposed assignment (the job POST .../assignment/proposals/ queues): reads
 * the call's problem as it is now, keeps its digest, solves it in a worker thread with
 * its progress written to the run now and then, and stores the answer (ready) or why it
 * failed (failed). A run that was discarded meanwhile, or is no longer running (a job
 * tried again after its process stopped), is left as it is. A failure is the run's, not
 * the job's: the job is not tried again, the chair proposes again.
 */
export async function runProposal(
  { runId }: ProposeJob,
  { db, now, log }: JobContext,
  limits?: SolverLimits,
): Promise<void> {
  const [run] = await db.select().from(assignmentRuns).where(eq(assignmentRuns.id, runId));
  if (!run || run.state !== 'running') return;
  const stillRunning = and(eq(assignmentRuns.id, runId), eq(assignmentRuns.state, 'running'));
  let writes: Promise<unknown> = Promise.resolve();
  try {
    const [call] = await db.select().from(calls).where(eq(calls.id, run.callId));
    if (!call) return;
    const problem = await loadProblem(db, call, now, { redo: run.redo, seed: run.seed });
    let lastWrite = Date.now();
    const result = await solveInWorker(
      problem,
      (progress) => {
        // Wall-clock time, not the app's clock: this only paces the writes.
        if (Date.now() - lastWrite < PROGRESS_WRITE_MS) return;
        lastWrite = Date.now();
        writes = writes.then(() => writeProgress(db, runId, progress));
      },
      limits,
    );
    await writes;
    await db
      .update(assignmentRuns)
      .set({
        state: 'ready',
        progress: 1,
        inputDigest: problemDigest(problem),
        result,
        finishedAt: now,
      })
      .where(stillRunning);
  } catch (error) {
    log.error({ err: error, runId, callId: run.callId }, 'a proposed assignment failed');
    await writes.catch(() => {});
    await db
      .update(assignmentRuns)
      .set({ state: 'failed', error: assignmentMessages.failed, finishedAt: now })
      .where(stillRunning);
  }
}

/** The run's progress, while it still runs; a failed write only loses one update. */
async function writeProgress(db: Db, runId: number, progress: number): Promise<void> {
  await db
    .update(assignmentRuns)
    .set({ progress: Math.min(1, Math.max(0, progress)) })
    .where(and(eq(assignmentRuns.id, runId), eq(assignmentRuns.state, 'running')))
    .catch(() => {});
}
