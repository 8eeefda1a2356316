import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { MAX_UPLOAD_BYTES } from '@merit/domain';
import { clamdScanner } from '../src/platform/io/virus-scan.js';

/**
 * A real ClamAV daemon on loopback for the tests (Debian's clamav-daemon; `npm test` runs
 * scripts/ensure-clamav.mjs first). It loads one signature of its own, for the EICAR test
 * file, instead of ClamAV's databases, which freshclam would have to download.
 */

/** The EICAR anti-virus test file: harmless, and found by every scanner that has its signature. */
export const EICAR = Buffer.from(
  'X5O!P%@AP[4\\PZX54(P^)7CC)7}$EICAR-STANDARD-ANTIVIRUS-TEST-FILE!H+H*',
);
/** The name clamd reports for it: the signature's, marked as not ClamAV's own. */
export const EICAR_FOUND = 'Merit.Test.EICAR.UNOFFICIAL';
/** clamd's StreamMaxLength here: the largest upload (25 MB), as Debian's clamd.conf has it. */
export const STREAM_MAX_BYTES = MAX_UPLOAD_BYTES;

const CLAMD = process.env.CLAMD_PATH ?? '/usr/sbin/clamd';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface TestClamd {
  /** CLAMD_URL for it. */
  url: string;
  port: number;
  stop(): Promise<void>;
}

export async function startClamd(): Promise<TestClamd> {
  if (!existsSync(CLAMD))
    throw new Error(
      `${CLAMD} is missing: install ClamAV's daemon with "node scripts/ensure-clamav.mjs" (Debian's clamav-daemon), or point CLAMD_PATH at clamd.`,
    );
  const dir = await mkdtemp(path.join(os.tmpdir(), 'merit-clamd-'));
  const databases = path.join(dir, 'db');
  await mkdir(databases);
  // A body signature (.ndb): any target type, at any offset, the EICAR bytes in hex.
  await writeFile(
    path.join(databases, 'merit-test.ndb'),
    `${EICAR_FOUND.replace(/\.UNOFFICIAL$/, '')}:0:*:${EICAR.toString('hex')}\n`,
  );
  const port = await freePort();
  const config = path.join(dir, 'clamd.conf');
  await writeFile(
    config,
    [
      'Foreground yes',
      `DatabaseDirectory ${databases}`,
      'TCPAddr 127.0.0.1',
      `TCPSocket ${port}`,
      `StreamMaxLength ${STREAM_MAX_BYTES}`,
      // Its own temporary files in its own folder, gone with it.
      `TemporaryDirectory ${dir}`,
      '',
    ].join('\n'),
  );
  const child = spawn(CLAMD, ['--config-file', config], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await exited;
    }
    await rm(dir, { recursive: true, force: true });
  };
  const scanner = clamdScanner({ host: '127.0.0.1', port });
  const deadline = Date.now() + 30_000;
  while (!(await scanner.ping())) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`clamd did not start:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { url: `tcp://127.0.0.1:${port}`, port, stop };
}
