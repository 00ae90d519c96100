import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest, RawServerDefault } from 'fastify';
import type { IncomingMessage } from 'node:http';
import { ApiError } from '../errors/api-error.js';
import { ErrorCode } from '../errors/error-codes.js';
import { type ErrorFamilyRoutes, GLOBAL_PREFIX } from '../errors/error-families.js';
import type { Logger } from '../logging/logger.js';
import { sendError } from '../errors/api-exception.filter.js';
import { requestContext } from '../logging/request-context.js';
import type { LifecycleState } from './lifecycle-state.js';
import type { UnauthenticatedBodies } from './unauthenticated-bodies.js';
import { jsonBodyProblem, requestTargetProblem } from './storable-text.js';
import { keptJsonText } from './json-body.js';

export { jsonBodyProblem, nestsDeeperThan } from './storable-text.js';

const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
/** Deeper JSON is refused: no order needs it, and recursive validators would overflow the stack. */
export const MAX_JSON_DEPTH = 64;

/** Where the request id Fastify gave a request is kept on the raw request, for answers written below Fastify. */
export const RAW_REQUEST_ID = Symbol('requestId');

/** Keeps a caller's `x-request-id` when it is safe to log, otherwise makes one. */
export function requestIdFor(raw: IncomingMessage): string {
  const sent = raw.headers['x-request-id'];
  return typeof sent === 'string' && SAFE_REQUEST_ID.test(sent) ? sent : randomUUID();
}

export interface HttpHookDependencies {
  logger: Logger;
  /** The error body shape of each URL. */
  errorFamilies: ErrorFamilyRoutes;
  lifecycle: LifecycleState;
  /**
   * Why the request's credentials are refused before its body is read (401 missing, expired, badly
   * signed; 403 scope or role), or undefined. Without an `Authorization` header, a person's signed
   * session cookie may stand for the token.
   */
  bearerProblem: (authorization: string | undefined, requiredScopes: readonly string[], request: FastifyRequest) => ApiError | undefined;
  observe?: (method: string, route: string, status: number, seconds: number) => void;
  /** The bodies read before any credential is checked (UNAUTHENTICATED_BODIES_MAX). */
  unauthenticatedBodies: UnauthenticatedBodies;
}

