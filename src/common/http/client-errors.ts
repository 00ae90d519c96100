import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sendError } from '../errors/api-exception.filter.js';
import { ApiError } from '../errors/api-error.js';
import { ErrorCode } from '../errors/error-codes.js';
import { type ErrorFamilyRoutes, renderErrorBody } from '../errors/error-families.js';
import type { Logger } from '../logging/logger.js';
import { RAW_REQUEST_ID, requestIdFor } from './http-hooks.js';

type ClientError = Error & { code?: string; rawPacket?: unknown };
type RawRequest = IncomingMessage & { [RAW_REQUEST_ID]?: string };

/**
 * Node's HTTP parser refuses some requests before Fastify or the application see them:
 * headers too large (431), bad framing (400), a request that did not arrive in time (408).
 * They are answered here in the route family's error shape, with an `x-request-id`, the
 * target and id taken from the in-flight request or from the bytes received.
 */
export function clientErrorHandler(logger: Logger, families: ErrorFamilyRoutes) {
  return (error: ClientError, socket: Socket): void => {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const inFlight = (socket as Socket & { _httpMessage?: ServerResponse & { req?: RawRequest } })._httpMessage;
    if (inFlight?.headersSent || !socket.writable) {
      socket.destroy();
      return;
    }
    const received = inFlight?.req
      ? fromRequest(inFlight.req)
      : fromRawPacket(Buffer.isBuffer(error.rawPacket) ? error.rawPacket : undefined);
    const apiError = describe(error);
    const body = JSON.stringify(renderErrorBody(families.familyOf(received.target ?? '/'), apiError));
    logger.info({ requestId: received.requestId, url: received.target, status: apiError.status, code: error.code }, apiError.message);
    socket.end(
      `HTTP/1.1 ${apiError.status} ${STATUS_CODES[apiError.status]}\r\n` +
        `content-type: application/json; charset=utf-8\r\n` +
        `content-length: ${Buffer.byteLength(body)}\r\n` +
        `x-request-id: ${received.requestId}\r\n` +
        `connection: close\r\n\r\n${body}`,
    );
    socket.destroySoon();
  };
}

function describe(error: ClientError): ApiError {
  switch (error.code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new ApiError(ErrorCode.REQUEST_TIMEOUT, 'The request did not arrive completely in time (REQUEST_TIMEOUT_MS)');
    case 'HPE_HEADER_OVERFLOW':
      return new ApiError(ErrorCode.HEADERS_TOO_LARGE, 'The request headers are larger than the accepted limit');
    default:
      return ApiError.badRequest('The request is not valid HTTP/1.1 (its framing could not be parsed)');
  }
}

function fromRequest(request: RawRequest): { target: string | undefined; requestId: string } {
  return { target: request.url, requestId: request[RAW_REQUEST_ID] ?? requestIdFor(request) };
}

/** The request line and `x-request-id` of the bytes Node received before refusing them, when readable. */
function fromRawPacket(packet: Buffer | undefined): { target: string | undefined; requestId: string } {
  const head = packet?.subarray(0, 16 * 1024).toString('latin1') ?? '';
  const target = /^[A-Z]+ (\/\S*) HTTP\/1\.[01]\r?\n/.exec(head)?.[1];
  const sentId = /\r?\nx-request-id:[ \t]*([^\r\n]*)/i.exec(head)?.[1]?.trim();
  return { target, requestId: requestIdFor({ headers: sentId ? { 'x-request-id': sentId } : {} } as IncomingMessage) };
}

/**
 * Fastify's router refuses a path it cannot decode (an encoded surrogate or a stray `%`)
 * before any hook runs; answered here like every other error, with the request id.
 */
export function frameworkErrorHandler(logger: Logger, families: ErrorFamilyRoutes) {
  return (error: Error & { code?: string }, request: FastifyRequest, reply: FastifyReply): void => {
    reply.header('x-request-id', request.id);
    const apiError =
      error.code === 'FST_ERR_BAD_URL' || error.code === 'FST_ERR_MAX_PARAM_LENGTH'
        ? ApiError.badRequest(
            error.code === 'FST_ERR_BAD_URL' ? 'The path is not valid UTF-8 percent-encoding' : 'A path parameter is too long',
            'path',
          )
        : error;
    sendError(logger, families, apiError, request, reply);
  };
}
