import 'reflect-metadata';
import type { ServerOptions } from 'node:http';
import { NestFactory } from '@nestjs/core';
import { ErrorFamilyRoutes, GLOBAL_PREFIX } from './common/errors/error-families.js';
import { controllersOf } from './common/http/module-controllers.js';
import fastifyCookie from '@fastify/cookie';
import helmet from 'helmet';
import { createHmac } from 'node:crypto';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppModule } from './app.module.js';
import { ApiClientsService } from './auth/api-clients.service.js';
import { ApiError } from './common/errors/api-error.js';
import { TokenService } from './auth/token.service.js';
import type { AppConfig } from './config/app-config.js';
import { ApiExceptionFilter } from './common/errors/api-exception.filter.js';
import { clientErrorHandler, frameworkErrorHandler } from './common/http/client-errors.js';
import { registerHttpHooks, requestIdFor } from './common/http/http-hooks.js';
import { headersSetBy } from './common/http/security-headers.js';
import { textKeepingJsonParser } from './common/http/json-body.js';
import type { FastifyBodyParser } from 'fastify';
import { LifecycleState } from './common/http/lifecycle-state.js';
import { UnauthenticatedBodies } from './common/http/unauthenticated-bodies.js';
import { createValidationPipe } from './common/http/validation.js';
import { PinoNestLogger, type Logger } from './common/logging/logger.js';
import { serveConsole } from './console/serve-console.js';
import { CSV_BODY_LIMIT_BYTES } from './fiscal-groups/fiscal-groups.controller.js';
import { MetricsService } from './metrics/metrics.service.js';
import { setupOpenApi } from './openapi/openapi.js';
import { signedSessionToken } from './users/session-cookie.js';
import { UsersService } from './users/users.service.js';

export interface CreateAppOptions {
  config: AppConfig;
  databaseUrl: string;
  logger: Logger;
}

/** Builds the whole application (used by the server, the OpenAPI writer and the tests); it does not listen. */
export async function createApp({ config, databaseUrl, logger }: CreateAppOptions): Promise<NestFastifyApplication> {
  const root = AppModule.forRoot({ config, databaseUrl, logger });
  const errorFamilies = ErrorFamilyRoutes.of(controllersOf(root));
  const adapter = new FastifyAdapter({
    bodyLimit: config.bodyLimitBytes,
    // request.ip (the credential rate limit's key): the client address the trusted proxies name.
    trustProxy: config.trustedProxies ?? false,
    genReqId: requestIdFor,
    logger: false,
    // Prototype-poisoning keys in JSON bodies are refused with 400.
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    // Fastify answers a longer path parameter itself (414, outside the error shapes); an orderId of
    // 100 characters is up to 300 once percent-encoded, and a longer one gets a 400 from its route.
    routerOptions: { maxParamLength: 1000 },
    // A stalled request (headers or body) is dropped; Node checks its connections this often.
    requestTimeout: config.requestTimeoutMs,
    ...({
      http: {
        requestTimeout: config.requestTimeoutMs,
        headersTimeout: Math.min(60_000, config.requestTimeoutMs),
        connectionsCheckingInterval: Math.min(1_000, config.requestTimeoutMs),
        // Node would answer a missing Host with an empty 400; the HTTP hooks answer it in the error shape instead.
        requireHostHeader: false,
      } satisfies ServerOptions,
    } as object),
    clientErrorHandler: clientErrorHandler(logger, errorFamilies),
    frameworkErrors: frameworkErrorHandler(logger, errorFamilies),
  });
  const app = await NestFactory.create<NestFastifyApplication>(root, adapter, {
    logger: new PinoNestLogger(logger.child({ component: 'nest' })),
    abortOnError: false,
    // The order path stores the received JSON text as is instead of serializing the parsed body again.
    rawBody: true,
  });
  app.setGlobalPrefix(GLOBAL_PREFIX);
  // Tax matrices travel as spreadsheets too. The hooks let a CSV body through to its one route only.
  // JSON bodies: Fastify's parser, with a shortcut that also keeps the decoded text for the order path (json-body.ts).
  app.useBodyParser(
    'application/json',
    { bodyLimit: config.bodyLimitBytes },
    textKeepingJsonParser(
      app.getHttpAdapter().getInstance().getDefaultJsonParser('error', 'error') as unknown as FastifyBodyParser<Buffer>,
    ),
  );
  app.useBodyParser('text/csv', { bodyLimit: Math.max(config.bodyLimitBytes, CSV_BODY_LIMIT_BYTES) });
  app.useGlobalFilters(new ApiExceptionFilter(logger, errorFamilies));
  app.useGlobalPipes(createValidationPipe());

  const metrics = app.get(MetricsService);
  const tokens = app.get(TokenService);
  // People's session cookies are signed with a key of their own derived from JWT_SECRET (see session-cookie.ts).
  await app.register(fastifyCookie as never, { secret: createHmac('sha256', config.jwtSecret).update('session-cookie').digest() });
  registerHttpHooks(app.getHttpAdapter().getInstance(), {
    logger,
    errorFamilies,
    bearerProblem: (authorization, scopes, request) => {
      // Without a bearer header, a validly signed session cookie stands for the token where people may go;
      // the access guard then checks the session itself, its person's role and the CSRF token.
      if (authorization === undefined && signedSessionToken(request, config.isProduction)) {
        return request.routeOptions.config.role ? undefined : ApiError.forbidden('Your role does not give access to this operation');
      }
      return tokens.bearerProblem(authorization, scopes);
    },
    lifecycle: app.get(LifecycleState),
    unauthenticatedBodies: new UnauthenticatedBodies(config.unauthenticatedBodiesMax),
    observe: (method, route, status, seconds) => metrics.observeRequest(method, route, status, seconds),
  });
  // Helmet's headers, computed once (they do not depend on the request): @fastify/helmet ran its middleware, built again, on every request.
  const securityHeaders = headersSetBy(
    helmet({
      // Swagger UI (same origin) needs its inline styles and data: images; nothing else is loaded from elsewhere.
      contentSecurityPolicy: {
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'"],
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'data:'],
          connectSrc: ["'self'"],
          objectSrc: ["'none'"],
          frameAncestors: ["'none'"],
          // Served over plain HTTP too (behind a TLS proxy or not): do not make browsers rewrite requests to https.
          upgradeInsecureRequests: null,
        },
      },
      crossOriginEmbedderPolicy: false,
    }),
  );
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('onRequest', (_request, reply, done) => {
      reply.headers(securityHeaders);
      done();
    });
  await serveConsole(app.getHttpAdapter().getInstance(), logger);
  await setupOpenApi(app, errorFamilies);
  await app.init();
  await app.get(ApiClientsService).ensureBootstrapClient();
  await app.get(UsersService).ensureBootstrapAdmin();
  return app;
}
