import type { AssignmentProblem, AssignmentResult } from '@merit/domain';
import { startWorkerThread } from '../../platform/io/worker-thread.js';

/**
 * Propose's solver in a worker thread of its own (solver.worker.ts): a call of 10,000
 * proposals and 300 members keeps a core busy for seconds, which on the server's thread
 * would stall every request meanwhile. One thread per run, ended when it answers: runs
 * are rare, and a thread that ran out of memory or time takes nothing else down with it.
 */

/** What the worker sends: progress now and then, then the result or why it failed. */
export type SolverReply = { progress: number } | { result: AssignmentResult } | { error: string };

export interface SolverLimits {
  /** The thread's heap (V8's old generation), in MB. */
  heapMb: number;
  /** How long one run may take. */
  timeoutMs: number;
}

/**
 * 1 GB of heap: the network of a 10,000 x 300 call lives in typed arrays outside it, and
 * the problem and its answer take tens of MB. Four minutes: such a call takes seconds on
 * a 2-core machine, so a run still going then is going nowhere; and it ends before the job
 * runner's lease on the job (five minutes), after which another process would take the
 * job and start the same run again.
 */
export const SOLVER_LIMITS: SolverLimits = { heapMb: 1024, timeoutMs: 4 * 60_000 };

/** Solves `problem` in a new worker thread; rejects with a reason a person can read. */
export function solveInWorker(
  problem: AssignmentProblem,
  onProgress: (fraction: number) => void,
  limits: SolverLimits = SOLVER_LIMITS,
): Promise<AssignmentResult> {
  const worker = startWorkerThread(
    import.meta.url,
    { built: './assignment-solver.js', source: './solver.worker.ts' },
    { resourceLimits: { maxOldGenerationSizeMb: limits.heapMb } },
  );
  return new Promise((resolve, reject) => {
    let done = false;
    const finish = (outcome: AssignmentResult | Error) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      worker.removeAllListeners();
      void worker.terminate();
      if (outcome instanceof Error) reject(outcome);
      else resolve(outcome);
    };
    const timer = setTimeout(
      () => finish(new Error(`The solver took longer than ${limits.timeoutMs / 60_000} minutes.`)),
      limits.timeoutMs,
    );
    worker.on('message', (reply: SolverReply) => {
      if ('progress' in reply) onProgress(reply.progress);
      else if ('result' in reply) finish(reply.result);
      else finish(new Error(`The solver failed: ${reply.error}`));
    });
    worker.on('error', (error: Error & { code?: string }) =>
      finish(
        error.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? new Error(`The solver needed more than ${limits.heapMb} MB of memory.`)
          : error,
      ),
    );
    worker.on('exit', (code) =>
      finish(new Error(`The solver's thread stopped (exit code ${code}).`)),
    );
    worker.postMessage(problem);
  });
}
