import net from 'node:net';
import type { Readable } from 'node:stream';
import { describeClamd, type ClamdAddress } from '../../config/clamd.js';

/**
 * Uploaded files scanned for malware by ClamAV's daemon, clamd (OWASP ASVS V12.4.2), over
 * its INSTREAM command: the bytes go to clamd in chunks and it answers `stream: OK` or
 * `stream: <signature> FOUND`. Merit keeps no signatures itself; the clamd the operator
 * runs (CLAMD_URL) keeps its own up to date with freshclam.
 */

/** The answer for one file: clean, or the name of what clamd found in it. */
export type ScanResult = { clean: true } | { clean: false; signature: string };

/** clamd could not be reached, or answered something other than a verdict. */
export class ScannerUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ScannerUnavailableError';
  }
}

/** How long one scan may take, from connecting to the verdict, before the upload is refused. */
export const SCAN_TIMEOUT_MS = 60_000;
/** INSTREAM's chunks: each is sent after a 4-byte length; a zero length ends the stream. */
const CHUNK_BYTES = 64 * 1024;

/** One request to clamd on a new connection: `command` and then `body`'s chunks; its whole answer. */
function ask(
  address: ClamdAddress,
  command: string,
  body: Iterable<Buffer> | AsyncIterable<Buffer> | null,
  timeoutMs: number,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(address);
    const chunks: Buffer[] = [];
    let settled = false;
    const finish = (error: Error | null, answer?: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      if (error) reject(error);
      else resolve(answer!);
    };
    const timer = setTimeout(
      () =>
        finish(
          new ScannerUnavailableError(
            `clamd at ${describeClamd(address)} did not answer within ${timeoutMs / 1000} s`,
          ),
        ),
      timeoutMs,
    );
    socket.on('data', (data) => chunks.push(data));
    socket.on('end', () => finish(null, Buffer.concat(chunks).toString('utf8')));
    socket.on('error', (error) => {
      // clamd answers a stream past its StreamMaxLength and then hangs up mid-send: its
      // answer, when one came, says more than the broken pipe.
      if (chunks.length > 0) finish(null, Buffer.concat(chunks).toString('utf8'));
      else
        finish(
          new ScannerUnavailableError(`clamd at ${describeClamd(address)}: ${error.message}`, {
            cause: error,
          }),
        );
    });
    socket.on('connect', () => {
      void (async () => {
        // The z prefix: the command and its answer end with a NUL byte.
        socket.write(`z${command}\0`);
        if (body) {
          for await (const piece of body) {
            for (let at = 0; at < piece.length; at += CHUNK_BYTES) {
              const chunk = piece.subarray(at, at + CHUNK_BYTES);
              const length = Buffer.alloc(4);
              length.writeUInt32BE(chunk.length);
              // clamd reads as fast as it scans: wait for the socket rather than buffer a file.
              // A socket closed meanwhile (a timeout, an error) never drains.
              if (!socket.write(Buffer.concat([length, chunk])))
                await new Promise((drained) => {
                  socket.once('drain', drained);
                  socket.once('close', drained);
                });
              if (settled) return;
            }
          }
          socket.write(Buffer.alloc(4));
        }
        socket.end();
      })().catch((error: unknown) =>
        finish(error instanceof Error ? error : new Error(String(error))),
      );
    });
  });
}

const asChunks = (bytes: Readable | Buffer): Iterable<Buffer> | AsyncIterable<Buffer> =>
  Buffer.isBuffer(bytes) ? [bytes] : (bytes as AsyncIterable<Buffer>);

/** A clamd client for one address. */
export function clamdScanner(address: ClamdAddress, timeoutMs = SCAN_TIMEOUT_MS) {
  return {
    address,
    /** Sends the bytes to clamd and returns its verdict; ScannerUnavailableError if it gives none. */
    async scan(bytes: Readable | Buffer): Promise<ScanResult> {
      let answer;
      try {
        answer = (await ask(address, 'INSTREAM', asChunks(bytes), timeoutMs)).replace(/\0+$/, '');
      } finally {
        // A stream left part-read (no verdict) must not keep its file open.
        if (!Buffer.isBuffer(bytes)) bytes.destroy();
      }
      if (answer === 'stream: OK') return { clean: true };
      const found = /^stream: (.+) FOUND$/.exec(answer);
      if (found) return { clean: false, signature: found[1]! };
      // "INSTREAM size limit exceeded. ERROR" (the file passes clamd's StreamMaxLength),
      // or any other ERROR: no verdict, so the file is not taken.
      throw new ScannerUnavailableError(
        `clamd at ${describeClamd(address)} answered "${answer}" instead of a verdict`,
      );
    },
    /** Whether clamd answers PING with PONG. */
    async ping(): Promise<boolean> {
      try {
        return (await ask(address, 'PING', null, 5_000)).replace(/\0+$/, '') === 'PONG';
      } catch {
        return false;
      }
    },
  };
}

export type VirusScanner = ReturnType<typeof clamdScanner>;
