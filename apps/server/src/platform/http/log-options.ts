import type { FastifyLoggerOptions } from 'fastify';

/**
 * Query parameters that carry a secret: the spec's download links send the API token as
 * `token`, the web app's single-use downloads a `ticket`, and the identity provider
 * returns its one-time `code` to the federated login's callback. Every request is logged
 * with its address, so these would otherwise be written to the log in the clear.
 */
const SECRET_QUERY = /([?&](?:token|ticket|code)=)[^&#]*/gi;

/** The request's address as the log may keep it: secret query values replaced. */
export function redactUrl(url: string): string {
  return url.replace(SECRET_QUERY, '$1[redacted]');
}

/**
 * An error that says only that the other end of a response went away: a browser tab closed
 * or a download cancelled mid-way. end-of-stream (under @fastify/compress's pump) says
 * "premature close" with no code; Node's streams give the code. Not ECONNRESET or EPIPE:
 * those also come from the database, SMTP or S3, where they are the server's trouble.
 */
function isClientGone(value: unknown): boolean {
  const error =
    value instanceof Error ? value : (value as { err?: unknown } | null | undefined)?.err;
  if (!(error instanceof Error)) return false;
  const code = (error as NodeJS.ErrnoException).code;
  return (
    code === 'ERR_STREAM_PREMATURE_CLOSE' ||
    (code === undefined && error.message === 'premature close')
  );
}

const ERROR_LEVEL = 50;

/** pino's `hooks.logMethod` (Fastify hands these options to pino, which calls it per line). */
interface LogHooks {
  logMethod(
    this: { info(message: string): void; bindings(): Record<string, unknown> },
    args: unknown[],
    method: (...args: unknown[]) => void,
    level: number,
  ): void;
}

/** The server's log settings (Fastify's own request serializer, with the address redacted). */
export function loggerOptions(
  level: string,
): FastifyLoggerOptions & { level: string; redact: string[]; hooks: LogHooks } {
  return {
    level,
    redact: ['req.headers.authorization', 'req.headers.cookie'],
    hooks: {
      // A client that goes away mid-response is normal, not a fault of the server: the
      // compress plugin logs it as an error, which buried real ones (issue 30). It is kept
      // at info, as Fastify logs its own "stream closed prematurely"; every other error
      // stays an error.
      logMethod(args, method, level) {
        // Only a request's logger (it carries the request id): a response going away.
        if (level >= ERROR_LEVEL && isClientGone(args[0]) && 'reqId' in this.bindings()) {
          this.info('the client closed the connection before the response was complete');
          return;
        }
        method.apply(this, args);
      },
    },
    serializers: {
      req: (request) => {
        const req = request as typeof request & { ip?: string; host?: string };
        return {
          method: req.method,
          url: redactUrl(req.url ?? ''),
          host: req.host,
          remoteAddress: req.ip,
          remotePort: req.socket?.remotePort,
        };
      },
    },
  };
}
