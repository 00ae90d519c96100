import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest, RawServerDefault } from 'fastify';
import type { IncomingMessage } from 'node:http';
import { ApiError } from '../errors/api-error.js';
import { ErrorCode } from '../errors/error-codes.js';
import type { Logger } from '../logging/logger.js';
import { sendError } from '../errors/api-exception.filter.js';
import { requestContext } from './request-context.js';
import type { LifecycleState } from './lifecycle-state.js';

const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
/** Deeper JSON is refused: no order needs it, and recursive validators would overflow the stack. */
export const MAX_JSON_DEPTH = 64;

const NUL = '\u0000';

/**
 * What makes a parsed JSON body unacceptable, in one iterative walk (safe on any depth):
 * nesting deeper than `depthLimit`, or a NUL character in a key or a string, which JSON
 * allows but PostgreSQL cannot store in jsonb or text.
 */
export function jsonBodyProblem(value: unknown, depthLimit: number): 'too-deep' | 'nul' | undefined {
  if (typeof value === 'string') return value.includes(NUL) ? 'nul' : undefined;
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (typeof current !== 'object' || current === null) continue;
    if (depth > depthLimit) return 'too-deep';
    const entries = Array.isArray(current) ? current.entries() : Object.entries(current);
    for (const [key, child] of entries) {
      if (typeof key === 'string' && key.includes(NUL)) return 'nul';
      if (typeof child === 'string') {
        if (child.includes(NUL)) return 'nul';
      } else if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
    }
  }
  return undefined;
}

/** Whether a parsed JSON value nests deeper than `limit`. */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  return jsonBodyProblem(value, limit) === 'too-deep';
}

/** Keeps a caller's `x-request-id` when it is safe to log, otherwise makes one. */
export function requestIdFor(raw: IncomingMessage): string {
  const sent = raw.headers['x-request-id'];
  return typeof sent === 'string' && SAFE_REQUEST_ID.test(sent) ? sent : randomUUID();
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Content types besides JSON that the route accepts. */
    consumes?: string[];
  }
}

export interface HttpHookDependencies {
  logger: Logger;
  lifecycle: LifecycleState;
  observe?: (method: string, route: string, status: number, seconds: number) => void;
}

export function registerHttpHooks(fastify: FastifyInstance<RawServerDefault>, deps: HttpHookDependencies): void {
  fastify.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    if (deps.lifecycle.draining) {
      reply.header('connection', 'close');
      sendError(
        deps.logger,
        new ApiError(ErrorCode.SERVICE_UNAVAILABLE, 'The service is shutting down; retry on another instance', {
          headers: { 'retry-after': '1' },
        }),
        request,
        reply,
      );
      return;
    }
    requestContext.run({ requestId: request.id }, done);
  });

  // JSON everywhere, other types only where a route says so (token form, CSV import).
  fastify.addHook('preValidation', (request: FastifyRequest, reply: FastifyReply, done) => {
    const problem = typeof request.body === 'object' && request.body !== null ? jsonBodyProblem(request.body, MAX_JSON_DEPTH) : undefined;
    if (problem) {
      const message =
        problem === 'too-deep'
          ? `The JSON body nests deeper than ${MAX_JSON_DEPTH} levels`
          : 'The JSON body contains a NUL character (\\u0000), which cannot be stored';
      sendError(deps.logger, ApiError.badRequest(message), request, reply);
      return;
    }
    const type = request.headers['content-type']?.split(';', 1)[0]!.trim().toLowerCase();
    if (type && request.body !== undefined && type !== 'application/json' && !type.endsWith('+json')) {
      const allowed = request.routeOptions.config?.consumes ?? [];
      if (!allowed.includes(type)) {
        sendError(
          deps.logger,
          new ApiError(ErrorCode.UNSUPPORTED_MEDIA_TYPE, `Content-Type ${type} is not accepted here; send application/json`),
          request,
          reply,
        );
        return;
      }
    }
    done();
  });

  fastify.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    const seconds = reply.elapsedTime / 1000;
    deps.observe?.(request.method, route, reply.statusCode, seconds);
    deps.logger.info(
      {
        requestId: request.id,
        method: request.method,
        url: request.url,
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 10) / 10,
      },
      'request completed',
    );
    done();
  });
}
