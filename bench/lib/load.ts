/**
 * A load generator for figure (c): simulated browsers, each with its own kept-alive
 * connections from its own loopback address (127.0.0.x, so the server and the proxy see
 * as many client addresses as there are browsers, as in a real deadline spike), every
 * request timed from send to the last byte of its answer. Plain node:http: no parsing or
 * pooling beyond what a browser does, so the generator costs little CPU, and it measures
 * what it costs (`cpuMeter`) so a run can say whether it was the bottleneck.
 *
 * Also what (c) and (g) read of other processes: CPU time and RSS from /proc.
 */
import { Agent, request as httpRequest } from 'node:http';
import { readFileSync } from 'node:fs';
import { TAB_HEADER } from '@merit/contract';

export interface Timed {
  /** What was asked, for the per-kind figures: 'lock', 'save', 'health', 'release'. */
  kind: string;
  status: number;
  /** performance.now() when sent and when the whole answer had arrived. */
  sentAt: number;
  doneAt: number;
  body: string;
  /** A connection error or timeout; status is 0 then. */
  error?: string;
}

/**
 * One browser: its own address and its own kept-alive connections (browsers keep 6). With
 * `tab`, one tab of it: every request names the tab in TAB_HEADER, as the web app's do.
 */
export class Browser {
  private readonly agent: Agent;

  constructor(
    private readonly base: URL,
    readonly localAddress: string,
    private readonly token: string | null,
    private readonly tab?: string,
  ) {
    this.agent = new Agent({ keepAlive: true, maxSockets: 6, localAddress });
  }

  send(kind: string, method: string, path: string, body?: unknown): Promise<Timed> {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const headers: Record<string, string> = { accept: 'application/json' };
    if (this.token) headers.authorization = `Token ${this.token}`;
    if (this.tab) headers[TAB_HEADER] = this.tab;
    if (payload !== undefined) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = String(Buffer.byteLength(payload));
    }
    const sentAt = performance.now();
    return new Promise((resolve) => {
      const req = httpRequest(
        {
          host: this.base.hostname,
          port: this.base.port,
          method,
          path,
          headers,
          agent: this.agent,
          timeout: 30_000,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () =>
            resolve({
              kind,
              status: res.statusCode ?? 0,
              sentAt,
              doneAt: performance.now(),
              body: Buffer.concat(chunks).toString('utf8'),
            }),
          );
          res.on('error', (error) =>
            resolve({
              kind,
              status: 0,
              sentAt,
              doneAt: performance.now(),
              body: '',
              error: error.message,
            }),
          );
        },
      );
      req.on('timeout', () => req.destroy(new Error('no answer within 30 s')));
      req.on('error', (error) =>
        resolve({
          kind,
          status: 0,
          sentAt,
          doneAt: performance.now(),
          body: '',
          error: error.message,
        }),
      );
      req.end(payload);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

/** The n-th browser's loopback address: 127.0.1.1, 127.0.1.2, ... (all reach 127.0.0.1). */
export function loopbackAddress(n: number): string {
  return `127.0.${1 + Math.floor(n / 250)}.${1 + (n % 250)}`;
}

export const sleep = (ms: number) =>
  new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, ms)));

/**
 * Calls `fn` every `periodMs` from `startAt` (performance.now() time) until `endAt`, one
 * call at a time: a call that runs late delays the next, as a browser's timer would, and
 * never overlaps it.
 */
export async function every(
  periodMs: number,
  startAt: number,
  endAt: number,
  fn: () => Promise<void>,
): Promise<void> {
  for (let k = 0; ; k++) {
    const due = startAt + k * periodMs;
    if (due >= endAt) return;
    await sleep(due - performance.now());
    await fn();
  }
}

/** Clock ticks a second, for /proc/<pid>/stat's utime and stime (100 on Linux). */
const TICKS_PER_SECOND = 100;

/** CPU seconds (user + system) a process has used so far, from /proc/<pid>/stat. */
export function cpuSecondsOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name may hold spaces; the fields after it are plain.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

/** Resident memory of a process now, in MB (1,000,000 bytes), from /proc/<pid>/status. */
export function rssMbOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = /^VmRSS:\s+(\d+) kB/m.exec(status);
  if (!kb) throw new Error(`No VmRSS for process ${pid}.`);
  return (Number(kb[1]) * 1024) / 1e6;
}

/**
 * CPU used between start and stop as a share of one core, in percent: for this process
 * (the load generator) and for the given ones (the servers, the proxy).
 */
export function cpuMeter(pids: Record<string, number>) {
  const startedAt = performance.now();
  const ownStart = process.cpuUsage();
  const othersStart = Object.fromEntries(
    Object.entries(pids).map(([name, pid]) => [name, cpuSecondsOf(pid)]),
  );
  return {
    stop(): Record<string, number> & { loadGenerator: number } {
      const seconds = (performance.now() - startedAt) / 1000;
      const own = process.cpuUsage(ownStart);
      const result: Record<string, number> = {
        loadGenerator: ((own.user + own.system) / 1e6 / seconds) * 100,
      };
      for (const [name, pid] of Object.entries(pids))
        result[name] = ((cpuSecondsOf(pid) - othersStart[name]!) / seconds) * 100;
      return result as Record<string, number> & { loadGenerator: number };
    },
  };
}

/** Samples a process's RSS every `everyMs` until stopped; the samples in MB. */
export function rssSampler(pid: number, everyMs = 500) {
  const samples: number[] = [rssMbOf(pid)];
  const timer = setInterval(() => {
    try {
      samples.push(rssMbOf(pid));
    } catch {
      // The process is gone; the samples so far stand.
    }
  }, everyMs);
  return {
    stop(): number[] {
      clearInterval(timer);
      return samples;
    },
  };
}
