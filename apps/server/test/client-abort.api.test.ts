import { randomBytes } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loggerOptions } from '../src/platform/http/log-options.js';
import { captureLog } from './log-capture.js';
import { createTestApp, type TestContext } from './helpers.js';

/**
 * A browser that goes away during a download (a closed tab, a cancelled save) is normal:
 * it is logged at info, not as an error an operator would chase (issue 30). The server
 * listens for real, as only a real socket can be closed under a response.
 */
let ctx: TestContext;
let address: string;
let dir: string;
const log = captureLog<{ level: number; msg?: string; reqId?: string }>();
const ERROR = 50;

beforeAll(async () => {
  dir = path.join(process.env.TMPDIR ?? '/tmp', `merit-abort-${process.pid}-${Date.now()}`);
  await mkdir(path.join(dir, 'assets'), { recursive: true });
  await writeFile(path.join(dir, 'index.html'), '<!doctype html><title>Merit</title>');
  // Large enough that each download is still going when the client goes away: a manual
  // sent as it is, and a script the compress plugin gzips on the way out.
  await writeFile(path.join(dir, 'manual.pdf'), randomBytes(16 * 1024 * 1024));
  await writeFile(
    path.join(dir, 'assets', 'big-Abc123.js'),
    `// ${randomBytes(8 * 1024 * 1024).toString('base64')}\n`,
  );
  ctx = await createTestApp({
    env: { WEB_DIR: dir, MANUAL_PATH: path.join(dir, 'manual.pdf') },
    logger: { ...loggerOptions('info'), stream: log.stream },
  });
  address = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await ctx.close();
  // 24 MB of downloads: not left behind in the temporary folder.
  await rm(dir, { recursive: true, force: true });
});

/** Starts a download and closes the connection after its first bytes. */
function abortAfterFirstBytes(url: string, headers: Record<string, string> = {}): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { headers }, (response) => {
      response.once('data', () => {
        request.destroy();
        resolve();
      });
    });
    request.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'ECONNRESET') reject(error);
    });
  });
}

/** Waits until the server has logged that the request's response was cut short. */
async function cutShortLogged(count: number): Promise<void> {
  const deadline = Date.now() + 10_000;
  const cut = () =>
    log.entries.filter(
      (e) => e.msg === 'the client closed the connection before the response was complete',
    ).length;
  while (cut() < count) {
    if (Date.now() > deadline) throw new Error(`logged: ${log.lines.join('\n')}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('a client that goes away during a download', () => {
  it('is logged at info, not as an error, for a compressed response and a plain one', async () => {
    await abortAfterFirstBytes(`${address}/assets/big-Abc123.js`, { 'accept-encoding': 'gzip' });
    await cutShortLogged(1);
    await abortAfterFirstBytes(`${address}/help/manual.pdf`);
    await expect
      .poll(() => log.entries.some((e) => e.msg === 'stream closed prematurely'))
      .toBe(true);

    const cut = log.entries.filter(
      (e) => e.msg === 'the client closed the connection before the response was complete',
    );
    expect(cut.every((e) => e.level === 30)).toBe(true);
    expect(log.entries.filter((e) => e.level >= ERROR)).toEqual([]);
  });

  it('keeps a real failure at error level', async () => {
    const before = log.entries.length;
    ctx.app.log.error(new Error('EIO: i/o error, read'), 'reading a stored file failed');
    ctx.app.log.error({ err: Object.assign(new Error('disk'), { code: 'EIO' }) }, 'request failed');
    // A connection reset by the database or a mail server is the server's trouble, and
    // a premature close outside any request (a job's stream) too.
    const reset = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
    ctx.app.log.error({ err: reset }, 'the database connection was reset');
    ctx.app.log.error({ err: new Error('premature close') }, 'a job’s stream closed early');
    const errors = log.entries.slice(before).filter((e) => e.level >= ERROR);
    expect(errors.map((e) => e.msg)).toEqual([
      'reading a stored file failed',
      'request failed',
      'the database connection was reset',
      'a job’s stream closed early',
    ]);
  });
});
