import { createReadStream, existsSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import { errorCodes } from '@merit/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { apiNotFoundBody } from './errors.js';

/** Vite puts content-hashed files here; their names change whenever their content does. */
const HASHED_ASSETS = `${path.sep}assets${path.sep}`;

/**
 * Serves the built web app: hashed assets cached for a year, everything else
 * revalidated, and every non-API path that is not a file answered with index.html so
 * the browser's router can show the page (or its own not-found view).
 */
export async function registerWeb(app: FastifyInstance): Promise<void> {
  const { webDir, manualPath } = app.config;
  const hasWeb = existsSync(path.join(webDir, 'index.html'));
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: webDir,
      prefix: '/',
      index: ['index.html'],
      // @fastify/static serves dotfiles by default: a .git or .env that found its way into
      // the web folder would be handed out (ASVS V4.3.2). Ignored, they are page paths.
      dotfiles: 'ignore',
      // One route per built file, found once at start: the catch-all route read the assets
      // folder (~500 entries) on every request to check the path's spelling, which held a
      // first load's ~100 scripts at ~200 a second. A build is followed by a restart anyway.
      wildcard: false,
      // The build writes a .br and a .gz beside each file (apps/web/vite.config.ts): sent as
      // they are, with no compressing per request; a file without them falls through to
      // the compress plugin.
      preCompressed: true,
      cacheControl: false,
      etag: true,
      lastModified: true,
      setHeaders(reply, filePath) {
        reply.header(
          'cache-control',
          filePath.includes(HASHED_ASSETS) ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      },
    });
  } else {
    app.log.warn({ webDir }, 'the web app is not built; run `npm run build` to serve it');
  }

  app.get(
    '/help/manual.pdf',
    { config: { access: 'public' }, schema: { hide: true } },
    async (_request, reply) => {
      const info = await stat(manualPath).catch(() => null);
      if (!info?.isFile()) {
        return reply.code(404).send({
          detail: 'The user manual has not been built. Run `npm run build` on the server.',
          code: errorCodes.notFound,
        });
      }
      return reply
        .type('application/pdf')
        .header('content-disposition', 'inline; filename="merit-manual.pdf"')
        .header('content-length', info.size)
        .header('cache-control', 'no-cache')
        .send(createReadStream(manualPath));
    },
  );

  app.setNotFoundHandler((request: FastifyRequest, reply: FastifyReply) => {
    const pathname = request.url.split('?')[0] ?? '';
    const isPage = request.method === 'GET' || request.method === 'HEAD';
    if (pathname === '/api' || pathname.startsWith('/api/') || !isPage || !hasWeb) {
      return reply.code(404).send(apiNotFoundBody());
    }
    // Unknown asset files are real 404s; only page paths fall back to the app.
    if (pathname.startsWith('/assets/')) return reply.code(404).send(apiNotFoundBody());
    return reply.header('cache-control', 'no-cache').type('text/html').sendFile('index.html');
  });
}
