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

/** The server's log settings (Fastify's own request serializer, with the address redacted). */
export function loggerOptions(
  level: string,
): FastifyLoggerOptions & { level: string; redact: string[] } {
  return {
    level,
    redact: ['req.headers.authorization', 'req.headers.cookie'],
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
