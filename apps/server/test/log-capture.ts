import { Writable } from 'node:stream';

/** What a test app logged: every line as written, and the parsed entries `keep` chose. */
export interface LogCapture<Entry> {
  /** The app's log stream: `createTestApp({ logger: { ..., stream } })`. */
  stream: Writable;
  lines: string[];
  entries: Entry[];
}

/**
 * A log stream that keeps what the app writes, for a test to search (for secrets that must
 * not be there, for the security events that must). Each line is one pino JSON entry.
 */
export function captureLog<Entry extends object = Record<string, unknown>>(
  keep: (entry: Entry) => boolean = () => true,
): LogCapture<Entry> {
  const lines: string[] = [];
  const entries: Entry[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n')) {
        if (line === '') continue;
        lines.push(line);
        const entry = JSON.parse(line) as Entry;
        if (keep(entry)) entries.push(entry);
      }
      done();
    },
  });
  return { stream, lines, entries };
}

/** The security events a test app logged (`securityEvent` lines), in order. */
export const captureSecurityEvents = <
  Event extends { securityEvent: string } = {
    securityEvent: string;
    userId: number | null;
    [field: string]: unknown;
  },
>() => captureLog<Event>((entry) => typeof entry.securityEvent === 'string');
