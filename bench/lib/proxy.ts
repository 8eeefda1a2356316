/**
 * The small proxy of the scale-out run of figure (c): node:http, round robin over the
 * app processes request by request, kept-alive connections to each, and the client's
 * address appended to X-Forwarded-For, as a production proxy does (the servers run with
 * TRUST_PROXY=loopback and so see each browser's own address). Its own process, so that
 * its CPU is its own and is measured apart.
 *
 *   npx tsx bench/lib/proxy.ts <port> <backend url> [<backend url> ...]
 */
import { spawn } from 'node:child_process';
import { Agent, createServer, request } from 'node:http';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { findFreePort } from '../../scripts/lib/server.mjs';

function serve(port: number, backends: URL[]): void {
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  let next = 0;
  const server = createServer((req, res) => {
    const target = backends[next++ % backends.length]!;
    const forwarded = req.headers['x-forwarded-for'];
    const headers = {
      ...req.headers,
      'x-forwarded-for': `${forwarded ? `${String(forwarded)}, ` : ''}${req.socket.remoteAddress}`,
    };
    const upstream = request(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers,
        agent,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', (error) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`proxy: ${error.message}`);
    });
    req.pipe(upstream);
  });
  server.keepAliveTimeout = 65_000;
  server.listen(port, '127.0.0.1', () => process.stdout.write('listening\n'));
  process.on('SIGTERM', () => {
    server.close(() => process.exit(0));
    server.closeAllConnections();
  });
}

/** Starts the proxy in its own process in front of `backends`; its URL, pid and stop. */
export async function startProxy(backends: string[]) {
  const port = await findFreePort();
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', fileURLToPath(import.meta.url), String(port), ...backends],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('listening')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`The proxy exited (${code}) before listening.`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    stop: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

if (process.argv[1] && pathToFileURL(process.argv[1]).href === import.meta.url) {
  const [port, ...backends] = process.argv.slice(2);
  if (!port || backends.length === 0)
    throw new Error('Usage: proxy.ts <port> <backend url> [<backend url> ...]');
  serve(
    Number(port),
    backends.map((url) => new URL(url)),
  );
}
