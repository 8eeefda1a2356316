import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * Starts a worker thread from the module `from` (its `import.meta.url`), whichever way the
 * server runs. Built (`npm start`), the worker is its own entry of apps/server/build.mjs,
 * `built` (./name.js), in dist/ beside the chunk that runs `from`. From source (tests,
 * `npm run dev`), Node 20 cannot start a worker from a .ts file itself, so the thread
 * registers tsx first and then imports `source` (./name.worker.ts beside `from`), which
 * tsx compiles as it loads.
 */
export function startWorkerThread(
  from: string,
  files: { built: string; source: string },
  options: Omit<WorkerOptions, 'eval'> = {},
): Worker {
  if (!from.endsWith('.ts')) return new Worker(new URL(files.built, from), options);
  const source = new URL(files.source, from).href;
  // tsx's ES module entry: require.resolve finds its CommonJS one beside it.
  const tsx = pathToFileURL(
    createRequire(from)
      .resolve('tsx/esm/api')
      .replace(/\.cjs$/, '.mjs'),
  ).href;
  return new Worker(
    `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(source)}); });`,
    { ...options, eval: true },
  );
}
