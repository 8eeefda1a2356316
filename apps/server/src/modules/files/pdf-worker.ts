import type { ResourceLimits, Worker } from 'node:worker_threads';
import type { TDocumentDefinitions } from 'pdfmake/interfaces';
import { startWorkerThread } from '../../platform/io/worker-thread.js';
import type { ExtractInput, StoredFile } from './extract-input.js';

/**
 * The proposal extract's PDF work, away from the server's own thread: parsing uploaded
 * PDFs (ASVS V12.1.2), laying out the extract's own pages with pdfmake, and merging them.
 * A small PDF can make pdf-lib build gigabytes (an object stream that inflates without
 * end, a page tree whose branches repeat); in a worker thread with its own heap limit and
 * a time limit, such a file ends the worker, the extract names it as left out, and the
 * server goes on. Laying out a long proposal takes seconds of CPU, which on the server's
 * thread would stall every request meanwhile. A pool (`PdfWorkerPool`) bounds how many
 * worker threads run at once. Documents laid out elsewhere (a decision letter) are
 * rendered there too, for the same reason. The worker's code is pdf.worker.ts.
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
  /** The whole extract: its pages laid out, then merged with the PDFs in `loaded`. */
  | { id: number; kind: 'extract'; input: ExtractInput; loaded: Map<number, StoredFile> }
  /**
   * A document laid out by its caller (letters/letter-pdf.ts), rendered in Roboto: it must
   * survive structured cloning, so plain data only (no functions, as in a table's layout).
   */
  | { id: number; kind: 'render'; definition: TDocumentDefinitions };

/**
 * What the worker answers: an inspected file's pages or why it cannot be merged; the
 * extract, or why it could not be made.
 */
export type PdfReply =
  | { id?: number; pages: number }
  | { id?: number; problem: string }
  | { id?: number; pdf: Uint8Array }
  /** Progress of an extract's merge: it is copying the pages of file `at` (null: its own). */
  | { id?: number; at: number | null };

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

/**
 * The worker thread: dist/pdf-worker.js when built, pdf.worker.ts from source
 * (platform/io/worker-thread.ts says how).
 */
function startWorker(limits: PdfWorkerLimits): Worker {
  const resourceLimits: ResourceLimits = {
    maxOldGenerationSizeMb: limits.heapMb,
    maxYoungGenerationSizeMb: 32,
  };
  return counted(
    startWorkerThread(
      import.meta.url,
      { built: './pdf-worker.js', source: './pdf.worker.ts' },
      { resourceLimits },
    ),
  );
}

function counted(worker: Worker): Worker {
  pdfWorkerThreads.live += 1;
  pdfWorkerThreads.peak = Math.max(pdfWorkerThreads.peak, pdfWorkerThreads.live);
  worker.once('exit', () => (pdfWorkerThreads.live -= 1));
  return worker;
}

/** A job the worker did not finish: it ran out of memory or time, or died otherwise. */
export interface PdfWorkerFailure {
  failed: string;
  /** For an extract: the file whose pages it was copying (null: none, or its own pages). */
  at: number | null;
}

/** Worker threads alive now, and the most alive at once since `peak` was last set. */
export const pdfWorkerThreads = { live: 0, peak: 0 };

/**
 * One worker thread, started at its first job: jobs run one at a time; a job that kills
 * the worker or runs out of time answers a failure, and the next job starts a fresh one.
 * Between jobs the thread does not keep the process alive.
 */
export class PdfWorker {
  private worker: Worker | null = null;
  private nextId = 1;

  constructor(private readonly limits: PdfWorkerLimits = PDF_WORKER_LIMITS) {}

  run(job: Omit<Extract<PdfJob, { kind: 'inspect' }>, 'id'>): Promise<PdfReply | PdfWorkerFailure>;
  run(job: Omit<Extract<PdfJob, { kind: 'extract' }>, 'id'>): Promise<PdfReply | PdfWorkerFailure>;
  run(job: Omit<Extract<PdfJob, { kind: 'render' }>, 'id'>): Promise<PdfReply | PdfWorkerFailure>;
  run(job: Omit<PdfJob, 'id'>): Promise<PdfReply | PdfWorkerFailure> {
    const worker = (this.worker ??= startWorker(this.limits));
    worker.ref();
    const id = this.nextId++;
    return new Promise((resolve) => {
      let at: number | null = null;
      const finish = (result: PdfReply | PdfWorkerFailure, broken: boolean) => {
        clearTimeout(timer);
        worker.off('message', onMessage).off('error', onError).off('exit', onExit);
        if (broken) {
          if (this.worker === worker) this.worker = null;
          void worker.terminate();
        } else worker.unref();
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

/**
 * The PDF worker threads of one server: at most `size` at once, whatever the number of
 * extracts asked for. Each extract leases a worker for all of its jobs; the others wait
 * their turn, first come first served. A worker kept between extracts has pdfmake, its
 * fonts and pdf-lib loaded already.
 */
export class PdfWorkerPool {
  private readonly idle: PdfWorker[] = [];
  private readonly waiting: (() => void)[] = [];
  private leased = 0;
  private closed = false;

  constructor(
    readonly size: number,
    private readonly limits: PdfWorkerLimits = PDF_WORKER_LIMITS,
  ) {}

  /** Runs `use` with a worker of its own, once one of the `size` is free. */
  async run<T>(use: (worker: PdfWorker) => Promise<T>): Promise<T> {
    if (this.leased < this.size) this.leased += 1;
    // A lease that ends hands its place to the first waiting.
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    const worker = this.idle.pop() ?? new PdfWorker(this.limits);
    try {
      return await use(worker);
    } finally {
      if (this.closed) void worker.close();
      else this.idle.push(worker);
      const next = this.waiting.shift();
      if (next) next();
      else this.leased -= 1;
    }
  }

  /** Ends the idle workers; those in use end when their extract is done. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.idle.splice(0).map((worker) => worker.close()));
  }
}
