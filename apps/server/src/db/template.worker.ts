/**
 * The worker thread that writes the embedded database's template into a new folder
 * (db/template.ts). Its own thread, with synchronous file calls, so the writing neither
 * waits for the main thread, busy loading the server's code, nor queues behind that
 * loading in libuv's four-thread pool.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { workerData } from 'node:worker_threads';
import { gunzipSync } from 'node:zlib';
import { readTar } from '../platform/io/tar.js';

const { templateFile, folder } = workerData as { templateFile: string; folder: string };

// In memory, so reading the archive waits for nothing but the CPU.
for await (const entry of readTar(Readable.from([gunzipSync(readFileSync(templateFile))]))) {
  const target = path.join(folder, entry.name.replace(/^\/+/, ''));
  if (entry.type === 'directory') mkdirSync(target, { recursive: true, mode: 0o700 });
  else if (entry.type === 'file') {
    mkdirSync(path.dirname(target), { recursive: true, mode: 0o700 });
    writeFileSync(target, await entry.read(), { mode: 0o600 });
  }
}
