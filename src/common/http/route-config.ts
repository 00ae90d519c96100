import { applyDecorators } from '@nestjs/common';
import { FASTIFY_ROUTE_CONFIG_METADATA } from '@nestjs/platform-fastify/constants.js';
import { ApiConsumes } from '@nestjs/swagger';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The content types the route reads (see `Consumes`); JSON only when absent. */
    consumes?: string[];
    /** The route takes no bearer token: its body may be read before any authentication. */
    public?: boolean;
    /** The largest body the route reads, when it differs from BODY_LIMIT_BYTES. */
    bodyLimit?: number;
    /** Scopes the bearer token must hold (checked from its claims before the body is read). */
    scopes?: string[];
    /** The least role of a person signed in with a session cookie; absent: people may not call the route. */
    role?: string;
  }
}

type RouteConfigPart = { consumes?: string[]; public?: boolean; bodyLimit?: number; scopes?: string[]; role?: string };

/**
 * Adds to the Fastify route config of a handler, keeping what other decorators put there
 * (Nest's own `@RouteConfig` replaces the whole object). The HTTP hooks read this config
 * before the body is read, where Nest's metadata is not reachable.
 */
export function mergeRouteConfig(part: RouteConfigPart): MethodDecorator {
  return (_target, _key, descriptor) => {
    mergeInto(descriptor.value as object, part);
    return descriptor;
  };
}

/**
 * `mergeRouteConfig` for a class or a method. On a class it applies to each method that does
 * not already say the same (method decorators run first: a method's own setting wins).
 */
export function mergeRouteConfigEverywhere(part: RouteConfigPart): ClassDecorator & MethodDecorator {
  return ((target: object, _key?: string | symbol, descriptor?: PropertyDescriptor) => {
    if (descriptor) {
      mergeInto(descriptor.value as object, part);
      return descriptor;
    }
    const prototype = (target as { prototype: Record<string, unknown> }).prototype;
    for (const name of Object.getOwnPropertyNames(prototype)) {
      const method = prototype[name];
      if (name === 'constructor' || typeof method !== 'function') continue;
      const current = configOf(method);
      mergeInto(method, Object.fromEntries(Object.entries(part).filter(([key]) => !(key in current))));
    }
    return undefined;
  }) as ClassDecorator & MethodDecorator;
}

function configOf(handler: object): RouteConfigPart {
  return (Reflect.getMetadata(FASTIFY_ROUTE_CONFIG_METADATA, handler) as RouteConfigPart | undefined) ?? {};
}

function mergeInto(handler: object, part: RouteConfigPart): void {
  const current = configOf(handler);
  const consumes = [...(current.consumes ?? []), ...(part.consumes ?? [])];
  Reflect.defineMetadata(FASTIFY_ROUTE_CONFIG_METADATA, { ...current, ...part, ...(consumes.length > 0 ? { consumes } : {}) }, handler);
}

/**
 * The content types the route reads besides JSON, documented in OpenAPI too. A body of any
 * other type is answered 415 before it is read.
 */
export function Consumes(types: string[], options: { json?: boolean; bodyLimit?: number } = {}): MethodDecorator {
  const consumes = options.json === false ? types : ['application/json', ...types];
  return applyDecorators(
    mergeRouteConfig({ consumes, ...(options.bodyLimit ? { bodyLimit: options.bodyLimit } : {}) }),
    ApiConsumes(...consumes),
  );
}

/** Credentials (an id and a secret, a grant type) fit in far less; a bigger body is refused with 413 before it is read. */
export const CREDENTIALS_BODY_LIMIT_BYTES = 4 * 1024;

/**
 * A route whose body is credentials read before any authentication: bounded to
 * CREDENTIALS_BODY_LIMIT_BYTES. See "Credential bodies and unauthenticated reads" in docs/api-decisions.md.
 */
export const CredentialsBody = (): MethodDecorator => mergeRouteConfig({ bodyLimit: CREDENTIALS_BODY_LIMIT_BYTES });
