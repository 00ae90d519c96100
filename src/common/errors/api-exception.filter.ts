import { type ArgumentsHost, Catch, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from '../logging/logger.js';
import { type ErrorFamilyRoutes, renderErrorBody } from './error-families.js';
import { classifyError } from './to-api-error.js';

/** Every error of every route, framework errors included, leaves through here. */
@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  constructor(
    private readonly logger: Logger,
    private readonly families: ErrorFamilyRoutes,
  ) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    sendError(this.logger, this.families, exception, http.getRequest<FastifyRequest>(), http.getResponse<FastifyReply>());
  }
}

/** Answers `exception` in the body shape of the request's error family. */
export function sendError(
  logger: Logger,
  families: ErrorFamilyRoutes,
  exception: unknown,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  const { apiError, unexpected } = classifyError(exception);
  const where = { method: request.method, url: request.url };
  if (unexpected) logger.error({ ...where, err: exception }, 'unexpected error');
  else if (apiError.status >= 500) logger.warn({ ...where, err: exception }, apiError.message);
  else logger.debug({ ...where, status: apiError.status, code: apiError.code, details: apiError.details }, apiError.message);

  if (reply.sent) return;
  reply.status(apiError.status);
  for (const [name, value] of Object.entries(apiError.options.headers ?? {})) reply.header(name, value);
  reply.header('content-type', 'application/json; charset=utf-8');
  reply.send(renderErrorBody(families.familyOfRequest(request), apiError));
}
