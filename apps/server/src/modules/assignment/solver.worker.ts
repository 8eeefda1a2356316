import { parentPort } from 'node:worker_threads';
import { proposeAssignment, type AssignmentProblem } from '@merit/domain';
import type { SolverReply } from './solver-thread.js';

/**
 * The worker thread of Propose, started by solver-thread.ts: it runs the solver, which
 * takes seconds of CPU on a large call, away from the server's own thread, and tells the
 * server how far it has got now and then.
 */

/** Progress goes out at most this often: the server writes it to the run's row. */
const PROGRESS_EVERY_MS = 250;

const port = parentPort!;

port.on('message', (problem: AssignmentProblem) => {
  const post = (reply: SolverReply) => port.postMessage(reply);
  let last = -Infinity;
  try {
    const result = proposeAssignment(problem, (fraction) => {
      const at = performance.now();
      if (at - last < PROGRESS_EVERY_MS) return;
      last = at;
      post({ progress: fraction });
    });
    post({ result });
  } catch (error) {
    post({ error: error instanceof Error ? error.message : String(error) });
  }
});