export function registerHttpHooks(fastify: FastifyInstance<RawServerDefault>, deps: HttpHookDependencies): void {
  // A route's own body limit (`bodyLimit` of its route config, set by `Consumes` or `CredentialsBody`) replaces BODY_LIMIT_BYTES.
  fastify.addHook('onRoute', (route) => {
    const limit = (route.config as { bodyLimit?: number } | undefined)?.bodyLimit;
    if (limit !== undefined) route.bodyLimit = limit;
  });

  fastify.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    (request.raw as IncomingMessage & { [RAW_REQUEST_ID]?: string })[RAW_REQUEST_ID] = request.id;
    // Node's own refusal of a missing Host (RFC 9112 §3.2) is turned off so that this one carries the error shape and the id.
    if (request.raw.httpVersion === '1.1' && request.raw.headers.host === undefined) {
      reply.header('connection', 'close');
      sendError(deps.logger, deps.errorFamilies, ApiError.badRequest('An HTTP/1.1 request needs a Host header', 'host'), request, reply);
      return;
    }
    // Probes still get their own answers: readiness says why it is red (`accepting: false`), liveness that the process is up.
    if (deps.lifecycle.draining && !request.routeOptions.url?.startsWith(`/${GLOBAL_PREFIX}/health/`)) {
      reply.header('connection', 'close');
      sendError(
        deps.logger,
        deps.errorFamilies,
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

  // Before the body is read: a body the route does not take, or one sent without a valid token
  // to a route that needs one, is refused without reading it, and the connection is closed
  // so that its remaining bytes are never read either.
  fastify.addHook('preParsing', (request, reply, payload, done) => {
    if (!carriesBody(request.raw)) {
      done(null, payload);
      return;
    }
    const refusal = bodyRefusal(request, deps) ?? unauthenticatedBodyRefusal(request, deps.unauthenticatedBodies);
    if (refusal) {
      reply.header('connection', 'close');
      sendError(deps.logger, deps.errorFamilies, refusal, request, reply);
      return;
    }
    done(null, payload);
  });

  fastify.addHook('preValidation', (request: FastifyRequest, reply: FastifyReply, done) => {
    deps.unauthenticatedBodies.release(request); // the body is read
    const problem = requestProblem(request);
    if (problem) {
      sendError(deps.logger, deps.errorFamilies, problem, request, reply);
      return;
    }
    done();
  });

  // A request answered while the instance drains closes its connection: the client's next request opens one elsewhere.
  fastify.addHook('onSend', (_request, reply, payload, done) => {
    if (deps.lifecycle.draining) reply.header('connection', 'close');
    done(null, payload);
  });

  fastify.addHook('onResponse', (request, reply, done) => {
    deps.unauthenticatedBodies.release(request);
    const route = request.routeOptions.url ?? 'unmatched';
    const seconds = reply.elapsedTime / 1000;
    deps.observe?.(request.method, route, reply.statusCode, seconds);
    // Probes come every few seconds: a healthy one is logged at debug only.
    const probe = route.startsWith('/api/health/') && reply.statusCode < 400;
    deps.logger[probe ? 'debug' : 'info'](
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

const JSON_TYPE = 'application/json';
const UTF8 = new Set(['utf-8', 'utf8']);
const BYTE_ORDER_MARK = Buffer.from([0xef, 0xbb, 0xbf]);

function carriesBody(raw: IncomingMessage): boolean {
  const length = raw.headers['content-length'];
  return raw.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

function bodyRefusal(request: FastifyRequest, deps: HttpHookDependencies): ApiError | undefined {
  const config = request.routeOptions.config;
  // Routes Fastify does not know answer 404 whatever the token; their bodies are bounded by BODY_LIMIT_BYTES.
  if (request.routeOptions.url !== undefined && config?.public !== true) {
    const tokenProblem = deps.bearerProblem(request.headers.authorization, config?.scopes ?? [], request);
    if (tokenProblem) return tokenProblem;
  }
  const encoding = request.headers['content-encoding']?.trim().toLowerCase();
  if (encoding && encoding !== 'identity') {
    return new ApiError(ErrorCode.UNSUPPORTED_MEDIA_TYPE, `Content-Encoding ${encoding} is not accepted; send the body uncompressed`);
  }
  const [mediaType, ...parameters] = (request.headers['content-type'] ?? '').split(';');
  const type = mediaType!.trim().toLowerCase();
  if (type === '') return undefined;
  const accepted = config?.consumes ?? [JSON_TYPE];
  const isJson = type === JSON_TYPE || type.endsWith('+json');
  if (!accepted.includes(type) && !(isJson && accepted.includes(JSON_TYPE))) {
    return new ApiError(ErrorCode.UNSUPPORTED_MEDIA_TYPE, `Content-Type ${type} is not accepted here; send ${accepted.join(' or ')}`);
  }
  const charset = parameters
    .map((parameter) => parameter.split('='))
    .find(([name]) => name!.trim().toLowerCase() === 'charset')?.[1]
    ?.trim()
    .replace(/^"(.*)"$/, '$1')
    .toLowerCase();
  if (charset !== undefined && !UTF8.has(charset)) {
    return new ApiError(ErrorCode.UNSUPPORTED_MEDIA_TYPE, `charset=${charset} is not accepted; send the body in UTF-8`);
  }
  return undefined;
}

/** A body read before any credential is checked waits for nothing: refused while UNAUTHENTICATED_BODIES_MAX are being read. */
function unauthenticatedBodyRefusal(request: FastifyRequest, bodies: UnauthenticatedBodies): ApiError | undefined {
  const unauthenticated = request.routeOptions.url === undefined || request.routeOptions.config?.public === true;
  if (!unauthenticated || bodies.take(request)) return undefined;
  return new ApiError(
    ErrorCode.SERVICE_UNAVAILABLE,
    'Too many requests are sending their body before authentication; retry shortly (UNAUTHENTICATED_BODIES_MAX)',
    { headers: { 'retry-after': '1' } },
  );
}

/** Text PostgreSQL cannot store, in the request target or the parsed body; a byte-order mark is dropped. */
function requestProblem(request: FastifyRequest): ApiError | undefined {
  const target = requestTargetProblem(request.url);
  if (target) return ApiError.badRequest(`The ${target.field} ${target.reason}`, target.field);
  const withRawBody = request as FastifyRequest & { rawBody?: Buffer };
  if (withRawBody.rawBody?.subarray(0, 3).equals(BYTE_ORDER_MARK)) withRawBody.rawBody = withRawBody.rawBody.subarray(3);
  const body = request.body;
  if (typeof body !== 'object' || body === null || Buffer.isBuffer(body)) return undefined;
  const rawBody = withRawBody.rawBody;
  const problem = jsonBodyProblem(body, MAX_JSON_DEPTH, rawBody && (keptJsonText(rawBody) ?? rawBody));
  if (!problem) return undefined;
  if (problem.kind === 'too-deep') return ApiError.badRequest(`The JSON body nests deeper than ${MAX_JSON_DEPTH} levels`);
  return ApiError.badRequest(`The body field ${problem.path} ${problem.reason}`, problem.path);
}
