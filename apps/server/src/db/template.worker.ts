/**
 * The worker thread that writes the embedded database's template into a new folder
 * (db/template.ts). Its own thread, with synchronous file calls, so the writing neither
 * waits for the main thread, busy loading the server's code, nor queues behind that
 * loading in libuv's four-thread pool.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { workerData } from 'node:worker_threads';
import { gunzipSync } from 'node:zlib';
import { Parser, type ReadEntry } from 'tar';

const { templateFile, folder } = workerData as { templateFile: string; folder: string };

const FILE_TYPES = new Set(['File', 'OldFile', 'ContiguousFile']);

// In memory, so reading the archive waits for nothing but the CPU: node-tar's parser,
// given the whole archive at once, hands over each entry and its bytes before it returns.
// PGlite's tarball names its entries from the root ("/base/5/…").
const parser = new Parser({
  strict: true,
  onReadEntry: (entry: ReadEntry) => {
    const target = path.join(folder, entry.path.replace(/^\/+/, ''));
    if (entry.type === 'Directory') {
      mkdirSync(target, { recursive: true, mode: 0o700 });
      entry.resume();
    } else if (FILE_TYPES.has(entry.type)) {
      mkdirSync(path.dirname(target), { recursive: true, mode: 0o700 });
      const chunks: Buffer[] = [];
      entry.on('end', () => writeFileSync(target, Buffer.concat(chunks), { mode: 0o600 }));
      entry.on('data', (chunk: Buffer) => chunks.push(chunk));
    } else entry.resume();
  },
});
parser.end(gunzipSync(readFileSync(templateFile)));
