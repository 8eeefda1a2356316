#!/usr/bin/env node
/**
 * The baseline of figure (b): a bare Fastify server with one route that answers a fixed
 * JSON body (the real answer, captured), on 127.0.0.1 and the given port, Fastify's
 * defaults otherwise: what HTTP and Fastify cost with no auth, database or serializer.
 *
 *   node bench/lib/bare-server.mjs <port> <file with the JSON body>
 */
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

const [port, bodyFile] = process.argv.slice(2);
const body = readFileSync(String(bodyFile), 'utf8');
const app = Fastify({ logger: false });
app.get('/api/v1/proposals/:id/', async (_request, reply) =>
  reply.header('content-type', 'application/json; charset=utf-8').send(body),
);
app.get('/api/v1/health', async () => ({ status: 'ok' }));
await app.listen({ port: Number(port), host: '127.0.0.1' });
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
