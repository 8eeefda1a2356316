import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin, type Rolldown } from 'vite';

/** The API server (apps/server) in development; it also serves the Help PDF. */
const apiServer = process.env.MERIT_API_URL ?? 'http://localhost:3000';
const proxy = { '/api': apiServer, '/help': apiServer };

/** The page a visitor meets first: most addresses show it to anyone not signed in. */
const FIRST_PAGE = /[\\/]src[\\/]routes[\\/]auth[\\/]LoginPage\.tsx$/;

/**
 * Names the login page's whole chunk graph in index.html as `<link rel="modulepreload">`,
 * beside the entry's own. Otherwise the browser learns of the page's chunks only once the
 * entry has run (preloadFirstRoute in routes.tsx): a second wave of requests at best, and
 * a third when the preloads race the entry's imports. With the links it fetches the first
 * page's scripts in one wave, while the page chunk itself stays lazy (the links fetch and
 * parse, nothing runs until the import). Static links only: the CSP forbids inline scripts.
 * The price: a signed-in first load also fetches the login page's own few files (8 small
 * chunks, about 4.5 KB gzip, never run); every other page's chunks stay lazy.
 */
function preloadFirstPage(): Plugin {
  let base = '/';
  return {
    name: 'merit:preload-first-page',
    apply: 'build',
    configResolved(config) {
      base = config.base;
    },
    transformIndexHtml: {
      order: 'post',
      handler(html, { bundle }) {
        if (!bundle) return;
        const chunks = Object.values(bundle).filter(
          (output): output is Rolldown.OutputChunk => output.type === 'chunk',
        );
        const page = chunks.find(
          (chunk) => chunk.facadeModuleId && FIRST_PAGE.test(chunk.facadeModuleId),
        );
        if (!page) throw new Error('preloadFirstPage: no chunk for the login page in the build.');
        const files = new Set<string>();
        const visit = (fileName: string) => {
          if (files.has(fileName)) return;
          files.add(fileName);
          const chunk = bundle[fileName];
          if (chunk?.type === 'chunk') chunk.imports.forEach(visit);
        };
        visit(page.fileName);
        return [...files]
          .filter((fileName) => !html.includes(`"${base}${fileName}"`))
          .map((fileName) => ({
            tag: 'link',
            attrs: { rel: 'modulepreload', crossorigin: true, href: `${base}${fileName}` },
            injectTo: 'head' as const,
          }));
      },
    },
  };
}

/** Style modules: their chunks stay files, so that each sheet is emitted once. */
const STYLE_SHEET = /\.css(?:\?|$)/;

/** Built files smaller than this are not worth a compressed copy (nor does the server compress them). */
const PRECOMPRESS_MIN_BYTES = 1024;
const COMPRESSIBLE = /\.(?:js|css|html|svg|json|txt)$/;
const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * Writes a Brotli (`.br`, quality 11) and a gzip (`.gz`, level 9) copy beside every built
 * text file, once, at build time, for the server to send as they are (@fastify/static
 * `preCompressed`). Compressed on the fly, each of the ~80 scripts of a signed-in first
 * load cost the thread that also answers the API about 8 ms, and got a weaker Brotli.
 */
function precompress(): Plugin {
  return {
    name: 'merit-precompress',
    apply: 'build',
    async writeBundle(options, bundle) {
      const dir = options.dir ?? 'dist';
      await Promise.all(
        Object.keys(bundle)
          .filter((name) => COMPRESSIBLE.test(name))
          .map(async (name) => {
            const file = path.join(dir, name);
            const body = await readFile(file);
            if (body.length < PRECOMPRESS_MIN_BYTES) return;
            const [br, gz] = await Promise.all([
              brotli(body, {
                params: {
                  [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
                  [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
                },
              }),
              gzipAsync(body, { level: 9 }),
            ]);
            await Promise.all([writeFile(`${file}.br`, br), writeFile(`${file}.gz`, gz)]);
          }),
      );
    },
  };
}

export default defineConfig({
  plugins: [react(), preloadFirstPage(), precompress()],
  server: { port: 5173, proxy },
  preview: { port: 4173, proxy },
  build: {
    outDir: 'dist',
    assetsDir: 'assets',
    emptyOutDir: true,
    rolldownOptions: {
      output: {
        codeSplitting: {
          // Each page's code came in ~100 scripts, most of them a few hundred bytes: the common
          // chunks of every set of pages that share a module. A first load of a signed-in page
          // spent a second on them, six at a time over HTTP/1.1 (bench figures (e) and (h)).
          // Common chunks under 20 KB are copied into the chunks that use them instead, with
          // one module state across the copies (Rolldown's registry), so a page loads ~25.
          // The price is the registry's wrappers: the login page's JavaScript grew ~5 KB gzip.
          experimentalInlineCommonChunks: { maxSize: 20 * 1024, exclude: STYLE_SHEET },
        },
      },
      treeshake: {
        // @merit/domain is pure (no I/O, nothing runs on import), but nothing tells the
        // bundler so: without this, every page that imports anything from it also loads
        // the chunk of rules other pages share, the login page included.
        moduleSideEffects: [{ test: /[\\/]packages[\\/]domain[\\/]src[\\/]/, sideEffects: false }],
      },
    },
  },
});
