import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, RawServerDefault } from 'fastify';
import type { Logger } from '../common/logging/logger.js';

export const CONSOLE_PATH = '/console/';

/**
 * Where `npm run build` puts the console (vite, console/vite.config.ts): dist/console. From the
 * compiled service that is ../../console; from the sources (under jest) it is ../../dist/console.
 */
export function consoleDirectory(): string | undefined {
  // From the sources, ../../console is the console's own source folder: the built one comes first.
  const candidates = [new URL('../../dist/console/', import.meta.url), new URL('../../console/', import.meta.url)];
  for (const candidate of candidates) {
    const directory = fileURLToPath(candidate);
    if (existsSync(`${directory}index.html`) && existsSync(`${directory}assets`)) return directory;
  }
  return undefined;
}

/**
 * Serves the admin console, a single-page app, at /console/: hashed assets cached for a year,
 * and index.html (never cached) for every other path under /console/ so that deep links work.
 * It is static and public: the app signs in against the API like any other client.
 */
export async function serveConsole(fastify: FastifyInstance<RawServerDefault>, logger: Logger): Promise<void> {
  const directory = consoleDirectory();
  if (!directory) {
    logger.warn({}, 'the admin console is not built (npm run build): /console/ answers 404');
    return;
  }
  const indexHtml = readFileSync(`${directory}index.html`);
  await fastify.register(fastifyStatic, {
    root: `${directory}assets`,
    prefix: `${CONSOLE_PATH}assets/`,
    // @nestjs/swagger registers @fastify/static too: only one may decorate the reply.
    decorateReply: false,
    index: false,
    immutable: true,
    maxAge: '365d',
  });
  const sendIndex = (reply: FastifyReply) => reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(indexHtml);
  fastify.get('/console', (_request, reply) => reply.redirect(CONSOLE_PATH, 301));
  fastify.get(CONSOLE_PATH, (_request, reply) => sendIndex(reply));
  fastify.get(`${CONSOLE_PATH}*`, (_request, reply) => sendIndex(reply));
}
