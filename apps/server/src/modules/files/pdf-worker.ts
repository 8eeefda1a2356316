import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker, type ResourceLimits } from 'node:worker_threads';

/**
 * Parsing uploaded PDFs away from the server's own thread (ASVS V12.1.2). A small PDF can
 * make pdf-lib build gigabytes (an object stream that inflates without end, a page tree
 * whose branches repeat); in a worker thread with its own heap limit and a time limit,
 * such a file ends the worker, the extract names it as left out, and the server goes on.
 * The worker's code is pdf.worker.ts.
 */

export type PdfJob =
  | {
      id: number;
      kind: 'inspect';
      bytes: Uint8Array;
      /** A file of more pages cannot be merged: its problem is `tooManyPages`. */
      maxPages: number;
      tooManyPages: string;
    }
  | { id: number; kind: 'merge'; documents: Uint8Array[]; title: string; subject: string };

/** What the worker answers: an inspected file's pages, why a file cannot be merged, or the merged PDF. */
export type PdfReply =
  | { id?: number; pages: number }
  | { id?: number; problem: string }
  | { id?: number; failedAt: number; problem: string }
  | { id?: number; pdf: Uint8Array }
  /** Progress of a merge: it is loading document `at`. */
  | { id?: number; at: number };

export interface PdfWorkerLimits {
  /** The worker's heap (V8's old generation), in MB. */
  heapMb: number;
  /** How long one job (inspecting one file, or the merge) may take. */
  timeoutMs: number;
}

/**
 * 256 MB of heap: merging the most an extract merges (50 MB of uploads, 2,000 pages) needs
 * a fraction of it, and a worker that reaches it has taken about twice that of the
 * process's memory before it ends. 60 s: a large merge on a busy 2-core machine takes seconds.
 */
export const PDF_WORKER_LIMITS: PdfWorkerLimits = { heapMb: 256, timeoutMs: 60_000 };

const here = import.meta.url;

/**
 * The worker thread. Built (`npm start`), it is dist/pdf-worker.js beside the chunk that
 * runs this; from source (tests, `npm run dev`), tsx compiles pdf.worker.ts as it loads,
 * since Node 20 cannot start a worker from a .ts file itself.
 */
function startWorker(limits: PdfWorkerLimits): Worker {
  const resourceLimits: ResourceLimits = {
    maxOldGenerationSizeMb: limits.heapMb,
    maxYoungGenerationSizeMb: 32,
  };
  if (!here.endsWith('.ts'))
    return new Worker(new URL('./pdf-worker.js', here), { resourceLimits });
  const source = new URL('./pdf.worker.ts', here).href;
  // tsx's ES module entry: require.resolve finds its CommonJS one beside it.
  const tsx = pathToFileURL(
    createRequire(here)
      .resolve('tsx/esm/api')
      .replace(/\.cjs$/, '.mjs'),
  ).href;
  return new Worker(
    `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(source)}); });`,
    { eval: true, resourceLimits },
  );
}

/** A job the worker did not finish: it ran out of memory or time, or died otherwise. */
export interface PdfWorkerFailure {
  failed: string;
  /** For a merge: the document it was loading. */
  at: number | null;
}

/**
 * One worker for one extract: jobs run one at a time; a job that kills the worker or runs
 * out of time answers a failure, and the next job starts a fresh worker.
 */
export class PdfWorker {
  private worker: Worker | null = null;
  private nextId = 1;

  constructor(private readonly limits: PdfWorkerLimits = PDF_WORKER_LIMITS) {}

  run(job: Omit<Extract<PdfJob, { kind: 'inspect' }>, 'id'>): Promise<PdfReply | PdfWorkerFailure>;
  run(job: Omit<Extract<PdfJob, { kind: 'merge' }>, 'id'>): Promise<PdfReply | PdfWorkerFailure>;
  run(job: Omit<PdfJob, 'id'>): Promise<PdfReply | PdfWorkerFailure> {
    const worker = (this.worker ??= startWorker(this.limits));
    const id = this.nextId++;
    return new Promise((resolve) => {
      let at: number | null = null;
      const finish = (result: PdfReply | PdfWorkerFailure, broken: boolean) => {
        clearTimeout(timer);
        worker.off('message', onMessage).off('error', onError).off('exit', onExit);
        if (broken) {
          if (this.worker === worker) this.worker = null;
          void worker.terminate();
        }
        resolve(result);
      };
      const onMessage = (reply: PdfReply) => {
        if (reply.id !== id) return;
        if ('at' in reply) at = reply.at;
        else finish(reply, false);
      };
      const onError = (error: Error & { code?: string }) =>
        finish(
          {
            failed:
              error.code === 'ERR_WORKER_OUT_OF_MEMORY'
                ? `reading it needed more than the ${this.limits.heapMb} MB of memory one file may use (it may be a decompression bomb)`
                : 'the PDF reader failed while reading it',
            at,
          },
          true,
        );
      const onExit = () => finish({ failed: 'the PDF reader stopped while reading it', at }, true);
      const timer = setTimeout(
        () =>
          finish(
            {
              failed: `reading it took longer than the ${this.limits.timeoutMs / 1000} seconds one file may take`,
              at,
            },
            true,
          ),
        this.limits.timeoutMs,
      );
      worker.on('message', onMessage).on('error', onError).on('exit', onExit);
      worker.postMessage({ ...job, id } as PdfJob);
    });
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    await worker?.terminate();
  }
}
